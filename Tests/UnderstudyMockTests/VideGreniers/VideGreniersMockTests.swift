import Foundation
import Testing
import UnderstudyCore
import UnderstudySpecs

@testable import UnderstudyMock

/// The VideGreniers mock: documented flows, auth, validation, state, persistence.
struct VideGreniersMockTests {
    let spec = VideGreniers.spec

    // MARK: Flows over loopback

    @Test func documentedFlowsEndToEndOverLoopback() async throws {
        try await LiveMock.with(.videgreniers) { mock in
            let register = try await mock.send(
                "POST", "/api/auth/register",
                json: [
                    "email": "jeanne@example.com", "password": "Brocante2025", "firstName": "Jeanne",
                    "lastName": "Petit",
                ])
            #expect(register.status == 200)
            expectConforms(register.bytes, "POST /api/auth/register", in: spec)
            #expect(register.json?["data"]?["expiresIn"] == 900)
            #expect(register.json?["data"]?["user"]?["email"] == "jeanne@example.com")

            let login = try await mock.send(
                "POST", "/api/auth/login", json: ["email": "jeanne@example.com", "password": "Brocante2025"])
            #expect(login.status == 200)
            expectConforms(login.bytes, "POST /api/auth/login", in: spec)
            let access = try #require(login.json?["data"]?["accessToken"]?.stringValue)
            let refresh = try #require(login.json?["data"]?["refreshToken"]?.stringValue)

            let me = try await mock.send("GET", "/api/auth/me", token: access)
            #expect(me.status == 200)
            expectConforms(me.bytes, "GET /api/auth/me", in: spec)
            #expect(me.json?["data"]?["roles"] == ["User"])
            #expect(me.json?["data"]?["isAuthenticated"] == true)

            // Create (a draft, visible to its organiser only), update, publish.
            let start = Date().timeIntervalSinceReferenceDate + 3 * 86_400
            var command: [String: JSONValue] = [
                "title": "Brocante des Pentes", "description": "Brocante annuelle des Pentes de la Croix-Rousse.",
                "eventType": 1, "startDate": VideGreniersHarness.date(start),
                "endDate": VideGreniersHarness.date(start + 36_000),
                "street": "Place Sathonay", "city": "Lyon", "postalCode": "69001", "country": "France",
                "entryFeeAmount": .number(JSONNumber(uncheckedLiteral: "2.50")), "entryFeeCurrency": "EUR",
                "allowsEarlyBird": true, "earlyBirdTime": "07:00:00",
                "earlyBirdFeeAmount": .number(JSONNumber(uncheckedLiteral: "5.00")), "earlyBirdFeeCurrency": "EUR",
            ]
            let created = try await mock.send("POST", "/api/events", json: .object(command), token: access)
            #expect(created.status == 201)
            expectConforms(created.bytes, "POST /api/events", in: spec)
            let id = try #require(created.json?["data"]?["id"]?.stringValue)
            #expect(created.json?["data"]?["status"] == 0)
            #expect(created.json?["data"]?["organizerName"] == "Jeanne Petit")
            #expect(created.json?["data"]?["entryFeeAmount"]?.numberLiteral == "2.50")
            #expect(created.json?["data"]?["isFavorite"] == false)
            #expect(created.json?["data"]?["location"]?["latitude"]?.numberValue?.doubleValue == 45.764)
            #expect(try await mock.send("GET", "/api/events/\(id)").status == 404)
            #expect(try await mock.send("GET", "/api/events/\(id)", token: access).status == 200)

            command["id"] = .string(id)
            command["title"] = "Brocante des Pentes (2e édition)"
            let updated = try await mock.send("PUT", "/api/events/\(id)", json: .object(command), token: access)
            #expect(updated.status == 200)
            expectConforms(updated.bytes, "PUT /api/events/{id}", in: spec)
            #expect(updated.json?["data"]?["title"] == "Brocante des Pentes (2e édition)")

            let published = try await mock.send("POST", "/api/events/\(id)/publish", token: access)
            #expect(published.status == 200)
            expectConforms(published.bytes, "POST /api/events/{id}/publish", in: spec)
            #expect(published.json?["data"]?["status"] == 1)
            #expect(published.json?["data"]?["publishedOnUtc"] != .null)

            let listed = try await mock.send("GET", "/api/events?searchTerm=pentes")
            expectConforms(listed.bytes, "GET /api/events", in: spec)
            #expect(listed.json?["data"]?[0]?["id"] == .string(id))
            #expect(listed.json?["data"]?[0]?["isFavorite"] == .null)
            #expect(listed.json?["pagination"]?["totalCount"] == 1)

            // Favorites change what every read says.
            let added = try await mock.send("POST", "/api/favorites/\(id)", token: access)
            #expect(added.status == 201)
            expectConforms(added.bytes, "POST /api/favorites/{eventId}", in: spec)
            let fetched = try await mock.send("GET", "/api/events/\(id)", token: access)
            #expect(fetched.json?["data"]?["isFavorite"] == true)
            #expect(fetched.json?["data"]?["favoriteCount"] == 1)
            let toggled = try await mock.send("PATCH", "/api/favorites/\(id)/toggle", token: access)
            expectConforms(toggled.bytes, "PATCH /api/favorites/{eventId}/toggle", in: spec)
            #expect(toggled.json?["data"] == ["eventId": .string(id), "isFavorite": false, "action": "removed"])
            let status = try await mock.send("POST", "/api/favorites/status", json: [.string(id)], token: access)
            #expect(status.json?["data"] == [id: false])

            let cancelled = try await mock.send(
                "POST", "/api/events/\(id)/cancel", json: ["reason": "Météo défavorable annoncée"], token: access)
            #expect(cancelled.status == 200)
            expectConforms(cancelled.bytes, "POST /api/events/{id}/cancel", in: spec)
            #expect(try await mock.send("GET", "/api/events/\(id)").json?["data"]?["status"] == 4)

            // Refresh rotates; logout revokes.
            let rotated = try await mock.send(
                "POST", "/api/auth/refresh", json: ["accessToken": .string(access), "refreshToken": .string(refresh)])
            #expect(rotated.status == 200)
            expectConforms(rotated.bytes, "POST /api/auth/refresh", in: spec)
            let newAccess = try #require(rotated.json?["data"]?["accessToken"]?.stringValue)
            let newRefresh = try #require(rotated.json?["data"]?["refreshToken"]?.stringValue)
            #expect(newRefresh != refresh)
            let reused = try await mock.send(
                "POST", "/api/auth/refresh", json: ["accessToken": .string(access), "refreshToken": .string(refresh)])
            #expect(reused.status == 401)
            expectConforms(reused.bytes, "POST /api/auth/refresh", in: spec, status: 401)

            let logout = try await mock.send(
                "POST", "/api/auth/logout", json: ["refreshToken": .string(newRefresh)], token: newAccess)
            #expect(logout.status == 200)
            expectConforms(logout.bytes, "POST /api/auth/logout", in: spec)
            let afterLogout = try await mock.send(
                "POST", "/api/auth/refresh",
                json: ["accessToken": .string(newAccess), "refreshToken": .string(newRefresh)])
            #expect(afterLogout.status == 401)
            #expect(try await mock.send("GET", "/api/auth/me", token: newAccess).status == 401)
        }
    }

    // MARK: Conformance of every endpoint

    @Test func everyEndpointAnswersItsDocumentedSuccessBody() async throws {
        let mock = try await VideGreniersHarness.make()
        let demo = try await mock.session()
        let admin = try await mock.token("admin@videgreniers.test")
        var covered: Set<String> = []

        func check(
            _ endpoint: String, _ target: String, json: JSONValue? = nil, token: String? = nil,
            sourceLocation: SourceLocation = #_sourceLocation
        ) async -> JSONValue? {
            let method = String(endpoint.split(separator: " ")[0])
            let reply = await mock.send(method, target, json: json, token: token)
            let expected = spec.endpoint(endpoint)?.success.rawValue
            #expect(
                reply.status == expected, "\(endpoint): \(VideGreniersHarness.text(reply.response))",
                sourceLocation: sourceLocation)
            expectConforms(reply.response.body, endpoint, in: spec, sourceLocation: sourceLocation)
            covered.insert(endpoint)
            return reply.json
        }

        _ = await check(
            "POST /api/auth/register", "/api/auth/register",
            json: ["email": "new.user@example.com", "password": "Secure123"])
        _ = await check(
            "POST /api/auth/login", "/api/auth/login",
            json: ["email": "demo@videgreniers.test", "password": "Passw0rd!"])
        let refreshed = await check(
            "POST /api/auth/refresh", "/api/auth/refresh",
            json: ["accessToken": .string(demo.access), "refreshToken": .string(demo.refresh)])
        _ = await check("GET /api/auth/me", "/api/auth/me", token: demo.access)
        let page = await check("GET /api/events", "/api/events", token: demo.access)
        let firstEvent = try #require(page?["data"]?[0]?["id"]?.stringValue)
        _ = await check("GET /api/events/{id}", "/api/events/\(firstEvent)", token: demo.access)
        let nearby = await check(
            "GET /api/events/nearby", "/api/events/nearby?latitude=48.8566&longitude=2.3522&radiusKm=100",
            token: demo.access)
        #expect(nearby?["data"]?.arrayValue?.isEmpty == false)
        let created = await check(
            "POST /api/events", "/api/events", json: .object(mock.eventCommand()), token: demo.access)
        let newEvent = try #require(created?["data"]?["id"]?.stringValue)
        var update = mock.eventCommand(title: "Titre modifié")
        update["id"] = .string(newEvent)
        _ = await check("PUT /api/events/{id}", "/api/events/\(newEvent)", json: .object(update), token: demo.access)
        _ = await check("POST /api/events/{id}/publish", "/api/events/\(newEvent)/publish", token: demo.access)
        _ = await check("GET /api/favorites", "/api/favorites", token: demo.access)
        _ = await check("POST /api/favorites/{eventId}", "/api/favorites/\(newEvent)", token: demo.access)
        _ = await check("DELETE /api/favorites/{eventId}", "/api/favorites/\(newEvent)", token: demo.access)
        _ = await check(
            "PATCH /api/favorites/{eventId}/toggle", "/api/favorites/\(newEvent)/toggle", token: demo.access)
        _ = await check(
            "POST /api/favorites/status", "/api/favorites/status", json: [.string(newEvent), "event-uuid-1"],
            token: demo.access)
        _ = await check("GET /api/favorites/upcoming", "/api/favorites/upcoming?daysAhead=60", token: demo.access)
        _ = await check(
            "POST /api/events/{id}/cancel", "/api/events/\(newEvent)/cancel", json: ["reason": "Météo défavorable"],
            token: demo.access)
        let notifications = await check("GET /api/notifications", "/api/notifications", token: demo.access)
        let notification = try #require(notifications?["data"]?[0]?["id"]?.stringValue)
        _ = await check(
            "PATCH /api/notifications/{notificationId}/read", "/api/notifications/\(notification)/read",
            token: demo.access)
        _ = await check(
            "POST /api/notifications", "/api/notifications",
            json: ["title": "Nouveautés", "message": "De nouveaux vide-greniers près de chez vous.", "type": 5],
            token: admin)
        _ = await check("GET /api/user/profile", "/api/user/profile", token: demo.access)
        _ = await check(
            "PUT /api/user/profile", "/api/user/profile",
            json: try JSONValue(parsing: VideGreniersMockTests.profileUpdate),
            token: demo.access)
        _ = await check("GET /api/user/stats", "/api/user/stats", token: demo.access)
        _ = await check("GET /api/user-activities", "/api/user-activities", token: demo.access)
        _ = await check("GET /api/user-activities/statistics", "/api/user-activities/statistics", token: demo.access)
        _ = await check("GET /health", "/health")
        let newAccess = try #require(refreshed?["data"]?["accessToken"]?.stringValue)
        let newRefresh = try #require(refreshed?["data"]?["refreshToken"]?.stringValue)
        _ = await check(
            "POST /api/auth/logout", "/api/auth/logout", json: ["refreshToken": .string(newRefresh)], token: newAccess)
        _ = await check("DELETE /api/user/account", "/api/user/account", token: demo.access)

        // The two announced endpoints answer 404 in the envelope.
        for path in ["/api/auth/oauth/google", "/api/auth/oauth/apple"] {
            let reply = await mock.send("POST", path, json: ["identityToken": "abc"])
            #expect(reply.status == 404)
            expectConforms(reply.response.body, "POST \(path)", in: spec, status: 404)
            covered.insert("POST \(path)")
        }
        #expect(covered == Set(spec.endpoints.map(\.id)))
    }

    static let profileUpdate = #"""
        {"firstName": "Camille", "lastName": "Martin-Dubois", "phone": "+33699999999", "bio": "Chineuse",
         "preferredLanguage": "fr-FR", "emailNotifications": true}
        """#

    // MARK: Authentication

    @Test func missingMalformedExpiredAndWronglySignedTokensAre401() async throws {
        let mock = try await VideGreniersHarness.make()
        let demo = try await mock.session()
        let missing = await mock.send("GET", "/api/auth/me")
        #expect(missing.status == 401)
        #expect(
            VideGreniersHarness.errors(missing.json) == ["authentication required: send Authorization: Bearer <token>"])
        expectConforms(missing.response.body, "GET /api/auth/me", in: spec, status: 401)

        let malformed = await mock.send("GET", "/api/auth/me", token: "not-a-jwt")
        #expect(malformed.status == 401)
        #expect(VideGreniersHarness.errors(malformed.json) == ["invalid token: the token is malformed"])
        let basic = await mock.send("GET", "/api/auth/me", headers: ["Authorization": "Basic ZGVtbzpQYXNzdzByZCE="])
        #expect(basic.status == 401)

        let forger = try await TokenService(secret: "another-secret-that-is-32-bytes-long!!", now: { mock.clock.now })
        let forged = try await forger.sign(subject: demo.id, lifetime: 900, roles: ["User", "Admin"])
        let wrong = await mock.send("GET", "/api/auth/me", token: forged)
        #expect(wrong.status == 401)
        #expect(VideGreniersHarness.errors(wrong.json) == ["invalid token: the token signature is invalid"])
        #expect(
            await mock.send(
                "POST", "/api/notifications", json: ["title": "x", "message": "y", "type": 0], token: forged
            ).status == 401)

        // A presented token must be valid on the public reads too; without one they answer.
        #expect(await mock.send("GET", "/api/events", token: "not-a-jwt").status == 401)
        #expect(await mock.send("GET", "/api/events").status == 200)
        // Endpoints without authentication ignore the stale token the app sends with every request.
        let login = await mock.send(
            "POST", "/api/auth/login", json: ["email": "demo@videgreniers.test", "password": "Passw0rd!"],
            token: "stale")
        #expect(login.status == 200)

        mock.clock.advance(by: 901)
        let expired = await mock.send("GET", "/api/auth/me", token: demo.access)
        #expect(expired.status == 401)
        #expect(VideGreniersHarness.errors(expired.json) == ["invalid token: the token has expired"])
        // The refresh flow accepts the expired access token with its refresh token.
        let refreshed = await mock.send(
            "POST", "/api/auth/refresh",
            json: ["accessToken": .string(demo.access), "refreshToken": .string(demo.refresh)],
            token: demo.access)
        #expect(refreshed.status == 200)
        let fresh = try #require(refreshed.json?["data"]?["accessToken"]?.stringValue)
        #expect(await mock.send("GET", "/api/auth/me", token: fresh).status == 200)
    }

    @Test func onlyAdministratorsCreateNotifications() async throws {
        let mock = try await VideGreniersHarness.make()
        let demo = try await mock.session()
        let admin = try await mock.token("admin@videgreniers.test")
        let body: JSONValue = [
            "title": "Rappel", "message": "Le vide-grenier commence demain.", "type": 2, "userId": .string(demo.id),
        ]
        let forbidden = await mock.send("POST", "/api/notifications", json: body, token: demo.access)
        #expect(forbidden.status == 403)
        #expect(VideGreniersHarness.errors(forbidden.json) == ["the admin role is required"])
        expectConforms(forbidden.response.body, "POST /api/notifications", in: spec, status: 403)

        let before = await mock.send("GET", "/api/notifications", token: demo.access).json?["pagination"]?["totalCount"]
        let created = await mock.send("POST", "/api/notifications", json: body, token: admin)
        #expect(created.status == 201)
        #expect(created.json?["data"]?["isUnread"] == true)
        #expect(created.json?["data"]?["typeDisplayName"] == "Rappel")
        let after = await mock.send("GET", "/api/notifications?unreadOnly=true", token: demo.access)
        #expect(after.json?["data"]?[0]?["id"] == created.json?["data"]?["id"])
        #expect(
            await mock.send("GET", "/api/notifications", token: demo.access).json?["pagination"]?["totalCount"]?
                .numberValue?.intValue
                == (before?.numberValue?.intValue ?? 0) + 1)

        // Without userId it goes to every user; the admin gets their own copy back.
        mock.clock.advance(by: 60)
        let broadcast = await mock.send(
            "POST", "/api/notifications",
            json: ["title": "Maintenance", "message": "Coupure ce soir à 23 h.", "type": 0],
            token: admin)
        #expect(broadcast.status == 201)
        let adminList = await mock.send("GET", "/api/notifications", token: admin)
        #expect(adminList.json?["data"]?[0]?["id"] == broadcast.json?["data"]?["id"])
        #expect(
            await mock.send("GET", "/api/notifications", token: demo.access).json?["data"]?[0]?["title"]
                == "Maintenance")

        let invalid = await mock.send(
            "POST", "/api/notifications",
            json: ["title": "x", "message": "y", "type": 9, "userId": "6f1c2b8e-4a0d-4c77-9b55-8e2d1f0a3c11"],
            token: admin)
        #expect(invalid.status == 400)
        #expect(VideGreniersHarness.errors(invalid.json).contains { $0.hasPrefix("type") })
        let unknownUser = await mock.send(
            "POST", "/api/notifications",
            json: ["title": "x", "message": "y", "type": 0, "userId": "6f1c2b8e-4a0d-4c77-9b55-8e2d1f0a3c11"],
            token: admin)
        #expect(
            VideGreniersHarness.errors(unknownUser.json) == [
                "userId: no user has the id 6f1c2b8e-4a0d-4c77-9b55-8e2d1f0a3c11"
            ])
    }

    @Test func refreshTokensRotateAndLogoutRevokesBothTokens() async throws {
        let mock = try await VideGreniersHarness.make()
        let first = try await mock.session()
        let other = try await mock.session()
        let admin = try await mock.session("admin@videgreniers.test")

        let rotated = await mock.send(
            "POST", "/api/auth/refresh",
            json: ["accessToken": .string(first.access), "refreshToken": .string(first.refresh)])
        #expect(rotated.status == 200)
        let access = try #require(rotated.json?["data"]?["accessToken"]?.stringValue)
        let refresh = try #require(rotated.json?["data"]?["refreshToken"]?.stringValue)

        let reused = await mock.send(
            "POST", "/api/auth/refresh",
            json: ["accessToken": .string(first.access), "refreshToken": .string(first.refresh)])
        #expect(reused.status == 401)
        #expect(VideGreniersHarness.errors(reused.json) == ["refreshToken: unknown, expired, already used or revoked"])
        let mixed = await mock.send(
            "POST", "/api/auth/refresh", json: ["accessToken": .string(admin.access), "refreshToken": .string(refresh)])
        #expect(
            VideGreniersHarness.errors(mixed.json) == ["accessToken: does not belong to the user of the refresh token"])
        let garbage = await mock.send(
            "POST", "/api/auth/refresh", json: ["accessToken": "garbage", "refreshToken": .string(refresh)])
        #expect(garbage.status == 401)
        #expect(await mock.send("POST", "/api/auth/refresh", json: ["accessToken": .string(access)]).status == 400)

        let logout = await mock.send(
            "POST", "/api/auth/logout", json: ["refreshToken": .string(refresh)], token: access)
        #expect(logout.status == 200)
        #expect(logout.json?["data"] == .null && logout.json?["success"] == true)
        let afterLogout = await mock.send(
            "POST", "/api/auth/refresh", json: ["accessToken": .string(access), "refreshToken": .string(refresh)])
        #expect(afterLogout.status == 401)
        let revoked = await mock.send("GET", "/api/auth/me", token: access)
        #expect(revoked.status == 401)
        #expect(
            VideGreniersHarness.errors(revoked.json) == [
                "invalid token: the token was revoked (logout or deleted account)"
            ])
        // Another session of the same user is untouched.
        #expect(await mock.send("GET", "/api/auth/me", token: other.access).status == 200)
        #expect(await mock.send("POST", "/api/auth/logout", json: [:], token: other.access).status == 400)
        #expect(await mock.send("POST", "/api/auth/logout", json: ["refreshToken": "x"]).status == 401)
    }

    @Test func registrationAndLoginErrors() async throws {
        let mock = try await VideGreniersHarness.make()
        let duplicate = await mock.send(
            "POST", "/api/auth/register", json: ["email": "DEMO@videgreniers.test", "password": "Another1Pass"])
        #expect(duplicate.status == 409)
        #expect(
            VideGreniersHarness.errors(duplicate.json) == [
                "email: a user with the e-mail DEMO@videgreniers.test is already registered"
            ])
        expectConforms(duplicate.response.body, "POST /api/auth/register", in: spec, status: 409)

        let weak = await mock.send(
            "POST", "/api/auth/register", json: ["email": "weak@example.com", "password": "alllowercase1"])
        #expect(weak.status == 400)
        #expect(
            VideGreniersHarness.errors(weak.json) == [
                #"password: expected a string matching ^(?=.*[a-z])(?=.*[A-Z])(?=.*[0-9]), found "alllowercase1""#
            ])
        let short = await mock.send(
            "POST", "/api/auth/register", json: ["email": "short@example.com", "password": "Ab1"])
        #expect(short.status == 400)
        #expect(VideGreniersHarness.errors(short.json).allSatisfy { $0.hasPrefix("password") })
        let email = await mock.send(
            "POST", "/api/auth/register", json: ["email": "not-an-email", "password": "Secure123"])
        #expect(email.status == 400)
        #expect(VideGreniersHarness.errors(email.json).allSatisfy { $0.hasPrefix("email") })
        let missing = await mock.send("POST", "/api/auth/register", json: ["password": "Secure123"])
        #expect(VideGreniersHarness.errors(missing.json).contains { $0.hasPrefix("email") })
        // Nothing invalid was stored.
        for address in ["weak@example.com", "short@example.com"] {
            let login = await mock.send(
                "POST", "/api/auth/login", json: ["email": .string(address), "password": "alllowercase1"])
            #expect(login.status == 401)
        }

        let badPassword = await mock.send(
            "POST", "/api/auth/login", json: ["email": "demo@videgreniers.test", "password": "Wrong1Pass"])
        #expect(badPassword.status == 401)
        #expect(VideGreniersHarness.errors(badPassword.json) == ["invalid e-mail or password"])
        expectConforms(badPassword.response.body, "POST /api/auth/login", in: spec, status: 401)
        #expect(
            await mock.send("POST", "/api/auth/login", json: ["email": "nobody@example.com", "password": "Passw0rd!"])
                .status == 401)
        let caseInsensitive = await mock.send(
            "POST", "/api/auth/login", json: ["email": "Demo@VideGreniers.test", "password": "Passw0rd!"])
        #expect(caseInsensitive.status == 200)
    }

    // MARK: Events

    /// .NET's decimal rounds an amount finer than 10⁻²⁸ to zero (System.Text.Json, `Number.TryNumberToDecimal`), so
    /// the server takes 8.4e-154, which Foundation's Decimal cannot hold; the mock takes it too (Schemathesis sent
    /// it). An amount beyond the decimal's range is the schema's declared maximum.
    @Test func amountsAreReadAsDotNetDecimalsReadThem() async throws {
        let mock = try await VideGreniersHarness.make()
        let token = try await mock.token()
        var command = mock.eventCommand()
        command["entryFeeAmount"] = .number(JSONNumber(uncheckedLiteral: "8.4e-154"))
        let tiny = await mock.send("POST", "/api/events", json: .object(command), token: token)
        #expect(tiny.status == 201)
        expectConforms(tiny.response.body, "POST /api/events", in: VideGreniers.spec, status: 201)
        #expect(tiny.json?["data"]?["entryFeeAmount"]?.numberValue?.doubleValue == 0)
        command["entryFeeAmount"] = .number(JSONNumber(uncheckedLiteral: "1e29"))
        let huge = await mock.send("POST", "/api/events", json: .object(command), token: token)
        #expect(huge.status == 400)
        #expect(VideGreniersHarness.errors(huge.json).first?.hasPrefix("entryFeeAmount: ") == true)
    }

    @Test func invalidEventCommandsAre400NamingTheFieldAndStoreNothing() async throws {
        let mock = try await VideGreniersHarness.make()
        let token = try await mock.token()
        func eventsCreated() async -> JSONValue? {
            await mock.send("GET", "/api/user/stats", token: token).json?["data"]?["totalEventsCreated"]
        }
        let before = await eventsCreated()
        let start = mock.clock.seconds + 86_400
        let cases: [(changes: [String: JSONValue], fields: [String])] = [
            (
                ["endDate": VideGreniersHarness.date(start - 3600), "startDate": VideGreniersHarness.date(start)],
                ["endDate"]
            ),
            (["entryFeeCurrency": nil], ["entryFeeCurrency"]),
            (["allowsEarlyBird": true], ["earlyBirdTime", "earlyBirdFeeAmount", "earlyBirdFeeCurrency"]),
            (["title": "ab"], ["title"]),
            (["description": "court"], ["description"]),
            (["entryFeeAmount": -1], ["entryFeeAmount"]),
            (["entryFeeCurrency": "EURO"], ["entryFeeCurrency"]),
            (["entryFeeCurrency": "E1R"], ["entryFeeCurrency"]),
            (
                [
                    "earlyBirdTime": "7h30", "allowsEarlyBird": true, "earlyBirdFeeAmount": 5,
                    "earlyBirdFeeCurrency": "EUR",
                ], ["earlyBirdTime"]
            ),
            (["eventType": 42], ["eventType"]),
            // The document's sample client encodes dates as numbers; the server binds ISO 8601 strings only.
            (["startDate": .double(start)], ["startDate"]),
            (["city": nil], ["city"]),
            (["contactEmail": "not-an-email"], ["contactEmail"]),
            (["categoryId": "6f1c2b8e-4a0d-4c77-9b55-8e2d1f0a3c11"], ["categoryId"]),
            (["latitude": 123], ["latitude"]),
            (["title": "   "], ["title"]),
        ]
        for (changes, fields) in cases {
            var body = mock.eventCommand()
            for (key, value) in changes {
                if value == .null && key != "entryFeeCurrency" {
                    body.removeValue(forKey: key)
                } else {
                    body[key] = value
                }
            }
            let reply = await mock.send("POST", "/api/events", json: .object(body), token: token)
            #expect(reply.status == 400, "\(changes)")
            let named = VideGreniersHarness.errors(reply.json).map { String($0.prefix { $0 != ":" && $0 != " " }) }
            #expect(Set(named) == Set(fields), "\(changes): \(VideGreniersHarness.errors(reply.json))")
            expectConforms(reply.response.body, "POST /api/events", in: spec, status: 400)
        }
        #expect(await eventsCreated() == before)

        let id = try await mock.createEvent(token: token)
        var update = mock.eventCommand(title: "Autre titre")
        update["id"] = "6f1c2b8e-4a0d-4c77-9b55-8e2d1f0a3c11"
        let mismatch = await mock.send("PUT", "/api/events/\(id)", json: .object(update), token: token)
        #expect(mismatch.status == 400)
        // The endpoint's declared rule (`equal`: body id, path id), refused by the engine in its words.
        #expect(
            VideGreniersHarness.errors(mismatch.json)
                == [
                    "id: expected a value equal to path parameter id (string \"\(id)\"), "
                        + "found string \"6f1c2b8e-4a0d-4c77-9b55-8e2d1f0a3c11\""
                ])
        #expect(
            await mock.send("GET", "/api/events/\(id)", token: token).json?["data"]?["title"]
                == "Vide-grenier de la rue des Lilas")
    }

    @Test func onlyTheOrganiserChangesAnEventAndStatusRulesHold() async throws {
        let mock = try await VideGreniersHarness.make()
        let demo = try await mock.token()
        let admin = try await mock.token("admin@videgreniers.test")
        let id = try await mock.createEvent(token: demo)
        let unknown = "6f1c2b8e-4a0d-4c77-9b55-8e2d1f0a3c11"

        // Another user does not see the draft at all; once published it is visible but not theirs.
        #expect(await mock.send("POST", "/api/events/\(id)/publish", token: admin).status == 404)
        #expect(await mock.send("POST", "/api/events/\(id)/publish", token: demo).status == 200)
        let republish = await mock.send("POST", "/api/events/\(id)/publish", token: demo)
        #expect(republish.status == 400)
        #expect(
            VideGreniersHarness.errors(republish.json) == [
                "status: only draft events can be published; this one is published"
            ])
        var update = mock.eventCommand(title: "Pris en main")
        update["id"] = .string(id)
        let forbidden = await mock.send("PUT", "/api/events/\(id)", json: .object(update), token: admin)
        #expect(forbidden.status == 403)
        #expect(VideGreniersHarness.errors(forbidden.json) == ["only the organiser of event \(id) may update it"])
        expectConforms(forbidden.response.body, "PUT /api/events/{id}", in: spec, status: 403)
        #expect(
            await mock.send(
                "POST", "/api/events/\(id)/cancel", json: ["reason": "Je ne suis pas l'organisateur"], token: admin
            ).status == 403)

        // 404 for unknown ids, 400 for ids that are not UUIDs.
        for (method, path, body) in [
            ("GET", "/api/events/\(unknown)", nil), ("POST", "/api/events/\(unknown)/publish", nil),
            ("POST", "/api/events/\(unknown)/cancel", ["reason": "Météo défavorable"] as JSONValue),
        ] {
            let reply = await mock.send(method, path, json: body, token: demo)
            #expect(reply.status == 404)
            #expect(VideGreniersHarness.errors(reply.json) == ["event \(unknown) does not exist"])
        }
        let notUUID = await mock.send("GET", "/api/events/42")
        #expect(notUUID.status == 400)
        #expect(VideGreniersHarness.errors(notUUID.json).allSatisfy { $0.hasPrefix("path parameter id") })

        // The admin keeps it as a favorite; cancelling notifies them.
        #expect(await mock.send("POST", "/api/favorites/\(id)", token: admin).status == 201)
        let short = await mock.send("POST", "/api/events/\(id)/cancel", json: ["reason": "Pluie"], token: demo)
        #expect(short.status == 400)
        #expect(VideGreniersHarness.errors(short.json).allSatisfy { $0.hasPrefix("reason") })
        let cancelled = await mock.send(
            "POST", "/api/events/\(id)/cancel", json: ["reason": "Météo défavorable"], token: demo)
        #expect(cancelled.json?["data"]?["status"] == 4)
        let notified = await mock.send("GET", "/api/notifications?unreadOnly=true", token: admin)
        #expect(notified.json?["data"]?[0]?["eventId"] == .string(id))
        #expect(notified.json?["data"]?[0]?["message"] == "Météo défavorable")
        let again = await mock.send(
            "POST", "/api/events/\(id)/cancel", json: ["reason": "Météo défavorable"], token: demo)
        #expect(VideGreniersHarness.errors(again.json) == ["status: a cancelled event cannot be cancelled"])
        let late = await mock.send(
            "PUT", "/api/events/\(id)", json: .object(update.merging(["title": "Réouverture"]) { $1 }), token: demo)
        #expect(VideGreniersHarness.errors(late.json) == ["status: a cancelled event cannot be updated"])
    }

    /// The lists walk orders the state keeps as events are written; pages cut from them are what sorting every
    /// visible event gives: by key, then by id in both directions, an organiser's drafts only to them, a published
    /// draft moved into everyone's list, an edited event moved to its new place.
    @Test func keptOrdersPageEventsAsASortWould() async throws {
        let mock = try await VideGreniersHarness.make()
        let demo = try await mock.token()
        func total(_ token: String?) async -> Int? {
            await mock.send("GET", "/api/events?pageSize=1", token: token).json?["pagination"]?["totalCount"]?
                .numberValue?.intValue
        }
        let seeded = (anonymous: try #require(await total(nil)), demo: try #require(await total(demo)))
        var created: [String] = []
        for index in 0..<14 {
            // Three starts and four titles: ties decide most places.
            created.append(
                try await mock.createEvent(token: demo, title: "Brocante \(index % 4)", days: Double(2 + index % 3)))
        }
        for id in created.prefix(5) {
            #expect(await mock.send("POST", "/api/events/\(id)/publish", token: demo).status == 200)
        }
        let moved = await mock.send(
            "PUT", "/api/events/\(created[6])",
            json: .object(mock.eventCommand(title: "Brocante 0", days: 9).merging(["id": .string(created[6])]) { $1 }),
            token: demo)
        #expect(moved.status == 200)

        func key(_ event: JSONValue, _ field: String) -> String {
            field == "Title"
                ? (event["title"]?.stringValue ?? "").folding(
                    options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
                : event["startDate"]?.stringValue ?? ""
        }
        for token in [nil, demo] {
            let everyone = await mock.send("GET", "/api/events?pageSize=100&sortBy=FavoriteCount", token: token)
            let events = try #require(everyone.json?["data"]?.arrayValue)
            let expected = token == nil ? seeded.anonymous + 5 : seeded.demo + 14
            #expect(events.count == expected)
            for field in ["StartDate", "Title"] {
                for descending in [false, true] {
                    let sorted = events.sorted { lhs, rhs in
                        let (left, right) = (key(lhs, field), key(rhs, field))
                        if left == right { return lhs["id"]!.stringValue! < rhs["id"]!.stringValue! }
                        return descending ? left > right : left < right
                    }
                    var pages: [JSONValue] = []
                    for page in 1...5 {
                        let reply = await mock.send(
                            "GET", "/api/events?pageSize=7&page=\(page)&sortBy=\(field)&sortDescending=\(descending)",
                            token: token)
                        #expect(reply.json?["pagination"]?["totalCount"] == .integer(events.count))
                        pages += reply.json?["data"]?.arrayValue ?? []
                    }
                    #expect(pages.map { $0["id"] } == sorted.map { $0["id"] }, "\(field) descending \(descending)")
                }
            }
        }
    }

    @Test func eventListsFilterSortPageAndComputeDistances() async throws {
        let mock = try await VideGreniersHarness.make()
        let demo = try await mock.token()
        let all = await mock.send("GET", "/api/events?pageSize=100")
        let rows = try #require(all.json?["data"]?.arrayValue)
        #expect(all.json?["pagination"]?["totalCount"] == .integer(rows.count))
        #expect(rows.allSatisfy { $0["status"] != 0 && $0["isFavorite"] == .null && $0["distanceKm"] == .null })
        let starts = rows.compactMap { VideGreniersHarness.seconds($0["startDate"]) }
        #expect(starts == starts.sorted())
        // The demo user also sees their two drafts, and whether each event is a favorite.
        let mine = await mock.send("GET", "/api/events?pageSize=100", token: demo)
        #expect(mine.json?["pagination"]?["totalCount"] == .integer(rows.count + 2))
        #expect(mine.json?["data"]?.arrayValue?.count { $0["isFavorite"] == true } == 3)

        let paged = await mock.send("GET", "/api/events?page=2&pageSize=5")
        #expect(paged.json?["data"]?.arrayValue?.map { $0["id"] } == Array(rows[5..<10]).map { $0["id"] })
        #expect(paged.json?["pagination"]?["hasPreviousPage"] == true)
        #expect(paged.json?["pagination"]?["totalPages"] == .integer((rows.count + 4) / 5))
        let beyond = await mock.send("GET", "/api/events?page=99")
        #expect(beyond.json?["data"] == [] && beyond.json?["pagination"]?["hasNextPage"] == false)

        let descending = await mock.send("GET", "/api/events?pageSize=100&sortBy=title&sortDescending=true")
        let titles = descending.json?["data"]?.arrayValue?.compactMap { $0["title"]?.stringValue } ?? []
        #expect(titles.count == rows.count)
        #expect(titles.map { $0.lowercased() } == titles.map { $0.lowercased() }.sorted(by: >))
        let withFee = await mock.send("GET", "/api/events?pageSize=100&hasEntryFee=true")
        #expect(withFee.json?["data"]?.arrayValue?.allSatisfy { $0["entryFeeAmount"] != .null } == true)
        let free = await mock.send("GET", "/api/events?pageSize=100&hasEntryFee=false")
        #expect(
            (withFee.json?["data"]?.arrayValue?.count ?? 0) + (free.json?["data"]?.arrayValue?.count ?? 0) == rows.count
        )
        let city = try #require(rows[0]["location"]?["city"]?.stringValue)
        let cityQuery = try #require(city.lowercased().addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let inCity = await mock.send("GET", "/api/events?pageSize=100&city=\(cityQuery)")
        #expect(inCity.json?["data"]?.arrayValue?.allSatisfy { $0["location"]?["city"]?.stringValue == city } == true)
        let type = try #require(rows[0]["eventType"])
        let ofType = await mock.send("GET", "/api/events?pageSize=100&eventType=\(type)")
        #expect(ofType.json?["data"]?.arrayValue?.allSatisfy { $0["eventType"] == type } == true)
        let later = await mock.send("GET", "/api/events?pageSize=100&startDate=2100-01-01T00:00:00Z")
        #expect(later.json?["data"] == [])

        for (query, field) in [
            ("sortBy=Popularity", "query parameter sortBy"), ("pageSize=101", "query parameter pageSize"),
            ("page=0", "query parameter page"),
            ("eventType=42", "query parameter eventType"), ("hasEntryFee=yes", "query parameter hasEntryFee"),
            ("startDate=yesterday", "query parameter startDate"), ("categoryId=brocante", "query parameter categoryId"),
        ] {
            let reply = await mock.send("GET", "/api/events?\(query)")
            #expect(reply.status == 400, "\(query)")
            #expect(VideGreniersHarness.errors(reply.json).allSatisfy { $0.hasPrefix(field) }, "\(query)")
            expectConforms(reply.response.body, "GET /api/events", in: spec, status: 400)
        }

        let latitude = try #require(rows[0]["location"]?["latitude"])
        let longitude = try #require(rows[0]["location"]?["longitude"])
        let nearby = await mock.send(
            "GET", "/api/events/nearby?latitude=\(latitude)&longitude=\(longitude)&radiusKm=100&limit=50")
        expectConforms(nearby.response.body, "GET /api/events/nearby", in: spec)
        let found = try #require(nearby.json?["data"]?.arrayValue)
        // System.Text.Json writes a whole double without a fraction: `0`.
        #expect(found.first?["id"] == rows[0]["id"] && found.first?["distanceKm"] == 0)
        let distances = found.compactMap { $0["distanceKm"]?.numberValue?.doubleValue }
        #expect(distances.count == found.count)
        #expect(distances == distances.sorted() && distances.allSatisfy { $0 <= 100 })
        #expect(found.allSatisfy { $0["status"] != 0 })
        let limited = await mock.send(
            "GET", "/api/events/nearby?latitude=\(latitude)&longitude=\(longitude)&radiusKm=100&limit=1")
        #expect(limited.json?["data"]?.arrayValue?.count == 1)
        let missing = await mock.send("GET", "/api/events/nearby?longitude=2.35")
        #expect(missing.status == 400)
        #expect(VideGreniersHarness.errors(missing.json) == ["query parameter latitude is required"])
        let outOfRange = await mock.send("GET", "/api/events/nearby?latitude=123&longitude=2.35")
        #expect(
            VideGreniersHarness.errors(outOfRange.json) == ["query parameter latitude: expected at most 90, found 123"])
    }

    // MARK: Favorites, notifications, account

    @Test func favoritesAddRemoveToggleStatusAndUpcoming() async throws {
        let mock = try await VideGreniersHarness.make()
        let demo = try await mock.token()
        let favorites = await mock.send("GET", "/api/favorites", token: demo)
        #expect(favorites.json?["pagination"]?["totalCount"] == 3)
        #expect(favorites.json?["data"]?.arrayValue?.allSatisfy { $0["event"]?["isFavorite"] == true } == true)
        let upcoming = await mock.send("GET", "/api/favorites/upcoming", token: demo)
        #expect(upcoming.json?["data"]?.arrayValue?.count == 2)
        #expect(
            await mock.send("GET", "/api/favorites/upcoming?daysAhead=30", token: demo).json?["data"]?.arrayValue?.count
                == 3)

        let ids = await mock.publicEventIDs()
        let favoriteIDs = Set(favorites.json?["data"]?.arrayValue?.compactMap { $0["eventId"]?.stringValue } ?? [])
        let other = try #require(ids.first { !favoriteIDs.contains($0) })
        let added = await mock.send("POST", "/api/favorites/\(other)", token: demo)
        #expect(added.status == 201)
        #expect(added.json?["data"]?["event"]?["favoriteCount"]?.numberValue?.intValue ?? 0 >= 1)
        let duplicate = await mock.send("POST", "/api/favorites/\(other)", token: demo)
        #expect(duplicate.status == 409)
        #expect(VideGreniersHarness.errors(duplicate.json) == ["eventId: event \(other) is already a favorite"])
        expectConforms(duplicate.response.body, "POST /api/favorites/{eventId}", in: spec, status: 409)
        let unknown = "6f1c2b8e-4a0d-4c77-9b55-8e2d1f0a3c11"
        #expect(await mock.send("POST", "/api/favorites/\(unknown)", token: demo).status == 404)
        #expect(await mock.send("PATCH", "/api/favorites/\(unknown)/toggle", token: demo).status == 404)

        let status = await mock.send(
            "POST", "/api/favorites/status", json: [.string(other), .string(unknown), "event-uuid-1"], token: demo)
        #expect(status.json?["data"] == [other: true, unknown: false, "event-uuid-1": false])
        #expect(await mock.send("POST", "/api/favorites/status", json: ["ids": []], token: demo).status == 400)

        #expect(await mock.send("DELETE", "/api/favorites/\(other)", token: demo).status == 200)
        let gone = await mock.send("DELETE", "/api/favorites/\(other)", token: demo)
        #expect(gone.status == 404)
        #expect(VideGreniersHarness.errors(gone.json) == ["event \(other) is not one of your favorites"])
        let toggled = await mock.send("PATCH", "/api/favorites/\(other)/toggle", token: demo)
        #expect(toggled.json?["data"]?["action"] == "added")
        #expect(await mock.send("GET", "/api/favorites", token: demo).json?["pagination"]?["totalCount"] == 4)
    }

    @Test func notificationsAreReadOnlyByTheirRecipient() async throws {
        let mock = try await VideGreniersHarness.make()
        let demo = try await mock.token()
        let admin = try await mock.token("admin@videgreniers.test")
        let unread = await mock.send("GET", "/api/notifications?unreadOnly=true", token: demo)
        #expect(unread.json?["pagination"]?["totalCount"] == 2)
        let id = try #require(unread.json?["data"]?[0]?["id"]?.stringValue)
        let adminNotification = try #require(
            await mock.send("GET", "/api/notifications", token: admin).json?["data"]?[0]?["id"]?.stringValue)

        #expect(await mock.send("PATCH", "/api/notifications/\(adminNotification)/read", token: demo).status == 404)
        let missing = await mock.send(
            "PATCH", "/api/notifications/6f1c2b8e-4a0d-4c77-9b55-8e2d1f0a3c11/read", token: demo)
        #expect(missing.status == 404)
        expectConforms(missing.response.body, "PATCH /api/notifications/{notificationId}/read", in: spec, status: 404)
        #expect(await mock.send("PATCH", "/api/notifications/\(id)/read", token: demo).status == 200)
        let after = await mock.send("GET", "/api/notifications?unreadOnly=true", token: demo)
        #expect(after.json?["pagination"]?["totalCount"] == 1)
        let read = await mock.send("GET", "/api/notifications?pageSize=100", token: demo).json?["data"]?.arrayValue?
            .first { $0["id"] == .string(id) }
        #expect(
            read?["isUnread"] == false && read?["status"] == 2
                && read?["readOnUtc"] == VideGreniersHarness.date(785_000_000))
        let stats = await mock.send("GET", "/api/user/stats", token: demo)
        #expect(stats.json?["data"]?["unreadNotifications"] == 1)
    }

    /// The activity log's rows are built without the encoder, and must be what the encoder writes.
    @Test func anActivityIsWrittenAsItsModel() throws {
        let full = VideGreniers.UserActivityDto(
            id: UUID(), activityType: .eventFavorited, eventId: UUID(), eventTitle: "Brocante de l'été",
            searchTerm: "vinyles", metadata: #"{"source":"map"}"#, createdOnUtc: Date(timeIntervalSince1970: 1_763_217_000))
        let sparse = VideGreniers.UserActivityDto(
            id: UUID(), activityType: .profileUpdated, eventId: nil, eventTitle: nil, searchTerm: nil, metadata: nil,
            createdOnUtc: Date(timeIntervalSince1970: 1_763_217_001))
        for activity in [full, sparse] {
            #expect(VideGreniersMock.State.item(activity) == (try VideGreniers.spec.wireJSON(activity)))
        }
    }

    @Test func profileStatisticsActivitiesAndAccountDeletion() async throws {
        let mock = try await VideGreniersHarness.make()
        let demo = try await mock.session()
        let stats = await mock.send("GET", "/api/user/stats", token: demo.access)
        let day = Double(785_000_000 - 785_000_000 % 86_400)
        let expectedStats: JSONValue = [
            "totalFavorites": 3, "totalEventsCreated": 3, "totalNotifications": 6, "unreadNotifications": 2,
            "accountCreatedDate": VideGreniersHarness.date(day - 234 * 86_400 + 37_800),
            "lastLoginDate": VideGreniersHarness.date(day - 86_400 + 29_700), "daysActive": 234,
        ]
        #expect(stats.json?["data"] == expectedStats)

        let updated = await mock.send(
            "PUT", "/api/user/profile", json: try JSONValue(parsing: VideGreniersMockTests.profileUpdate),
            token: demo.access)
        #expect(updated.json?["data"]?["fullName"] == "Camille Martin-Dubois")
        #expect(updated.json?["data"]?["phoneNumber"] == "+33699999999")
        let profile = await mock.send("GET", "/api/user/profile", token: demo.access)
        #expect(profile.json?["data"] == updated.json?["data"])
        let blank = await mock.send(
            "PUT", "/api/user/profile", json: ["firstName": " ", "lastName": "Martin"], token: demo.access)
        #expect(VideGreniersHarness.errors(blank.json) == [#"firstName: expected a string matching \S, found " ""#])
        let wrongType = await mock.send(
            "PUT", "/api/user/profile",
            json: ["firstName": "Camille", "lastName": "Martin", "emailNotifications": "yes"],
            token: demo.access)
        #expect(wrongType.status == 400)
        #expect(VideGreniersHarness.errors(wrongType.json).allSatisfy { $0.hasPrefix("emailNotifications") })

        let activities = await mock.send("GET", "/api/user-activities?pageSize=100", token: demo.access)
        let first = try #require(activities.json?["data"]?[0])
        #expect(first["activityType"] == .integer(VideGreniers.UserActivityType.profileUpdated.rawValue))
        let searches = await mock.send("GET", "/api/user-activities?activityType=7", token: demo.access)
        #expect(
            searches.json?["data"]?.arrayValue?.allSatisfy { $0["activityType"] == 7 && $0["searchTerm"] != .null }
                == true)

        let statistics = await mock.send("GET", "/api/user-activities/statistics", token: demo.access)
        // The documented object, keyed by the activity type's number.
        let counts = try #require(statistics.json?["data"]?["activityCounts"]?.objectValue)
        #expect(counts.keys.allSatisfy { Int($0).flatMap(VideGreniers.UserActivityType.init(rawValue:)) != nil })
        let decoded = try VideGreniers.spec.app.decoder.makeDecoder().decode(
            VideGreniers.ApiResponse<VideGreniers.UserActivityStatisticsDto>.self, from: Data(statistics.response.body))
        let data = try #require(decoded.data)
        #expect(data.activityCounts.values.reduce(0, +) == data.totalActivities)
        #expect(data.topSearchTerms.contains("brocante"))
        #expect(data.periodEnd.timeIntervalSinceReferenceDate == 785_000_000)
        let inverted = await mock.send(
            "GET", "/api/user-activities/statistics?startDate=2025-11-10T00:00:00Z&endDate=2025-11-01T00:00:00Z",
            token: demo.access)
        // The endpoint's declared rule (`notBefore`: endDate, startDate), refused by the engine in its words.
        #expect(inverted.status == 400)
        #expect(
            VideGreniersHarness.errors(inverted.json) == [
                "query parameter endDate: expected a value not before query parameter startDate "
                    + "(string \"2025-11-10T00:00:00Z\"), found string \"2025-11-01T00:00:00Z\""
            ])
        // A period that starts after now, with no end, ends when it starts: counted, not refused.
        let future = await mock.send(
            "GET", "/api/user-activities/statistics?startDate=2099-01-01T00:00:00Z", token: demo.access)
        #expect(future.status == 200)
        #expect(future.json?["data"]?["totalActivities"] == 0)

        // Deleting the account refuses its tokens and its password; its published event stays listed.
        let publicBefore = await mock.publicEventIDs()
        let deleted = await mock.send("DELETE", "/api/user/account", token: demo.access)
        #expect(deleted.status == 200)
        #expect(await mock.send("GET", "/api/user/profile", token: demo.access).status == 401)
        let refresh = await mock.send(
            "POST", "/api/auth/refresh",
            json: ["accessToken": .string(demo.access), "refreshToken": .string(demo.refresh)])
        #expect(refresh.status == 401)
        let login = await mock.send(
            "POST", "/api/auth/login", json: ["email": "demo@videgreniers.test", "password": "Passw0rd!"])
        #expect(login.status == 401)
        #expect(await mock.publicEventIDs() == publicBefore)
        let again = await mock.send(
            "POST", "/api/auth/register", json: ["email": "demo@videgreniers.test", "password": "Passw0rd!"])
        #expect(again.status == 200)
    }

    // MARK: Bad input

    @Test func badInputOfEveryKindGetsTheEnvelope() async throws {
        let mock = try await VideGreniersHarness.make(maximumBodyBytes: 1 << 20)
        let token = try await mock.token()
        let cases: [(String, [UInt8], String)] = [
            ("malformed JSON", Array(#"{"title": "x",}"#.utf8), "the body is not valid JSON"),
            ("invalid UTF-8", [0x7B, 0x22, 0x74, 0xFF, 0xFE, 0x22, 0x3A, 0x31, 0x7D], "the body is not valid JSON"),
            ("deep nesting", Array(String(repeating: "[", count: 100_000).utf8), "the body is not valid JSON"),
            ("a JSON array", Array("[1, 2]".utf8), "body"),
            ("an empty body", [], "the request body is required"),
            ("wrong types", Array(#"{"title": 12, "description": true, "eventType": "flea"}"#.utf8), "title"),
        ]
        for (label, bytes, prefix) in cases {
            let reply = await mock.send("POST", "/api/events", bytes: bytes, token: token)
            #expect(reply.status == 400, "\(label)")
            #expect(
                VideGreniersHarness.errors(reply.json).first?.hasPrefix(prefix) == true,
                "\(label): \(VideGreniersHarness.text(reply.response))")
            #expect(reply.json?["success"] == false && reply.json?["data"] == .null)
            expectConforms(reply.response.body, "POST /api/events", in: spec, status: 400)
        }
        let huge = await mock.send("POST", "/api/events", bytes: [UInt8](repeating: 0x20, count: 2 << 20), token: token)
        #expect(huge.status == 413)
        expectConforms(huge.response.body, "POST /api/events", in: spec, status: 413)

        let unknownRoute = await mock.send("GET", "/api/flea-markets")
        #expect(unknownRoute.status == 404)
        #expect(VideGreniersHarness.errors(unknownRoute.json) == ["no route for GET /api/flea-markets"])
        expectConforms(unknownRoute.response.body, "GET /api/events/{id}", in: spec, status: 404)
        let wrongMethod = await mock.send("DELETE", "/api/events")
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.json?["success"] == false)

        try await LiveMock.with(.videgreniers) { live in
            let tokens = try await live.token()
            let access = try #require(tokens["accessToken"]?.stringValue)
            let big = try await live.send(
                "POST", "/api/events", bytes: [UInt8](repeating: UInt8(ascii: " "), count: 2 << 20), token: access)
            #expect(big.status == 413)
            #expect(big.json?["success"] == false)
            let invalid = try await live.send("POST", "/api/events", bytes: [0x7B, 0xFF, 0x7D], token: access)
            #expect(invalid.status == 400)
            let notFound = try await live.send("GET", "/api/nothing-here")
            #expect(notFound.status == 404)
            expectConforms(notFound.bytes, "GET /api/events/{id}", in: spec, status: 404)
        }
    }

    // MARK: State

    @Test func concurrentWritesLoseNothing() async throws {
        let mock = try await VideGreniersHarness.make()
        let token = try await mock.token()
        let before =
            await mock.send("GET", "/api/events?pageSize=1", token: token).json?["pagination"]?["totalCount"]?
            .numberValue?.intValue ?? 0
        let statuses = await withTaskGroup(of: Int.self) { group in
            for index in 0..<50 {
                group.addTask {
                    await mock.send(
                        "POST", "/api/events", json: .object(mock.eventCommand(title: "Concurrent \(index)")),
                        token: token
                    ).status
                }
            }
            for index in 0..<10 {
                group.addTask {
                    await mock.send(
                        "POST", "/api/auth/register",
                        json: ["email": "same@example.com", "password": .string("Secure12\(index)")]
                    ).status
                }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.count { $0 == 201 } == 50)
        #expect(statuses.count { $0 == 200 } == 1)
        #expect(statuses.count { $0 == 409 } == 9)
        let after = await mock.send("GET", "/api/events?pageSize=100&searchTerm=concurrent", token: token)
        #expect(after.json?["pagination"]?["totalCount"] == 50)
        let ids = after.json?["data"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        #expect(Set(ids).count == 50)
        #expect(
            await mock.send("GET", "/api/events?pageSize=1", token: token).json?["pagination"]?["totalCount"]
                == .integer(before + 50))
    }

    @Test func stateIsPersistedAndResetRestoresTheSeed() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("videgreniers-state-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("state.json")
        let clock = MockClock(start: .videGreniersStart)

        // Each mock is released before the next opens the file: a running mock locks it.
        let seeded: [String]
        let token: String
        let id: String
        do {
            let first = try await VideGreniersHarness.make(clock: clock, stateFile: file)
            seeded = await first.publicEventIDs()
            token = try await first.token()
            id = try await first.createEvent(token: token, title: "Persisté sur disque")
            #expect(await first.send("POST", "/api/events/\(id)/publish", token: token).status == 200)
            #expect(
                FileManager.default.fileExists(atPath: folder.appendingPathComponent("state-videgreniers.json").path))
        }
        do {
            // A new behaviour on the same file (a restarted mock) sees the write, and the old token still works.
            let second = try await VideGreniersHarness.make(clock: clock, stateFile: file)
            #expect(await second.publicEventIDs().contains(id))
            #expect(await second.send("GET", "/api/auth/me", token: token).status == 200)
            #expect(await second.send("POST", "/__understudy/reset").status == 200)
            #expect(await second.publicEventIDs() == seeded)
        }
        let third = try await VideGreniersHarness.make(clock: clock, stateFile: file)
        #expect(await third.publicEventIDs() == seeded)
    }

    @Test func theSeedIsDeterministicAndCoherent() async throws {
        let one = try await VideGreniersHarness.make()
        let two = try await VideGreniersHarness.make()
        let other = try await VideGreniersHarness.make(seed: 2)
        let first = await one.send("GET", "/api/events?pageSize=100")
        #expect(first.response.body == (await two.send("GET", "/api/events?pageSize=100")).response.body)
        #expect(await one.publicEventIDs() != other.publicEventIDs())

        let demo = try await one.token()
        let rows = try #require(
            await one.send("GET", "/api/events?pageSize=100", token: demo).json?["data"]?.arrayValue)
        #expect(rows.count >= 16)
        #expect(rows.count { $0["status"] == 0 } == 2)
        for row in rows {
            let start = VideGreniersHarness.seconds(row["startDate"]) ?? 0
            let end = VideGreniersHarness.seconds(row["endDate"]) ?? 0
            #expect(end > start)
            #expect((row["status"] == 0) == (row["publishedOnUtc"] == .null))
            #expect((row["entryFeeAmount"] == .null) == (row["entryFeeCurrency"] == .null))
            if row["allowsEarlyBird"] == true {
                #expect(
                    row["earlyBirdTime"] != .null && row["earlyBirdFeeAmount"] != .null
                        && row["earlyBirdFeeCurrency"] != .null)
            }
            #expect(row["categoryName"] != .null && row["organizerName"] != .null)
        }
        let favorites = rows.compactMap { $0["favoriteCount"]?.numberValue?.intValue }.reduce(0, +)
        #expect(favorites == 7)
        let notes = await one.engine.behaviour.startupNotes()
        #expect(notes.contains("  demo@videgreniers.test / Passw0rd! / User"))
        #expect(notes.contains("  admin@videgreniers.test / Adm1nPassw0rd! / User,Admin"))
        #expect(
            await one.send("GET", "/health").json == [
                "status": "Healthy", "checks": ["database": "Healthy", "cache": "Healthy"],
            ])
    }

    @Test func fixtureFilesSeedTheEvents() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("videgreniers-fixtures-\(UUID())")
        let apiFolder = folder.appendingPathComponent("videgreniers")
        try FileManager.default.createDirectory(at: apiFolder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var fixture = spec.fixture(for: try #require(spec.endpoint("GET /api/events")), seed: 1)
        var body = try #require(fixture.responses[200])
        guard case .object(var members) = body, case .array(var rows) = members["data"], case .object(var row) = rows[0]
        else {
            Issue.record("unexpected fixture shape")
            return
        }
        row["title"] = "Braderie de Lille (fixture)"
        row["id"] = "0b7a3c52-1f3e-4d8a-9c6b-2e5f7a9d1c30"
        rows[0] = .object(row)
        members["data"] = .array(rows)
        body = .object(members)
        fixture.responses[200] = body
        try Data(fixture.jsonValue.serializedBytes()).write(to: apiFolder.appendingPathComponent(fixture.fileName))

        let configuration = MockConfiguration(fixturesDirectory: folder, now: { Date.videGreniersStart })
        let engine = MockEngine(
            behaviour: try await VideGreniersMock(configuration: configuration), configuration: configuration)
        let event = await engine.send("GET", "/api/events/0b7a3c52-1f3e-4d8a-9c6b-2e5f7a9d1c30")
        #expect(event.status == 200)
        #expect(event.json?["data"]?["title"] == "Braderie de Lille (fixture)")
    }
}
