import UnderstudyCore

/// What makes one API's mock: its specs, its credentials, and how each documented endpoint changes
/// and reads state.
///
/// The ``MockEngine`` routes, authenticates and validates before calling ``handle(_:endpoint:spec:)``:
/// a handler only sees requests the descriptor accepts. Handlers must answer from the state and the
/// request alone (GET answers are cached per state version, caller and query).
public protocol MockBehaviour: Sendable {
    /// The API group name (`apinest`, `videgreniers`, `easyco`, `intra42`).
    var name: String { get }
    /// The specs served (apinest serves fitness and achievements from one process).
    var specs: [APISpec] { get }
    /// Increases with every state change.
    var stateVersion: UInt64 { get }

    /// The caller of a request: `nil` when no credential was presented.
    /// - Throws: ``MockError`` (401) for a malformed, expired, revoked or wrongly signed credential.
    func authenticate(_ request: MockRequest, endpoint: AnyEndpoint) async throws -> Principal?

    /// Answers a routed, authenticated and validated request.
    /// - Throws: ``MockError`` for documented errors (404, 403, 409, ...).
    func handle(_ request: MockRequest, endpoint: AnyEndpoint, spec: APISpec) async throws -> MockResponse

    /// The body of an error the engine or a handler produced. Defaults to the spec's envelope.
    func errorResponse(_ error: MockError, spec: APISpec) -> MockResponse

    /// The status for a request that breaks the descriptor (400 by default; the 42 API answers 422).
    var validationStatus: HTTPStatus { get }

    /// Restores the seed state.
    func reset() throws

    /// A ready credential for a seeded user (`POST /__understudy/token`); `user` `nil` picks the default user.
    func issueToken(for user: String?) async throws -> JSONValue

    /// Lines printed when the mock starts: ready tokens, keys, seeded users.
    func startupNotes() async -> [String]
}

extension MockBehaviour {
    public func errorResponse(_ error: MockError, spec: APISpec) -> MockResponse {
        .json(error.body ?? spec.errorEnvelope.make(error.status, error.messages), status: error.status.rawValue, headers: error.headers)
    }

    public var validationStatus: HTTPStatus { .badRequest }
}
