import Foundation
import Testing
import UnderstudyCore
import UnderstudyMock
import UnderstudySpecs

/// The generic fixture behaviour on the built-in specs, in process: with no overlay, every endpoint answers its
/// documented success status with a body that validates and decodes, and its errors in the API's envelope.
struct FixtureMockTests {
    /// A request the descriptor accepts: path, required query and header values generated from their schemas,
    /// the fixture's request body, and a bearer token where the endpoint is protected.
    static func validRequest(_ endpoint: AnyEndpoint, in spec: APISpec, seed: UInt64 = 3) -> RawRequest {
        var generator = FixtureGenerator(seed: seed, definitions: spec.definitions, settings: spec.wire)
        func text(_ parameter: Parameter) -> String {
            switch generator.value(for: parameter.schema, name: parameter.name) {
            case .string(let string): string
            case .number(let number): number.literal
            case .bool(let bool): String(bool)
            case .array(let elements): elements.map { $0.stringValue ?? $0.serialized() }.joined(separator: ",")
            case let value: value.serialized()
            }
        }
        var path: [String: String] = [:]
        var query: [(String, String)] = []
        var headers: [String: String] = [:]
        for parameter in endpoint.parameters where parameter.required {
            switch parameter.location {
            case .path: path[parameter.name] = text(parameter)
            case .query: query.append((parameter.name, text(parameter)))
            case .header: headers[parameter.name] = text(parameter)
            }
        }
        if endpoint.auth != .none { headers["Authorization"] = "Bearer \(FixtureMock.readyToken)" }
        var body = spec.fixture(for: endpoint, seed: seed).request
        endpoint.keepRules(path: &path, query: &query, body: &body)
        if body != nil { headers["Content-Type"] = "application/json" }
        let pairs = query.map { "\($0.0)=\(PathTemplate.percentEncode($0.1))" }
        let target = endpoint.path.expand(path) + (pairs.isEmpty ? "" : "?" + pairs.joined(separator: "&"))
        return RawRequest(
            method: endpoint.method.rawValue, target: target, headers: headers, body: body?.serializedBytes() ?? [])
    }

    @Test(arguments: Specs.all.map(\.id))
    func everyEndpointOfABuiltInSpecAnswersItsSuccessWithAConformingBody(_ id: String) async throws {
        let spec = try #require(Specs.all.first { $0.id == id })
        let engine = MockEngine(behaviour: FixtureMock(spec: spec))
        for endpoint in spec.endpoints where endpoint.availability == .available {
            let response = await engine.respond(to: Self.validRequest(endpoint, in: spec))
            #expect(
                response.status == endpoint.success.rawValue,
                "\(endpoint.id): \(String(decoding: response.body.prefix(300), as: UTF8.self))")
            expectConforms(response.body, endpoint.id, in: spec, status: response.status)
        }
    }

    @Test func aProtectedEndpointWithoutATokenIsRefusedInTheEnvelope() async throws {
        let spec = Specs.named("achievements")![0]
        let endpoint = try #require(spec.endpoints.first { $0.auth == .required && $0.method == .get })
        let engine = MockEngine(behaviour: FixtureMock(spec: spec))
        var request = Self.validRequest(endpoint, in: spec)
        request.headers["authorization"] = nil
        let refused = await engine.respond(to: request)
        #expect(refused.status == 401)
        #expect(refused.header("WWW-Authenticate") == "Bearer")
        expectConforms(refused.body, endpoint.id, in: spec, status: 401)
    }

    @Test func theSameSeedGivesTheSameBytes() async throws {
        let spec = Specs.named("videgreniers")![0]
        let endpoint = try #require(spec.endpoints.first { $0.method == .get && $0.response != nil })
        let request = Self.validRequest(endpoint, in: spec)
        let first = await MockEngine(behaviour: FixtureMock(spec: spec)).respond(to: request)
        let again = await MockEngine(behaviour: FixtureMock(spec: spec)).respond(to: request)
        let otherSeed = await MockEngine(
            behaviour: FixtureMock(spec: spec, configuration: MockConfiguration(seed: 99))
        ).respond(to: request)
        #expect(first.body == again.body)
        #expect(first.body != otherSeed.body)
    }
}
