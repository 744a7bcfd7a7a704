/// One validation of a value: walks the compiled nodes, collecting findings and, where `unevaluated*` keywords
/// need them, annotations.
///
/// Three modes share one walk. `full` reports every violation. `probe` answers "does it match?" and returns at the
/// first error without building a message: `anyOf`/`oneOf` branches, `not`, `if` and `contains` are probed, and
/// only the branch that explains a failure is walked again in full. `count` scores branches (errors counted, not
/// built) to pick that branch. Warnings and notes met while probing are held, and kept only when the probed
/// schema matched.
struct SchemaEvaluation {
    enum Mode { case full, probe, count }

    enum PathToken {
        /// A declared property, kept when merging.
        case key(String)
        /// A member matched by pattern or left over (a map's entry): collapsed when merging, as indices are.
        case entry(String)
        case index(Int)
    }

    let storage: SchemaRegistry.Storage
    let configuration: SchemaValidator.Configuration
    var mode: Mode
    /// Whether notes and warnings are wanted at all (not for `isValid`).
    let reportsNotes: Bool
    var path: [PathToken] = []
    var merger: FindingMerger
    /// Warnings and notes of schemas being probed, with their merge locations.
    var held: [(Diagnostic, [String?])] = []
    var holding = 0
    /// Errors counted in `count` mode.
    var score = 0
    /// `$ref`s being followed, with the instance depth they were entered at: one entered again at the same depth
    /// is a cycle that consumes nothing.
    var references: [(node: Int, depth: Int)] = []
    /// The schema resources entered, outermost first: what `$dynamicRef` searches.
    var scope: [Int] = []
    var depth = 0
    var reportedDepthLimit = false
    /// Read on first need: shallow evaluations, nearly all of them, never pay for the thread's stack bounds.
    var stack: StackGuard?
    /// Objects whose undeclared members were reported, and members reported from a held (probed) evaluation.
    var undeclaredObjects: Set<JSONPointer> = []
    var undeclaredMembers: Set<JSONPointer> = []

    init(storage: SchemaRegistry.Storage, configuration: SchemaValidator.Configuration, mode: Mode) {
        self.storage = storage
        self.configuration = configuration
        self.mode = mode
        reportsNotes = mode == .full
        merger = FindingMerger(merging: configuration.mergingRepeats)
    }

    var findings: [Diagnostic] { merger.findings }

    /// Evaluates the root schema against the whole value.
    @discardableResult
    mutating func run(_ node: Int, _ value: JSONValue) -> Bool {
        evaluateLocation(node, value)
    }
}

// MARK: Walking

extension SchemaEvaluation {
    /// Evaluates `node` at a new instance location (the root, a member, an element): annotations start afresh, and
    /// undeclared members are reported once the location matched.
    mutating func evaluateLocation(_ node: Int, _ value: JSONValue) -> Bool {
        var annotations = Annotations()
        guard reportsNotes, configuration.undeclaredMembers, case .object(let members) = value else {
            return evaluate(node, value, &annotations, collect: false)
        }
        let valid = evaluate(node, value, &annotations, collect: true)
        // A model's undeclared members are named even in a body it refuses: a renamed key is a missing property
        // and an unknown one.
        let model = storage.nodes[node].isModel
        if valid || model, annotations.declaresProperties, !annotations.allProperties {
            reportUndeclared(members, annotations, model: model)
        }
        return valid
    }

    mutating func evaluateChild(_ node: Int, _ value: JSONValue, _ token: PathToken) -> Bool {
        path.append(token)
        defer { path.removeLast() }
        return evaluateLocation(node, value)
    }

    /// Evaluates `id` in place; its annotations join `annotations` when `collect` is set and it matched.
    mutating func evaluate(_ id: Int, _ value: JSONValue, _ annotations: inout Annotations, collect: Bool) -> Bool {
        var id = id
        var node = storage.nodes[id]
        // A chain of bare references (`Link0 → Link1 → … → object`, 50,000 long in a hostile document) is followed
        // without nesting: a link's only keyword is its reference, so its verdict and annotations are its target's.
        // (Where a `$dynamicRef` depends on the resources entered, a link into another resource is entered as any
        // reference is.)
        let entered = id
        var passed: Set<Int> = []
        while node.keywords.count == 1, case .reference(.resolved(let target), _) = node.keywords[0],
            !storage.usesDynamicScope || storage.nodes[target].resource == node.resource
        {
            if node.nullable, case .null = value { return true }
            // A cycle of bare references says nothing of the value, nor does one through other schemas at this
            // location (`Folder: {allOf: [{$ref: Folder}, …]}`), which ``follow(_:_:_:collect:)`` ends the same way.
            guard passed.insert(id).inserted, !isBeingFollowed(target) else { return true }
            id = target
            node = storage.nodes[id]
        }
        let forwarded = id != entered
        if forwarded { references.append((id, path.count)) }
        defer { if forwarded { references.removeLast() } }
        if node.nullable, case .null = value { return true }
        if node.keywords.isEmpty { return true }
        guard depth < configuration.maximumDepth, !isStackExhausted else {
            reportDepthLimit(id)
            return false
        }
        depth += 1
        defer { depth -= 1 }
        let entersResource = storage.usesDynamicScope && scope.last != node.resource
        if entersResource { scope.append(node.resource) }
        defer { if entersResource { scope.removeLast() } }

        let collecting = collect || node.hasUnevaluated
        var local = Annotations()
        var valid = true
        for keyword in node.keywords {
            guard check(keyword, id, value, &local, collecting) else {
                valid = false
                if mode == .probe { return false }
                continue
            }
        }
        // In full mode a failed schema's annotations still join: its parent fails anyway, and they keep
        // `unevaluatedProperties` from repeating what the failed keyword already said.
        if collect, valid || mode != .probe { annotations.merge(local) }
        return valid
    }

    /// Whether the stack is too deep to go on; only checked past a few levels, which any stack holds.
    private var isStackExhausted: Bool {
        mutating get {
            guard depth >= 8 else { return false }
            let stack = self.stack ?? StackGuard()
            self.stack = stack
            return stack.isExhausted
        }
    }

    /// Follows a reference, unless it was entered already at this instance location (a cycle that consumes
    /// nothing, such as `a → b → a`): that evaluation is left to the first entry, and this one passes.
    mutating func follow(_ target: Int, _ value: JSONValue, _ annotations: inout Annotations, collect: Bool)
        -> Bool
    {
        if isBeingFollowed(target) { return true }
        references.append((target, path.count))
        defer { references.removeLast() }
        return evaluate(target, value, &annotations, collect: collect)
    }

    /// Whether a reference to `target` is being followed at this instance location already.
    func isBeingFollowed(_ target: Int) -> Bool {
        let instanceDepth = path.count
        for entry in references.reversed() {
            guard entry.depth == instanceDepth else { break }
            if entry.node == target { return true }
        }
        return false
    }

    /// Evaluates without building error messages (the caller holds and releases the warnings and notes met).
    mutating func probe(_ id: Int, _ value: JSONValue, _ annotations: inout Annotations, collect: Bool)
        -> Bool
    {
        let saved = mode
        mode = .probe
        defer { mode = saved }
        return evaluate(id, value, &annotations, collect: collect)
    }

    mutating func hold() -> Int {
        holding += 1
        return held.count
    }

    /// Ends a hold: its findings are dropped, or kept (and emitted once no hold encloses them).
    mutating func release(_ mark: Int, keep: Bool) {
        holding -= 1
        if !keep {
            held.removeSubrange(mark...)
        } else if holding == 0, !held.isEmpty {
            let kept = held
            held.removeAll(keepingCapacity: true)
            for (finding, location) in kept { emit(finding, location: location) }
        }
    }
}
