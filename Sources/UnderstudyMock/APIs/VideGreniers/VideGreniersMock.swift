import Foundation
import JWTKit
import UnderstudyCore
import UnderstudyPostgREST
import UnderstudySpecs

/// The VideGreniers flea-market API as a stateful mock: users with HS256 access tokens (15 minutes) and
/// rotating refresh tokens, events with a draft → published → cancelled life cycle, favorites,
/// notifications, profile, statistics and the activity log the server keeps.
///
/// ```swift
/// let server = try await MockServer.start(.videgreniers)
/// // POST /api/auth/login {"email": "demo@videgreniers.test", "password": "Passw0rd!"}
/// ```
///
/// Decisions the document leaves open:
/// - `GET /api/events`, `/nearby` and `/{id}` show every event but the drafts of other organisers: a
///   caller sees their own drafts (anonymous callers see none), so the organiser can edit and publish them.
/// - A token that is presented must be valid, also on the public reads (401 otherwise); endpoints without
///   authentication (register, login, refresh, health) ignore the header, since the app's `APIClient`
///   sends its stale access token with every request.
/// - Logout revokes the given refresh token when it is the caller's, and always the access token used
///   (by its `jti`); it succeeds even when the refresh token is unknown, so a repeated logout is harmless.
/// - Refresh needs both tokens: the access token may be expired but must be signed by this server and
///   belong to the refresh token's user; the refresh token is single-use (rotated).
/// - Reads do not log `EventViewed` / `EventSearched` activities: GET answers are pure and cached.
package struct VideGreniersMock: ReadsFixtures {
    package var name: String { "videgreniers" }
    /// ASP.NET binds the parameters an action declares and ignores any other.
    package var ignoresUndeclaredQuery: Bool { true }
    package var specs: [APISpec] { [VideGreniers.spec] }
    package var stateVersion: UInt64 { store.version }
    package var sharesState: Bool { store.isShared }
    package func synchronize() async throws { try await store.synchronize() }

    let configuration: MockConfiguration
    let store: StateStore<State>
    /// The notifications and the activity log: the caller's own, newest first, as the spec declares them.
    let resources: ResourceEngine<State>
    package let fixtures: FixtureSource?
    let tokens: TokenService
    /// Checks signatures without the expiry (refresh accepts an expired access token).
    let signatureKeys: JWTKeyCollection

    /// Access tokens live 15 minutes (the document's `expiresIn: 900`).
    static let accessTokenLifetime: TimeInterval = 900
    /// Not in the document: a common default.
    static let refreshTokenLifetime: TimeInterval = 7 * 86_400

    /// Builds the seeded state (from `--fixtures` files when given) or loads the state file.
    /// - Throws: when the JWT secret is too short, or a fixture or the state file cannot be read.
    package init(configuration: MockConfiguration) async throws {
        self.configuration = configuration
        tokens = try await TokenService(secret: configuration.jwtSecret, now: configuration.now)
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: configuration.jwtSecret), digestAlgorithm: .sha256)
        signatureKeys = keys
        let fixtures = try FixtureSource(
            seed: configuration.seed, folder: configuration.fixturesDirectory, specs: [VideGreniers.spec])
        self.fixtures = fixtures
        let seed = try Self.seedState(
            fixtures: fixtures, seed: configuration.seed, now: configuration.now().timeIntervalSinceReferenceDate)
        // Its second layout: the notifications and the activity log became the resource engine's rows.
        store = try await configuration.stateStore(
            seed: seed, for: "videgreniers", kind: "UnderstudyMock.VideGreniersMock.State 2")
        resources = ResourceEngine(
            spec: VideGreniers.spec, graph: ResourceGraph(spec: VideGreniers.spec),
            fixture: FixtureMock(spec: VideGreniers.spec, configuration: configuration, recorded: fixtures),
            store: store, tables: \.resources, serving: [State.notifications, State.activities],
            configuration: configuration)
    }

    var now: Double { configuration.now().timeIntervalSinceReferenceDate }

    // MARK: MockBehaviour

    package func authenticate(_ request: MockRequest, endpoint: AnyEndpoint) async throws -> Principal? {
        // The app's APIClient sends its (possibly expired) access token with every request, refresh included.
        if case .none = endpoint.auth { return nil }
        guard request.header("authorization") != nil else { return nil }
        guard let token = request.bearerToken, !token.isEmpty else {
            throw MockError(.unauthorized, "the Authorization header must be \"Bearer <token>\"")
        }
        let claims: TokenService.Claims
        do {
            claims = try await tokens.verify(token)
        } catch let error as TokenServiceError {
            throw MockError(.unauthorized, "invalid token: \(error.description)")
        }
        return try store.read { state in
            if let jti = claims.jti?.value, state.revokedAccessTokens[key: jti] != nil {
                throw MockError(.unauthorized, "invalid token: the token was revoked (logout or deleted account)")
            }
            guard let id = UUID(uuidString: claims.sub.value), let user = state.user(id) else {
                throw MockError(.unauthorized, "invalid token: user \(claims.sub.value) does not exist")
            }
            return Principal(
                subject: id.uuidString.lowercased(), roles: user.roles, token: token, expiresAt: claims.exp.value)
        }
    }

    package func handle(_ request: MockRequest, endpoint: AnyEndpoint, spec: APISpec) async throws -> MockResponse? {
        let now = now
        switch endpoint.id {
        case "POST /api/auth/register": return try await register(request, now: now)
        case "POST /api/auth/login": return try await login(request, now: now)
        case "POST /api/auth/refresh": return try await refresh(request, now: now)
        case "POST /api/auth/logout": return try await logout(request, now: now)
        case "GET /api/auth/me": return try currentUser(request, now: now)
        case "GET /api/events": return try events(request, now: now)
        case "GET /api/events/{id}": return try event(request, now: now)
        case "GET /api/events/nearby": return try nearbyEvents(request, now: now)
        case "POST /api/events": return try await createEvent(request, now: now)
        case "PUT /api/events/{id}": return try await updateEvent(request, now: now)
        case "POST /api/events/{id}/publish": return try await publishEvent(request, now: now)
        case "POST /api/events/{id}/cancel": return try await cancelEvent(request, now: now)
        case "GET /api/favorites": return try favorites(request, now: now)
        case "POST /api/favorites/{eventId}": return try await addFavorite(request, now: now)
        case "DELETE /api/favorites/{eventId}": return try await removeFavorite(request, now: now)
        case "PATCH /api/favorites/{eventId}/toggle": return try await toggleFavorite(request, now: now)
        case "POST /api/favorites/status": return try favoriteStatus(request, now: now)
        case "GET /api/favorites/upcoming": return try upcomingFavorites(request, now: now)
        case "POST /api/notifications": return try await createNotification(request, now: now)
        case "GET /api/user/profile": return try profile(request, now: now)
        case "PUT /api/user/profile": return try await updateProfile(request, now: now)
        case "GET /api/user/stats": return try accountStatistics(request, now: now)
        case "DELETE /api/user/account": return try await deleteAccount(request, now: now)
        case "GET /api/user-activities/statistics": return try activityStatistics(request, now: now)
        default: return try await resources.handle(request, endpoint: endpoint)
        }
    }

    /// The spec's error envelope, stamped with the mock's clock (the spec's own bodies use a fixed instant).
    package func errorResponse(_ error: MockError, spec: APISpec) -> MockResponse {
        var body = error.body ?? spec.errorEnvelope.make(error.status, error.messages)
        if error.body == nil, case .object(var members) = body {
            members["timestamp"] = .string(VideGreniersAnswers.date(now).formatted(.iso8601))
            body = .object(members)
        }
        return .json(body, status: error.status.rawValue, headers: error.headers)
    }

    /// ASP.NET Core binds `[FromBody]` from JSON only and answers 415 to any other media type, forms included.
    package func unreadableBody(mediaType: String) -> UnreadableBody? {
        MediaType.isJSON(mediaType) ? nil : .refused(MediaType.unsupported(mediaType))
    }

    package func reset() async throws {
        try await store.reset()
    }

    /// Logs a seeded user in without a password: `user` is an e-mail, an id, or `nil` for the demo user.
    /// - Returns: `{accessToken, refreshToken, expiresIn, user}`, the `data` of a login answer.
    package func issueToken(for user: String?) async throws -> JSONValue {
        let wanted = user ?? Self.demoEmail
        let now = now
        let refresh = Self.newRefreshToken()
        let found = try await store.write { state -> User in
            let match = state.user(email: wanted) ?? UUID(uuidString: wanted).flatMap { state.user($0) }
            guard let match else { throw MockError(.notFound, "no user \(wanted); seeded users: \(Self.seededEmails)") }
            state.prune(now: now)
            state.refreshTokens.append(
                RefreshToken(token: refresh, userId: match.id, expiresAt: now + Self.refreshTokenLifetime))
            return match
        }
        let auth = VideGreniersAnswers.auth(access: try await accessToken(for: found), refresh: refresh, user: found)
        return try VideGreniers.spec.wireJSON(auth)
    }

    package func startupNotes() async -> [String] {
        let (users, categories) = store.read { state in (state.users, state.categories) }
        var notes = ["videgreniers: seeded users (e-mail / password / roles):"]
        for user in users where Self.seededPasswords[user.email] != nil {
            notes.append("  \(user.email) / \(user.password) / \(user.roles.joined(separator: ","))")
        }
        if let demo = users.first(where: { $0.email == Self.demoEmail }),
            let token = try? await accessToken(for: demo)
        {
            notes.append("videgreniers: access token for \(demo.email) (15 minutes): \(token)")
        }
        notes.append("videgreniers: POST /__understudy/token {\"user\": \"<e-mail>\"} issues fresh tokens")
        notes.append(
            "videgreniers: categories: "
                + categories.map { "\($0.name)=\($0.id.uuidString.lowercased())" }.joined(separator: ", "))
        notes.append("videgreniers: drafts are listed only to their organiser")
        return notes
    }

    // MARK: Shared helpers

    /// The authenticated caller's id (the engine lets only authenticated requests reach these handlers).
    func caller(_ request: MockRequest) throws -> UUID {
        guard let subject = request.principal?.subject, let id = UUID(uuidString: subject) else {
            throw MockError(.unauthorized, "authentication required: send Authorization: Bearer <token>")
        }
        return id
    }

    /// The caller when a valid token was sent to an endpoint with optional authentication.
    func optionalCaller(_ request: MockRequest) -> UUID? {
        request.principal.flatMap { UUID(uuidString: $0.subject) }
    }

    /// A path parameter the engine validated as a UUID.
    static func pathID(_ request: MockRequest, _ name: String) throws -> UUID {
        guard let text = request.pathParameters[name], let id = UUID(uuidString: text) else {
            throw MockError(.badRequest, "\(name): must be a UUID")
        }
        return id
    }

    /// `page` and `pageSize` (validated by the engine: 1 ≤ page ≤ `Int32.max`, 1 ≤ pageSize ≤ 100).
    static func paging(_ request: MockRequest) -> (page: Int, pageSize: Int) {
        (request.query["page"].flatMap { Int($0) } ?? 1, request.query["pageSize"].flatMap { Int($0) } ?? 20)
    }

    /// A query date-time (RFC 3339, with or without fractional seconds).
    ///
    /// RFC 3339 §5.6 allows any offset its grammar writes (`time-hour` 00-23, `time-minute` 00-59), so
    /// `+23:59` is read; Foundation's formatters stop at ±18:00, so the text is checked and computed by hand.
    static func queryDate(_ request: MockRequest, _ name: String) throws -> Double? {
        guard let text = request.query[name] else { return nil }
        guard DateTimeSyntax.matchesDateTime(text, fraction: .optional), let seconds = PostgrestTime.seconds(text)
        else {
            throw MockError(
                .badRequest, "\(name): \"\(text)\" is not an RFC 3339 date-time such as 2025-11-15T08:00:00Z")
        }
        return seconds - Date.timeIntervalBetween1970AndReferenceDate
    }
}
