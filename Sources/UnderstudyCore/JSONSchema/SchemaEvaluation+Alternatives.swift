/// `anyOf` and `oneOf`, and the choice of the branch whose findings explain a value that matches none.
extension SchemaEvaluation {
    mutating func applyAnyOf(
        _ branches: [Int], _ id: Int, _ value: JSONValue, _ local: inout Annotations, _ collecting: Bool
    ) -> Bool {
        var matched = false
        for branch in branches {
            let mark = hold()
            var branchAnnotations = Annotations()
            let ok = probe(branch, value, &branchAnnotations, collect: collecting)
            release(mark, keep: ok)
            guard ok else { continue }
            matched = true
            // Annotations come from every matching branch; without them, the first match settles it.
            guard collecting else { break }
            local.merge(branchAnnotations)
        }
        if matched { return true }
        if storage.nodes[id].isModel {
            explainNoMatch(.noAlternative, "oneOf", branches, id, value)
        } else {
            explainNoMatch(.noAnyOfAlternative, "anyOf", branches, id, value)
        }
        return false
    }

    mutating func applyOneOf(
        _ branches: [Int], _ id: Int, _ value: JSONValue, _ local: inout Annotations, _ collecting: Bool
    ) -> Bool {
        let outer = hold()
        var matching: [Int] = []
        var matchedAnnotations = Annotations()
        for (index, branch) in branches.enumerated() {
            let mark = hold()
            var branchAnnotations = Annotations()
            let ok = probe(branch, value, &branchAnnotations, collect: collecting)
            release(mark, keep: ok)
            guard ok else { continue }
            matching.append(index)
            matchedAnnotations = branchAnnotations
        }
        release(outer, keep: matching.count == 1)
        if matching.count == 1 {
            if collecting { local.merge(matchedAnnotations) }
            return true
        }
        if matching.isEmpty {
            explainNoMatch(.noAlternative, "oneOf", branches, id, value)
        } else {
            let names = matching.map(String.init)
            let list = names.count == 2 ? names.joined(separator: " and ") : Render.list(names)
            let alternatives = mode == .full ? Render.list(branches.map(describe)) : ""
            report(
                .noAlternative, id, "oneOf",
                "expected exactly one alternative to match, found \(matching.count) (alternatives \(list))",
                expected: "exactly one of \(alternatives)",
                found: "\(matching.count) matching: alternatives \(list)")
        }
        return false
    }

    /// One finding for the alternatives, then, in full mode, the findings of the branch that comes closest.
    mutating func explainNoMatch(
        _ rule: RuleID, _ keyword: String, _ branches: [Int], _ id: Int, _ value: JSONValue
    ) {
        guard mode == .full else {
            report(rule, id, keyword, "", expected: nil, found: nil)
            return
        }
        let names = branches.map(describe)
        let expected =
            names.count <= 12
            ? names.joined(separator: " or ")
            : names.prefix(10).joined(separator: " or ") + " or … (\(names.count) in all)"
        // Where no alternative admits the value's type, the list says it all.
        guard !branches.allSatisfy({ refusesType(of: value, $0) }), let closest = closestBranch(branches, id, value)
        else {
            report(
                rule, id, keyword, "expected \(expected), found \(Render.found(value))", expected: expected,
                found: Render.found(value))
            return
        }
        let closestName = describe(branches[closest])
        report(
            rule, id, keyword,
            "expected \(expected), found \(Render.found(value)); alternative \(closest) (\(closestName)) comes closest",
            expected: expected, found: Render.found(value))
        var ignored = Annotations()
        _ = evaluate(branches[closest], value, &ignored, collect: false)
    }

    /// The branch whose findings explain a failure best: the one the `discriminator` names, else the one whose
    /// `const`/`enum` property the value carries, else the one with the fewest errors (a wrong type counts most).
    mutating func closestBranch(_ branches: [Int], _ id: Int, _ value: JSONValue) -> Int? {
        guard !branches.isEmpty else { return nil }
        if let chosen = discriminatedBranch(branches, id, value) { return chosen }
        if case .object(let members) = value,
            let chosen = branches.firstIndex(where: { selects($0, members) })
        {
            return chosen
        }
        var best: (index: Int, score: Int)?
        for (index, branch) in branches.enumerated() {
            let saved = (mode, score)
            mode = .count
            score = 0
            let mark = hold()
            var ignored = Annotations()
            _ = evaluate(branch, value, &ignored, collect: false)
            release(mark, keep: false)
            let branchScore = score
            (mode, score) = saved
            if branchScore < best?.score ?? Int.max { best = (index, branchScore) }
        }
        return best?.index
    }

    func discriminatedBranch(_ branches: [Int], _ id: Int, _ value: JSONValue) -> Int? {
        guard let discriminator = storage.nodes[id].discriminator,
            let name = value[discriminator.propertyName]?.stringValue
        else { return nil }
        let targets = branches.map { resolved($0) }
        if let reference = discriminator.mapping[name] {
            let base = URIReference(storage.resources[storage.nodes[id].resource].uri)
            // A mapping value is a reference, or the name of a component schema.
            let uri =
                reference.contains("/") || reference.contains("#") ? reference : "#/components/schemas/\(reference)"
            if let path = storage.locate(URIReference(uri).resolved(against: base)),
                let index = targets.firstIndex(where: { storage.path(of: storage.nodes[$0].location) == path })
            {
                return index
            }
        }
        // Without a mapping, a value names its schema: `Cat` for `#/components/schemas/Cat`.
        return targets.firstIndex { storage.pointers.lastToken(storage.nodes[$0].location.pointer) == name }
    }

    /// Whether a branch has a property with a `const` (or one-valued `enum`) the object carries.
    func selects(_ branch: Int, _ members: [String: JSONValue]) -> Bool {
        for case .members(let declaration) in storage.nodes[resolved(branch)].keywords {
            for (name, schema) in declaration.properties {
                guard let member = members[name] else { continue }
                for keyword in storage.nodes[resolved(schema)].keywords {
                    switch keyword {
                    case .constant(let constant) where JSONEquality.equal(constant, member): return true
                    case .enumeration(let values) where values.values.count == 1 && values.contains(member): return true
                    default: continue
                    }
                }
            }
        }
        return false
    }

    /// Whether the branch's `type` excludes the value's.
    func refusesType(of value: JSONValue, _ branch: Int) -> Bool {
        let node = storage.nodes[resolved(branch)]
        if node.nullable, case .null = value { return false }
        for case .types(let types) in node.keywords where !types.admitted.contains(JSONTypes(kindOf: value)) {
            return true
        }
        return false
    }

    /// The node a chain of plain `$ref`s ends at.
    func resolved(_ id: Int) -> Int {
        var current = id
        for _ in 0..<32 {
            guard case .reference(.resolved(let target), _)? = storage.nodes[current].keywords.first,
                storage.nodes[current].keywords.count == 1
            else { return current }
            current = target
        }
        return current
    }

    /// The target of a `$dynamicRef`: the outermost resource in the dynamic scope with the anchor, else the static
    /// one.
    func dynamicTarget(_ target: Int, _ anchor: String?) -> Int {
        guard let anchor else { return target }
        for resource in scope {
            if let node = storage.resources[resource].dynamicAnchors[anchor] { return node }
        }
        return target
    }
}
