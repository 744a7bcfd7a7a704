/// One documented operation of an API, typed by the request body the app sends and the response
/// model it decodes.
///
/// ```swift
/// static let createActivity = Endpoint<CreateActivityRequest, Activity>(
///     .post, "/activities", auth: .required, success: .created,
///     errors: [.badRequest, .unauthorized],
///     summary: "Create an activity; the creator joins it")
/// ```
public struct Endpoint<Request: Decodable & Sendable, Response: Decodable & Sendable>: Sendable {
    public var method: HTTPMethod
    public var path: PathTemplate
    public var parameters: [Parameter]
    public var auth: Auth
    /// The status of a successful response.
    public var success: HTTPStatus
    /// The documented error statuses; each is answered with the API's error envelope.
    public var errors: [HTTPStatus]
    /// Whether a request body is sent (`NoBody` endpoints ignore this).
    public var body: BodyRequirement
    public var pagination: Pagination
    /// Rules between values in different places of the request (two query parameters, body and path).
    public var rules: [RequestRule]
    public var summary: String
    public var availability: Availability
    /// Examples taken verbatim from the document: response bodies keyed by status, and the request body.
    public var examples: Examples
    /// The resource and role of the endpoint where inference from the path would be wrong (``ResourceGraph``).
    public var resource: ResourceDeclaration?
    /// Whether the endpoint acts on the caller's own items only (``Ownership``).
    public var owner: Ownership?
    /// For a list, the order of its items when the request asks for none (newest first: `[.descending("/createdAt")]`).
    public var order: [SortKey]
    /// For an action, what it does to the items it acts on.
    public var effect: ActionEffect?

    /// Creates an endpoint descriptor.
    /// - Parameters:
    ///   - method: the HTTP method.
    ///   - path: the path template, `{name}` for path parameters (each must be described in `parameters`,
    ///     or it defaults to a string).
    ///   - parameters: path, query and header parameters.
    ///   - auth: who may call it.
    ///   - success: the status of a successful response.
    ///   - errors: the documented error statuses.
    ///   - body: whether the request body is required; ignored when `Request` is ``NoBody``.
    ///   - pagination: how the response is paged, if it is.
    ///   - rules: rules between values in different places of the request, which no schema states.
    ///   - summary: one sentence from the document.
    ///   - availability: whether the server implements it yet.
    ///   - examples: JSON examples copied from the document.
    ///   - resource: the resource and role where inference would be wrong (`GET /api/events/nearby` searches events).
    ///   - owner: whether the endpoint acts on the caller's own items only.
    ///   - order: a list's order when the request asks for none.
    ///   - effect: what an action does to the items it acts on.
    public init(
        _ method: HTTPMethod,
        _ path: PathTemplate,
        parameters: [Parameter] = [],
        auth: Auth,
        success: HTTPStatus = .ok,
        errors: [HTTPStatus] = [],
        body: BodyRequirement = .required,
        pagination: Pagination = .none,
        rules: [RequestRule] = [],
        summary: String,
        availability: Availability = .available,
        examples: Examples = Examples(),
        resource: ResourceDeclaration? = nil,
        owner: Ownership? = nil,
        order: [SortKey] = [],
        effect: ActionEffect? = nil
    ) {
        self.method = method
        self.path = path
        let declared = Set(parameters.filter { $0.location == .path }.map(\.name))
        self.parameters =
            path.parameterNames.filter { !declared.contains($0) }.map { Parameter.path($0) } + parameters
        self.auth = auth
        self.success = success
        self.errors = errors
        self.body = Request.self == NoBody.self ? .none : body
        self.pagination = pagination
        self.rules = rules
        self.summary = summary
        self.availability = availability
        self.examples = examples
        self.resource = resource
        self.owner = owner
        self.order = order
        self.effect = effect
    }

    /// `METHOD /path`, as endpoints are named in findings and on the command line.
    public var id: String { "\(method.rawValue) \(path.template)" }
}

/// The type of an endpoint that takes no request body.
public struct NoBody: Codable, Sendable, Hashable {
    public init() {}
}

/// The type of a response with no body (`204 No Content`).
public struct NoContent: Codable, Sendable, Hashable {
    public init() {}
}

/// Whether an endpoint takes a request body.
public enum BodyRequirement: String, Sendable, Hashable {
    case none, optional, required
}

/// Whether the server implements an endpoint yet.
public enum Availability: Sendable, Hashable {
    case available
    /// Named by the document but not implemented yet ("coming soon"); the note says what was announced.
    case announced(String)
}

/// Who may call an endpoint; the credential itself is the API's ``AuthScheme``.
public enum Auth: Sendable, Hashable, CustomStringConvertible {
    /// No credential.
    case none
    /// A credential changes the answer (for example `isFavorite`) but is not needed.
    case optional
    /// A valid credential is needed.
    case required
    /// A valid credential carrying this role is needed.
    case role(String)

    public var description: String {
        switch self {
        case .none: "none"
        case .optional: "optional"
        case .required: "required"
        case .role(let role): "role:\(role)"
        }
    }
}

/// How a list response is paged.
public enum Pagination: Sendable, Hashable, CustomStringConvertible {
    case none
    /// `page` / `pageSize` (or `limit`) query parameters, page metadata in the body at `metadataPointer`.
    case pageInBody(pageParameter: String, sizeParameter: String, metadataPointer: JSONPointer)
    /// 42 style: `page[number]`/`page[size]`, `Link`, `X-Page`, `X-Per-Page`, `X-Total` headers.
    case linkHeader
    /// PostgREST style: `limit`/`offset` or `Range`, answered with `Content-Range`.
    case range

    public var description: String {
        switch self {
        case .none: "none"
        case .pageInBody(let page, let size, let pointer): "page-in-body(\(page),\(size),\(pointer))"
        case .linkHeader: "link-header"
        case .range: "range"
        }
    }
}

/// Examples copied verbatim from an API's document.
public struct Examples: Sendable, Hashable {
    /// The request body example, as JSON text.
    public var request: String?
    /// Response body examples keyed by status code, as JSON text.
    public var responses: [Int: String]
    /// Query strings the document shows verbatim (`status=eq.published&order=created_at.desc`).
    public var queries: [String]

    public init(request: String? = nil, responses: [Int: String] = [:], queries: [String] = []) {
        self.request = request
        self.responses = responses
        self.queries = queries
    }
}
