import Foundation
import UnderstudyCore
import UnderstudyPostgREST
import UnderstudySpecs

/// EasyCo's Supabase project: PostgREST under `/rest/v1` over the six tables the app uses, with the
/// `apikey` header, JWTs whose `sub` is the user id, and the row-level security of the migrations.
///
/// The state is the tables' rows; reads speak PostgREST's grammar (filters, logic trees, `select` with
/// embeds, `order`, `limit`/`offset`, `Range`, `Prefer: count=exact`), inserts fill defaults and check
/// row-level security, foreign keys and unique keys, deletes remove only the rows the caller may delete.
///
/// ```swift
/// let mock = try await EasyCoMock(configuration: MockConfiguration())
/// let token = try await mock.issueToken(for: nil)   // {"user": …, "access_token": …, "apikey": …}
/// ```
package struct EasyCoMock: ReadsFixtures {
    package var name: String { "easyco" }
    package var specs: [APISpec] { [EasyCo.spec] }
    package var stateVersion: UInt64 { store.version }
    package var sharesState: Bool { store.isShared }
    package func synchronize() async throws { try await store.synchronize() }
    /// PostgREST inserts every object of a JSON array body.
    package var acceptsArrayBodies: Bool { true }
    /// PostgREST parses the query (`select`, `order`, `limit`, `offset`, filters) and `Range` itself, with its own
    /// errors; the descriptors' patterns state the part of its grammar the app uses.
    package func parses(_ parameter: Parameter) -> Bool {
        parameter.location == .query || parameter.name.lowercased() == "range"
    }

    /// 32 MiB: a bulk insert of 10 000 rows (about 8 MB of `properties`) goes in one request, as PostgREST takes
    /// it; far larger bodies are still refused.
    package var maximumBodyBytes: Int { 32 << 20 }
    /// PostgREST serves every verb on every table and lets row-level security decide, and Supabase Auth signs
    /// users in under `/auth/v1`; the document describes only the table operations the app makes.
    package var undocumentedEndpoints: [AnyEndpoint] { Self.everyVerb + Self.goTrueEndpoints }

    static let everyVerb: [AnyEndpoint] = PostgrestCatalog.easyCo.tables.keys.sorted().flatMap { table in
        [HTTPMethod.get, .post, .patch, .delete].map { method in
            AnyEndpoint(
                Endpoint<JSONValue, JSONValue>(
                    method, PathTemplate("/rest/v1/\(table)"), auth: .optional, body: .optional,
                    summary: "PostgREST's \(method.rawValue) on \(table), which the document does not describe"))
        }
    }

    let store: StateStore<EasyCoState>
    package let fixtures: FixtureSource?
    let configuration: MockConfiguration
    let tokens: TokenService
    /// The project's `anon` and `service_role` keys.
    let keys: EasyCoKeys
    /// Verifies bearer JWTs as PostgREST does.
    let bearers: EasyCoJWTVerifier
    /// PostgREST over the six tables of the migrations.
    let service: PostgrestService

    /// How long an issued access token lives (Supabase's default).
    static let tokenLifetime: TimeInterval = 3600
    /// The token printed at start lives a day, so a developer can paste it once.
    static let startupTokenLifetime: TimeInterval = 86_400

    /// Creates the mock with its seeded state (or the state file's, when it exists).
    /// - Throws: when the fixtures or the state file cannot be read, a fixture row breaks a column rule
    ///   (``FixtureError``), or the JWT secret is too short.
    package init(configuration: MockConfiguration) async throws {
        let fixtures = try FixtureSource(
            seed: configuration.seed, folder: configuration.fixturesDirectory, specs: [EasyCo.spec])
        try await self.init(
            configuration: configuration, seed: try EasyCoSeed(fixtures: fixtures, catalog: .easyCo).state(),
            fixtures: fixtures)
    }

    /// Creates the mock over a given initial state (large tables in tests).
    init(configuration: MockConfiguration, seed: EasyCoState, fixtures: FixtureSource? = nil) async throws {
        self.configuration = configuration
        self.fixtures = fixtures
        service = PostgrestService(catalog: .easyCo, seed: configuration.seed)
        var seed = seed
        for name in seed.tables.keys {
            guard let info = PostgrestCatalog.easyCo.table(name) else { continue }
            seed.tables[name]?.indexUniqueKeys(info.facts.uniqueKeys)
            seed.tables[name]?.indexOrders(info.orderedColumns)
        }
        store = try await configuration.stateStore(seed: seed, for: "easyco")
        tokens = try await TokenService(secret: configuration.jwtSecret, now: configuration.now)
        keys = try await EasyCoKeys(secret: configuration.jwtSecret)
        bearers = await EasyCoJWTVerifier(secret: configuration.jwtSecret, now: configuration.now)
    }

    /// PostgREST reads JSON, CSV and forms into a table; any other body is 400 PGRST102.
    package func unreadableBody(mediaType: String) -> UnreadableBody? {
        if MediaType.isJSON(mediaType) || mediaType == MediaType.form || mediaType == "text/csv" { return nil }
        return .refused(
            MockError(PostgrestErrors.make(.badRequest, code: "PGRST102", "Content-Type not acceptable: \(mediaType)")))
    }

    package func reset() async throws {
        try await store.reset()
    }

    package func handle(_ request: MockRequest, endpoint: AnyEndpoint, spec: APISpec) async throws -> MockResponse? {
        try await answeringPostgrestErrors {
            if request.path.hasPrefix("/auth/v1/") { return try await goTrue(request) }
            return try await table(String(request.path.split(separator: "/").last ?? ""), request)
        }
    }

    // MARK: Tokens

    package func issueToken(for user: String?) async throws -> JSONValue {
        try await answeringPostgrestErrors { try await token(for: user) }
    }

    private func token(for user: String?) async throws -> JSONValue {
        let found = store.read { state in user.map { state.user($0) } ?? state.user(state.defaultUser) }
        guard let found else {
            let known = store.read { $0.users.prefix(8).map(\.email).joined(separator: ", ") }
            throw PostgrestErrors.make(
                .notFound, code: "PGRST000", "no seeded user \(user ?? "")",
                hint: "Name a seeded user by id or e-mail, such as \(known).")
        }
        return try await tokenAnswer(for: found, lifetime: Self.tokenLifetime)
    }

    private func tokenAnswer(for user: EasyCoUser, lifetime: TimeInterval) async throws -> JSONValue {
        let token = try await tokens.sign(
            subject: user.id, lifetime: lifetime, role: "authenticated", email: user.email)
        return [
            "user": .string(user.id), "email": .string(user.email), "name": .string(user.name),
            "access_token": .string(token), "token_type": "bearer", "expires_in": .integer(Int(lifetime)),
            "apikey": .string(keys.anon),
        ]
    }

    package func startupNotes() async -> [String] {
        let (users, defaultID) = store.read { ($0.users, $0.defaultUser) }
        var notes = [
            "Supabase PostgREST under /rest/v1 (tables: properties, property_members, transactions, payment_schedules, "
                + "applications, favorites)",
            "apikey (anon key): \(keys.anon)",
            "service_role key (bypasses row-level security): \(keys.service)",
        ]
        if let user = users.first(where: { $0.id == defaultID }),
            let answer = try? await tokenAnswer(for: user, lifetime: Self.startupTokenLifetime),
            let token = answer["access_token"]?.stringValue
        {
            notes.append("default user: \(user.name) <\(user.email)> id \(user.id)")
            notes.append("access token for the default user (valid 24 h): \(token)")
        }
        notes.append(#"more tokens: POST /__understudy/token {"user": "<id or e-mail>"} (valid 1 h)"#)
        notes.append(
            "Supabase Auth under /auth/v1 (token, user, logout, signup): every seeded user's password is "
                + Self.seededPassword)
        notes.append("seeded users: " + users.prefix(8).map { "\($0.email) \($0.id)" }.joined(separator: ", "))
        return notes
    }
}

extension PostgrestCatalog {
    /// The EasyCo database: the six tables its spec declares.
    static let easyCo = PostgrestCatalog(spec: EasyCo.spec)
}
