import Foundation
import UnderstudyCore
import UnderstudyPostgREST

/// The subset of Supabase Auth (GoTrue) under `/auth/v1` an app's sign-in path uses, for the seeded users (whose
/// password is ``EasyCoMock/seededPassword``) and those who sign up: password and refresh-token grants, the
/// current user, sign-out, sign-up. Sessions are GoTrue's: an HS256 access token signed with the project secret
/// (role `authenticated`, the user's id as `sub`), which the PostgREST side accepts, and a refresh token that is
/// exchanged once.
///
/// Bodies and errors follow supabase/auth (internal/api/token.go `AccessTokenResponse`, internal/api/errors.go:
/// `{"code": 400, "error_code": "invalid_credentials", "msg": "Invalid login credentials"}`); the gateway's
/// `apikey` check comes first, as on Supabase. Not in the EasyCo document: the app signs in through supabase-swift.
extension EasyCoMock {
    /// The password of every seeded user, printed at start.
    package static let seededPassword = "understudy-password"

    /// How long GoTrue's access tokens live (its default `jwt_expiry`).
    static let sessionLifetime: TimeInterval = 3600

    static let goTrueEndpoints: [AnyEndpoint] = [
        (HTTPMethod.post, "/auth/v1/token"), (.get, "/auth/v1/user"), (.post, "/auth/v1/logout"),
        (.post, "/auth/v1/signup"),
    ].map { method, path in
        AnyEndpoint(
            Endpoint<JSONValue, JSONValue>(
                method, PathTemplate(path), auth: .optional, body: .optional,
                summary: "Supabase Auth \(method.rawValue) \(path), which the document does not describe"))
    }

    func goTrue(_ request: MockRequest) async throws -> MockResponse {
        switch (request.method, request.path) {
        case (.post, "/auth/v1/token"):
            switch request.query["grant_type"] {
            case "password": return try await signIn(request)
            case "refresh_token": return try await refresh(request)
            default: throw Self.authError(400, "validation_failed", "unsupported_grant_type")
            }
        case (.get, "/auth/v1/user"):
            let user = try signedInUser(request)
            return .json(Self.userJSON(user, now: configuration.now()))
        case (.post, "/auth/v1/logout"):
            let user = try signedInUser(request)
            // GoTrue's default scope is global: every session of the user ends.
            try await store.write { state in
                for position in state.sessions.positions(in: "user \(user.id)").reversed() {
                    state.sessions.remove(at: position)
                }
            }
            return .empty(status: 204)
        case (.post, "/auth/v1/signup"):
            return try await signUp(request)
        default:
            throw Self.authError(404, "not_found", "Not Found")
        }
    }

    private func signIn(_ request: MockRequest) async throws -> MockResponse {
        guard let email = request.json?["email"]?.stringValue, let password = request.json?["password"]?.stringValue
        else { throw Self.authError(400, "validation_failed", "missing email or phone") }
        guard let user = store.read({ $0.user(email) }), password == (user.password ?? Self.seededPassword) else {
            throw Self.authError(400, "invalid_credentials", "Invalid login credentials")
        }
        return try await newSession(for: user)
    }

    private func refresh(_ request: MockRequest) async throws -> MockResponse {
        guard let token = request.json?["refresh_token"]?.stringValue, !token.isEmpty else {
            throw Self.authError(400, "validation_failed", "refresh_token required")
        }
        // Exchanged once: the old token ends with the new session.
        let user = try await store.write { state -> EasyCoUser in
            guard let session = state.sessions[key: token], let user = state.user(session.userID) else {
                throw Self.authError(400, "refresh_token_not_found", "Invalid Refresh Token: Refresh Token Not Found")
            }
            state.sessions.remove(key: token)
            return user
        }
        return try await newSession(for: user)
    }

    private func signUp(_ request: MockRequest) async throws -> MockResponse {
        guard let email = request.json?["email"]?.stringValue?.lowercased(), email.contains("@"),
            let password = request.json?["password"]?.stringValue
        else { throw Self.authError(400, "validation_failed", "Signup requires a valid password") }
        guard password.count >= 6 else {
            throw Self.authError(422, "weak_password", "Password should be at least 6 characters.")
        }
        let now = FixtureGenerator.isoDate(configuration.now(), fraction: false)
        let user = try await store.write { state -> EasyCoUser in
            guard state.user(email) == nil else {
                throw Self.authError(422, "user_already_exists", "User already registered")
            }
            state.insertions += 1
            let user = EasyCoUser(
                id: PostgrestService.rowID(seed: configuration.seed, number: state.insertions),
                name: String(email.prefix { $0 != "@" }), email: email, password: password, createdAt: now)
            state.accounts.value.users.append(user)
            return user
        }
        // Email confirmation off (a local project's default): the new user is signed in at once.
        return try await newSession(for: user)
    }

    /// GoTrue's session: access token, refresh token, expiry and user.
    private func newSession(for user: EasyCoUser) async throws -> MockResponse {
        let refreshToken = try await store.write { state -> String in
            state.insertions += 1
            var random = SeededRandom(seed: configuration.seed).derived("easyco refresh \(state.insertions)")
            let token = (0..<12).map { _ in String(random.int(in: 0...35), radix: 36) }.joined()
            state.sessions.append(
                EasyCoAuthSession(
                    refreshToken: token, userID: user.id,
                    sessionID: PostgrestService.rowID(seed: configuration.seed, number: state.insertions)))
            return token
        }
        let now = configuration.now()
        let access = try await tokens.sign(
            subject: user.id, lifetime: Self.sessionLifetime, role: "authenticated", email: user.email)
        return .json([
            "access_token": .string(access), "token_type": "bearer", "expires_in": .integer(Int(Self.sessionLifetime)),
            "expires_at": .integer(Int(now.timeIntervalSince1970 + Self.sessionLifetime)),
            "refresh_token": .string(refreshToken), "user": Self.userJSON(user, now: now),
        ])
    }

    /// The user a bearer access token names.
    private func signedInUser(_ request: MockRequest) throws -> EasyCoUser {
        guard let principal = request.principal, !principal.subject.isEmpty else {
            throw Self.authError(403, "bad_jwt", "invalid claim: missing sub claim")
        }
        guard let user = store.read({ $0.user(principal.subject) }) else {
            throw Self.authError(403, "user_not_found", "User from sub claim in JWT does not exist")
        }
        return user
    }

    /// GoTrue's user object.
    static func userJSON(_ user: EasyCoUser, now: Date) -> JSONValue {
        let created = user.createdAt ?? FixtureGenerator.isoDate(FixtureGenerator.referenceInstant, fraction: false)
        return [
            "id": .string(user.id), "aud": "authenticated", "role": "authenticated", "email": .string(user.email),
            "email_confirmed_at": .string(created), "phone": "", "confirmed_at": .string(created),
            "last_sign_in_at": .string(FixtureGenerator.isoDate(now, fraction: false)),
            "app_metadata": ["provider": "email", "providers": ["email"]],
            "user_metadata": ["name": .string(user.name)], "identities": [], "created_at": .string(created),
            "updated_at": .string(created), "is_anonymous": false,
        ]
    }

    /// GoTrue's error body.
    static func authError(_ status: Int, _ code: String, _ message: String) -> MockError {
        MockError(
            HTTPStatus(rawValue: status), message,
            body: ["code": .integer(status), "error_code": .string(code), "msg": .string(message)])
    }
}
