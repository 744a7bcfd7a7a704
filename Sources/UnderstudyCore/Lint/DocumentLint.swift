import Foundation

extension RuleID {
    /// A document example breaks the document's own model (the wire contract).
    public static let exampleInvalid: RuleID = "lint.example-invalid"
    /// The app contract cannot decode a document example that the wire contract accepts.
    public static let exampleUndecodable: RuleID = "lint.example-undecodable"
    /// The document's sample client, as written, cannot decode the document's own JSON.
    public static let sampleClient: RuleID = "lint.sample-client"
    /// A contradiction the spec records by hand (``Ambiguity/Kind/contradiction``).
    public static let contradiction: RuleID = "lint.contradiction"
    /// A model no value satisfies: its required members lead back to it without end.
    public static let impossibleCycle: RuleID = "lint.impossible-cycle"
    /// A schema written in a form a mainstream client generator drops (swift-openapi-generator skips a
    /// `{"type": "null"}` branch, and the property with it).
    public static let generatorDrop: RuleID = "lint.generator-drop"
}

/// One place where a document contradicts itself, reported once with every place it touches.
public struct Contradiction: Sendable, Hashable {
    /// Where a contradiction shows: an example of an endpoint (`GET /api/events`, status 200 or `request`)
    /// and a location in it, array indices collapsed (`/data/*/startDate`).
    public struct Place: Sendable, Hashable, Comparable, CustomStringConvertible {
        public var endpoint: String
        /// `request`, or the status of a response example.
        public var example: String
        public var pointer: JSONPointer
        /// What the example holds there, when it says more than the message.
        public var found: String?

        public var description: String {
            "\(endpoint) \(example) \(pointer.displayString)" + (found.map { ": found \($0)" } ?? "")
        }

        public static func < (lhs: Place, rhs: Place) -> Bool {
            (lhs.endpoint, lhs.example, lhs.pointer.description) < (rhs.endpoint, rhs.example, rhs.pointer.description)
        }
    }

    public var severity: Diagnostic.Severity
    public var rule: RuleID
    /// A stable identifier: the declared ambiguity's id, or the rule and expectation it groups.
    public var id: String
    public var message: String
    /// What Understudy does about it.
    public var resolution: String
    public var places: [Place]

    /// The endpoints the contradiction touches, in order.
    public var endpoints: [String] { Array(Set(places.map(\.endpoint))).sorted() }

    /// The contradiction as a finding (places and resolution in the context), for `check` and renderers.
    public var diagnostic: Diagnostic {
        var context = ["resolution": resolution]
        if !places.isEmpty {
            let shown = places.prefix(Self.placesShown).map(\.description)
            let more = places.count > Self.placesShown ? ["and \(places.count - Self.placesShown) more"] : []
            context["places"] = (shown + more).joined(separator: "; ")
        }
        return Diagnostic(severity, rule: rule, message: message, context: context)
    }

    static let placesShown = 6
}

/// Finds where a document contradicts itself: examples that break the document's own models, examples the
/// app contract cannot decode, JSON the document's sample client cannot read, and the contradictions the
/// spec records by hand. Each is reported once, with every endpoint and field it touches.
///
/// ```swift
/// for contradiction in DocumentLint.contradictions(in: VideGreniers.spec) {
///     print(contradiction.message, contradiction.endpoints)
/// }
/// ```
public enum DocumentLint {
    public static func contradictions(in spec: APISpec) -> [Contradiction] {
        var groups: [String: Contradiction] = [:]
        func add(_ finding: Diagnostic, rule: RuleID, severity: Diagnostic.Severity, place: Contradiction.Place) {
            // The sample client's failures differ only in where they stop: one root cause per decode rule.
            let key = rule == .sampleClient ? "\(rule) \(finding.rule)" : "\(rule) \(finding.rule) \(finding.expected ?? finding.message)"
            var group =
                groups[key]
                ?? Contradiction(
                    severity: severity, rule: rule, id: "\(finding.rule.rawValue): \(finding.expected ?? "")",
                    message: message(rule: rule, finding: finding, spec: spec),
                    resolution: resolution(rule: rule, spec: spec), places: [])
            if !group.places.contains(place) { group.places.append(place) }
            groups[key] = group
        }

        for endpoint in spec.endpoints {
            for (example, text, model) in examples(of: endpoint, in: spec) {
                let bytes = Array(text.utf8)
                guard let body = try? JSONParser().parse(bytes) else { continue }
                let invalid = model.findings(body, in: spec, direction: .response).filter { $0.severity == .error }
                func place(_ finding: Diagnostic) -> Contradiction.Place {
                    Contradiction.Place(
                        endpoint: endpoint.id, example: example, pointer: finding.pointer.collapsingIndices,
                        found: finding.found)
                }
                for finding in invalid { add(finding, rule: .exampleInvalid, severity: .error, place: place(finding)) }
                // Requests are read by the server, answers by the app.
                let decoder = example == "request" ? spec.wire : spec.app.decoder
                if invalid.isEmpty, let finding = decodeFinding(bytes, body: body, model: model, settings: decoder) {
                    add(finding, rule: .exampleUndecodable, severity: .error, place: place(finding))
                }
            }
            // The sample client reads what the server sends: the document's JSON where it keeps the wire
            // contract, JSON generated from it elsewhere (placeholders would hide the real obstacle).
            if let sample = spec.app.sampleClient, sample != spec.app.decoder, let model = endpoint.response {
                let status = endpoint.success.rawValue
                guard let body = spec.fixture(for: endpoint, seed: 1).responses[status] else { continue }
                if let finding = decodeFinding(body.serializedBytes(), body: body, model: model, settings: sample) {
                    let place = Contradiction.Place(
                        endpoint: endpoint.id, example: String(status), pointer: finding.pointer.collapsingIndices,
                        found: finding.found)
                    add(finding, rule: .sampleClient, severity: .warning, place: place)
                }
            }
        }

        for cycle in SchemaCycles.impossible(in: spec.definitions) {
            let model = cycle.first ?? ""
            let users = spec.endpoints.filter { endpoint in
                [endpoint.request, endpoint.response].contains {
                    $0.map { reaches(model, from: $0.schema, in: spec.definitions) } == true
                }
            }
            groups["\(RuleID.impossibleCycle) \(model)"] = Contradiction(
                severity: .error, rule: .impossibleCycle, id: "\(RuleID.impossibleCycle.rawValue): \(model)",
                message: SchemaCycles.describe(cycle, in: spec.definitions),
                resolution: "no server can send one and no mock can make one: understudy mock refuses the document",
                places: users.map { Contradiction.Place(endpoint: $0.id, example: "model", pointer: .root) })
        }

        if let dropped = generatorDrops(in: spec) { groups["\(RuleID.generatorDrop)"] = dropped }

        var contradictions = groups.values.sorted { ($0.severity.order, $0.id) > ($1.severity.order, $1.id) }
        for index in contradictions.indices { contradictions[index].places.sort() }
        for ambiguity in spec.ambiguities where ambiguity.kind == .contradiction {
            contradictions.append(
                Contradiction(
                    severity: .warning, rule: .contradiction, id: ambiguity.id,
                    message: "\(ambiguity.id): \(ambiguity.summary)", resolution: ambiguity.resolution,
                    places: ambiguity.endpoint.map { [Contradiction.Place(endpoint: $0, example: "model", pointer: .root)] }
                        ?? []))
        }
        return contradictions
    }

    /// Whether `schema` refers to the model `name`, directly or through other models.
    private static func reaches(_ name: String, from schema: Schema, in definitions: SchemaDefinitions) -> Bool {
        var pending = [schema]
        var seen: Set<String> = []
        while let next = pending.popLast() {
            if next.references(name) { return true }
            for (model, definition) in definitions where !seen.contains(model) && next.references(model) {
                seen.insert(model)
                pending.append(definition)
            }
        }
        return false
    }

    /// Every example of an endpoint with the model it must match: `request`, then responses by status.
    private static func examples(of endpoint: AnyEndpoint, in spec: APISpec) -> [(String, String, ModelReference)] {
        var examples: [(String, String, ModelReference)] = []
        if let text = endpoint.examples.request, let model = endpoint.request { examples.append(("request", text, model)) }
        for status in endpoint.examples.responses.keys.sorted() {
            let model = (200..<300).contains(status) ? endpoint.response : spec.errorEnvelope.model
            if let model { examples.append((String(status), endpoint.examples.responses[status]!, model)) }
        }
        return examples
    }

    private static func decodeFinding(_ bytes: [UInt8], body: JSONValue, model: ModelReference, settings: DecoderSettings)
        -> Diagnostic?
    {
        model.decodeError(Data(bytes), settings: settings).flatMap {
            DecodeVerdict.diagnostic(for: $0, body: body, model: model.name)
        }
    }

    private static func message(rule: RuleID, finding: Diagnostic, spec: APISpec) -> String {
        // The places say which members and values; the message says what they share.
        let what =
            finding.rule == .requiredMissing
            ? "a required member is missing" : finding.expected.map { "expected \($0)" } ?? finding.message
        switch rule {
        case .exampleInvalid:
            return "the document's examples break its own models: \(what) [\(finding.rule)]"
        case .exampleUndecodable:
            return "the app contract (\(spec.app.decoder.summary)) cannot decode the document's examples: \(what) "
                + "[\(finding.rule)]"
        default:
            let sample = spec.app.sampleClient?.summary ?? ""
            return "the document's sample client, as written (\(sample)), cannot decode the document's own JSON: "
                + "\(what) [\(finding.rule)]"
        }
    }

    private static func resolution(rule: RuleID, spec: APISpec) -> String {
        switch rule {
        case .exampleInvalid:
            "the models are the contract: these examples are not served as they are (fixtures are generated) and a "
                + "server sending them is reported"
        case .exampleUndecodable:
            "the app as described cannot read what the document shows; give the app's real decoder settings "
                + "(--date-strategy, --key-strategy) or fix the model"
        default:
            "the app contract follows the JSON (\(spec.app.decoder.summary)); an app built from the sample as written "
                + "fails on every such answer"
        }
    }
}

/// Renders `understudy lint`: per API, each contradiction once with the endpoints and places it touches.
public enum LintRenderer {
    /// `{"formatVersion": 1, "summary": {...}, "apis": [{"api", "document", "wire", "app", "contradictions"}]}`.
    public static func json(_ results: [(APISpec, [Contradiction])]) -> String {
        let summary = DiagnosticSummary(results.flatMap(\.1).map(\.diagnostic))
        let document: JSONValue = [
            "formatVersion": 1,
            "summary": [
                "errors": .integer(summary.errors), "warnings": .integer(summary.warnings),
                "notes": .integer(summary.notes),
            ],
            "apis": .array(
                results.map { spec, contradictions in
                    [
                        "api": .string(spec.id), "document": .string(spec.document), "wire": spec.wire.canonicalJSON,
                        "app": spec.app.canonicalJSON, "contradictions": .array(contradictions.map(json)),
                        "assumptions": .array(spec.assumptions.map(\.canonicalJSON)),
                    ]
                }),
        ]
        return document.serialized(.pretty)
    }

    /// A block per API: the two contracts' settings, then each contradiction with its endpoints, its first
    /// places and what Understudy does about it, then what the spec assumes where no document says it.
    public static func text(_ results: [(APISpec, [Contradiction])]) -> String {
        var output = ""
        for (spec, contradictions) in results {
            output += "\(spec.id) (\(spec.document)): wire \(spec.wire.summary); app \(spec.app.decoder.summary)\n"
            if contradictions.isEmpty { output += "  no contradiction\n" }
            for contradiction in contradictions {
                output += "  \(contradiction.severity) \(contradiction.message) [\(contradiction.rule)]\n"
                let endpoints = contradiction.endpoints
                if !endpoints.isEmpty {
                    output += "      endpoints (\(endpoints.count)): \(endpoints.joined(separator: ", "))\n"
                }
                let places = contradiction.places.filter { $0.example != "model" }
                for place in places.prefix(Contradiction.placesShown) { output += "      at \(place)\n" }
                if places.count > Contradiction.placesShown {
                    output += "      and \(places.count - Contradiction.placesShown) more places\n"
                }
                output += "      understudy: \(contradiction.resolution)\n"
            }
            // What `check` only warns about unless --strict: no document says it.
            for ambiguity in Set(spec.assumptions.map(\.ambiguity)).sorted() {
                let assumed = spec.assumptions.filter { $0.ambiguity == ambiguity }.map(\.description)
                output += "  assumed \(assumed.joined(separator: "; ")) [\(ambiguity)]\n"
                if let recorded = spec.ambiguities.first(where: { $0.id == ambiguity }) {
                    output += "      understudy: \(recorded.resolution)\n"
                }
            }
        }
        return output + DiagnosticSummary(results.flatMap(\.1).map(\.diagnostic)).sentence + "\n"
    }

    private static func json(_ contradiction: Contradiction) -> JSONValue {
        [
            "id": .string(contradiction.id), "severity": .string(contradiction.severity.rawValue),
            "rule": .string(contradiction.rule.rawValue), "message": .string(contradiction.message),
            "resolution": .string(contradiction.resolution),
            "endpoints": .array(contradiction.endpoints.map(JSONValue.string)),
            "places": .array(
                contradiction.places.map { place in
                    var object: [String: JSONValue] = [
                        "endpoint": .string(place.endpoint), "example": .string(place.example),
                        "pointer": .string(place.pointer.description),
                    ]
                    if let found = place.found { object["found"] = .string(found) }
                    return .object(object)
                }),
        ]
    }
}

extension Diagnostic.Severity {
    /// `note` 0, `warning` 1, `error` 2.
    package var order: Int { Self.allCases.firstIndex(of: self)! }
}

extension JSONPointer {
    /// The pointer with every array index replaced by `*` (`/data/3/startDate` → `/data/*/startDate`): the
    /// schema location, the same for every element of a list.
    public var collapsingIndices: JSONPointer {
        JSONPointer(tokens: tokens.map { token in !token.isEmpty && token.allSatisfy(\.isASCIIDigit) ? "*" : token })
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

extension DocumentLint {
    /// The null branches of an imported document that swift-openapi-generator drops, with the property that holds
    /// each: one warning, every place named.
    private static func generatorDrops(in spec: APISpec) -> Contradiction? {
        let schema = spec.endpoints.lazy.compactMap { $0.response?.documentSchema ?? $0.request?.documentSchema }.first
        guard let schema else { return nil }
        let places = nullTypeBranches(
            in: schema.registry.storage, document: URIReference(schema.uri).withoutFragment.description)
        guard !places.isEmpty else { return nil }
        return Contradiction(
            severity: .warning, rule: .generatorDrop, id: "\(RuleID.generatorDrop.rawValue): null type",
            message: "\(places.count) anyOf/oneOf branches are {\"type\": \"null\"}, which swift-openapi-generator "
                + "skips with the property that holds them ('Schema \"null\" is not supported')",
            resolution: "write the branch as {\"enum\": [null]}: the same values, kept by swift-openapi-generator, "
                + "openapi-python-client and OpenAPIKit (understudy export writes it so)",
            places: places.map { Contradiction.Place(endpoint: "document", example: "schema", pointer: $0) })
    }

    /// Where a registered document writes an `anyOf`/`oneOf` branch as `{"type": "null"}`, as JSON pointers into
    /// it, sorted.
    private static func nullTypeBranches(in storage: SchemaRegistry.Storage, document uri: String) -> [JSONPointer] {
        guard let document = storage.documentURIs.firstIndex(of: uri) else { return [] }
        let places = storage.nodes.filter { $0.location.document == document }.compactMap { node -> JSONPointer? in
            let branches = node.keywords.flatMap { keyword -> [Int] in
                switch keyword {
                case .anyOf(let branches), .oneOf(let branches): branches
                default: []
                }
            }
            let null = branches.contains { branch in
                guard case .types(let types)? = storage.nodes[branch].keywords.first else { return false }
                return types == .null && storage.nodes[branch].keywords.count == 1
            }
            return null ? JSONPointer(tokens: storage.pointers.tokens(node.location.pointer)) : nil
        }
        return Set(places).sorted { $0.description < $1.description }
    }
}
