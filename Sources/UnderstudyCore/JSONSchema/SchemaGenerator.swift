import Foundation

/// Makes JSON values that a compiled schema accepts, every keyword of it: bounds, `multipleOf`, lengths in code
/// points, patterns, formats, `const` and `enum` of any type, `uniqueItems`, `prefixItems`, `contains`,
/// `propertyNames`, `dependentRequired`, `not`, `if`/`then`/`else`, and `oneOf` with exactly one branch matching.
///
/// The schema's keywords are gathered into one set of facts (references followed, `allOf` joined, one branch of
/// each `anyOf`/`oneOf`/`if` chosen), a value is built from the facts, and the engine's own validator judges it
/// against the schema: a value is returned only when it is valid, so no reading of a keyword here can make a
/// wrong value slip through. When the facts admit several values, the next choice (another branch, another type,
/// another draw) is tried, within a budget, so no schema makes generation hang.
///
/// ```swift
/// var generator = SchemaGenerator(seed: 7, direction: .response)
/// let pet = generator.value(for: registry.schema(at: "file:///api.json#/components/schemas/Pet")!)
/// // A value close to one made elsewhere: its valid parts kept, the rest remade.
/// let repaired = generator.value(for: pet, near: ["id": 0, "name": "Rex"])
/// ```
public struct SchemaGenerator: Sendable {
    /// The message the value is: a `readOnly` property is left out of a request, a `writeOnly` one out of a
    /// response.
    public var direction: MessageDirection?
    /// How many validations one value may cost before the generator gives up.
    public var budget = 6_000
    private var random: SeededRandom

    public init(seed: UInt64, direction: MessageDirection? = nil) {
        random = SeededRandom(seed: seed)
        self.direction = direction
    }

    /// A value `schema` accepts, or `nil` when none was found (a schema no value satisfies, such as `false`, or
    /// one whose values the budget did not reach).
    ///
    /// - Parameter hint: a value to stay close to: where it (or a part of it) is valid, it is kept as it is.
    public mutating func value(for schema: CompiledSchema, near hint: JSONValue? = nil) -> JSONValue? {
        var run = GenerationRun(
            storage: schema.registry.storage,
            configuration: SchemaValidator.Configuration(direction: direction, formats: .assertion),
            random: random, budget: budget)
        defer { random = run.random }
        return run.solve([schema.node], negated: [], hint: hint)
    }
}

/// One value's generation: the facts of each schema met, the choices made, and the budget left.
struct GenerationRun {
    let storage: SchemaRegistry.Storage
    let configuration: SchemaValidator.Configuration
    var random: SeededRandom
    var budget: Int
    /// The schema sets being generated, outermost first: one met again (a tree's node) is made as small as it can be.
    var stack: [Int] = []
    /// The schema resources the value being made sits in, outermost first (see ``GenerationFacts/scope``).
    var scope: [Int] = []

    /// How deep values nest before the rest is made as small as it can be, and where generation stops.
    static let shallowDepth = 6
    static let maximumDepth = 48

    init(storage: SchemaRegistry.Storage, configuration: SchemaValidator.Configuration, random: SeededRandom, budget: Int) {
        self.storage = storage
        self.configuration = configuration
        self.random = random
        self.budget = budget
    }

    /// Whether every node of `roots` accepts `value` and no node of `negated` does. Each schema evaluated costs a
    /// unit of the budget.
    mutating func accepts(_ roots: [Int], negated: [Int], _ value: JSONValue) -> Bool {
        for node in roots {
            budget -= 1
            var evaluation = SchemaEvaluation(storage: storage, configuration: configuration, mode: .probe)
            guard evaluation.run(node, value) else { return false }
        }
        for node in negated {
            budget -= 1
            var evaluation = SchemaEvaluation(storage: storage, configuration: configuration, mode: .probe)
            if evaluation.run(node, value) { return false }
        }
        return true
    }

    /// A value every node of `roots` accepts and none of `negated` does, close to `hint`; `nil` when none was found.
    mutating func solve(_ roots: [Int], negated: [Int], hint: JSONValue?) -> JSONValue? {
        // Each value tried costs a unit too, so a schema whose values fail deep down (a tree that must nest forever)
        // ends within the budget instead of retrying every level.
        budget -= 1
        guard budget > 0, stack.count < Self.maximumDepth else { return nil }
        if let hint, accepts(roots, negated: negated, hint) { return hint }
        let key = roots.reduce(0) { $0 &* 31 &+ $1 }
        stack.append(key)
        defer { stack.removeLast() }
        let small = stack.count > Self.shallowDepth || stack.dropLast().contains(key)
        return solve(roots, negated: negated, hint: hint, decisions: [:], small: small)
    }

    private mutating func solve(
        _ roots: [Int], negated: [Int], hint: JSONValue?, decisions: [ChoiceID: Int], small: Bool
    ) -> JSONValue? {
        let facts = GenerationFacts(
            expanding: roots, negated: negated, decisions: decisions, scope: scope, storage: storage)
        if facts.impossible { return nil }
        if let choice = facts.pending.first {
            for branch in order(choice, hint: hint) {
                var decided = decisions
                decided[choice.id] = branch
                if let value = solve(roots, negated: negated, hint: hint, decisions: decided, small: small) {
                    return value
                }
                guard budget > 0 else { return nil }
            }
            return nil
        }
        let outer = scope
        scope = facts.scope
        defer { scope = outer }
        var sequence = candidates(facts, hint: hint, small: small)
        while budget > 0, let candidate = sequence.next(&self) {
            if accepts(roots, negated: negated, candidate) { return candidate }
        }
        return nil
    }

    /// The branches of a choice in the order to try them: those the hint satisfies first, then from a random
    /// start, so repeated values do not all take the first branch.
    private mutating func order(_ choice: Choice, hint: JSONValue?) -> [Int] {
        let count = choice.branches.count
        let start = count > 1 ? random.int(in: 0...(count - 1)) : 0
        var indices = (0..<count).map { ($0 + start) % count }
        if let hint {
            let fitting = indices.filter { index in
                let branch = choice.branches[index]
                return accepts(branch.nodes, negated: branch.negated, hint)
            }
            indices = fitting + indices.filter { !fitting.contains($0) }
        }
        return indices
    }
}

/// Which `anyOf`, `oneOf` or `if` a choice is: the node and the keyword's place in it.
struct ChoiceID: Hashable {
    var node: Int
    var keyword: Int
}

/// A keyword that admits values in more than one way: each branch is schemas to satisfy and schemas to fail.
struct Choice {
    struct Branch {
        var nodes: [Int]
        var negated: [Int]
    }

    var id: ChoiceID
    var branches: [Branch]
}
