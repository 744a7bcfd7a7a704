import Foundation
import Testing
import UnderstudyCore
import UnderstudySpecs

@testable import UnderstudyMock

/// Supabase Auth's `/auth/v1` subset, as supabase-swift and supabase-js call it: `POST /token?grant_type=password`
/// and `refresh_token` with a JSON body, `GET /user` and `POST /logout` with the session's bearer, `POST /signup`.
/// Bodies and error codes from supabase/auth (internal/api/token.go, internal/api/errors.go); the refresh token is
/// exchanged once, and sign-out is global by default (internal/api/logout.go). supabase-py 2.34 runs the same flow
/// in CI (scripts/supabase-client-check.py).
extension EasyCoMockTests {
    @Test func signInRefreshSignOutAsGoTrue() async throws {
        let session = try await session()
        let credentials: JSONValue = ["email": .string(Self.camille), "password": .string(EasyCoMock.seededPassword)]
        let signedIn = await session.send("POST", "/auth/v1/token?grant_type=password", json: credentials, token: session.apikey)
        #expect(signedIn.status == 200)
        let access = try #require(signedIn.json?["access_token"]?.stringValue)
        let refresh = try #require(signedIn.json?["refresh_token"]?.stringValue)
        #expect(signedIn.json?["token_type"] == "bearer" && signedIn.json?["expires_in"] == 3600)
        #expect(signedIn.json?["user"]?["email"] == .string(Self.camille))
        #expect(signedIn.json?["user"]?["id"] == .string(session.user))

        // The session's token reads as the user through PostgREST, and names the user on /auth/v1/user.
        let own = try await session.rows("/rest/v1/favorites?select=user_id", token: access)
        #expect(!own.isEmpty && own.allSatisfy { $0["user_id"] == .string(session.user) })
        #expect(await session.send("GET", "/auth/v1/user", token: access).json?["id"] == .string(session.user))

        // A refresh token is exchanged once.
        let refreshed = await session.send(
            "POST", "/auth/v1/token?grant_type=refresh_token", json: ["refresh_token": .string(refresh)], token: session.apikey)
        let next = try #require(refreshed.json?["refresh_token"]?.stringValue)
        #expect(refreshed.status == 200 && next != refresh)
        let reused = await session.send(
            "POST", "/auth/v1/token?grant_type=refresh_token", json: ["refresh_token": .string(refresh)], token: session.apikey)
        #expect(reused.status == 400 && reused.json?["error_code"] == "refresh_token_not_found")

        // Sign-out ends every session of the user.
        #expect(await session.send("POST", "/auth/v1/logout", token: access).status == 204)
        let afterLogout = await session.send(
            "POST", "/auth/v1/token?grant_type=refresh_token", json: ["refresh_token": .string(next)], token: session.apikey)
        #expect(afterLogout.json?["msg"] == "Invalid Refresh Token: Refresh Token Not Found")
    }

    @Test func goTrueRefusesAsGoTrue() async throws {
        let session = try await session()
        let wrong = await session.send(
            "POST", "/auth/v1/token?grant_type=password", json: ["email": .string(Self.camille), "password": "nope"],
            token: session.apikey)
        #expect(wrong.status == 400)
        #expect(wrong.json == ["code": 400, "error_code": "invalid_credentials", "msg": "Invalid login credentials"])
        let grant = await session.send("POST", "/auth/v1/token?grant_type=magic", json: [:], token: session.apikey)
        #expect(grant.status == 400 && grant.json?["error_code"] == "validation_failed")
        // The anon key is no user: /user wants a session's token.
        let anonymous = await session.send("GET", "/auth/v1/user", token: session.apikey)
        #expect(anonymous.status == 403 && anonymous.json?["error_code"] == "bad_jwt")
        // The gateway's apikey check comes first.
        let keyless = await session.send("GET", "/auth/v1/user", apikey: "")
        #expect(keyless.status == 401)

        let taken = await session.send(
            "POST", "/auth/v1/signup", json: ["email": .string(Self.camille), "password": "long-enough"], token: session.apikey)
        #expect(taken.status == 422 && taken.json?["error_code"] == "user_already_exists")
        let weak = await session.send(
            "POST", "/auth/v1/signup", json: ["email": "new@example.com", "password": "abc"], token: session.apikey)
        #expect(weak.status == 422 && weak.json?["error_code"] == "weak_password")
        let signedUp = await session.send(
            "POST", "/auth/v1/signup", json: ["email": "New@Example.com", "password": "long-enough"], token: session.apikey)
        #expect(signedUp.status == 200 && signedUp.json?["user"]?["email"] == "new@example.com")
        let again = await session.send(
            "POST", "/auth/v1/token?grant_type=password", json: ["email": "new@example.com", "password": "long-enough"],
            token: session.apikey)
        #expect(again.status == 200 && again.json?["user"]?["id"] == signedUp.json?["user"]?["id"])
    }
}
