import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import UnderstudyCore
import UnderstudyMock
import UnderstudyMockServer

/// A mock started on a free loopback port, with an AsyncHTTPClient to talk to it over a real socket.
///
/// ```swift
/// try await LiveMock.with(.apinest) { mock in
///     let reply = try await mock.send("GET", "/activities")
///     #expect(reply.status == 200)
/// }
/// ```
struct LiveMock {
    let server: MockServer
    let client: HTTPClient

    /// Runs `body` with a started mock and always stops it (and the client) afterwards.
    static func with<T>(
        _ api: MockAPI, configuration: MockConfiguration = MockConfiguration(),
        _ body: (LiveMock) async throws -> T
    ) async throws -> T {
        let server = try await MockServer.start(api, configuration: configuration)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: patient)
        let mock = LiveMock(server: server, client: client)
        do {
            let result = try await body(mock)
            try await client.shutdown()
            await server.stop()
            return result
        } catch {
            try? await client.shutdown()
            await server.stop()
            throw error
        }
    }

    /// Waits far longer than any answer takes: the suite runs loopback tests next to CPU-heavy ones on two
    /// cores, and these tests judge what the mock answers, not how fast.
    static let patient = HTTPClient.Configuration(timeout: .init(connect: .seconds(300), read: .seconds(300)))

    /// A response: status, headers and body (parsed as JSON when it is JSON).
    struct Reply {
        let status: Int
        let headers: HTTPHeaders
        let bytes: [UInt8]

        var json: JSONValue? { try? JSONParser().parse(bytes) }
        func header(_ name: String) -> String? { headers.first(name: name) }
    }

    /// Sends a request; `body` is sent as JSON when it is a `JSONValue`, raw when bytes.
    func send(
        _ method: String, _ target: String, json: JSONValue? = nil, bytes: [UInt8]? = nil,
        token: String? = nil, headers: [(String, String)] = []
    ) async throws -> Reply {
        var request = HTTPClientRequest(url: server.baseURL.absoluteString + target)
        request.method = NIOHTTP1.HTTPMethod(rawValue: method)
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: json.serializedBytes()))
        } else if let bytes {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: bytes))
        }
        let response = try await client.execute(request, timeout: .seconds(300))
        let body = try await response.body.collect(upTo: 64 << 20)
        return Reply(status: Int(response.status.code), headers: response.headers, bytes: Array(buffer: body))
    }

    /// A token for a seeded user from the admin route.
    func token(for user: String? = nil) async throws -> JSONValue {
        let reply = try await send("POST", "/__understudy/token", json: user.map { ["user": .string($0)] } ?? [:])
        guard reply.status == 200, let json = reply.json else {
            throw LiveMockError(
                "POST /__understudy/token answered \(reply.status): \(String(decoding: reply.bytes, as: UTF8.self))")
        }
        return json
    }
}

struct LiveMockError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension MockEngine {
    /// Sends a request in process (no socket) and returns the response with its body parsed.
    func send(
        _ method: String, _ target: String, json: JSONValue? = nil, bytes: [UInt8]? = nil, token: String? = nil,
        headers: [String: String] = [:]
    ) async -> (status: Int, json: JSONValue?, response: MockResponse) {
        var allHeaders = headers
        if let token { allHeaders["Authorization"] = "Bearer \(token)" }
        if json != nil || bytes != nil { allHeaders["Content-Type"] = allHeaders["Content-Type"] ?? "application/json" }
        let raw = RawRequest(
            method: method, target: target, headers: allHeaders, body: json?.serializedBytes() ?? bytes ?? [])
        let response = await respond(to: raw)
        return (response.status, try? JSONParser().parse(response.body), response)
    }
}

/// Both verdicts on a mock response: it must validate against the endpoint's model and decode.
func expectConforms(
    _ body: [UInt8], _ endpointID: String, in spec: APISpec, status: Int? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let endpoint = spec.endpoint(endpointID) else {
        Issue.record("no endpoint \(endpointID) in \(spec.id)", sourceLocation: sourceLocation)
        return
    }
    let status = status ?? endpoint.success.rawValue
    guard let model = status == endpoint.success.rawValue ? endpoint.response : spec.errorEnvelope.model else {
        #expect(body.isEmpty, "\(endpointID) \(status) must have no body", sourceLocation: sourceLocation)
        return
    }
    let findings = BodyCheck.findings(body, model: model, spec: spec).filter { $0.severity == .error }
    #expect(findings.map(\.summary) == [], "\(endpointID) \(status)", sourceLocation: sourceLocation)
}
