import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import UnderstudyCore
import UnderstudyMockServer
import UnderstudySpecs

@testable import UnderstudyMock

extension Date {
    /// 2025-11-18T10:20:00Z, a Tuesday, where the tests' clock starts: the seed's times are placed around 10:00 that day.
    static let intra42Start = Date(timeIntervalSince1970: 1_763_461_200)
}

/// An in-process intra42 mock with handy requests.
struct Intra42Harness {
    let engine: MockEngine
    let mock: Intra42Mock
    let clock: MockClock
    let spec = Intra42.spec

    static func make(
        clock: MockClock = MockClock(start: .intra42Start), stateFile: URL? = nil, fixtures: URL? = nil, seed: UInt64 = 42,
        rateLimit: RateLimit? = nil
    ) async throws -> Intra42Harness {
        let configuration = Intra42Harness.configuration(
            clock: clock, stateFile: stateFile, fixtures: fixtures, seed: seed, rateLimit: rateLimit)
        let mock = try await Intra42Mock(configuration: configuration)
        return Intra42Harness(
            engine: MockEngine(behaviour: mock, configuration: configuration), mock: mock, clock: clock)
    }

    static func configuration(
        clock: MockClock, stateFile: URL? = nil, fixtures: URL? = nil, seed: UInt64 = 42,
        rateLimit: RateLimit? = nil
    ) -> MockConfiguration {
        MockConfiguration(
            seed: seed, stateFile: stateFile, fixturesDirectory: fixtures, rateLimit: rateLimit, now: { clock.now })
    }

    func send(
        _ method: String, _ target: String, json: JSONValue? = nil, bytes: [UInt8]? = nil, token: String? = nil,
        headers: [String: String] = [:]
    ) async -> (status: Int, json: JSONValue?, response: MockResponse) {
        await engine.send(method, target, json: json, bytes: bytes, token: token, headers: headers)
    }

    /// A user token from the admin route (the default user unless `user` is given).
    func token(_ user: String? = nil) async throws -> String {
        let reply = await send("POST", "/__understudy/token", json: user.map { ["user": .string($0)] } ?? [:])
        guard reply.status == 200, let token = reply.json?["access_token"]?.stringValue else {
            throw LiveMockError(
                "no token for \(user ?? "the default user"): \(reply.status) \(Self.text(reply.response.body))")
        }
        return token
    }

    /// A token request body with the seeded application's credentials.
    func tokenRequest(_ grant: String, _ members: [String: JSONValue] = [:]) -> JSONValue {
        var body: [String: JSONValue] = [
            "grant_type": .string(grant), "client_id": .string(mock.application.clientID),
            "client_secret": .string(mock.application.clientSecret),
        ]
        body.merge(members) { _, new in new }
        return .object(body)
    }

    /// The seeded authorization code of the default user.
    var code: String { mock.store.read { $0.authorizationCodes[0].code } }

    /// The default user's login and id.
    var defaultUser: (login: String, id: Int) { mock.store.read { ($0.users[0].login, $0.users[0].id) } }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// `rel` → URL of a `Link` header.
    static func links(_ header: String?) -> [String: String] {
        var result: [String: String] = [:]
        for part in (header ?? "").split(separator: ",") {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard pieces.count == 2, pieces[0].hasPrefix("<"), pieces[0].hasSuffix(">"), pieces[1].hasPrefix("rel=")
            else {
                continue
            }
            result[pieces[1].dropFirst(4).replacingOccurrences(of: "\"", with: "")] = String(
                pieces[0].dropFirst().dropLast())
        }
        return result
    }
}

extension LiveMock {
    /// Sends a form-encoded POST (the `send` helper always sends JSON).
    func intra42PostForm(_ path: String, _ fields: [(String, String)]) async throws -> Reply {
        let body = fields.map { "\(PathTemplate.percentEncode($0.0))=\(PathTemplate.percentEncode($0.1))" }.joined(
            separator: "&")
        var request = HTTPClientRequest(url: server.baseURL.absoluteString + path)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.body = .bytes(ByteBuffer(string: body))
        return try await execute(request)
    }

    /// GETs a `Link` URL: absolute, or relative to the server.
    func intra42Follow(_ link: String, token: String) async throws -> Reply {
        var request = HTTPClientRequest(url: link.hasPrefix("http") ? link : server.baseURL.absoluteString + link)
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        return try await execute(request)
    }

    private func execute(_ request: HTTPClientRequest) async throws -> Reply {
        let response = try await client.execute(request, timeout: .seconds(300))
        let body = try await response.body.collect(upTo: 16 << 20)
        return Reply(status: Int(response.status.code), headers: response.headers, bytes: Array(buffer: body))
    }
}
