/// Findings: how they are worded, recorded, held while probing, and merged.
extension SchemaEvaluation {
    func isFalse(_ id: Int) -> Bool { storage.isFalse(id) }

    /// Whether a missing required property is excused by the message direction (`readOnly` in a request,
    /// `writeOnly` in a response), its schema read through `$ref`s.
    func isExempt(_ name: String, in id: Int) -> Bool {
        guard let direction = configuration.direction, let schema = propertySchema(name, in: id) else { return false }
        return storage.isLeftOut(schema, in: direction)
    }

    func propertySchema(_ name: String, in id: Int) -> Int? {
        for case .members(let declaration) in storage.nodes[id].keywords {
            if let schema = declaration.propertyIndex[name] { return schema }
        }
        return nil
    }

    /// ``describe(_:)`` when the finding will be built, so probes pay nothing for it.
    func described(_ id: Int) -> String { mode == .full ? describe(id) : "" }

    /// A schema as messages name it: `Pet` for a reference to a component, `string or null`, `string in date
    /// format`, `"cat"`, `one of …`, `an object with id, name`.
    func describe(_ id: Int) -> String {
        let description = describeNonNull(id)
        guard storage.nodes[id].nullable, !description.hasSuffix(" or null") else { return description }
        return description + " or null"
    }

    private func describeNonNull(_ id: Int) -> String {
        var current = id
        // A one-branch `allOf` (OpenAPI 3.0's way to annotate a `$ref`) stands for its branch; a few hops only.
        for _ in 0..<8 {
            guard
                case .allOf(let branches)? = storage.nodes[current].keywords.first(where: {
                    if case .types = $0 { false } else { true }
                }), branches.count == 1
            else { break }
            current = branches[0]
        }
        let node = storage.nodes[current]
        var types: String?
        var reference: String?
        var format: String?
        var pattern: String?
        var required: [String] = []
        var declaresMembers = false
        for keyword in node.keywords {
            switch keyword {
            case .never: return "nothing"
            case .pairs: return "array of alternating keys and values"
            case .constant(let constant): return Self.text(constant)
            case .enumeration(let values): return "one of " + Render.list(values.values.map(Self.text))
            case .reference(_, let uri), .dynamicReference(_, let uri, _): reference = reference ?? Self.name(uri)
            case .types(let set): types = set.description + (node.nullable ? " or null" : "")
            case .format(let value, _): format = value.rawValue
            case .model(.format(let value)): format = value.description
            case .pattern(let value): pattern = value.source
            case .required(let names): required = names
            case .members: declaresMembers = true
            default: continue
            }
        }
        if let reference, types == nil { return reference }
        if types == nil || types == "string" {
            if let format { return "string in \(format) format" }
            if let pattern { return "a string matching \(pattern)" }
        }
        if let types { return types }
        if !required.isEmpty { return "an object with " + Render.list(required) }
        if declaresMembers { return "object" }
        return node.keywords.isEmpty ? "any value" : "a value matching the schema"
    }

    /// `1 element`, `3 elements`.
    static func count(_ number: Int, _ singular: String, _ plural: String) -> String {
        "\(number) \(number == 1 ? singular : plural)"
    }

    /// `Pet` for `…#/components/schemas/Pet`, `pet.json` for `https://example.com/pet.json`.
    static func name(_ uri: String) -> String {
        let reference = URIReference(uri)
        if let fragment = reference.decodedFragment, !fragment.isEmpty {
            return fragment.hasPrefix("/") ? (JSONPointer(fragment).tokens.last ?? fragment) : fragment
        }
        return reference.path.split(separator: "/").last.map(String.init) ?? uri
    }

    /// A value as messages show it: short, serialized.
    static func text(_ value: JSONValue) -> String {
        switch value {
        case .array, .object:
            let text = value.serialized()
            return text.count > 60 ? String(text.prefix(57)) + "..." : text
        case .string(let string): return Render.quoted(string)
        default: return value.serialized()
        }
    }

    /// Records a finding of keyword `keyword` of node `id`; `token` extends the location (a missing member).
    /// In probe mode an error costs nothing; in count mode it only counts.
    mutating func report(
        _ rule: RuleID, _ id: Int, _ keyword: @autoclosure () -> String, _ message: @autoclosure () -> String,
        expected: @autoclosure () -> String?, found: @autoclosure () -> String?,
        severity: Diagnostic.Severity = .error, at token: PathToken? = nil
    ) {
        switch mode {
        case .probe where severity == .error:
            return
        case .count:
            if severity == .error { score += rule == .typeMismatch || rule == .nullNotAllowed ? 100 : 1 }
            return
        default:
            break
        }
        if severity != .error, !reportsNotes { return }
        if let token { path.append(token) }
        defer { if token != nil { path.removeLast() } }
        let schema = storage.uri(of: storage.nodes[id]) + (keyword().isEmpty ? "" : "/" + keyword())
        let finding = Diagnostic(
            severity, rule: rule, at: pointer, message: message(), expected: expected(), found: found(),
            context: ["schema": schema])
        if holding > 0, severity != .error {
            held.append((finding, mergeLocation))
        } else {
            emit(finding, location: mergeLocation)
        }
    }

    mutating func emit(_ finding: Diagnostic, location: [String?]) {
        // A held undeclared-member note (``reportUndeclared(_:_:model:)``), kept: once per member and object.
        if finding.rule == .unknownProperty {
            let object = JSONPointer(tokens: Array(finding.pointer.tokens.dropLast()))
            guard !undeclaredObjects.contains(object), undeclaredMembers.insert(finding.pointer).inserted else { return }
        }
        merger.add(finding.rule, severity: finding.severity, location: location) { finding }
    }

    mutating func reportDepthLimit(_ id: Int) {
        guard !reportedDepthLimit || mode != .full else { return }
        if mode == .full { reportedDepthLimit = true }
        let limit = configuration.maximumDepth
        report(
            .depthLimit, id, "",
            "the value or its schema nests deeper than \(limit) levels; validation stopped here",
            expected: "at most \(limit) levels", found: "deeper nesting")
    }

    /// Notes for the members no schema evaluated, once the object matched: once per object, however often its
    /// location is evaluated (a branch probed, then walked again to explain a failure).
    mutating func reportUndeclared(_ members: [String: JSONValue], _ annotations: Annotations, model: Bool) {
        let undeclared = members.keys.filter { !annotations.isEvaluated(property: $0) }
        guard !undeclared.isEmpty else { return }
        // Held notes may yet be dropped (a probed branch that fails): the object is marked when they are kept.
        if holding == 0 { guard undeclaredObjects.insert(pointer).inserted else { return } }
        let message =
            model
            ? "property is not in the model; JSONDecoder ignores it"
            : "property is not declared by the schema; a decoder ignores it"
        // Many undeclared members (a dictionary the schema does not say it is) merge as a map's entries do.
        let counted = undeclared.count > 64
        for key in undeclared.sorted() {
            guard let member = members[key] else { continue }
            path.append(counted ? .entry(key) : .key(key))
            if holding > 0 {
                let note = Diagnostic(
                    .note, rule: .unknownProperty, at: pointer, message: message, found: Render.found(member))
                held.append((note, mergeLocation))
            } else if undeclaredMembers.isEmpty || !undeclaredMembers.contains(pointer) {
                // Built only for the kept examples: a million members cost their count, not a million texts.
                let (path, location) = (self.path, mergeLocation)
                merger.add(.unknownProperty, severity: .note, location: location) {
                    Diagnostic(
                        .note, rule: .unknownProperty, at: Self.pointer(path), message: message,
                        found: Render.found(member))
                }
            }
            path.removeLast()
        }
    }

    var pointer: JSONPointer { Self.pointer(path) }

    static func pointer(_ path: [PathToken]) -> JSONPointer {
        JSONPointer(
            tokens: path.map {
                switch $0 {
                case .key(let key), .entry(let key): key
                case .index(let index): String(index)
                }
            })
    }

    var mergeLocation: [String?] {
        path.map {
            if case .key(let key) = $0 { key } else { nil }
        }
    }

    /// The first two equal elements, by JSON equality; hashing keeps a long array linear.
    static func duplicate(in elements: [JSONValue]) -> (Int, Int)? {
        if elements.count <= 16 {
            for second in elements.indices {
                for first in 0..<second where JSONEquality.equal(elements[first], elements[second]) {
                    return (first, second)
                }
            }
            return nil
        }
        var seen: [Int: [Int]] = [:]
        for (index, element) in elements.enumerated() {
            let hash = JSONEquality.hash(element)
            if let first = seen[hash]?.first(where: { JSONEquality.equal(elements[$0], element) }) {
                return (first, index)
            }
            seen[hash, default: []].append(index)
        }
        return nil
    }
}
