import Foundation

/// A write flow no resource describes (an account signed up, refreshed and deleted; PostgREST rows named by
/// filters), declared with a spec's ``WriteHints/flow(covering:_:)``: it calls endpoints through the endpoint
/// descriptors (bodies are the endpoints' own request models) and removes what it made where the API offers a way
/// to. The explorer of `check --allow-writes` does everything else, and runs the flow after exploring.
///
/// Every call goes through the ``ScenarioSession``, which judges each answer like a read. A failed step returns `nil`,
/// so the steps that need its result are skipped, never the clean-up of what already exists.
///
/// ```swift
/// let notes = WriteScenario { session in
///     guard let created = await session.call(Notes.create, body: Notes.NewNote(title: "Understudy")),
///         let id = created["id"]?.stringValue
///     else { return }
///     await session.call(Notes.delete, path: ["id": id])
/// }
/// ```
public struct WriteScenario: Sendable {
    private let body: @Sendable (any ScenarioSession) async -> Void

    public init(_ body: @escaping @Sendable (any ScenarioSession) async -> Void) {
        self.body = body
    }

    /// Runs the flow.
    public func run(in session: any ScenarioSession) async {
        await body(session)
    }
}

/// What a ``WriteScenario`` can do; `understudy check` provides it.
public protocol ScenarioSession: Sendable {
    /// The spec the scenario runs against.
    var spec: APISpec { get }
    /// The run's clock (fixed in tests).
    var now: Date { get }
    /// The run's seed: names a scenario makes up include it.
    var seed: UInt64 { get }
    /// The bearer token the run holds, if any.
    var token: String? { get }
    /// The refresh token of the session the checker opened with the spec's ``LoginDeclaration``, if it did.
    var refreshToken: String? { get }

    /// Calls the endpoint named `id` expecting its success status; the answer is judged like a read.
    /// - Returns: the parsed body of a 2xx answer (`{}` when it has none), `nil` when the call failed or
    ///   cannot be made (no credential, endpoint not selected).
    @discardableResult
    func call(
        _ id: String, path: [String: String], query: [(String, String)], headers: [String: String],
        body: JSONValue?, authenticated: Bool
    ) async -> JSONValue?

    /// Records that the scenario could not exercise an endpoint, and why.
    func skip(_ id: String, because reason: String)
    /// Records a note about an endpoint (what a scenario leaves behind).
    func note(_ id: String, _ message: String)
    /// Keeps a secret the scenario made up (a password, a token) out of every report.
    func remember(secret: String, as name: String)
}

extension ScenarioSession {
    /// Calls a typed endpoint with its request model, encoded as the wire writes it.
    @discardableResult
    public func call<Request: Encodable, Response>(
        _ endpoint: Endpoint<Request, Response>, path: [String: String] = [:], query: [(String, String)] = [],
        headers: [String: String] = [:], body: Request, authenticated: Bool = true
    ) async -> JSONValue? {
        guard let data = try? spec.wire.makeEncoder().encode(body), let json = try? JSONParser().parse(Array(data))
        else {
            skip(endpoint.id, because: "its request body could not be encoded")
            return nil
        }
        return await call(endpoint.id, path: path, query: query, headers: headers, body: json, authenticated: authenticated)
    }

    /// Calls a typed endpoint without a body.
    @discardableResult
    public func call<Request, Response>(
        _ endpoint: Endpoint<Request, Response>, path: [String: String] = [:], query: [(String, String)] = [],
        headers: [String: String] = [:], authenticated: Bool = true
    ) async -> JSONValue? {
        await call(endpoint.id, path: path, query: query, headers: headers, body: nil, authenticated: authenticated)
    }

    /// The signed-in user's id: the `sub` claim of the bearer token (read, not verified).
    public var userID: String? { token.flatMap(JWTClaims.subject) }

    /// Records that the scenario could not exercise a typed endpoint, and why.
    public func skip<Request, Response>(_ endpoint: Endpoint<Request, Response>, because reason: String) {
        skip(endpoint.id, because: reason)
    }
}

/// How an API signs a user in with an e-mail and a password (`check --login email:password`): the endpoint,
/// the body's field names, and where the answer holds the tokens.
public struct LoginDeclaration: Sendable {
    /// The endpoint's id (`POST /api/auth/login`).
    public var endpoint: String
    public var emailField: String
    public var passwordField: String
    /// Where the access token is in the answer.
    public var token: JSONPointer
    /// Where the refresh token is, when the API issues one.
    public var refreshToken: JSONPointer?

    public init(
        endpoint: String, emailField: String = "email", passwordField: String = "password", token: JSONPointer,
        refreshToken: JSONPointer? = nil
    ) {
        self.endpoint = endpoint
        self.emailField = emailField
        self.passwordField = passwordField
        self.token = token
        self.refreshToken = refreshToken
    }
}

extension APISpec {
    /// The same spec with its e-mail and password sign-in.
    public func signingIn(_ login: LoginDeclaration) -> APISpec {
        var copy = self
        copy.login = login
        return copy
    }
}

/// Dates as scenarios write them in request bodies.
public enum ScenarioDate {
    /// `2025-11-15T14:30:00Z`.
    public static func instant(_ date: Date) -> String { date.formatted(.iso8601) }

    /// `2025-11-15`.
    public static func day(_ date: Date) -> String { date.formatted(.iso8601.year().month().day()) }
}

/// Reads claims from a JWT's payload without verifying it (the server verifies; a checker needs the user id).
public enum JWTClaims {
    /// The `sub` claim: the user's id.
    public static func subject(_ token: String) -> String? { claim("sub", of: token) }

    /// A string claim of the token's payload (`email`).
    public static func claim(_ name: String, of token: String) -> String? {
        let parts = token.split(separator: ".")
        guard parts.count == 3 else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let payload = try? JSONParser().parse(Array(data)) else { return nil }
        return payload[name]?.stringValue
    }
}
