import Foundation
import JWTKit
import UnderstudyCore
import UnderstudySpecs

extension VideGreniersMock {
    /// An access token: subject = user id, the user's roles and e-mail, a `jti` so logout can revoke it.
    func accessToken(for user: User) async throws -> String {
        try await tokens.sign(
            subject: user.id.uuidString.lowercased(), lifetime: Self.accessTokenLifetime, roles: user.roles,
            email: user.email)
    }

    /// An opaque, unguessable refresh token (random, unlike the seeded ids).
    static func newRefreshToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let value = generator.next() as UInt64
            let hex = String(value, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    func register(_ request: MockRequest, now: Double) async throws -> MockResponse {
        let body = try request.body(as: VideGreniers.RegisterRequest.self, in: VideGreniers.spec)
        let refresh = Self.newRefreshToken()
        let user = try await store.write { state -> User in
            guard state.user(email: body.email) == nil else {
                throw MockError(.conflict, "email: a user with the e-mail \(body.email) is already registered")
            }
            let user = User(
                id: state.nextID(), email: body.email, password: body.password,
                firstName: body.firstName?.trimmingCharacters(in: .whitespaces) ?? "",
                lastName: body.lastName?.trimmingCharacters(in: .whitespaces) ?? "", phoneNumber: nil,
                roles: ["User"], createdOnUtc: now, modifiedOnUtc: nil, lastLoginDate: now)
            state.prune(now: now)
            state.users.append(user)
            state.refreshTokens.append(
                RefreshToken(token: refresh, userId: user.id, expiresAt: now + Self.refreshTokenLifetime))
            try state.record(.userLogin, user: user.id, at: now)
            return user
        }
        let access = try await accessToken(for: user)
        return try VideGreniersAnswers.ok(
            VideGreniersAnswers.auth(access: access, refresh: refresh, user: user), now: now)
    }

    func login(_ request: MockRequest, now: Double) async throws -> MockResponse {
        let body = try request.body(as: VideGreniers.LoginRequest.self, in: VideGreniers.spec)
        let refresh = Self.newRefreshToken()
        let user = try await store.write { state -> User in
            guard let index = state.users.positions(in: State.emailGroup(body.email)).first,
                state.users[index].password == body.password
            else {
                throw MockError(.unauthorized, "invalid e-mail or password")
            }
            state.prune(now: now)
            state.users[index].lastLoginDate = now
            let user = state.users[index]
            state.refreshTokens.append(
                RefreshToken(token: refresh, userId: user.id, expiresAt: now + Self.refreshTokenLifetime))
            try state.record(.userLogin, user: user.id, at: now)
            return user
        }
        let access = try await accessToken(for: user)
        return try VideGreniersAnswers.ok(
            VideGreniersAnswers.auth(access: access, refresh: refresh, user: user), now: now)
    }

    func refresh(_ request: MockRequest, now: Double) async throws -> MockResponse {
        let body = try request.body(as: VideGreniers.RefreshTokenRequest.self, in: VideGreniers.spec)
        // The access token may have expired (that is why the app refreshes) but must be ours.
        let claims: TokenService.Claims
        do {
            claims = try await signatureKeys.verify(body.accessToken, as: TokenService.Claims.self)
        } catch {
            throw MockError(
                .unauthorized, "accessToken: not a token issued by this server (malformed or wrongly signed)")
        }
        let rotated = Self.newRefreshToken()
        let user = try await store.write { state -> User in
            guard let index = state.refreshTokens.position(of: body.refreshToken),
                state.refreshTokens[index].revokedAt == nil, state.refreshTokens[index].expiresAt > now
            else {
                throw MockError(.unauthorized, "refreshToken: unknown, expired, already used or revoked")
            }
            let record = state.refreshTokens[index]
            guard UUID(uuidString: claims.sub.value) == record.userId else {
                throw MockError(.unauthorized, "accessToken: does not belong to the user of the refresh token")
            }
            guard let user = state.user(record.userId) else {
                throw MockError(.unauthorized, "refreshToken: the user no longer exists")
            }
            state.refreshTokens[index].revokedAt = now
            state.prune(now: now)
            state.refreshTokens.append(
                RefreshToken(token: rotated, userId: user.id, expiresAt: now + Self.refreshTokenLifetime))
            return user
        }
        let access = try await accessToken(for: user)
        return try VideGreniersAnswers.ok(
            VideGreniersAnswers.auth(access: access, refresh: rotated, user: user), now: now)
    }

    func logout(_ request: MockRequest, now: Double) async throws -> MockResponse {
        let caller = try caller(request)
        let body = try request.body(as: VideGreniers.LogoutRequest.self, in: VideGreniers.spec)
        let claims = try? await tokens.verify(request.principal?.token ?? "")
        try await store.write { state in
            if let index = state.refreshTokens.position(of: body.refreshToken),
                state.refreshTokens[index].userId == caller
            {
                state.refreshTokens[index].revokedAt = state.refreshTokens[index].revokedAt ?? now
            }
            if let claims, let jti = claims.jti?.value {
                state.revokedAccessTokens.append(
                    RevokedToken(jti: jti, expiresAt: claims.exp.value.timeIntervalSinceReferenceDate))
            }
            state.prune(now: now)
            try state.record(.userLogout, user: caller, at: now)
        }
        return try VideGreniersAnswers.done("Logged out", now: now)
    }

    func currentUser(_ request: MockRequest, now: Double) throws -> MockResponse {
        let caller = try caller(request)
        let user = try store.read { state in
            guard let user = state.user(caller) else { throw MockError(.unauthorized, "user \(caller) does not exist") }
            return user
        }
        let current = VideGreniers.CurrentUserDto(
            id: user.id, email: user.email, firstName: user.firstName.isEmpty ? nil : user.firstName,
            lastName: user.lastName.isEmpty ? nil : user.lastName, roles: user.roles, isAuthenticated: true)
        return try VideGreniersAnswers.ok(current, now: now)
    }
}
