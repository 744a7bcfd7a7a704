import Foundation
import UnderstudyCore
import UnderstudySpecs

/// The apinest mock: the fitness activities and achievements APIs of one NestJS backend, in one process.
///
/// Activities are created, listed, joined, left and completed; completing one credits every participant
/// (XP, level, streak, challenges, badges) and tells them through achievement notifications, which the resource
/// engine serves as the achievements spec declares them (the caller's own, newest first, read one by one or all at
/// once). Rules: ``ApinestRules``; initial state: ``ApinestSeed``.
///
/// Auth is a Bearer HS256 JWT whose `sub` is a user's ObjectId. The guides define no login: the mock prints a
/// ready token for the default user at start, `POST /__understudy/token {"user": "<id or email>"}` issues one
/// for any seeded user, and tokens signed elsewhere with the configured secret are accepted (an ObjectId not
/// seeded becomes a new user on its first write).
///
/// ```swift
/// let mock = try await ApinestMock(configuration: MockConfiguration(seed: 7))
/// let server = try await MockServer.start(mock)
/// ```
package struct ApinestMock: ReadsFixtures {
    package var name: String { "apinest" }
    /// NestJS reads the query DTOs' fields and ignores any other parameter.
    package var ignoresUndeclaredQuery: Bool { true }
    package var specs: [APISpec] { [Fitness.spec, Achievements.spec] }
    package var stateVersion: UInt64 { store.version }
    package var sharesState: Bool { store.isShared }
    package func synchronize() async throws { try await store.synchronize() }

    /// How long tokens from `POST /__understudy/token` live (the 15 minutes of a typical NestJS access token).
    static let tokenLifetime: TimeInterval = 900
    /// How long the token printed at start lives, so it can be pasted into an app for a day of work.
    static let startupTokenLifetime: TimeInterval = 86_400

    let store: StateStore<ApinestState>
    /// The achievements notifications: the caller's own, listed newest first, read one by one or all at once.
    let resources: ResourceEngine<ApinestState>
    /// The JSON of each activity as `GET /activities` lists it, kept until the activity or its creator changes.
    let encodedActivities = EncodedRows<String>()
    package let fixtures: FixtureSource?
    let tokens: TokenService
    let seed: UInt64
    let now: @Sendable () -> Date

    /// Creates the mock with its seeded state (or the state file's, when it exists).
    /// - Throws: when the fixtures folder or the state file cannot be read, or the JWT secret is too short.
    package init(configuration: MockConfiguration) async throws {
        let source = try FixtureSource(
            seed: configuration.seed, folder: configuration.fixturesDirectory, specs: [Fitness.spec, Achievements.spec])
        fixtures = source
        let initial = ApinestSeed(source: source, seed: configuration.seed, now: configuration.now()).make()
        // Its second layout: the notifications became the resource engine's rows.
        store = try await configuration.stateStore(seed: initial, for: "apinest", kind: "UnderstudyMock.ApinestState 2")
        resources = ResourceEngine(
            spec: Achievements.spec, graph: ResourceGraph(spec: Achievements.spec),
            fixture: FixtureMock(spec: Achievements.spec, configuration: configuration, recorded: source), store: store,
            tables: \.resources, serving: [ApinestState.notifications], configuration: configuration)
        tokens = try await TokenService(secret: configuration.jwtSecret, now: configuration.now)
        seed = configuration.seed
        now = configuration.now
    }

    package func authenticate(_ request: MockRequest, endpoint: AnyEndpoint) async throws -> Principal? {
        guard let principal = try await tokens.principal(of: request) else { return nil }
        guard ApinestObjectID.isValid(principal.subject) else {
            throw MockError(
                .unauthorized,
                "invalid token: its subject (sub) must be a user's ObjectId (24 hexadecimal digits), "
                    + "not \"\(principal.subject)\"")
        }
        return principal
    }

    package func handle(_ request: MockRequest, endpoint: AnyEndpoint, spec: APISpec) async throws -> MockResponse? {
        switch endpoint.id {
        case Fitness.createActivity.id: try await createActivity(request)
        case Fitness.activities.id: try listActivities(request)
        case Fitness.activity.id: try activity(request)
        case Fitness.completeActivity.id: try await completeActivity(request)
        case Fitness.joinActivity.id: try await joinActivity(request)
        case Fitness.leaveActivity.id: try await leaveActivity(request)
        case Achievements.summary.id: try summary(request)
        case Achievements.badges.id: try badges(request)
        case Achievements.challenges.id: try challenges(request)
        case Achievements.leaderboard.id: try leaderboard(request)
        default: try await resources.handle(request, endpoint: endpoint)
        }
    }

    /// NestJS's Express parsers read JSON and forms and leave any other body unread (`{}`), which the
    /// validation pipe then refuses field by field.
    package func unreadableBody(mediaType: String) -> UnreadableBody? {
        MediaType.isJSON(mediaType) || mediaType == MediaType.form ? nil : .ignored
    }

    package func reset() async throws {
        try await store.reset()
    }

    /// `{"user": id, "name", "email", "accessToken": jwt, "tokenType": "Bearer", "expiresIn": 900}`.
    /// - Parameter user: a seeded user's id or e-mail; `nil` for the default user.
    /// - Throws: ``MockError`` 404 naming the seeded users when `user` is none of them.
    package func issueToken(for user: String?) async throws -> JSONValue {
        let users = store.read { $0.users }
        guard let found = user.map({ key in users.first { $0.id == key || $0.email == key } }) ?? users.first else {
            let known = users.map { "\($0.id) (\($0.email))" }.joined(separator: ", ")
            throw MockError(.notFound, "no seeded user \(user ?? ""); seeded users: \(known)")
        }
        let token = try await tokens.sign(subject: found.id, lifetime: Self.tokenLifetime, email: found.email)
        return [
            "user": .string(found.id), "name": .string(found.name), "email": .string(found.email),
            "accessToken": .string(token), "tokenType": "Bearer", "expiresIn": .integer(Int(Self.tokenLifetime)),
        ]
    }

    package func startupNotes() async -> [String] {
        let users = store.read { $0.users }
        var notes = ["apinest: fitness (/activities) and achievements (/achievements/...) in one server"]
        for (index, user) in users.enumerated() {
            notes.append("  user \(user.id)  \(user.name) <\(user.email)>\(index == 0 ? "  (default)" : "")")
        }
        if let first = users.first,
            let token = try? await tokens.sign(
                subject: first.id, lifetime: Self.startupTokenLifetime, email: first.email)
        {
            notes.append("token for \(first.name), valid 24 h: Authorization: Bearer \(token)")
        }
        notes.append(#"more tokens: POST /__understudy/token {"user": "<id or email>"} (valid 15 min)"#)
        return notes
    }

    /// The caller of an endpoint whose auth is required (the engine has already refused anonymous calls).
    func caller(_ request: MockRequest) throws -> String {
        guard let principal = request.principal else {
            throw MockError(.unauthorized, "authentication required: send Authorization: Bearer <token>")
        }
        return principal.subject
    }
}
