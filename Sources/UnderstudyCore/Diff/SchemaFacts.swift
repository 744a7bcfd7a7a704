/// What a schema says, read from the engine's compiled model (``CompiledSchema``): its own keywords with those of
/// every `$ref`/`$dynamicRef` target and `allOf` branch (all of them hold), an `anyOf`/`oneOf` of a schema and
/// `{"type": "null"}` (or `{"enum": [null]}`) read as that schema that may be null. ``SpecDiff`` compares two of them keyword by keyword.
struct SchemaFacts {
    /// A keyword and the schema it sits in (whose registry its sub-schemas are in).
    struct Entry {
        var schema: CompiledSchema
        var keyword: SchemaKeyword
    }

    private(set) var entries: [Entry] = []
    /// Every schema read, for the annotations the engine does not compile (`format` outside its list, the canonical
    /// form's `x-pairs` and object rules).
    private(set) var schemas: [CompiledSchema] = []
    /// The `$ref` targets read: the definitions a comparison passes through, which end a recursion.
    private(set) var definitions: [String] = []
    /// `null` allowed by an `anyOf`/`oneOf` branch or OpenAPI 3.0's `nullable`.
    private var nullBranch = false
    /// The JSON types a value may have, `null` included, read once.
    private var admitted = JSONTypes.all

    /// Any value: an absent keyword (`items`, `additionalProperties`) or `true`.
    static let any = SchemaFacts(Array<CompiledSchema>())

    init(_ schema: CompiledSchema) {
        self.init([schema])
    }

    /// The facts of schemas that all hold (a property declared by two `allOf` branches).
    /// - Parameter depth: how many `anyOf`/`oneOf` branches above these schemas; below 8, their types are read.
    init(_ schemas: [CompiledSchema], depth: Int = 0) {
        var seen: Set<Int> = []
        for schema in schemas { read(schema, &seen) }
        admitted = admitted(depth: depth)
    }

    private mutating func read(_ schema: CompiledSchema, _ seen: inout Set<Int>) {
        guard seen.insert(schema.node).inserted else { return }
        let storage = schema.registry.storage
        let node = storage.nodes[schema.node]
        schemas.append(schema)
        if node.nullable { nullBranch = true }
        for keyword in node.keywords {
            switch keyword {
            case .reference(.resolved(let target), _), .dynamicReference(.resolved(let target), _, _):
                definitions.append("\(ObjectIdentifier(schema.registry).hashValue):\(target)")
                read(schema.at(target), &seen)
            case .allOf(let branches):
                for branch in branches { read(schema.at(branch), &seen) }
            case .anyOf(let branches) where Self.nullPair(branches, storage) != nil,
                .oneOf(let branches) where Self.nullPair(branches, storage) != nil:
                nullBranch = true
                read(schema.at(Self.nullPair(branches, storage)!), &seen)
            default:
                entries.append(Entry(schema: schema, keyword: keyword))
            }
        }
    }

    /// The other branch of `[X, {"type": "null"}]` (either order; the null branch may be `{"enum": [null]}` or
    /// `{"const": null}`, which admit the same value).
    private static func nullPair(_ branches: [Int], _ storage: SchemaRegistry.Storage) -> Int? {
        guard branches.count == 2 else { return nil }
        func isNull(_ node: Int) -> Bool {
            guard storage.nodes[node].keywords.count == 1 else { return false }
            switch storage.nodes[node].keywords[0] {
            case .types(let types): return types == .null
            case .constant(.null): return true
            case .enumeration(let values): return values.values == [.null]
            default: return false
            }
        }
        if isNull(branches[1]) { return branches[0] }
        if isNull(branches[0]) { return branches[1] }
        return nil
    }

    /// The keywords `pick` reads, with the schema each sits in.
    func all<Value>(_ pick: (SchemaKeyword) -> Value?) -> [(schema: CompiledSchema, value: Value)] {
        entries.compactMap { entry in pick(entry.keyword).map { (entry.schema, $0) } }
    }

    /// An annotation as the document writes it, from the first schema that has it.
    func raw(_ keyword: String) -> JSONValue? {
        schemas.lazy.compactMap { $0.json[keyword] }.first
    }

    // MARK: Types

    /// The JSON types a value may have (`integer` for integral numbers, `number` for the others), `null` apart.
    var types: JSONTypes { admitted.subtracting(.null) }

    /// Whether `null` is valid.
    var nullable: Bool { admitted.contains(.null) }

    private func admitted(depth: Int) -> JSONTypes {
        var types = JSONTypes.all
        for entry in entries {
            switch entry.keyword {
            case .types(let named): types.formIntersection(named.admitted)
            case .never: types = []
            case .constant(let value): types.formIntersection(JSONTypes(kindOf: value))
            case .enumeration(let values):
                types.formIntersection(values.values.reduce(into: JSONTypes()) { $0.formUnion(JSONTypes(kindOf: $1)) })
            case .anyOf(let branches), .oneOf(let branches):
                guard depth < 8 else { continue }
                types.formIntersection(
                    branches.reduce(into: JSONTypes()) {
                        $0.formUnion(SchemaFacts([entry.schema.at($1)], depth: depth + 1).admitted)
                    })
            default: continue
            }
        }
        return nullBranch ? types.union(.null) : types
    }

    /// `integer`, `string or null`, `array of key/value pairs`, `any`.
    var kind: String {
        if raw("x-pairs") != nil { return "array of key/value pairs" }
        var types = types
        if types == JSONTypes.all.subtracting(.null) { return "any" }
        if types.isEmpty { return "nothing" }
        if types.contains(.number) { types.remove(.integer) }
        return types.description
    }

    // MARK: Values and limits

    /// `enum`'s values, or `const`'s one.
    var values: [JSONValue]? {
        all { keyword -> [JSONValue]? in
            switch keyword {
            case .enumeration(let values): values.values
            case .constant(let value): [value]
            default: nil
            }
        }.first?.value
    }

    /// A bound or an assertion that admits fewer values as it grows (`minimum`), as it shrinks (`maxLength`), or
    /// whose change in one direction cannot be said (`pattern`).
    enum Limit: Equatable {
        case lower(ExactDecimal, String)
        case upper(ExactDecimal, String)
        case multiple(ExactDecimal, String)
        case pattern(String)
        case present

        var literal: String {
            switch self {
            case .lower(_, let literal), .upper(_, let literal), .multiple(_, let literal): literal
            case .pattern(let source): JSONValue.string(source).description
            case .present: "true"
            }
        }

        /// Whether `new` in place of `old` admits fewer values (`true`), more (`false`), or neither can be said.
        static func narrows(_ old: Limit?, _ new: Limit?) -> Bool? {
            switch (old, new) {
            case (nil, _?): return true
            case (_?, nil): return false
            case (.lower(let from, _)?, .lower(let to, _)?): return from < to
            case (.upper(let from, _)?, .upper(let to, _)?): return to < from
            case (.multiple(let from, _)?, .multiple(let to, _)?):
                if to.isMultiple(of: from) { return true }
                return from.isMultiple(of: to) ? false : nil
            default: return nil
            }
        }

        static func == (lhs: Limit, rhs: Limit) -> Bool {
            switch (lhs, rhs) {
            case (.lower(let a, _), .lower(let b, _)), (.upper(let a, _), .upper(let b, _)),
                (.multiple(let a, _), .multiple(let b, _)):
                ExactDecimal.compare(a, b) == 0
            case (.pattern(let a), .pattern(let b)): a == b
            case (.present, .present): true
            default: false
            }
        }
    }

    /// Every bound and assertion by keyword name; of two (through `allOf`), the stricter. One that applies to no type
    /// the value may have (`maximum` beside `type: array`) constrains nothing and is left out.
    var limits: [String: Limit] {
        var limits: [String: Limit] = [:]
        let types = self.types
        func put(_ name: String, _ limit: Limit) {
            let applies: JSONTypes =
                switch name {
                case "minLength", "maxLength", "pattern": .string
                case "minItems", "maxItems", "uniqueItems", "minContains", "maxContains": .array
                case "minProperties", "maxProperties": .object
                default: [.number, .integer]
                }
            guard !types.isDisjoint(with: applies) else { return }
            switch (limits[name], limit) {
            case (.lower(let kept, _)?, .lower(let value, _)) where !(kept < value): return
            case (.upper(let kept, _)?, .upper(let value, _)) where !(value < kept): return
            case (_?, .multiple), (_?, .pattern), (_?, .present): return
            default: limits[name] = limit
            }
        }
        func count(_ value: Int) -> ExactDecimal { ExactDecimal(literal: String(value))! }
        for entry in entries {
            switch entry.keyword {
            case .bound(let value, let literal, let kind):
                switch kind {
                case .minimum: put("minimum", .lower(value, literal))
                case .exclusiveMinimum: put("exclusiveMinimum", .lower(value, literal))
                case .maximum: put("maximum", .upper(value, literal))
                case .exclusiveMaximum: put("exclusiveMaximum", .upper(value, literal))
                }
            case .multipleOf(let value, let literal): put("multipleOf", .multiple(value, literal))
            case .minLength(let value): put("minLength", .lower(count(value), String(value)))
            case .maxLength(let value): put("maxLength", .upper(count(value), String(value)))
            case .minItems(let value): put("minItems", .lower(count(value), String(value)))
            case .maxItems(let value): put("maxItems", .upper(count(value), String(value)))
            case .minProperties(let value): put("minProperties", .lower(count(value), String(value)))
            case .maxProperties(let value): put("maxProperties", .upper(count(value), String(value)))
            case .pattern(let pattern): put("pattern", .pattern(pattern.source))
            case .uniqueItems: put("uniqueItems", .present)
            case .contains(_, let minimum, let maximum):
                // `minContains` 1 is `contains` alone: its arrival and departure are `contains`'.
                if minimum != 1 { put("minContains", .lower(count(minimum), String(minimum))) }
                if let maximum { put("maxContains", .upper(count(maximum), String(maximum))) }
            default: continue
            }
        }
        return limits
    }

    // MARK: Objects

    /// `properties` by name (a name two branches declare has both schemas), in the order first declared.
    var properties: [(name: String, schemas: [CompiledSchema])] {
        var order: [String] = []
        var found: [String: [CompiledSchema]] = [:]
        for (schema, members) in all({ if case .members(let members) = $0 { members } else { nil } }) {
            for property in members.properties {
                if found[property.name] == nil { order.append(property.name) }
                found[property.name, default: []].append(schema.at(property.schema))
            }
        }
        return order.map { ($0, found[$0]!) }
    }

    /// `required`'s names (a model's are checked with its members), but those a message in `direction` leaves out
    /// (`readOnly` in a request, `writeOnly` in an answer).
    func required(in direction: MessageDirection) -> Set<String> {
        var names = Set(all { if case .required(let names) = $0 { names } else { nil } }.flatMap(\.value))
        names.formUnion(all { if case .members(let members) = $0 { members.required } else { nil } }.flatMap(\.value))
        for property in properties
        where property.schemas.contains(where: { $0.registry.storage.isLeftOut($0.node, in: direction) }) {
            names.remove(property.name)
        }
        return names
    }

    /// `additionalProperties`' schemas.
    var additional: [CompiledSchema] {
        all { if case .members(let members) = $0 { members.additional } else { nil } }.map { $0.schema.at($0.value) }
    }

    /// `patternProperties` by pattern.
    var patterns: [String: [CompiledSchema]] {
        var found: [String: [CompiledSchema]] = [:]
        for (schema, members) in all({ if case .members(let members) = $0 { members } else { nil } }) {
            for (pattern, node) in members.patterns { found[pattern.source, default: []].append(schema.at(node)) }
        }
        return found
    }

    /// `dependentRequired` by property.
    var dependentRequired: [String: Set<String>] {
        var found: [String: Set<String>] = [:]
        for (_, requirements) in all({ if case .dependentRequired(let list) = $0 { list } else { nil } }) {
            for requirement in requirements { found[requirement.property, default: []].formUnion(requirement.required) }
        }
        return found
    }

    /// `dependentSchemas` by property.
    var dependentSchemas: [String: [CompiledSchema]] {
        var found: [String: [CompiledSchema]] = [:]
        for (schema, list) in all({ if case .dependentSchemas(let list) = $0 { list } else { nil } }) {
            for dependent in list { found[dependent.property, default: []].append(schema.at(dependent.schema)) }
        }
        return found
    }

    /// The schemas of one applicator keyword that takes a single sub-schema (`propertyNames`, `not`, `contains`,
    /// `unevaluatedProperties`, `items`' rest).
    func subschemas(_ pick: (SchemaKeyword) -> Int?) -> [CompiledSchema] {
        all(pick).map { $0.schema.at($0.value) }
    }

    /// `prefixItems`' schemas, of the first schema that has them.
    var prefixItems: [CompiledSchema] {
        all { if case .items(let prefix, _) = $0, !prefix.isEmpty { prefix } else { nil } }
            .first.map { entry in entry.value.map { entry.schema.at($0) } } ?? []
    }

    /// The branches of each `anyOf` and `oneOf` (but a `null` pair's), with the keyword's name.
    var alternatives: [(keyword: String, branches: [CompiledSchema])] {
        all { keyword -> (String, [Int])? in
            switch keyword {
            case .anyOf(let branches): ("anyOf", branches)
            case .oneOf(let branches): ("oneOf", branches)
            default: nil
            }
        }.map { ($0.value.0, $0.value.1.map($0.schema.at)) }
    }

    /// `if`/`then`/`else`, of the first schema that has them.
    var conditional: (condition: CompiledSchema, then: CompiledSchema?, otherwise: CompiledSchema?)? {
        all { if case .conditional(let condition, let then, let otherwise) = $0 { (condition, then, otherwise) } else { nil } }
            .first.map { entry in
                (entry.schema.at(entry.value.0), entry.value.1.map(entry.schema.at), entry.value.2.map(entry.schema.at))
            }
    }

    /// The sub-schema a model's `x-pairs` names (`key`, `value`).
    func pairs(_ member: String) -> CompiledSchema? {
        all { if case .pairs(let key, let value) = $0 { member == "key" ? key : value } else { nil } }
            .first.map { $0.schema.at($0.value) }
    }
}

extension CompiledSchema {
    /// Another node of the same registry.
    func at(_ node: Int) -> CompiledSchema {
        CompiledSchema(registry: registry, node: node)
    }

    /// The schema as its document writes it.
    var json: JSONValue {
        let storage = registry.storage
        return storage.value(at: storage.path(of: storage.nodes[node].location)) ?? [:]
    }
}
