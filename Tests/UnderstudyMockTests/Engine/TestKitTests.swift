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

    /// A route the contract does not have is a violation too; a test of how the app meets a refusal allows them.
    @Test func violationsCanBeAllowedAndRead() async throws {
        let unknown = try await withMock(.videgreniers, allowingViolations: true) { mock in
            _ = try await URLSession(configuration: mock.sessionConfiguration).data(
                from: mock.baseURL.appendingPathComponent("api/no-such-thing"))
            return mock.journal.violations
        }
        #expect(unknown.map(\.rule) == [.requestUnknownRoute])
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
