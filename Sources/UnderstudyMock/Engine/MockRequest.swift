import Foundation
import UnderstudyCore

/// A request as a mock behaviour sees it: transport-independent, already routed, authenticated and
/// validated against the endpoint's descriptor.
public struct MockRequest: Sendable {
    public var method: HTTPMethod
    /// The path without the query (`/api/events/42`).
    public var path: String
    /// Path parameters of the matched endpoint (`["id": "42"]`), percent-decoded.
    public var pathParameters: [String: String]
    public var query: QueryItems
    /// Header values by lower-cased name (the last value wins).
    public var headers: [String: String]
    public var body: [UInt8]
    /// The body parsed as JSON, when there is one and it parsed.
    public var json: JSONValue?
    /// Who is calling, when a credential was presented and accepted.
    public var principal: Principal?
    /// Whether this is a `HEAD` of a `GET` endpoint: the engine drops the body, so a handler may skip writing it.
    public var isHead = false

    public init(
        method: HTTPMethod, path: String, query: QueryItems = QueryItems(""), headers: [String: String] = [:],
        body: [UInt8] = []
    ) {
        self.method = method
        self.path = path
        self.pathParameters = [:]
        self.query = query
        self.headers = Dictionary(
            headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
    }

    /// Creates a request whose header names are already lower-cased (as ``RawRequest`` keeps them).
    init(method: HTTPMethod, path: String, query: QueryItems, lowercasedHeaders: [String: String], body: [UInt8]) {
        self.method = method
        self.path = path
        self.pathParameters = [:]
        self.query = query
        self.headers = lowercasedHeaders
        self.body = body
    }

    /// A header value by case-insensitive name.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// `http://host:port` as the client reached the server (`X-Forwarded-Host` and `X-Forwarded-Proto` behind a
    /// proxy), for absolute URLs in answers (`Link`, `Location`); empty without a `Host` header.
    public var origin: String {
        guard let host = header("x-forwarded-host") ?? header("host"), !host.isEmpty else { return "" }
        return "\(header("x-forwarded-proto") ?? "http")://\(host)"
    }

    /// The bearer token of the `Authorization` header, if any.
    public var bearerToken: String? {
        guard let authorization = header("authorization") else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1]).trimmingSpaces
    }
}

/// An authenticated caller.
public struct Principal: Sendable, Hashable {
    /// The user id (JWT `sub`, 42 user id).
    public var subject: String
    public var roles: [String]
    /// The raw credential, so logout can revoke it.
    public var token: String
    /// When the credential stops being accepted: `.distantFuture` for one that never expires, `nil` when
    /// unknown. Answers to a request with a credential are served again from the engine's cache without
    /// authenticating it only until then, so leave it `nil` unless every later refusal comes from a state change.
    public var expiresAt: Date?

    public init(subject: String, roles: [String] = [], token: String, expiresAt: Date? = nil) {
        self.subject = subject
        self.roles = roles
        self.token = token
        self.expiresAt = expiresAt
    }

    /// Whether the caller has a role (compared without case: documents write `Admin`, `admin`).
    public func has(role: String) -> Bool { roles.contains { $0.lowercased() == role.lowercased() } }
}

extension MockRequest {
    /// The validated JSON body as a spec model, read with the API's wire settings as its server binds it: the
    /// members the model does not declare are skipped unread, as System.Text.Json and NestJS's pipes skip them
    /// (Foundation's decoder would parse them first, and refuses some valid numbers, a subnormal such as
    /// -2.2250738585e-313).
    /// - Throws: ``MockError`` 400 when there is no body or it does not decode.
    public func body<Model: Decodable>(as model: Model.Type, in spec: APISpec) throws -> Model {
        guard var json else { throw MockError(.badRequest, "body: a JSON body is required") }
        if case .object(let members) = json,
            case .object(let schema)? = spec.definitions[SchemaInference.name(of: Model.self)]
        {
            let declared = Set(schema.properties.map(\.name))
            json = .object(members.filter { declared.contains($0.key) })
        }
        do {
            return try spec.wire.makeDecoder().decode(Model.self, from: Data(json.serializedBytes()))
        } catch {
            throw MockError(.badRequest, "body: \(error)")
        }
    }
}
