/// Models that refer to themselves: trees, comment threads, org charts. Most end: an optional member, a `null`, an
/// empty array or another alternative stops the recursion. One whose every value needs another value of itself (a
/// `Node` that requires a `child: Node`) has no value at all: no server can send one and no mock can make one.
///
/// ```swift
/// SchemaCycles.impossible(in: spec.definitions)
/// // [["Node", "child", "Node"]]: Node requires child, a Node
/// ```
package enum SchemaCycles {
    /// Every model no value satisfies, each with the chain of required members that leads back to itself
    /// (`["Node", "child", "Node"]`), by model name.
    package static func impossible(in definitions: SchemaDefinitions, direction: MessageDirection = .response)
        -> [[String]]
    {
        var search = Search(definitions: definitions, direction: direction)
        return definitions.keys.sorted().compactMap { name in
            search.cycle = nil
            return search.isBuildable(.ref(name), visiting: []) ? nil : search.cycle ?? [name]
        }
    }

    /// What a required cycle means, in a sentence: `no Node can exist: its required members lead back to it
    /// (Node.child → Node) without end; make one of them optional or nullable, or give it an alternative`.
    package static func describe(_ cycle: [String], in definitions: SchemaDefinitions) -> String {
        var chain = ""
        for (index, element) in cycle.enumerated() {
            if index > 0 { chain += definitions[element] != nil ? " → " : "." }
            chain += element
        }
        return "no \(cycle.first ?? "model") can exist: its required members lead back to it (\(chain)) without end; "
            + "make one of them optional or nullable, or give it an alternative"
    }

    /// Whether some value satisfies `schema`, entering no model of `visiting` again.
    package static func isBuildable(
        _ schema: Schema, definitions: SchemaDefinitions, direction: MessageDirection, visiting: Set<String>
    ) -> Bool {
        var search = Search(definitions: definitions, direction: direction)
        return search.isBuildable(schema, visiting: visiting)
    }

    /// A depth-first search for a finite value; what it remembers of the way a model led back to itself.
    private struct Search {
        let definitions: SchemaDefinitions
        let direction: MessageDirection
        /// The required chain of the first cycle met (`["Node", "child", "Node"]`).
        var cycle: [String]?
        private var trail: [String] = []
        /// Models known to have a value: a model that has one has it whatever the way in, so this holds across
        /// searches, and a chain of 50,000 references is walked once.
        private var buildable: Set<String> = []
        /// Models known to have none, found from no way in (nothing entered before): a reference to one has none.
        private var unbuildable: Set<String> = []

        init(definitions: SchemaDefinitions, direction: MessageDirection) {
            self.definitions = definitions
            self.direction = direction
        }

        /// Whether a finite value exists that enters no model of `visiting` again.
        mutating func isBuildable(_ schema: Schema, visiting: Set<String>) -> Bool {
            switch schema {
            case .any, .boolean, .integer, .number, .decimal, .string, .map, .pairs, .nullable: return true
            case .array(let array): return (array.minItems ?? 0) == 0 || isBuildable(array.items, visiting: visiting)
            case .oneOf(let alternatives):
                return alternatives.contains { isBuildable($0, visiting: visiting) }
            case .ref:
                // A chain of references is followed without recursion: `A → B → … → object` of any length.
                var names: [String] = []
                var current = schema
                var inner = visiting
                while case .ref(let name) = current {
                    if buildable.contains(name) { return remember(names, true) }
                    if unbuildable.contains(name) { return false }
                    guard !inner.contains(name), let definition = definitions[name] else {
                        if cycle == nil, inner.contains(name) { cycle = trail + names + [name] }
                        return false
                    }
                    inner.insert(name)
                    names.append(name)
                    current = definition
                }
                trail += names
                let found = isBuildable(current, visiting: inner)
                trail.removeLast(names.count)
                // A model without a value, found with nothing entered before, has none from any way in.
                if found || visiting.isEmpty { return remember(names, found) }
                return false
            case .object(let object):
                for property in object.properties where property.required && property.belongs(in: direction) {
                    trail.append(property.name)
                    defer { trail.removeLast() }
                    guard isBuildable(property.schema, visiting: visiting) else { return false }
                }
                return true
            }
        }

        /// Records what a chain of references leads to (each of its models has a value, or none), and returns it.
        private mutating func remember(_ names: [String], _ found: Bool) -> Bool {
            if found { buildable.formUnion(names) } else { unbuildable.formUnion(names) }
            return found
        }
    }
}
