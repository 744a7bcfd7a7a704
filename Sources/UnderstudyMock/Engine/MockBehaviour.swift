import UnderstudyCore

/// What makes one API's mock: its specs, its credentials, and an overlay over the fixture engine for the
/// endpoints whose answers depend on state.
///
/// The ``MockEngine`` routes, authenticates and validates before calling ``handle(_:endpoint:spec:)``:
/// a handler only sees requests the descriptor accepts. Handlers must answer from the state and the
/// request alone (GET answers are cached per state version, caller and query). An endpoint a behaviour does
/// not answer (`nil`) is answered from its descriptor, as ``FixtureMock`` answers every endpoint: a behaviour
/// holds state logic only, and an endpoint added to a spec is served before any overlay knows it.
public protocol MockBehaviour: Sendable {
    /// The API group name (`apinest`, `videgreniers`, `easyco`, `intra42`).
    var name: String { get }
    /// The specs served (apinest serves fitness and achievements from one process).
    var specs: [APISpec] { get }
    /// Increases with every state change.
    var stateVersion: UInt64 { get }
    /// Whether other mocks change the state too (`mock --state postgres://…`): an answer computed before is
    /// then served only after ``synchronize()``.
    var sharesState: Bool { get }

    /// Applies what other mocks sharing the state wrote; the engine calls it before answering each request.
    /// - Throws: ``StateFileError`` when the shared state cannot be reached (answered 503).
    func synchronize() async throws

    /// The caller of a request: `nil` when no credential was presented.
    /// - Throws: ``MockError`` (401) for a malformed, expired, revoked or wrongly signed credential.
    func authenticate(_ request: MockRequest, endpoint: AnyEndpoint) async throws -> Principal?

    /// Answers a routed, authenticated and validated request; `nil` when the answer does not depend on state,
    /// and the descriptor's fixture answer is the answer.
    /// - Throws: ``MockError`` for documented errors (404, 403, 409, ...).
    func handle(_ request: MockRequest, endpoint: AnyEndpoint, spec: APISpec) async throws -> MockResponse?

    /// The body of an error the engine or a handler produced. Defaults to the spec's envelope.
    func errorResponse(_ error: MockError, spec: APISpec) -> MockResponse

    /// The body of an error on a routed endpoint. Defaults to ``errorResponse(_:spec:)``; an imported document
    /// answers in what the endpoint documents for the status.
    func errorResponse(_ error: MockError, spec: APISpec, endpoint: AnyEndpoint) -> MockResponse

    /// The status for a request that breaks the descriptor (400 by default).
    var validationStatus: HTTPStatus { get }

    /// The status for a body whose values have the right types but break a rule on their content (a pattern, a
    /// rule between properties): ``validationStatus`` by default; Rails answers its model validations 422.
    var ruleStatus: HTTPStatus { get }

    /// What the API's framework does with a request body of a media type (`text/plain`, lower-cased, without
    /// parameters): `nil` when it reads it, as the JSON and form media types are read by default.
    func unreadableBody(mediaType: String) -> UnreadableBody?

    /// Endpoints the real server serves although the documents do not describe them (PostgREST answers every
    /// verb on every table): routed after the specs' endpoints, authenticated, never validated against a
    /// model, and never part of what `check`, the exports or `diff` describe. None by default.
    var undocumentedEndpoints: [AnyEndpoint] { get }

    /// Whether the behaviour's answers depend on no query parameter but those the specs declare (and an API key
    /// sent in the query), so that one no spec declares, as a client's cache-buster, neither fills the engine's
    /// answer cache nor misses it: the real server ignores it too. `false` by default: a behaviour that reads any
    /// other parameter (PostgREST's column filters, 42's refusal of an unknown `filter[...]`) keys its answers by
    /// the whole query.
    var ignoresUndeclaredQuery: Bool { get }

    /// Whether a JSON array of the request model is a body too, each element judged as one body (PostgREST
    /// inserts every object of an array in one statement). `false` by default.
    var acceptsArrayBodies: Bool { get }

    /// Whether the behaviour reads a parameter with a grammar of its own and answers its errors itself
    /// (PostgREST's `select`, `order`, `limit`, filters and `Range`): the descriptor then states the part of that
    /// grammar the documents use, which the engine does not enforce, so the mock stays as wide as the real server.
    /// `false` for every parameter by default.
    func parses(_ parameter: Parameter) -> Bool

    /// The largest request body the API takes when ``MockConfiguration/maximumBodyBytes`` does not say:
    /// ``MockConfiguration/defaultMaximumBodyBytes`` by default.
    var maximumBodyBytes: Int { get }

    /// Moves what the API's gateway also reads from another place into the place the descriptor declares, before
    /// authentication and validation (Supabase's gateway takes `?apikey=` for the `apikey` header). Does nothing
    /// by default.
    func normalize(_ request: inout MockRequest)

    /// Restores the seed state.
    func reset() async throws

    /// A ready credential for a seeded user (`POST /__understudy/token`); `user` `nil` picks the default user.
    func issueToken(for user: String?) async throws -> JSONValue

    /// Lines printed when the mock starts: ready tokens, keys, seeded users.
    func startupNotes() async -> [String]
}

/// A behaviour that read the fixtures folder when it was made: the engine answers what the behaviour leaves to it
/// from that reading, not from a second one.
package protocol ReadsFixtures: MockBehaviour {
    /// The folder's files (`nil` when the behaviour replays none).
    var fixtures: FixtureSource? { get }
}

extension MockBehaviour {
    public var sharesState: Bool { false }

    public func synchronize() async throws {}

    /// The access token and API key ``issueToken(for:)`` issues, by the names the API's sign-in gives them:
    /// `accessToken` (apinest, VideGreniers), `access_token` (Supabase Auth, OAuth), `token` (a document's mock);
    /// `apikey` (EasyCo's anon key).
    package func credential(for user: String?) async throws -> (token: String?, apiKey: String?) {
        let answer = try await issueToken(for: user)
        let token = answer["accessToken"] ?? answer["access_token"] ?? answer["token"]
        return (token?.stringValue, answer["apikey"]?.stringValue)
    }

    /// ``credential(for:)``'s access token.
    /// - Throws: ``MockError`` 404 for an unknown user; 500 when the API issues no access token.
    package func accessToken(for user: String?) async throws -> String {
        guard let token = try await credential(for: user).token else {
            throw MockError(.internalServerError, "\(name) issued no access token")
        }
        return token
    }

    public func errorResponse(_ error: MockError, spec: APISpec) -> MockResponse {
        .json(
            error.body ?? spec.errorEnvelope.make(error.status, error.messages), status: error.status.rawValue,
            headers: error.headers)
    }

    public func errorResponse(_ error: MockError, spec: APISpec, endpoint: AnyEndpoint) -> MockResponse {
        errorResponse(error, spec: spec)
    }

    public var validationStatus: HTTPStatus { .badRequest }

    public var ruleStatus: HTTPStatus { validationStatus }

    public var acceptsArrayBodies: Bool { false }

    public var ignoresUndeclaredQuery: Bool { false }

    public func parses(_ parameter: Parameter) -> Bool { false }

    public var maximumBodyBytes: Int { MockConfiguration.defaultMaximumBodyBytes }

    public var undocumentedEndpoints: [AnyEndpoint] { [] }

    public func normalize(_ request: inout MockRequest) {}

    /// JSON and forms are read; any other media type is refused with 415.
    public func unreadableBody(mediaType: String) -> UnreadableBody? {
        MediaType.isJSON(mediaType) || mediaType == MediaType.form ? nil : .refused(MediaType.unsupported(mediaType))
    }
}

/// What a framework does with a body it does not read.
public enum UnreadableBody: Sendable {
    /// The body is left unread, as Express's and Rails's body parsers leave it: the handler sees `{}`.
    case ignored
    /// The request is refused with this error.
    case refused(MockError)
    /// The body is taken as it comes and not validated (a mock of a document that declares XML or files).
    case unvalidated
}

/// Media types the engine refuses.
extension MediaType {
    /// 415 in the API's envelope.
    public static func unsupported(_ mediaType: String) -> MockError {
        MockError(.init(rawValue: 415), "Content-Type \(mediaType) is not supported; send application/json")
    }
}
