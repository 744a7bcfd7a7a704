import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import UnderstudyCore
import UnderstudyMockServer
import UnderstudySpecs

@testable import UnderstudyMock

/// The intra42 mock: OAuth 2, the 42 list protocol, slots, bad input, persistence.
struct Intra42MockTests {
    let spec = Intra42.spec

    // MARK: End to end over loopback

    @Test func authorizationCodeThenEveryPageOfProjectsFollowingLink() async throws {
        let clock = MockClock(start: .intra42Start)
        try await LiveMock.with(.intra42, configuration: Intra42Harness.configuration(clock: clock)) { live in
            let mock = try #require(live.server.engine.behaviour as? Intra42Mock)
            let code = mock.store.read { $0.authorizationCodes[0].code }
            let granted = try await live.intra42PostForm(
                "/oauth/token",
                [
                    ("grant_type", "authorization_code"), ("client_id", mock.application.clientID),
                    ("client_secret", mock.application.clientSecret), ("code", code),
                    ("redirect_uri", "myapp42://oauth/callback"),
                ])
            #expect(granted.status == 200)
            expectConforms(granted.bytes, "POST /oauth/token", in: spec)
            #expect(granted.header("Cache-Control") == "no-store")
            let body = try #require(granted.json)
            #expect(body["token_type"] == "bearer")
            #expect(body["expires_in"] == 7200)
            #expect(body["scope"] == "public projects profile")
            #expect(body["created_at"] == .integer(Int(clock.now.timeIntervalSince1970)))
            let token = try #require(body["access_token"]?.stringValue)
            #expect(token.count == 64 && Intra42Mock.isTokenSyntax(token))
            #expect(body["refresh_token"]?.stringValue?.count == 64)

            let me = try await live.send("GET", "/v2/me", token: token)
            #expect(me.status == 200)
            expectConforms(me.bytes, "GET /v2/me", in: spec)
            let login = try #require(me.json?["login"]?.stringValue)
            #expect(login == "cmartin")

            var target = "/v2/users/\(login)/projects_users"
            var page = try await live.send("GET", target, token: token)
            var seen: [JSONValue] = []
            var pages = 0
            while true {
                #expect(page.status == 200)
                expectConforms(page.bytes, "GET /v2/users/{login}/projects_users", in: spec)
                #expect(page.header("X-Per-Page") == "30")
                #expect(page.header("X-Page") == String(pages + 1))
                seen += page.json?.arrayValue ?? []
                pages += 1
                guard let next = Intra42Harness.links(page.header("Link"))["next"], pages < 10 else { break }
                target = next
                page = try await live.intra42Follow(next, token: token)
            }
            let total = try #require(page.header("X-Total").flatMap { Int($0) })
            #expect(total >= 75)
            #expect(seen.count == total)
            #expect(pages == (total + 29) / 30)
            #expect(Set(seen.compactMap { $0["project"]?["slug"] }).count == total)
        }
    }

    @Test func liveErrorsAreInTheEnvelope() async throws {
        try await LiveMock.with(.intra42, configuration: MockConfiguration(seed: 42)) { live in
            let missing = try await live.send("GET", "/v2/me")
            #expect(missing.status == 401)
            #expect(missing.json?["error"] == "Not authorized")
            #expect(missing.header("WWW-Authenticate") == #"Bearer realm="Doorkeeper""#)
            expectConforms(missing.bytes, "GET /v2/me", in: spec, status: 401)
            let unknown = try await live.send("GET", "/v2/nothing")
            #expect(unknown.status == 404)
            #expect(unknown.json == ["error": "Not Found", "message": "no route for GET /v2/nothing"])
            let token = try await live.token()["access_token"]?.stringValue
            let big = try await live.send(
                "POST", "/v2/slots", bytes: Array(repeating: UInt8(ascii: " "), count: 2 << 20), token: token)
            #expect(big.status == 413)
            expectConforms(big.bytes, "POST /v2/slots", in: spec, status: 413)
        }
    }

    @Test func rateLimitAnswers429WithRetryAfter() async throws {
        let clock = MockClock(start: .intra42Start)
        let configuration = Intra42Harness.configuration(clock: clock, rateLimit: RateLimit(requests: 2, seconds: 1))
        try await LiveMock.with(.intra42, configuration: configuration) { live in
            let token = try #require(try await live.token()["access_token"]?.stringValue)
            #expect(try await live.send("GET", "/v2/me", token: token).status == 200)
            #expect(try await live.send("GET", "/v2/campus/9", token: token).status == 200)
            let limited = try await live.send("GET", "/v2/me", token: token)
            #expect(limited.status == 429)
            #expect(limited.header("Retry-After") == "1")
            #expect(limited.json?["error"] == "Too Many Requests")
            expectConforms(limited.bytes, "GET /v2/me", in: spec, status: 429)
            // The limit is per credential: another token has its own budget.
            let other = try #require(try await live.token(for: "hdubois")["access_token"]?.stringValue)
            #expect(try await live.send("GET", "/v2/me", token: other).status == 200)
            clock.advance(by: 1)
            #expect(try await live.send("GET", "/v2/me", token: token).status == 200)
        }
    }

    // MARK: OAuth

    @Test func tokenRequestsAsJSONAndAsForm() async throws {
        let harness = try await Intra42Harness.make()
        let json = await harness.send(
            "POST", "/oauth/token",
            json: harness.tokenRequest(
                "authorization_code", ["code": .string(harness.code), "redirect_uri": "myapp42://oauth/callback"]))
        #expect(json.status == 200)
        let form = [
            "grant_type=authorization_code", "client_id=\(harness.mock.application.clientID)",
            "client_secret=\(harness.mock.application.clientSecret)", "code=\(harness.code)",
            "redirect_uri=myapp42%3A%2F%2Foauth%2Fcallback",
        ].joined(separator: "&")
        let formReply = await harness.send(
            "POST", "/oauth/token", bytes: Array(form.utf8),
            headers: ["Content-Type": "application/x-www-form-urlencoded"])
        #expect(formReply.status == 200)
        expectConforms(formReply.response.body, "POST /oauth/token", in: spec)
        #expect(formReply.json?["access_token"] != json.json?["access_token"])
    }

    @Test func refreshRotatesTheGrant() async throws {
        let harness = try await Intra42Harness.make()
        let first = await harness.send(
            "POST", "/oauth/token",
            json: harness.tokenRequest(
                "authorization_code", ["code": .string(harness.code), "redirect_uri": "myapp42://oauth/callback"]))
        let oldAccess = try #require(first.json?["access_token"]?.stringValue)
        let oldRefresh = try #require(first.json?["refresh_token"])
        harness.clock.advance(by: 7000)
        let refreshed = await harness.send(
            "POST", "/oauth/token", json: harness.tokenRequest("refresh_token", ["refresh_token": oldRefresh]))
        #expect(refreshed.status == 200)
        expectConforms(refreshed.response.body, "POST /oauth/token", in: spec)
        let newAccess = try #require(refreshed.json?["access_token"]?.stringValue)
        #expect(refreshed.json?["refresh_token"] != oldRefresh)
        #expect(refreshed.json?["created_at"] == .integer(Int(harness.clock.now.timeIntervalSince1970)))
        #expect(await harness.send("GET", "/v2/me", token: newAccess).status == 200)

        let revoked = await harness.send("GET", "/v2/me", token: oldAccess)
        #expect(revoked.status == 401)
        #expect(revoked.json == ["error": "Not authorized", "message": "The access token was revoked"])
        let reused = await harness.send(
            "POST", "/oauth/token", json: harness.tokenRequest("refresh_token", ["refresh_token": oldRefresh]))
        #expect(reused.status == 400)
        #expect(reused.json?["error"] == "invalid_grant")
        expectConforms(reused.response.body, "POST /oauth/token", in: spec, status: 400)
    }

    @Test func clientCredentialsGiveAnApplicationTokenWithoutUser() async throws {
        let harness = try await Intra42Harness.make()
        let reply = await harness.send("POST", "/oauth/token", json: harness.tokenRequest("client_credentials"))
        #expect(reply.status == 200)
        expectConforms(reply.response.body, "POST /oauth/token", in: spec)
        #expect(reply.json?["refresh_token"] == .null)
        #expect(reply.json?["scope"] == "public")
        let token = try #require(reply.json?["access_token"]?.stringValue)
        #expect(await harness.send("GET", "/v2/users/cmartin", token: token).status == 200)
        #expect(await harness.send("GET", "/v2/campus/9/events", token: token).status == 200)
        for (method, target) in [("GET", "/v2/me"), ("GET", "/v2/me/slots")] {
            let refused = await harness.send(method, target, token: token)
            #expect(refused.status == 403, "\(target)")
            #expect(refused.json?["error"] == "Forbidden")
            #expect(
                refused.json?["message"]?.stringValue?.contains("client_credentials token has no resource owner")
                    == true)
            expectConforms(refused.response.body, "GET /v2/me/slots", in: spec, status: 403)
        }
        let create = await harness.send(
            "POST", "/v2/slots", json: slot(user: 1, "2025-11-25T09:00:00Z", "2025-11-25T09:15:00Z"), token: token)
        #expect(create.status == 403)
    }

    @Test func tokenErrorsAreOAuthErrors() async throws {
        let harness = try await Intra42Harness.make()
        let redirect: JSONValue = "myapp42://oauth/callback"
        let cases: [(JSONValue, Int, String)] = [
            (harness.tokenRequest("client_credentials", ["client_secret": "s-wrong"]), 401, "invalid_client"),
            (harness.tokenRequest("client_credentials", ["client_id": "u-unknown"]), 401, "invalid_client"),
            (
                harness.tokenRequest("authorization_code", ["code": "0000", "redirect_uri": redirect]), 400,
                "invalid_grant"
            ),
            (
                harness.tokenRequest(
                    "authorization_code", ["code": .string(harness.code), "redirect_uri": "https://evil.example"]), 400,
                "invalid_grant"
            ),
            (harness.tokenRequest("authorization_code", ["redirect_uri": redirect]), 400, "invalid_request"),
            (harness.tokenRequest("authorization_code", ["code": .string(harness.code)]), 400, "invalid_request"),
            (harness.tokenRequest("refresh_token"), 400, "invalid_request"),
            (harness.tokenRequest("refresh_token", ["refresh_token": "f00d"]), 400, "invalid_grant"),
            (harness.tokenRequest("client_credentials", ["scope": "public admin"]), 400, "invalid_scope"),
        ]
        for (body, status, error) in cases {
            let reply = await harness.send("POST", "/oauth/token", json: body)
            #expect(reply.status == status, "\(body)")
            #expect(reply.json?["error"] == .string(error), "\(body)")
            #expect(reply.json?["message"] == reply.json?["error_description"])
            expectConforms(reply.response.body, "POST /oauth/token", in: spec, status: status)
        }
        let missing = await harness.send(
            "POST", "/oauth/token", json: ["grant_type": "client_credentials", "client_secret": "x"])
        #expect(missing.status == 400)
        #expect(missing.json?["message"]?.stringValue?.contains("client_id") == true)
        let password = await harness.send("POST", "/oauth/token", json: harness.tokenRequest("password"))
        #expect(password.status == 400)
        #expect(password.json?["message"]?.stringValue?.hasPrefix("grant_type:") == true)
        let empty = await harness.send("POST", "/oauth/token")
        #expect(empty.status == 400)
        expectConforms(empty.response.body, "POST /oauth/token", in: spec, status: 400)
    }

    @Test func unauthorizedTokens() async throws {
        let harness = try await Intra42Harness.make()
        let token = try await harness.token()
        let cases: [([String: String], String)] = [
            ([:], "authentication required: send Authorization: Bearer <token>"),
            (["Authorization": "Bearer"], "The access token is invalid"),
            (["Authorization": "Basic dXNlcjpwYXNz"], "The access token is invalid"),
            (["Authorization": "Bearer not-a-token"], "The access token is invalid"),
            (["Authorization": "Bearer " + String(token.dropLast())], "The access token is invalid"),
            // A JWT, as the other mocks issue: not a 42 token.
            (
                ["Authorization": "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"],
                "The access token is invalid"
            ),
            // 64 hex digits this server never issued (a token of another server, or forged).
            (["Authorization": "Bearer " + String(repeating: "ab", count: 32)], "The access token is invalid"),
        ]
        for (headers, message) in cases {
            let reply = await harness.send("GET", "/v2/users/cmartin", headers: headers)
            #expect(reply.status == 401, "\(headers)")
            #expect(reply.json == ["error": "Not authorized", "message": .string(message)], "\(headers)")
            #expect(reply.response.header("WWW-Authenticate")?.hasPrefix(#"Bearer realm="Doorkeeper""#) == true)
            expectConforms(reply.response.body, "GET /v2/users/{login}", in: spec, status: 401)
        }
        #expect(await harness.send("GET", "/v2/me", token: token).status == 200)
        harness.clock.advance(by: 7199)
        #expect(await harness.send("GET", "/v2/me", token: token).status == 200)
        harness.clock.advance(by: 1)
        let expired = await harness.send("GET", "/v2/me", token: token)
        #expect(expired.status == 401)
        #expect(expired.json == ["error": "Not authorized", "message": "The access token expired"])
        #expect(
            expired.response.header("WWW-Authenticate")
                == #"Bearer realm="Doorkeeper", error="invalid_token", error_description="The access token expired""#)
    }

    @Test func aTokenWithoutTheProjectsScopeCannotWriteSlots() async throws {
        let harness = try await Intra42Harness.make()
        let first = await harness.send(
            "POST", "/oauth/token",
            json: harness.tokenRequest(
                "authorization_code", ["code": .string(harness.code), "redirect_uri": "myapp42://oauth/callback"]))
        let narrowed = await harness.send(
            "POST", "/oauth/token",
            json: harness.tokenRequest(
                "refresh_token", ["refresh_token": first.json?["refresh_token"] ?? .null, "scope": "public"]))
        #expect(narrowed.json?["scope"] == "public")
        let token = try #require(narrowed.json?["access_token"]?.stringValue)
        #expect(await harness.send("GET", "/v2/me/slots", token: token).status == 200)
        let id = harness.defaultUser.id
        let refused = await harness.send(
            "POST", "/v2/slots", json: slot(user: id, "2025-11-25T09:00:00Z", "2025-11-25T09:15:00Z"), token: token)
        #expect(refused.status == 403)
        #expect(
            refused.json?["message"]
                == "the access token's scopes (public) do not include projects, which POST /v2/slots requires")
        let widened = await harness.send(
            "POST", "/oauth/token",
            json: harness.tokenRequest(
                "refresh_token",
                ["refresh_token": narrowed.json?["refresh_token"] ?? .null, "scope": "public projects"]))
        #expect(widened.status == 400)
        #expect(widened.json?["error"] == "invalid_scope")
    }

    // MARK: Helpers

    func slot(user: Int, _ begin: String, _ end: String) -> JSONValue {
        ["slot": ["user_id": .integer(user), "begin_at": .string(begin), "end_at": .string(end)]]
    }
}
