import Foundation
import UnderstudyCore
import UnderstudySpecs

/// The 42 Intra API v2 mock: OAuth 2 tokens, the profile, projects, sessions, coalitions, campus and
/// events the Swifty Companion app reads, and evaluation slots it creates and deletes.
///
/// Tokens are opaque 64-hex strings, as the real API issues them, valid 7200 seconds, stored in the state:
/// `authorization_code` (the seeded code, see ``startupNotes()``) and `refresh_token` give user tokens with
/// a rotating refresh token, `client_credentials` an application token without a user, which `/v2/me`,
/// `/v2/me/slots` and the slot writes refuse with 403. Lists are paginated with `page[number]`/`page[size]`
/// or `page`/`per_page` and the `Link`, `X-Page`, `X-Per-Page`, `X-Total` headers.
///
/// ```swift
/// let mock = try await Intra42Mock(configuration: MockConfiguration(seed: 7))
/// let token = try await mock.issueToken(for: nil)["access_token"]
/// ```
package struct Intra42Mock: ReadsFixtures {
    package var name: String { "intra42" }
    package var specs: [APISpec] { [Intra42.spec] }

    /// The store's version, with the clock's minute in the high bits: answers that depend on the time
    /// (events still to come, the log time of an open session) are not served from the engine's cache for
    /// more than a minute.
    package var stateVersion: UInt64 {
        let minutes = UInt64(max(0, configuration.now().timeIntervalSince1970 / 60))
        return (minutes << 32) &+ store.version
    }
    package var sharesState: Bool { store.isShared }
    package func synchronize() async throws { try await store.synchronize() }

    let store: StateStore<Intra42State>
    /// The evaluation slots (the caller's own, by `begin_at`, deleted by their owner only), and the seeded lists of
    /// projects, sessions and events.
    let resources: ResourceEngine<Intra42State>
    package let fixtures: FixtureSource?
    let application: Intra42Application
    let configuration: MockConfiguration

    /// Tokens live 2 hours, as the 42 API's do.
    static let tokenLifetime = 7200

    /// Builds the seeded intranet (from `--fixtures` files where given) and loads the state file if any.
    /// - Throws: when the fixtures folder or the state file cannot be read.
    package init(configuration: MockConfiguration) async throws {
        let source = try FixtureSource(
            seed: configuration.seed, folder: configuration.fixturesDirectory, specs: [Intra42.spec])
        fixtures = source
        let application = Intra42SeedBuilder.application(seed: configuration.seed)
        var builder = Intra42SeedBuilder(source: source, application: application, now: configuration.now())
        let seed = try builder.build()
        self.application = application
        self.configuration = configuration
        // Its third layout: the slots (second), then the campuses, memberships, projects, sessions and events became
        // the resource engine's rows.
        store = try await configuration.stateStore(seed: seed, for: "intra42", kind: "UnderstudyMock.Intra42State 3")
        resources = ResourceEngine(
            spec: Intra42.spec, graph: ResourceGraph(spec: Intra42.spec),
            fixture: FixtureMock(spec: Intra42.spec, configuration: configuration, recorded: source), store: store,
            tables: \.resources, serving: Intra42State.served, configuration: configuration)
    }

    // MARK: Authentication

    package func authenticate(_ request: MockRequest, endpoint: AnyEndpoint) async throws -> Principal? {
        // The token endpoint authenticates the client from its body, not the Authorization header.
        if case .none = endpoint.auth { return nil }
        guard request.header("authorization") != nil else { return nil }
        guard let token = request.bearerToken, Self.isTokenSyntax(token) else {
            throw Self.notAuthorized("The access token is invalid")
        }
        let now = configuration.now()
        guard let record = store.read({ $0.tokens[key: token] }) else {
            throw Self.notAuthorized("The access token is invalid")
        }
        if record.revoked { throw Self.notAuthorized("The access token was revoked") }
        if record.isExpired(at: now) { throw Self.notAuthorized("The access token expired") }
        let subject = record.userID.map(String.init) ?? "client:\(application.clientID)"
        return Principal(
            subject: subject, roles: record.scopes, token: token,
            expiresAt: Date(timeIntervalSince1970: Double(record.createdAt + record.expiresIn)))
    }

    /// A 401 as Doorkeeper answers it: the 42 body and a `WWW-Authenticate` challenge.
    static func notAuthorized(_ message: String) -> MockError {
        MockError(
            .unauthorized, message,
            headers: [
                (
                    "WWW-Authenticate",
                    #"Bearer realm="Doorkeeper", error="invalid_token", error_description="\#(message)""#
                )
            ])
    }

    /// 64 lower- or upper-case hexadecimal digits.
    static func isTokenSyntax(_ token: String) -> Bool {
        token.utf8.count == 64
            && token.utf8.allSatisfy { byte in
                (48...57).contains(byte) || (97...102).contains(byte) || (65...70).contains(byte)
            }
    }

    // MARK: Dispatch

    package func handle(_ request: MockRequest, endpoint: AnyEndpoint, spec: APISpec) async throws -> MockResponse? {
        switch endpoint.id {
        case "POST /oauth/token": return try await token(request)
        case "GET /v2/me": return try me(request)
        case "GET /v2/users/{login}": return try user(request)
        case "GET /v2/users/{login}/coalitions": return try coalitions(request)
        case "GET /v2/users/{login}/coalitions_users", "GET /v2/users/{login}/projects_users",
            "GET /v2/users/{login}/locations":
            return try await userList(request, endpoint: endpoint)
        case "GET /v2/users/{login}/locations_stats": return try locationsStats(request)
        case "GET /v2/campus/{id}", "GET /v2/campus/{id}/locations", "GET /v2/campus/{id}/events":
            return try await campusRequest(request, endpoint: endpoint)
        case "GET /v2/users": return try await searchUsers(request, endpoint: endpoint)
        case "GET /v2/me/slots": return try await mySlots(request, endpoint: endpoint)
        case "POST /v2/slots": return try await createSlots(request)
        case "DELETE /v2/slots/{id}": return try await deleteSlot(request, endpoint: endpoint)
        default: return nil
        }
    }

    /// Rails answers its model validations (a slot on a quarter hour, ending after it begins) 422.
    package var ruleStatus: HTTPStatus { .unprocessableEntity }

    /// The 42 body, `{"error", "message"}`; a 401 says `Not authorized` and carries a Bearer challenge.
    package func errorResponse(_ error: MockError, spec: APISpec) -> MockResponse {
        if let body = error.body { return .json(body, status: error.status.rawValue, headers: error.headers) }
        guard error.status == .unauthorized else {
            return .json(
                spec.errorEnvelope.make(error.status, error.messages), status: error.status.rawValue,
                headers: error.headers)
        }
        var headers = error.headers
        if !headers.contains(where: { $0.name.lowercased() == "www-authenticate" }) {
            headers.append(("WWW-Authenticate", #"Bearer realm="Doorkeeper""#))
        }
        let message = error.messages.isEmpty ? "The access token is invalid" : error.messages.joined(separator: "; ")
        return .json(["error": "Not authorized", "message": .string(message)], status: 401, headers: headers)
    }

    // MARK: Administration

    /// Restores the seeded intranet; issued tokens stay valid, so a client keeps its session across resets.
    /// Rails reads JSON and form bodies into `params` and leaves any other body unread.
    package func unreadableBody(mediaType: String) -> UnreadableBody? {
        MediaType.isJSON(mediaType) || mediaType == MediaType.form ? nil : .ignored
    }

    package func reset() async throws {
        try await store.reset { fresh, old in
            fresh.tokens = old.tokens
            fresh.issuedTokens = old.issuedTokens
        }
    }

    /// A user token (with refresh token) for a seeded user, by login or id; `nil` is the default user.
    /// - Throws: ``MockError`` 404 for an unknown user.
    package func issueToken(for user: String?) async throws -> JSONValue {
        let now = configuration.now()
        let (record, login) = try await store.write { state throws -> (Intra42TokenRecord, String) in
            let found: Intra42UserRecord?
            if let user { found = Self.findUser(user, in: state) } else { found = state.users.first }
            guard let found else {
                throw MockError(
                    .notFound,
                    "no seeded user \(user ?? "") (logins: \(state.users.map(\.login).joined(separator: ", ")))")
            }
            return (
                issue(&state, userID: found.id, scopes: Intra42Application.scopes, refresh: true, now: now), found.login
            )
        }
        var json = try Intra42.spec.wireJSON(token(record))
        if case .object(var members) = json {
            members["login"] = .string(login)
            members["user_id"] = record.userID.map(JSONValue.integer) ?? .null
            json = .object(members)
        }
        return json
    }

    package func startupNotes() async -> [String] {
        let (defaultUser, code, others) = store.read { state in
            (state.users.first, state.authorizationCodes.first, state.users.dropFirst().prefix(6).map(\.login))
        }
        var notes = [
            "OAuth application: client_id=\(application.clientID)",
            "OAuth application: client_secret=\(application.clientSecret)",
            "redirect_uri: \(application.redirectURI)",
        ]
        if let code, let defaultUser {
            let scopes = code.scopes.joined(separator: " ")
            notes.append(
                "authorization code for \(defaultUser.login) (reusable, scopes \(scopes)): \(code.code)")
        }
        if let defaultUser {
            let list = others.joined(separator: ", ")
            notes.append("default user: \(defaultUser.login) (id \(defaultUser.id)); others: \(list)")
            if let token = try? await issueToken(for: defaultUser.login)["access_token"]?.stringValue {
                notes.append("ready token for \(defaultUser.login) (7200 s): \(token)")
            }
        }
        return notes
    }

    // MARK: Shared lookups

    /// A user by login, or by numeric id as the API also accepts.
    static func findUser(_ key: String, in state: Intra42State) -> Intra42UserRecord? {
        if let id = Int(key) { return state.users.first { $0.id == id } }
        return state.users.first { $0.login == key }
    }

    /// The user named by the `{login}` path parameter.
    /// - Throws: ``MockError`` 404 when there is none.
    func pathUser(_ request: MockRequest, in state: Intra42State) throws(MockError) -> Intra42UserRecord {
        let login = request.pathParameters["login"] ?? ""
        guard let user = Self.findUser(login, in: state) else {
            throw MockError(.notFound, "user \(login) does not exist")
        }
        return user
    }

    /// The user a token belongs to.
    /// - Throws: ``MockError`` 403 for an application token, or a token without `scope`.
    func currentUserID(_ request: MockRequest, scope: String? = nil) throws(MockError) -> Int {
        guard let principal = request.principal, let id = Int(principal.subject) else {
            throw MockError(
                .forbidden,
                "\(request.method.rawValue) \(request.path) needs a user's token (grant authorization_code); "
                    + "a client_credentials token has no resource owner")
        }
        if let scope, !principal.has(role: scope) {
            throw MockError(
                .forbidden,
                "the access token's scopes (\(principal.roles.joined(separator: " "))) do not include \(scope), "
                    + "which \(request.method.rawValue) \(request.path) requires")
        }
        return id
    }
}
