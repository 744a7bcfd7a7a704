import Foundation

/// Everything Understudy knows about one API: its endpoints with their models, the error envelope,
/// the auth scheme, the app's decoder settings and the known ambiguities of its documents.
///
/// Schemas are inferred from the endpoint models once, when the spec is created, with the API's
/// ``DecoderSettings``; every model gets a named entry in ``definitions``.
///
/// ```swift
/// let spec = APISpec(
///     id: "fitness", title: "apinest fitness", document: "fitness-activities-guide.md",
///     auth: .bearerJWT, decoder: DecoderSettings(dates: .iso8601),
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
    public let decoder: DecoderSettings
    public let errorEnvelope: ErrorEnvelope
    public let endpoints: [AnyEndpoint]
    public let ambiguities: [Ambiguity]
    /// Whether the server leaves optional keys out or always sends them (`null` when empty).
    public let optionalKeys: OptionalKeyStyle
    /// Every model reachable from the endpoints and the error envelope, by name.
    public let definitions: SchemaDefinitions
    /// Values the app parses itself after decoding (see ``parsing(_:)``).
    public internal(set) var appParsing: [AppParsing] = []
    /// Error statuses the spec adds where the documents are silent (see ``assuming(_:)``).
    public internal(set) var assumedStatuses: Set<HTTPStatus> = []

    /// Creates a spec, inferring the schema of every model with `decoder`.
    public init(
        id: String, title: String, document: String, auth: AuthScheme, decoder: DecoderSettings,
        errorEnvelope: ErrorEnvelope, endpoints: [AnyEndpoint], ambiguities: [Ambiguity] = [],
        optionalKeys: OptionalKeyStyle = .sometimesAbsent
    ) {
        var inference = SchemaInference(settings: decoder)
        self.errorEnvelope = errorEnvelope.resolved(with: &inference)
        self.endpoints = endpoints.map { $0.resolved(with: &inference) }
        self.id = id
        self.title = title
        self.document = document
        self.auth = auth
        self.decoder = decoder
        self.ambiguities = ambiguities
        self.optionalKeys = optionalKeys
        self.definitions = inference.definitions
    }

    /// Creates a spec from schemas described elsewhere (an imported OpenAPI document): no inference.
    package init(
        id: String, title: String, document: String, auth: AuthScheme, decoder: DecoderSettings,
        errorEnvelope: ErrorEnvelope, endpoints: [AnyEndpoint], ambiguities: [Ambiguity],
        optionalKeys: OptionalKeyStyle, definitions: SchemaDefinitions
    ) {
        self.id = id
        self.title = title
        self.document = document
        self.auth = auth
        self.decoder = decoder
        self.errorEnvelope = errorEnvelope
        self.endpoints = endpoints
        self.ambiguities = ambiguities
        self.optionalKeys = optionalKeys
        self.definitions = definitions
    }

    /// The endpoint named `METHOD /path`, exactly as the inventory writes it.
    public func endpoint(_ id: String) -> AnyEndpoint? {
        endpoints.first { $0.id == id }
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
/// `check` reports each one as a note so a team sees which part of the contract is a choice.
public struct Ambiguity: Sendable, Hashable {
    /// A stable identifier, such as `challenges-response-shape`.
    public let id: String
    /// The endpoint concerned (`METHOD /path`), if any.
    public let endpoint: String?
    /// What the documents say.
    public let summary: String
    /// What the spec does about it.
    public let resolution: String

    public init(id: String, endpoint: String? = nil, summary: String, resolution: String) {
        self.id = id
        self.endpoint = endpoint
        self.summary = summary
        self.resolution = resolution
    }
}

/// A model type with its inferred schema and a way to decode bytes into it.
public struct ModelReference: Sendable {
    /// The model's name as used in ``APISpec/definitions`` (`ApiResponse<EventDto>`, `Activity`).
    public let name: String
    /// The inferred schema (usually a ``Schema/ref(_:)`` into the spec's definitions).
    public private(set) var schema: Schema
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
    public let summary: String
    public let availability: Availability
    public let examples: Examples
    /// The request body model, or `nil` when the endpoint takes none.
    public private(set) var request: ModelReference?
    /// The response body model, or `nil` when the response has no body.
    public private(set) var response: ModelReference?

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
        summary = endpoint.summary
        availability = endpoint.availability
        examples = endpoint.examples
        request = Request.self == NoBody.self ? nil : ModelReference(Request.self)
        response = Response.self == NoContent.self ? nil : ModelReference(Response.self)
    }

    /// Creates an endpoint from parts described elsewhere (an imported OpenAPI document).
    package init(
        method: HTTPMethod, path: PathTemplate, parameters: [Parameter], auth: Auth, success: HTTPStatus,
        errors: [HTTPStatus], body: BodyRequirement, pagination: Pagination, summary: String,
        availability: Availability, request: ModelReference?, response: ModelReference?
    ) {
        self.method = method
        self.path = path
        self.parameters = parameters
        self.auth = auth
        self.success = success
        self.errors = errors
        self.body = body
        self.pagination = pagination
        self.summary = summary
        self.availability = availability
        self.examples = Examples()
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

extension APISpec {
    /// The spec with error statuses no document names but the spec assumes (42's 404 for an unknown login):
    /// `check` still expects them, but a server that answers otherwise gets a warning, not an error.
    public func assuming(_ statuses: Set<HTTPStatus>) -> APISpec {
        var copy = self
        copy.assumedStatuses = statuses
        return copy
    }
}
