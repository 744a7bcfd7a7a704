/// What a set of schemas asks of one value, gathered for ``SchemaGenerator``: references followed, `allOf` joined,
/// the decided branch of each `anyOf`, `oneOf` and `if` taken, and the rest left pending.
///
/// The facts steer the value that is built; they need not be exact, because the validator judges every candidate
/// against the schemas themselves.
struct GenerationFacts {
    /// The JSON kinds a value may have: the intersection of every `type`.
    var kinds = JSONTypes.all
    /// Whether a schema (OpenAPI 3.0's `nullable`) admits `null` whatever its `type` says.
    var nullable = false
    var impossible = false
    var constants: [JSONValue] = []
    var enumerations: [[JSONValue]] = []
    /// Values a `not` with only `const` or `enum` excludes.
    var excluded: [JSONValue] = []
    /// Members a `not` with only `required` of one name excludes.
    var forbidden: Set<String> = []
    var lower: (bound: ExactDecimal, exclusive: Bool)?
    var upper: (bound: ExactDecimal, exclusive: Bool)?
    var multiples: [ExactDecimal] = []
    var minLength = 0
    var maxLength: Int?
    var patterns: [ECMAPattern] = []
    var formats: [JSONSchemaFormat] = []
    var minItems = 0
    var maxItems: Int?
    var uniqueItems = false
    var items: [(prefix: [Int], rest: Int?)] = []
    var contains: [(schema: Int, minimum: Int, maximum: Int?)] = []
    var unevaluatedItems: [Int] = []
    var required: [String] = []
    var members: [ObjectMembers] = []
    var propertyNames: [Int] = []
    var minProperties = 0
    var maxProperties: Int?
    var dependentRequired: [DependentRequirement] = []
    var unevaluatedProperties: [Int] = []
    /// The keywords that steer which kind is built first (an object's `properties`, a string's `pattern`).
    var hinted = JSONTypes()
    var pending: [Choice] = []
    /// The schema resources entered, outermost first, the ones these schemas sit in last: what `$dynamicRef`
    /// searches, here and in the values nested in this one.
    var scope: [Int]

    init(
        expanding roots: [Int], negated: [Int], decisions: [ChoiceID: Int], scope: [Int],
        storage: SchemaRegistry.Storage
    ) {
        self.scope = scope
        var queue = Array(roots.reversed())
        var seen: Set<Int> = []
        for node in negated { exclude(node, storage: storage) }
        while let id = queue.popLast() {
            guard seen.insert(id).inserted else { continue }
            let node = storage.nodes[id]
            if storage.usesDynamicScope, !self.scope.contains(node.resource) { self.scope.append(node.resource) }
            if node.nullable { nullable = true }
            for (index, keyword) in node.keywords.enumerated() {
                var choice: Choice?
                switch keyword {
                case .types(let types): kinds.formIntersection(types.admitted)
                case .never: impossible = true
                case .constant(let value): constants.append(value)
                case .enumeration(let values): enumerations.append(values.values)
                case .multipleOf(let divisor, _):
                    multiples.append(divisor)
                    hinted.insert(.number)
                case .bound(let bound, _, let kind):
                    narrow(bound, kind)
                    hinted.insert(.number)
                case .minLength(let minimum):
                    minLength = max(minLength, minimum)
                    hinted.insert(.string)
                case .maxLength(let maximum):
                    maxLength = min(maxLength ?? .max, maximum)
                    hinted.insert(.string)
                case .pattern(let pattern):
                    patterns.append(pattern)
                    hinted.insert(.string)
                case .format(let format, _):
                    formats.append(format)
                    if format != .int32, format != .int64 { hinted.insert(.string) }
                case .minItems(let minimum):
                    minItems = max(minItems, minimum)
                    hinted.insert(.array)
                case .maxItems(let maximum):
                    maxItems = min(maxItems ?? .max, maximum)
                    hinted.insert(.array)
                case .uniqueItems:
                    uniqueItems = true
                case .items(let prefix, let rest):
                    items.append((prefix, rest))
                    hinted.insert(.array)
                case .contains(let schema, let minimum, let maximum):
                    contains.append((schema, minimum, maximum))
                    hinted.insert(.array)
                case .unevaluatedItems(let schema):
                    unevaluatedItems.append(schema)
                case .minProperties(let minimum):
                    minProperties = max(minProperties, minimum)
                    hinted.insert(.object)
                case .maxProperties(let maximum):
                    maxProperties = min(maxProperties ?? .max, maximum)
                case .required(let names):
                    for name in names where !required.contains(name) { required.append(name) }
                    hinted.insert(.object)
                case .dependentRequired(let requirements):
                    dependentRequired += requirements
                case .members(let declaration):
                    members.append(declaration)
                    hinted.insert(.object)
                case .propertyNames(let schema):
                    propertyNames.append(schema)
                case .unevaluatedProperties(let schema):
                    unevaluatedProperties.append(schema)
                case .reference(.resolved(let target), _):
                    queue.append(target)
                case .dynamicReference(.resolved(let target), _, let anchor):
                    // As the validator resolves it: the outermost resource in scope with the anchor, else the target.
                    let dynamic = anchor.flatMap { anchor in
                        self.scope.lazy.compactMap { storage.resources[$0].dynamicAnchors[anchor] }.first
                    }
                    queue.append(dynamic ?? target)
                case .reference(.unresolved, _), .dynamicReference(.unresolved, _, _):
                    impossible = true
                case .allOf(let branches):
                    queue += branches.reversed()
                case .anyOf(let branches):
                    choice = Choice(
                        id: ChoiceID(node: id, keyword: index), branches: branches.map { .init(nodes: [$0], negated: []) })
                case .oneOf(let branches):
                    let all = branches
                    choice = Choice(
                        id: ChoiceID(node: id, keyword: index),
                        branches: branches.indices.map { chosen in
                            .init(nodes: [all[chosen]], negated: all.indices.filter { $0 != chosen }.map { all[$0] })
                        })
                case .conditional(let condition, let then, let otherwise):
                    choice = Choice(
                        id: ChoiceID(node: id, keyword: index),
                        branches: [
                            .init(nodes: [condition] + (then.map { [$0] } ?? []), negated: []),
                            .init(nodes: otherwise.map { [$0] } ?? [], negated: [condition]),
                        ])
                case .not(let schema):
                    exclude(schema, storage: storage)
                case .dependentSchemas:
                    // Judged by the validator: the object built rarely carries the property that triggers one.
                    break
                case .pairs:
                    hinted.insert(.array)
                case .model:
                    // A Swift model's values are made by ``FixtureGenerator`` from its ``Schema``.
                    break
                }
                guard let choice else { continue }
                if let decided = decisions[choice.id] {
                    let branch = choice.branches[decided]
                    queue += branch.nodes.reversed()
                    for node in branch.negated { exclude(node, storage: storage) }
                } else {
                    pending.append(choice)
                }
            }
        }
        if nullable { kinds.insert(.null) }
    }

    /// What a `not` says in a way the builder can use: the kinds of a `type`-only schema, the values of a
    /// `const`/`enum`-only one, the member of a one-name `required`. Any other `not` is left to the validator.
    private mutating func exclude(_ id: Int, storage: SchemaRegistry.Storage) {
        let node = storage.nodes[id]
        guard !node.nullable else { return }
        if node.keywords.count == 1 {
            switch node.keywords[0] {
            case .types(let types): kinds.subtract(types.admitted)
            case .constant(let value): excluded.append(value)
            case .enumeration(let values): excluded += values.values
            case .required(let names) where names.count == 1: forbidden.insert(names[0])
            default: break
            }
        }
    }

    private mutating func narrow(_ bound: ExactDecimal, _ kind: BoundKind) {
        switch kind {
        case .minimum, .exclusiveMinimum:
            let exclusive = kind == .exclusiveMinimum
            if let lower, lower.bound > bound || (lower.bound == bound && lower.exclusive) { return }
            lower = (bound, exclusive)
        case .maximum, .exclusiveMaximum:
            let exclusive = kind == .exclusiveMaximum
            if let upper, upper.bound < bound || (upper.bound == bound && upper.exclusive) { return }
            upper = (bound, exclusive)
        }
    }
}

/// `type`'s kinds as a generator reads them: it builds a `number` with a fraction, an `integer` without one.
extension JSONTypes {
    static let all: JSONTypes = [.null, .boolean, .object, .array, .number, .string, .integer]
    /// The order kinds are built in when nothing else decides: `null` last, since it says least.
    static let preference: [JSONTypes] = [.object, .string, .integer, .number, .array, .boolean, .null]

    /// The kinds a `type` admits: `number` admits integers too.
    var admitted: JSONTypes { contains(.number) ? union(.integer) : self }

    /// The kind of a value: `integer` for an integral number.
    init(kindOf value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool: self = .boolean
        case .object: self = .object
        case .array: self = .array
        case .string: self = .string
        case .number(let number): self = number.isIntegral ? .integer : .number
        }
    }
}
