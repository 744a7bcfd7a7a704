/// One version of an API as ``SpecDiff`` reads it: its canonical form (``APISpec/canonicalJSON``, as a committed
/// baseline holds it) and, when it was read from a document, the spec, whose models keep the document's own schemas
/// (``ModelReference/documentSchema``): those are compared as the schema engine reads them, every keyword.
///
/// ```swift
/// let changes = SpecDiff.compare(old: SpecVersion(try OpenAPIImport.spec(v1, source: "v1.yaml")),
///                                new: SpecVersion(try OpenAPIImport.spec(v2, source: "v2.yaml")))
/// ```
public struct SpecVersion: Sendable {
    public var canonical: JSONValue
    public var spec: APISpec?

    public init(canonical: JSONValue) {
        self.canonical = canonical
        spec = nil
    }

    public init(_ spec: APISpec) {
        canonical = spec.canonicalJSON
        self.spec = spec
    }
}

/// The schemas of one side of a diff, as the engine compiles them: an imported model's own, else the canonical
/// form's (read as every verdict on a Swift model reads it, ``SchemaDialect/understudy``), compiled once for the side.
struct DiffSchemas {
    /// An operation of a canonical document (an endpoint, a webhook's, a callback's), with its place in it.
    struct Endpoint {
        var id: String
        var pointer: JSONPointer
        var json: JSONValue
    }

    /// Where one endpoint's schemas are.
    struct EndpointSchemas {
        fileprivate var canonical: SchemaRegistry?
        /// Where the operation is in the canonical document.
        var pointer: JSONPointer
        fileprivate var request: CompiledSchema?
        fileprivate var response: CompiledSchema?
        /// The operation as the document describes it, where the document is at hand.
        fileprivate var described: AnyEndpoint?
        fileprivate var spec: APISpec?
        /// The request body's media types, where the document is at hand (``AnyEndpoint/requestMediaTypes``).
        var requestMediaTypes: [String]?
        /// The headers each documented status declares (`-1` for `default`), with their compiled schemas, where the
        /// document is at hand.
        var responseHeaders: [Int: [(header: Parameter, schema: CompiledSchema)]]?

        /// The schemas of the endpoint's callback `call` (``OutgoingCall/id``), which the canonical form holds
        /// below it.
        func callback(_ call: Endpoint) -> EndpointSchemas {
            DiffSchemas.schemas(
                of: call, described: described?.callbacks.first { $0.id == call.id }?.operation, spec: spec,
                canonical: canonical)
        }

        /// The request's or the answer's schema on both sides, like compared with like: the documents' own where both
        /// sides have one (two versions of a document), else the canonical forms' (a baseline against a document: the
        /// canonical form of an imported model is the document's schema as the descriptors keep it).
        static func bodies(
            _ old: EndpointSchemas, _ new: EndpointSchemas, _ side: MessageDirection
        ) -> (CompiledSchema?, CompiledSchema?) {
            let documents = side == .request ? (old.request, new.request) : (old.response, new.response)
            if let before = documents.0, let after = documents.1 { return (before, after) }
            let place = side == .request ? "request" : "response"
            return (old.compiled(old.pointer.appending(place).appending("schema")),
                    new.compiled(new.pointer.appending(place).appending("schema")))
        }

        /// The schemas of the parameter at `positions.old` of the old endpoint's `parameters` and at `positions.new`
        /// of the new one's, like compared with like as ``bodies(_:_:_:)`` does.
        static func parameters(
            _ old: EndpointSchemas, _ new: EndpointSchemas, at positions: (old: Int, new: Int)
        ) -> (CompiledSchema?, CompiledSchema?) {
            let documents = (old.described?.parameters[positions.old].documentSchema,
                             new.described?.parameters[positions.new].documentSchema)
            if let before = documents.0, let after = documents.1 { return (before, after) }
            let place = { (side: EndpointSchemas, position: Int) in
                side.compiled(side.pointer.appending("parameters").appending(position).appending("schema"))
            }
            return (place(old, positions.old), place(new, positions.new))
        }

        private func compiled(_ pointer: JSONPointer) -> CompiledSchema? {
            canonical?.schema(inDocument: DiffSchemas.uri, at: pointer)
        }
    }

    static let uri = "urn:understudy:canonical"
    let spec: APISpec?
    let canonical: SchemaRegistry?

    init(_ version: SpecVersion) {
        spec = version.spec
        canonical = try? SchemaRegistry(dialect: .understudy)
            .adding(document: version.canonical, uri: Self.uri, schemaRoots: Self.roots(of: version.canonical))
    }

    func endpoint(_ endpoint: Endpoint) -> EndpointSchemas {
        Self.schemas(of: endpoint, described: spec?.endpoint(endpoint.id), spec: spec, canonical: canonical)
    }

    /// The schemas of the webhook operation `call` (``OutgoingCall/id``).
    func webhook(_ call: Endpoint) -> EndpointSchemas {
        Self.schemas(
            of: call, described: spec?.webhooks.first { $0.id == call.id }?.operation, spec: spec, canonical: canonical)
    }

    fileprivate static func schemas(
        of endpoint: Endpoint, described: AnyEndpoint?, spec: APISpec?, canonical: SchemaRegistry?
    ) -> EndpointSchemas {
        var headers: [Int: [(header: Parameter, schema: CompiledSchema)]]?
        if let spec, let described, !described.responses.isEmpty {
            headers = [:]
            for response in described.responses {
                headers?[response.status ?? -1, default: []] += response.headers.map {
                    ($0, $0.documentSchema ?? spec.modelSchemas.compiled($0.schema))
                }
            }
        }
        return EndpointSchemas(
            canonical: canonical, pointer: endpoint.pointer, request: described?.request?.documentSchema,
            response: described?.response?.documentSchema, described: described, spec: spec,
            requestMediaTypes: described.map(\.requestMediaTypes), responseHeaders: headers)
    }

    /// Every place a canonical document holds a schema: its definitions, the bodies and parameters of each endpoint,
    /// webhook and callback, and the error envelope (the dialect compiles each `x-pairs`' key and value below them).
    private static func roots(of document: JSONValue) -> [JSONPointer] {
        var roots = (document["definitions"]?.objectValue ?? [:]).keys.sorted().map { JSONPointer(tokens: ["definitions", $0]) }
        func visit(_ operation: JSONValue, at place: JSONPointer) {
            for member in ["request", "response"] where operation[member]?["schema"] != nil {
                roots.append(place.appending(member).appending("schema"))
            }
            for (position, parameter) in (operation["parameters"]?.arrayValue ?? []).enumerated()
            where parameter["schema"] != nil {
                roots.append(place.appending("parameters").appending(String(position)).appending("schema"))
            }
            for (index, call) in (operation["callbacks"]?.arrayValue ?? []).enumerated() {
                visit(call, at: place.appending("callbacks").appending(String(index)))
            }
        }
        for member in ["endpoints", "webhooks"] {
            for (index, entry) in (document[member]?.arrayValue ?? []).enumerated() {
                visit(entry, at: JSONPointer(tokens: [member, String(index)]))
            }
        }
        if document["errorEnvelope"]?["schema"] != nil { roots.append(JSONPointer(tokens: ["errorEnvelope", "schema"])) }
        return roots
    }
}

/// What one diff of an API has compared: each pair of definitions' changes, relative to the pair, and the pairs being
/// compared now (a recursion through them ends).
final class SchemaMemo {
    var found: [String: [SpecChange]] = [:]
    var comparing: Set<String> = []
    let stack = StackGuard()
}
