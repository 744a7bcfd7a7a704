import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import UnderstudyCore
import UnderstudyMock
import UnderstudyMockServer
import UnderstudyOpenAPI
import UnderstudySpecs

/// Property-based tests of every mock, generated from the committed OpenAPI documents: whatever a
/// request looks like (valid, or broken in one way), the mock never answers 5xx, answers a status the
/// operation documents, and a body that validates against the schema the document gives for it.
struct MockPropertyTests {
    static let ids = ["fitness", "achievements", "videgreniers", "easyco", "intra42"]
    /// The seed of the generated requests; set `UNDERSTUDY_PROPERTY_SEED` to explore other runs.
    static let seed = ProcessInfo.processInfo.environment["UNDERSTUDY_PROPERTY_SEED"].flatMap { UInt64($0) } ?? 1

    /// The committed `specs/openapi/<id>.openapi.json`, imported: the golden file is what is tested.
    static func document(_ id: String) throws -> APISpec {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let file = root.appendingPathComponent("specs/openapi/\(id).openapi.json")
        return try OpenAPIImport.spec(Array(try Data(contentsOf: file)), source: file.lastPathComponent)
    }

    static func mock(_ id: String) throws -> MockAPI {
        try #require(MockAPI.named(id)?.first)
    }

    @Test(arguments: ids)
    func inProcess(_ id: String) async throws {
        let configuration = MockConfiguration()
        try await Self.properties(id, of: try await Self.mock(id).makeBehaviour(configuration: configuration))
    }

    /// With every overlay switched off, the fixture engine alone answers every endpoint from the descriptors,
    /// and the same properties hold.
    @Test(arguments: ids)
    func withoutOverlays(_ id: String) async throws {
        let spec = try #require(Specs.named(id)?.first)
        try await Self.properties(id, of: FixtureMock(spec: spec))
    }

    static func properties(_ id: String, of behaviour: any MockBehaviour) async throws {
        let spec = try Self.document(id)
        let configuration = MockConfiguration()
        let engine = MockEngine(behaviour: behaviour, configuration: configuration)
        var generator = RequestGenerator(spec: spec, seed: Self.seed)
        var violations: [String] = []
        var sent = 0
        var credentials = Credentials(try await behaviour.issueToken(for: nil))
        for endpoint in spec.endpoints {
            // Fresh credentials per operation: an earlier logout revokes tokens, and an earlier account deletion
            // removes the default user (then the last credentials stay, and the mock must refuse them properly).
            if let answer = try? await behaviour.issueToken(for: nil) { credentials = Credentials(answer) }
            for request in generator.requests(endpoint, valid: 4, invalid: 3, credentials: credentials) {
                let raw = RawRequest(
                    method: endpoint.method.rawValue, target: request.target, headers: request.headers,
                    body: request.body)
                let response = await engine.respond(to: raw)
                violations += Self.violations(request, status: response.status, body: response.body, spec: spec)
                sent += 1
            }
        }
        #expect(sent == spec.endpoints.count * 7)
        #expect(violations == [])
    }

    @Test(arguments: ids)
    func overLoopback(_ id: String) async throws {
        let spec = try Self.document(id)
        let server = try await MockServer.start(try Self.mock(id))
        // Patient: the suite runs next to CPU-heavy tests on two cores; the property is about answers, not speed.
        let client = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: HTTPClient.Configuration(timeout: .init(connect: .seconds(300), read: .seconds(300))))
        do {
            var generator = RequestGenerator(spec: spec, seed: Self.seed + 1)
            var violations: [String] = []
            var credentials = Credentials([:])
            for endpoint in spec.endpoints {
                let token = try await Self.send(
                    client, server.baseURL, "POST", "/__understudy/token",
                    headers: ["Content-Type": "application/json"],
                    body: Array("{}".utf8))
                if token.status == 200 { credentials = Credentials(try JSONParser().parse(token.body)) }
                for request in generator.requests(endpoint, valid: 1, invalid: 1, credentials: credentials) {
                    let (status, body) = try await Self.send(
                        client, server.baseURL, endpoint.method.rawValue, request.target, headers: request.headers,
                        body: request.body)
                    violations += Self.violations(request, status: status, body: body, spec: spec)
                }
            }
            #expect(violations == [])
        } catch {
            Issue.record("\(error)")
        }
        try await client.shutdown()
        await server.stop()
    }

    static func send(
        _ client: HTTPClient, _ base: URL, _ method: String, _ target: String, headers: [String: String], body: [UInt8]
    ) async throws -> (status: Int, body: [UInt8]) {
        var request = HTTPClientRequest(url: base.absoluteString + target)
        request.method = NIOHTTP1.HTTPMethod(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if !body.isEmpty { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await client.execute(request, timeout: .seconds(300))
        let collected = try await response.body.collect(upTo: 16 << 20)
        return (Int(response.status.code), Array(buffer: collected))
    }

    /// What is wrong with a response, one line per broken property.
    static func violations(_ request: GeneratedRequest, status: Int, body: [UInt8], spec: APISpec) -> [String] {
        let endpoint = request.endpoint
        if status >= 500 {
            return ["\(request): server error \(status): \(String(decoding: body.prefix(300), as: UTF8.self))"]
        }
        let schema: Schema?
        if case .announced = endpoint.availability, status == 404 {
            // `x-understudy-availability: announced`: the document names the operation, the server does not
            // have it yet, and says so with a 404 in the API's error envelope.
            schema = spec.errorEnvelope.model.schema
        } else if status == endpoint.success.rawValue {
            schema = endpoint.response?.schema
        } else if endpoint.errors.contains(HTTPStatus(rawValue: status)) {
            schema = spec.errorEnvelope.model.schema
        } else {
            return [
                "\(request): status \(status) is not documented (\(endpoint.success) or \(endpoint.errors.map(\.description).joined(separator: ", "))): \(String(decoding: body.prefix(300), as: UTF8.self))"
            ]
        }
        guard let schema else {
            return body.isEmpty ? [] : ["\(request): status \(status) documents no body, got \(body.count) bytes"]
        }
        guard let value = try? JSONParser().parse(body) else {
            return [
                "\(request): status \(status) body is not JSON: \(String(decoding: body.prefix(300), as: UTF8.self))"
            ]
        }
        let errors = Validator(definitions: spec.definitions).validate(value, against: schema).filter {
            $0.severity == .error
        }
        return errors.map { "\(request): status \(status) body: \($0.summary)" }
    }
}
