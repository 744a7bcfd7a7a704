import Foundation
import Testing
import UnderstudyCore
import UnderstudyPostgREST
import UnderstudySpecs

@testable import UnderstudyMock

extension EasyCoMockTests {
    /// 2025-11-15T14:30:00Z: the clock every test runs on.
    static let instant = Date(timeIntervalSince1970: 1_763_217_000)

    static func configuration(seed: UInt64 = 1, stateFile: URL? = nil, fixtures: URL? = nil) -> MockConfiguration {
        MockConfiguration(seed: seed, stateFile: stateFile, fixturesDirectory: fixtures, now: { instant })
    }

    /// An in-process mock with the default user's credentials and the project's keys.
    struct Session {
        let engine: MockEngine
        let mock: EasyCoMock
        let apikey: String
        let service: String
        /// The default user (Camille Martin).
        let user: String
        let token: String

        /// Sends a request with the anon `apikey` and, unless `token` is `""`, a bearer token (the default
        /// user's when `nil`).
        func send(
            _ method: String, _ target: String, json: JSONValue? = nil, bytes: [UInt8]? = nil, token: String? = nil,
            apikey: String? = nil, headers: [String: String] = [:]
        ) async -> (status: Int, json: JSONValue?, response: MockResponse) {
            var all = headers
            all["apikey"] = apikey ?? self.apikey
            if apikey == "" { all["apikey"] = nil }
            let bearer = token ?? self.token
            return await engine.send(
                method, target, json: json, bytes: bytes, token: bearer.isEmpty ? nil : bearer, headers: all)
        }

        /// The rows of a read that must succeed.
        func rows(
            _ target: String, token: String? = nil, headers: [String: String] = [:],
            sourceLocation: SourceLocation = #_sourceLocation
        ) async throws -> [JSONValue] {
            let reply = await send("GET", target, token: token, headers: headers)
            #expect(
                reply.status == 200 || reply.status == 206, "\(target): \(reply.json ?? .null)",
                sourceLocation: sourceLocation)
            return try #require(reply.json?.arrayValue, "\(target)", sourceLocation: sourceLocation)
        }

        /// The rows of a read with the service key (no row-level security).
        func all(_ target: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [JSONValue] {
            try await rows(target, token: service, sourceLocation: sourceLocation)
        }

        /// A seeded user's id by e-mail.
        func userID(_ email: String) throws -> String {
            try #require(mock.store.read { $0.users.first { $0.email == email }?.id }, "no user \(email)")
        }

        /// A token for a seeded user.
        func token(for email: String) async throws -> String {
            try #require(try await mock.issueToken(for: email)["access_token"]?.stringValue)
        }

        /// A scenario property's id by title.
        func propertyID(_ title: String) throws -> String {
            try #require(
                mock.store.read {
                    $0.tables["properties"]?.rows.first { $0["title"] == .string(title) }?["id"]?.stringValue
                },
                "no property \(title)")
        }

        /// The stored rows of a table.
        func stored(_ table: String) -> [PostgrestRow] {
            mock.store.read { $0.tables[table]?.rows ?? [] }
        }
    }

    func session(_ configuration: MockConfiguration = configuration()) async throws -> Session {
        let mock = try await EasyCoMock(configuration: configuration)
        let engine = MockEngine(behaviour: mock, configuration: configuration)
        let answer = try await mock.issueToken(for: nil)
        return Session(
            engine: engine, mock: mock, apikey: mock.keys.anon, service: mock.keys.service,
            user: try #require(answer["user"]?.stringValue), token: try #require(answer["access_token"]?.stringValue))
    }

    /// Values of one key over rows, as strings.
    static func strings(_ rows: [JSONValue], _ key: String) -> [String] {
        rows.map { $0[key]?.stringValue ?? $0[key]?.numberLiteral ?? "null" }
    }

    /// The PostgREST error body of a reply: code and message.
    static func error(_ reply: (status: Int, json: JSONValue?, response: MockResponse)) -> (Int, String?, String?) {
        (reply.status, reply.json?["code"]?.stringValue, reply.json?["message"]?.stringValue)
    }

    static let camille = "camille.martin@example.com"
    static let hugo = "hugo.bernard@example.com"
    static let lea = "lea.dubois@example.com"
    static let manon = "manon.petit@example.com"
    static let louis = "louis.thomas@example.com"
}
