import Foundation

/// Everything Understudy knows about one API: its endpoints with their models, the error envelope,
/// the auth scheme, the two contracts and the known ambiguities of its documents.
///
/// Two contracts are kept apart. The *wire contract* is what the server sends and accepts: the
/// documents' JSON, read with ``wire``; schemas are inferred from the endpoint models once, when the spec
/// is created, with those settings, and the mock's bodies, fixtures and the OpenAPI export follow them.
/// The *app contract* is what the app does with it: the same models decoded with ``app``'s decoder
/// settings, which give the `decode.*` verdict. Where a document's sample client cannot read the
/// document's own JSON, the app contract follows the JSON and ``AppContract/sampleClient`` keeps what
/// the document wrote, so `understudy lint` can say once that the sample, as written, would fail.
///
/// ```swift
/// let spec = APISpec(
///     id: "fitness", title: "apinest fitness", document: "fitness-activities-guide.md",
///     auth: .bearerJWT, wire: DecoderSettings(dates: .iso8601),
///     errorEnvelope: ErrorEnvelope(APIErrorResponse.self) { status, messages in ... },
///     endpoints: [AnyEndpoint(Apinest.createActivity)])
/// ```
public struct APISpec: Sendable {
    /// The identifier used by `--api` (`fitness`, `achievements`, `videgreniers`, `easyco`, `intra42`).
    public let id: String
    public let title: String
    /// The file name of the source document in `shared/seeds/`.
    public let document: String
    public let auth: AuthScheme
    /// The wire contract's encoding: decoder settings that read exactly what the server writes (dates,
    /// keys). Schemas, fixtures, the mock's bodies and request parsing follow it.
    public let wire: DecoderSettings
    /// The app contract: how the app decodes the models. A team whose app differs replaces it
    /// (``withApp(_:)``); the schemas do not change.
    public private(set) var app: AppContract
    public let errorEnvelope: ErrorEnvelope
    public let endpoints: [AnyEndpoint]
    /// Where each endpoint is in ``endpoints``, by id: ``endpoint(_:)`` costs as little with 4,500 endpoints as with 5.
    private let endpointPositions: [String: Int]
    public let ambiguities: [Ambiguity]
    /// Whether the server leaves optional keys out or always sends them (`null` when empty).
    public let optionalKeys: OptionalKeyStyle
    /// Every model reachable from the endpoints and the error envelope, by name.
    public let definitions: SchemaDefinitions
    /// The schema engine's compiled form of the models' schemas, shared by every verdict on this spec.
    package let modelSchemas: ModelSchemas
    /// Values the app parses itself after decoding (see ``parsing(_:)``).
    public internal(set) var appParsing: [AppParsing] = []
    /// What the spec takes for granted where the documents are silent (see ``assuming(_:)``); a check's findings
    /// that rest on one are warnings but with `--strict`.
    public internal(set) var assumptions: [Assumption] = []
    /// What the explorer of `check --allow-writes` cannot learn from the document, and the flows no resource
    /// describes (see ``hinting(_:)``).
    public internal(set) var writeHints = WriteHints()
    /// The tables behind a PostgREST API (see ``database(_:)``); empty for other APIs.
    public internal(set) var database: [DatabaseTable] = []
    /// How `check --login email:password` signs in (see ``signingIn(_:)``), when the API has such a login.
    public internal(set) var login: LoginDeclaration?
    /// The path every endpoint is served under (`/v1` from an OpenAPI document's `servers[0].url`), empty for
    /// none. Endpoint paths do not include it: a base URL given to `check` does.
    public package(set) var basePath = ""
    /// The webhooks an imported document says the API calls (OpenAPI 3.1's `webhooks`), sorted by name and method:
    /// a subscriber's handler of one that goes is never called again. Empty for built-in specs.
    public package(set) var webhooks: [OutgoingCall] = []
    /// Whether `format` is an assertion (a mismatch is an error) rather than JSON Schema's annotation (a warning) in
    /// the verdicts on an imported document's bodies (`--format-assertion`).
    public var assertsFormats = false

    /// Creates a spec, inferring the schema of every model with the wire settings.
    /// - Parameters:
    ///   - wire: decoder settings that read what the server sends.
    ///   - app: the app's decoder; `nil` when the app reads the wire as it is.
    public init(
        id: String, title: String, document: String, auth: AuthScheme, wire: DecoderSettings,
        app: AppContract? = nil, errorEnvelope: ErrorEnvelope, endpoints: [AnyEndpoint], ambiguities: [Ambiguity] = [],
        optionalKeys: OptionalKeyStyle = .sometimesAbsent
    ) {
        var inference = SchemaInference(settings: wire)
        self.errorEnvelope = errorEnvelope.resolved(with: &inference)
        self.endpoints = endpoints.map { $0.resolved(with: &inference) }
        endpointPositions = Self.positions(self.endpoints)
        self.id = id
        self.title = title
        self.document = document
        self.auth = auth
        self.wire = wire
        self.app = app ?? AppContract(decoder: wire)
        self.ambiguities = ambiguities
        self.optionalKeys = optionalKeys
        self.definitions = inference.definitions
        modelSchemas = ModelSchemas(inference.definitions)
    }

    /// Creates a spec from schemas described elsewhere (an imported OpenAPI document): no inference.
    package init(
        id: String, title: String, document: String, auth: AuthScheme, wire: DecoderSettings, app: AppContract,
        errorEnvelope: ErrorEnvelope, endpoints: [AnyEndpoint], ambiguities: [Ambiguity],
        optionalKeys: OptionalKeyStyle, definitions: SchemaDefinitions
    ) {
        self.id = id
        self.title = title
        self.document = document
        self.auth = auth
        self.wire = wire
        self.app = app
        self.errorEnvelope = errorEnvelope
        self.endpoints = endpoints
        endpointPositions = Self.positions(endpoints)
        self.ambiguities = ambiguities
        self.optionalKeys = optionalKeys
        self.definitions = definitions
        modelSchemas = ModelSchemas(definitions)
    }

    /// The endpoint named `METHOD /path`, exactly as the inventory writes it.
    public func endpoint(_ id: String) -> AnyEndpoint? {
        endpointPositions[id].map { endpoints[$0] }
    }

    /// Each endpoint's position by id; the first of two with one id.
    private static func positions(_ endpoints: [AnyEndpoint]) -> [String: Int] {
        Dictionary(endpoints.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The same spec judged with another app's decoder (`check --date-strategy`, a config file).
    public func withApp(_ decoder: DecoderSettings, origin: String) -> APISpec {
        var copy = self
        copy.app = AppContract(decoder: decoder, sampleClient: app.sampleClient, origin: origin)
        return copy
    }
}

/// The app side of an API's contract: the decoder settings the app uses on the wire's JSON.
public struct AppContract: Sendable, Hashable {
    /// How the app decodes responses; the `decode.*` verdict follows it.
    public var decoder: DecoderSettings
    /// The decoder the document's sample client configures, when the app contract departs from it
    /// because that sample cannot decode the document's own JSON.
    public var sampleClient: DecoderSettings?
    /// Where the settings come from: `spec` for the descriptors, else the option or file that set them.
    public var origin: String

    public init(decoder: DecoderSettings, sampleClient: DecoderSettings? = nil, origin: String = "spec") {
        self.decoder = decoder
        self.sampleClient = sampleClient
        self.origin = origin
    }
}

/// How a server writes optional members: some servers leave them out, others always send the key
/// (PostgREST sends every selected column, the 42 API sends `null` rather than omitting a key).
public enum OptionalKeyStyle: String, Sendable, Hashable {
    case sometimesAbsent
    case alwaysPresent
}

/// How an API authenticates requests.
public enum AuthScheme: Sendable, Hashable, CustomStringConvertible {
    /// `Authorization: Bearer <JWT>`.
    case bearerJWT
    /// Supabase: an `apikey` header with the project's anon key plus `Authorization: Bearer <JWT>`.
    case supabase
    /// OAuth 2 bearer tokens issued by the token endpoint at `tokenPath`.
    case oauth2(tokenPath: String)

    public var description: String {
        switch self {
        case .bearerJWT: "bearer-jwt"
        case .supabase: "supabase-apikey-jwt"
        case .oauth2(let path): "oauth2(\(path))"
        }
    }
}

/// The body an API answers errors with, and how to build one.
public struct ErrorEnvelope: Sendable {
    /// The model the app decodes errors into.
    public private(set) var model: ModelReference
    /// Builds an error body for a status and messages (messages name the offending field first).
    public let make: @Sendable (HTTPStatus, [String]) -> JSONValue

    /// Creates an envelope description.
    public init<Model: Decodable & Sendable>(
        _ model: Model.Type, make: @escaping @Sendable (HTTPStatus, [String]) -> JSONValue
    ) {
        self.model = ModelReference(model)
        self.make = make
    }

    fileprivate func resolved(with inference: inout SchemaInference) -> ErrorEnvelope {
        var copy = self
        copy.model.resolve(with: &inference)
        return copy
    }

    /// Creates an envelope around a model described elsewhere (an imported OpenAPI document).
    package init(model: ModelReference, make: @escaping @Sendable (HTTPStatus, [String]) -> JSONValue) {
        self.model = model
        self.make = make
    }
}

/// A difference between documents, or a gap in one, and how the spec settles it.
///
/// A ``Kind/choice`` is a decision the spec had to make; `check` lists it as a note when asked
/// (`--notes`). A ``Kind/contradiction`` is a place where the document cannot be right twice (its sample
/// model cannot read its own JSON); `understudy lint` lists it, and `check` warns once per run.
public struct Ambiguity: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case choice
        case contradiction
    }

    /// A stable identifier, such as `challenges-response-shape`.
    public let id: String
    /// The endpoint concerned (`METHOD /path`), if any.
    public let endpoint: String?
    /// What the documents say.
    public let summary: String
    /// What the spec does about it.
    public let resolution: String
    public let kind: Kind

    public init(id: String, endpoint: String? = nil, summary: String, resolution: String, kind: Kind = .choice) {
        self.id = id
        self.endpoint = endpoint
        self.summary = summary
        self.resolution = resolution
        self.kind = kind
    }
}

/// A model type with its inferred schema and a way to decode bytes into it.
public struct ModelReference: Sendable {
    /// The model's name as used in ``APISpec/definitions`` (`ApiResponse<EventDto>`, `Activity`).
    public let name: String
    /// The inferred schema (usually a ``Schema/ref(_:)`` into the spec's definitions).
    public private(set) var schema: Schema
    /// The document's own schema, compiled as JSON Schema reads it (an imported document's), which bodies of the model
    /// are judged by; `nil` for a Swift model, judged by ``schema``.
    public package(set) var documentSchema: CompiledSchema?
    private let infer: @Sendable (inout SchemaInference) throws -> Schema
    private let decodeBody: @Sendable (Data, JSONDecoder) throws -> any Sendable

    /// Creates a reference to `Model`; its schema is inferred when the ``APISpec`` is created.
    public init<Model: Decodable & Sendable>(_ model: Model.Type) {
        name = SchemaInference.name(of: model)
        schema = .any
        infer = { try $0.schema(for: model) }
        decodeBody = { data, decoder in try decoder.decode(model, from: data) }
    }

    /// Creates a reference to a model known only by its name and schema (an imported OpenAPI document);
    /// without a Swift type, any JSON decodes.
    package init(name: String, schema: Schema) {
        self.name = name
        self.schema = schema
        infer = { _ in schema }
        decodeBody = { data, decoder in try decoder.decode(JSONValue.self, from: data) }
    }

    /// Decodes `data` into the model with the app's decoder.
    /// - Throws: what `JSONDecoder` throws.
    public func decode(_ data: Data, settings: DecoderSettings) throws -> any Sendable {
        try decodeBody(data, settings.makeDecoder())
    }

    mutating func resolve(with inference: inout SchemaInference) {
        do {
            schema = try infer(&inference)
        } catch {
            // Specs are compiled in: a model that cannot be described is a programming error.
            preconditionFailure("\(name): \(error)")
        }
    }

    /// The error the app's decode of `bytes` throws, read in place (a 30 MB answer is not copied into a
    /// `Data` first).
    public func decodeError(_ bytes: [UInt8], settings: DecoderSettings) -> (any Error)? {
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return decodeError(Data(), settings: settings) }
            // The Data lives only for this call and never owns the memory.
            let data = Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: buffer.count, deallocator: .none)
            return decodeError(data, settings: settings)
        }
    }

    /// Decodes `data` into the model with the app's decoder, returning the error the app would see.
    public func decodeError(_ data: Data, settings: DecoderSettings) -> (any Error)? {
        do {
            _ = try decodeBody(data, settings.makeDecoder())
            return nil
        } catch {
            return error
        }
    }
}

/// A type-erased ``Endpoint`` with the schemas of its models.
public struct AnyEndpoint: Sendable {
    public let method: HTTPMethod
    public let path: PathTemplate
    public let parameters: [Parameter]
    public let auth: Auth
    public let success: HTTPStatus
    public let errors: [HTTPStatus]
    public let body: BodyRequirement
    public let pagination: Pagination
    /// Rules between values in different places of the request (``Endpoint/rules``).
    public let rules: [RequestRule]
    public let summary: String
    public let availability: Availability
    public let examples: Examples
    /// The request body model, or `nil` when the endpoint takes none.
    public private(set) var request: ModelReference?
    /// The response body model, or `nil` when the response has no body.
    public private(set) var response: ModelReference?
    /// Every response an imported OpenAPI document declares (statuses, `default`, media types, named
    /// examples, headers); empty for built-in specs (see ``documentedResponses(in:)``).
    public package(set) var responses: [DocumentedResponse] = []
    /// The credentials an imported OpenAPI document's `security` asks for: alternatives, each a set sent
    /// together; an empty alternative lets anonymous requests in. Empty for built-in specs, whose
    /// ``APISpec/auth`` says it.
    public package(set) var security: [[SecurityScheme]] = []
    /// The resource and role declared for the endpoint where inference would be wrong (``ResourceGraph``);
    /// `nil` to let inference decide.
    public package(set) var resource: ResourceDeclaration?
    /// Whether the endpoint acts on the caller's own items only (``Endpoint/owner``).
    public package(set) var owner: Ownership?
    /// A list's order when the request asks for none (``Endpoint/order``).
    public package(set) var order: [SortKey] = []
    /// What an action does to the items it acts on (``Endpoint/effect``).
    public package(set) var effect: ActionEffect?
    /// The OpenAPI links of an imported document's success answers (``ResourceGraph`` reads them as the
    /// strongest evidence of an item's identifier); empty for built-in specs.
    public package(set) var links: [ResponseLink] = []
    /// The media types an imported OpenAPI document gives the request body (`application/json`,
    /// `multipart/form-data`), sorted; empty for built-in specs, whose bodies are JSON.
    public package(set) var requestMediaTypes: [String] = []
    /// The callbacks an imported document says the API makes once it has answered (OpenAPI's `callbacks`), sorted
    /// by ``OutgoingCall/id``; empty for built-in specs.
    public package(set) var callbacks: [OutgoingCall] = []

    /// Erases an endpoint's types.
    public init<Request, Response>(_ endpoint: Endpoint<Request, Response>) {
        method = endpoint.method
        path = endpoint.path
        parameters = endpoint.parameters
        auth = endpoint.auth
        success = endpoint.success
        errors = endpoint.errors
        body = endpoint.body
        pagination = endpoint.pagination
        rules = endpoint.rules
        summary = endpoint.summary
        availability = endpoint.availability
        examples = endpoint.examples
        resource = endpoint.resource
        owner = endpoint.owner
        order = endpoint.order
        effect = endpoint.effect
        request = Request.self == NoBody.self ? nil : ModelReference(Request.self)
        response = Response.self == NoContent.self ? nil : ModelReference(Response.self)
    }

    /// Creates an endpoint from parts described elsewhere (an imported OpenAPI document).
    package init(
        method: HTTPMethod, path: PathTemplate, parameters: [Parameter], auth: Auth, success: HTTPStatus,
        errors: [HTTPStatus], body: BodyRequirement, pagination: Pagination, summary: String,
        availability: Availability, request: ModelReference?, response: ModelReference?,
        rules: [RequestRule] = [], examples: Examples = Examples()
    ) {
        self.method = method
        self.path = path
        self.parameters = parameters
        self.auth = auth
        self.success = success
        self.errors = errors
        self.body = body
        self.pagination = pagination
        self.rules = rules
        self.summary = summary
        self.availability = availability
        self.examples = examples
        self.request = request
        self.response = response
    }

    /// `METHOD /path`.
    public var id: String { "\(method.rawValue) \(path.template)" }

    fileprivate func resolved(with inference: inout SchemaInference) -> AnyEndpoint {
        var copy = self
        copy.request?.resolve(with: &inference)
        copy.response?.resolve(with: &inference)
        return copy
    }
}

/// What a spec takes for granted where no document says it, and the ambiguity that records why.
///
/// `check` still probes what is assumed, but a finding that rests on it is a warning, tagged with the
/// ambiguity, unless `--strict`; `understudy lint` lists them per API.
public struct Assumption: Sendable, Hashable, CustomStringConvertible {
    public enum Subject: Sendable, Hashable {
        /// An error status no document names (42's 404 for an unknown login), and the envelope its body is
        /// judged by.
        case status(HTTPStatus)
        /// Values of a query parameter no document lists (VideGreniers' `sortBy=EntryFeeAmount`), compared
        /// without case.
        case values(parameter: String, [String])
    }

    public let subject: Subject
    /// The ``Ambiguity/id`` that records it (`error-statuses`).
    public let ambiguity: String

    public init(_ subject: Subject, ambiguity: String) {
        self.subject = subject
        self.ambiguity = ambiguity
    }

    /// `status 404 and its body`, `sortBy=EntryFeeAmount|FavoriteCount`.
    public var description: String {
        switch subject {
        case .status(let status): "status \(status.rawValue) and its error body"
        case .values(let parameter, let values): "\(parameter)=\(values.joined(separator: "|"))"
        }
    }
}

extension APISpec {
    /// The spec taking `assumptions` for granted (42's 404 for an unknown login): `check` still expects them, but
    /// a server that answers otherwise gets a warning naming the ambiguity, not an error, unless `--strict`.
    public func assuming(_ assumptions: [Assumption]) -> APISpec {
        var copy = self
        copy.assumptions = assumptions
        return copy
    }

    /// The ambiguity behind an expected `status`, when no document names it.
    public func assumption(status: HTTPStatus) -> String? {
        assumptions.first { $0.subject == .status(status) }?.ambiguity
    }

    /// The ambiguity behind sending `value` in the query parameter `parameter`, when no document lists it.
    public func assumption(parameter: String, value: String) -> String? {
        assumptions.first { assumption in
            guard case .values(parameter, let values) = assumption.subject else { return false }
            return values.contains { $0.caseInsensitiveCompare(value) == .orderedSame }
        }?.ambiguity
    }
}
