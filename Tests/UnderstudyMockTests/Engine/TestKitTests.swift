import Foundation
import Testing
import UnderstudyCore
import UnderstudySpecs
import UnderstudyTesting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `withMock`: a mock of one's own per test, a journal of what the app sent with the contract's verdict on each
/// request, and a test that fails when the app breaks the contract.
struct TestKitTests {
    static func post(_ path: String, _ body: String, to mock: MockURLStub, token: String? = nil) async throws
        -> (JSONValue, Int)
    {
        var request = URLRequest(url: mock.baseURL.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        request.httpBody = Data(body.utf8)
        let (data, response) = try await URLSession(configuration: mock.sessionConfiguration).data(for: request)
        return (try JSONValue(parsing: Array(data)), (response as? HTTPURLResponse)?.statusCode ?? 0)
    }

    @Test func theJournalHoldsWhatTheAppSentWithTheEndpointAndTheAnswer() async throws {
        try await withMock(.videgreniers) { mock in
            let (answer, status) = try await Self.post(
                "api/auth/login", #"{"email": "demo@videgreniers.test", "password": "Passw0rd!"}"#, to: mock)
            #expect(status == 200)
            #expect(answer["data"]?["accessToken"]?.stringValue != nil)
            let calls = mock.journal.calls(to: VideGreniers.login)
            #expect(calls.count == 1)
            #expect(calls.first?.status == 200)
            #expect(calls.first?.violations.isEmpty == true)
            let sent = try #require(calls.first).body(as: VideGreniers.LoginRequest.self, in: VideGreniers.spec)
            #expect(sent.email == "demo@videgreniers.test")
        }
    }

    /// A request that breaks the contract (a required member missing, a member of the wrong type) fails the test
    /// that sent it, naming each finding, even though the mock answered it (400, as the real server would).
    @Test func aRequestThatBreaksTheContractFailsTheTest() async throws {
        let error = await #expect(throws: ContractViolations.self) {
            try await withMock(.videgreniers) { mock in
                let (_, status) = try await Self.post("api/auth/login", #"{"email": 42}"#, to: mock)
                #expect(status == 400)
            }
        }
        let violations = try #require(error).entries.flatMap(\.violations)
        #expect(violations.contains { $0.rule == .request(.requiredMissing) && $0.pointer == JSONPointer(tokens: ["password"]) })
        #expect(violations.contains { $0.rule == .request(.typeMismatch) && $0.pointer == JSONPointer(tokens: ["email"]) })
        #expect(error?.description.contains("POST /api/auth/login") == true)
    }

    /// By hand, as an XCTest's `setUp` and `tearDown` would: the same journal, the same verdict.
    @Test func startAndVerifyByHand() async throws {
        let stub = try await MockURLStub.start(.apinest)
        defer { stub.stop() }
        let (_, status) = try await Self.post("activities", #"{"title": 3}"#, to: stub, token: try await stub.token())
        #expect(status == 400)
        #expect(throws: ContractViolations.self) { try stub.verifyContract() }
        stub.journal.clear()
        #expect(throws: Never.self) { try stub.verifyContract() }
    }

    /// A route the contract does not have is a violation too; a test of how the app meets a refusal allows them.
    @Test func violationsCanBeAllowedAndRead() async throws {
        let unknown = try await withMock(.videgreniers, allowingViolations: true) { mock in
            _ = try await URLSession(configuration: mock.sessionConfiguration).data(
                from: mock.baseURL.appendingPathComponent("api/no-such-thing"))
            return mock.journal.violations
        }
        #expect(unknown.map(\.rule) == [.requestUnknownRoute])
    }

    /// A document's mock (`mock --spec`) issues the same ready token as its `/__understudy/token` answers, under
    /// the name it gives it (`token`).
    @Test func aDocumentsMockIssuesATokenTheKitReads() async throws {
        let stub = MockURLStub.start(try await ResourceMock(spec: Fitness.spec))
        defer { stub.stop() }
        #expect(try await stub.token() == FixtureMock.readyToken)
    }

    /// What the real server serves beyond its document (Supabase Auth's sign-in beside EasyCo's tables) breaks no
    /// contract: the app signs in through it on every launch. A route no one serves still does.
    @Test func aRouteTheServerServesBeyondItsDocumentIsNoViolation() async throws {
        try await withMock(.easyco) { mock in
            var request = URLRequest(url: mock.baseURL.appendingPathComponent("auth/v1/token"))
            request.url = URL(string: request.url!.absoluteString + "?grant_type=password")
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            let key: String = try #require(try await mock.apiKey())
            request.setValue(key, forHTTPHeaderField: "apikey")
            request.httpBody = Data(#"{"email": "camille.martin@example.com", "password": "understudy-password"}"#.utf8)
            let (data, response) = try await URLSession(configuration: mock.sessionConfiguration).data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(try JSONValue(parsing: Array(data))["access_token"]?.stringValue != nil)
            #expect(mock.journal.entries.map(\.endpoint) == ["POST /auth/v1/token"])
            #expect(mock.journal.violations.isEmpty)
        }
        let unknown = try await withMock(.easyco, allowingViolations: true) { mock in
            _ = try await URLSession(configuration: mock.sessionConfiguration).data(
                from: mock.baseURL.appendingPathComponent("auth/v2/nothing"))
            return mock.journal.violations
        }
        #expect(unknown.map(\.rule) == [.requestUnknownRoute])
    }

    static func get(_ path: String, from mock: MockURLStub, token: String? = nil) async throws -> (JSONValue?, Int) {
        var request = URLRequest(url: mock.baseURL.appendingPathComponent(path))
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let (data, response) = try await URLSession(configuration: mock.sessionConfiguration).data(for: request)
        return (try? JSONValue(parsing: Array(data)), (response as? HTTPURLResponse)?.statusCode ?? 0)
    }

    /// The test moves the mock's clock: a 42 token expires after its 7200 seconds, and a slot must begin at least
    /// half an hour after the clock's now, with no sleeping.
    @Test func theClockDrivesTokenExpiryAndTheSlotNotice() async throws {
        let clock = MockClock(start: .intra42Start)    // 2025-11-18T10:20:00Z
        try await withMock(.intra42, configuration: MockConfiguration(now: clock.read)) { mock in
            let token = try await mock.token()
            let (me, status) = try await Self.get("v2/me", from: mock, token: token)
            #expect(status == 200)
            let userID = try #require(me?["id"]?.numberValue?.intValue)
            func open(_ begin: String, _ end: String) async throws -> Int {
                try await Self.post(
                    "v2/slots", #"{"slot": {"user_id": \#(userID), "begin_at": "\#(begin)", "end_at": "\#(end)"}}"#,
                    to: mock, token: token
                ).1
            }
            // 40 minutes ahead: opened.
            #expect(try await open("2025-11-18T11:00:00.000Z", "2025-11-18T11:15:00.000Z") == 201)
            clock.advance(by: 30 * 60)    // 10:50: 11:15 is 25 minutes ahead
            #expect(try await open("2025-11-18T11:15:00.000Z", "2025-11-18T11:30:00.000Z") == 422)
            clock.advance(by: 7200 - 30 * 60)
            #expect(try await Self.get("v2/me", from: mock, token: token).1 == 401)
        }
    }

    /// One endpoint fails or slows down for one test; the others answer as before.
    @Test func oneEndpointFailsForOneTest() async throws {
        try await withMock(.videgreniers) { mock in
            mock.fail(VideGreniers.events, with: 503)
            mock.delay(VideGreniers.health, by: .milliseconds(20))
            let (body, status) = try await Self.get("api/events", from: mock)
            #expect(status == 503)
            #expect(body?["success"] == false)
            #expect(try await Self.get("health", from: mock).1 == 200)
            #expect(mock.engine.faultRules.map(\.route) == ["GET /api/events", "GET /health"])
            #expect(mock.engine.faultRules.last?.latencyMilliseconds == 20)
        }
        try await withMock(.videgreniers) { mock in
            let status = try await Self.get("api/events", from: mock).1
            #expect(status == 200)
        }
    }

    /// A test puts what it needs in place through the API's own rules, as a seeded user, with the spec's models;
    /// what it arranged is not in the journal, which holds what the app sent.
    @Test func arrangingPutsRecordsInPlaceAsAUser() async throws {
        try await withMock(.videgreniers) { mock in
            let start = Date().addingTimeInterval(7 * 86_400)
            let command = VideGreniers.CreateEventCommand(
                title: "Vide-grenier du test", description: "Arranged by the test.", eventType: .garageSale,
                startDate: start, endDate: start.addingTimeInterval(6 * 3600), street: "1 rue du Test", city: "Lyon",
                postalCode: "69001", country: "France", state: nil, latitude: 45.76, longitude: 4.83,
                contactEmail: nil, contactPhone: nil, specialInstructions: nil, entryFeeAmount: nil,
                entryFeeCurrency: nil, allowsEarlyBird: false, earlyBirdTime: nil, earlyBirdFeeAmount: nil,
                earlyBirdFeeCurrency: nil, categoryId: nil)
            let created = try await mock.arrange(VideGreniers.createEvent, body: command, as: "demo@videgreniers.test")
            let id = try #require(created.data).id.uuidString.lowercased()
            let token = try await mock.token(for: "demo@videgreniers.test")
            let (event, status) = try await Self.get("api/events/\(id)", from: mock, token: token)
            #expect(status == 200)
            #expect(event?["data"]?["title"] == "Vide-grenier du test")
            #expect(mock.journal.entries.map(\.endpoint) == ["GET /api/events/{id}"])
        }
        try await withMock(.intra42) { mock in
            let me = try await mock.arrange(Intra42.me)
            let begin = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 900).rounded(.up) * 900 + 3600)
            let slots = try await mock.arrange(
                Intra42.createSlot,
                body: Intra42.NewSlotRequest(
                    slot: .init(
                        userId: me.id, beginAt: begin.formatted(.iso8601),
                        endAt: begin.addingTimeInterval(900).formatted(.iso8601))))
            let (listed, _) = try await Self.get("v2/me/slots", from: mock, token: try await mock.token())
            #expect(listed?.arrayValue?.compactMap { $0["id"]?.numberValue?.intValue }.contains(slots[0].id) == true)
        }
        try await withMock(.easyco) { mock in
            let user = try #require(JWTClaims.subject(try await mock.token()).flatMap(UUID.init(uuidString:)))
            let favorites = try await mock.arrange(EasyCo.favorites, query: [("user_id", "eq.\(user.uuidString.lowercased())")])
            let properties = try await mock.arrange(EasyCo.properties)
            let property = try #require(properties.first { candidate in !favorites.contains { $0.propertyId == candidate.id } })
            let rows = try await mock.arrange(
                EasyCo.addFavorite, body: EasyCo.NewFavorite(userId: user, propertyId: property.id),
                headers: ["Prefer": "return=representation"])
            #expect(rows.first?.propertyId == property.id)
            let again = try await mock.arrange(EasyCo.favorites, query: [("user_id", "eq.\(user.uuidString.lowercased())")])
            #expect(again.count == favorites.count + 1)
        }
    }

    /// Tests run in parallel each get a mock of their own: the same e-mail address registers in every one of them
    /// (a shared state would answer all but one 409), and each sees only its own user.
    @Test(arguments: 0..<200)
    func parallelTestsShareNothing(index: Int) async throws {
        try await withMock(.videgreniers) { mock in
            let (registered, status) = try await Self.post(
                "api/auth/register",
                #"{"email": "same@example.com", "password": "Parallel-\#(index)-pw1!", "firstName": "Test \#(index)"}"#,
                to: mock)
            #expect(status == 200)
            let token = try #require(registered["data"]?["accessToken"]?.stringValue)
            var request = URLRequest(url: mock.baseURL.appendingPathComponent("api/auth/me"))
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            let (data, _) = try await URLSession(configuration: mock.sessionConfiguration).data(for: request)
            #expect(try JSONValue(parsing: Array(data))["data"]?["firstName"] == .string("Test \(index)"))
            #expect(mock.journal.entries.count == 2)
        }
    }
}
