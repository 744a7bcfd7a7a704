import Foundation
import UnderstudyMock

#if canImport(FoundationNetworking)
    import FoundationNetworking
    import UnderstudyCore
#endif

/// Serves a mock API to `URLSession` in process, without a socket.
///
/// ```swift
/// let stub = try await MockURLStub.start(.apinest)
/// let session = URLSession(configuration: stub.sessionConfiguration)
/// let (data, response) = try await session.data(from: stub.baseURL.appending(path: "activities"))
/// stub.stop()
/// ```
public final class MockURLStub: Sendable {
    /// The base URL the stub answers: `http://<random>.understudy.invalid`.
    public let baseURL: URL
    public let engine: MockEngine
    /// Every request the stub answered, with the contract's verdict on each.
    public let journal = RequestJournal()
    private let host: String

    private init(engine: MockEngine) {
        self.engine = engine
        host = "\(UUID().uuidString.lowercased()).understudy.invalid"
        baseURL = URL(string: "http://\(host)")!
        MockURLProtocol.register(engine, journal: journal, host: host)
    }

    /// Builds the mock of `api` with its seeded state and starts answering `baseURL`.
    public static func start(_ api: MockAPI, configuration: MockConfiguration = MockConfiguration()) async throws
        -> MockURLStub
    {
        let behaviour = try await api.makeBehaviour(configuration: configuration)
        return MockURLStub(engine: MockEngine(behaviour: behaviour, configuration: configuration))
    }

    /// Serves any behaviour (your own test double included).
    public static func start(_ behaviour: any MockBehaviour, configuration: MockConfiguration = MockConfiguration())
        -> MockURLStub
    {
        MockURLStub(engine: MockEngine(behaviour: behaviour, configuration: configuration))
    }

    /// A session configuration whose requests to ``baseURL`` reach the mock.
    public var sessionConfiguration: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [MockURLProtocol.self] + (configuration.protocolClasses ?? [])
        return configuration
    }

    /// A token the app would get for a seeded user (by e-mail, login or id; `nil` for the API's default user), as
    /// its sign-in answers it.
    /// - Throws: ``MockError`` 404 for an unknown user.
    public func token(for user: String? = nil) async throws -> String {
        let answer = try await engine.behaviour.issueToken(for: user)
        guard let token = (answer["accessToken"] ?? answer["access_token"])?.stringValue else {
            throw MockError(.internalServerError, "\(engine.behaviour.name) issued no access token: \(answer)")
        }
        return token
    }

    /// Makes `endpoint` answer `status` from now on (as often as `rate` says), in the API's error envelope.
    public func fail<Request, Response>(_ endpoint: Endpoint<Request, Response>, with status: Int, rate: Double = 1) {
        inject(FaultRule(route: endpoint.id, status: status, errorRate: rate))
    }

    /// Makes `endpoint` answer `delay` later from now on.
    public func delay<Request, Response>(_ endpoint: Endpoint<Request, Response>, by delay: Duration) {
        let milliseconds = Int(delay.components.seconds) * 1000 + Int(delay.components.attoseconds / 1_000_000_000_000_000)
        inject(FaultRule(route: endpoint.id, latencyMilliseconds: milliseconds))
    }

    /// Adds a fault rule to those in force.
    public func inject(_ rule: FaultRule) {
        engine.setFaults(engine.faultRules + [rule])
    }

    /// Stops answering ``baseURL``.
    public func stop() {
        MockURLProtocol.unregister(host: host)
    }
}

/// The `URLProtocol` behind ``MockURLStub``: hands each request to the registered ``MockEngine``.
public final class MockURLProtocol: URLProtocol {
    private static let engines = Locked<[String: (engine: MockEngine, journal: RequestJournal)]>([:])

    static func register(_ engine: MockEngine, journal: RequestJournal, host: String) {
        engines.withLock { $0[host] = (engine, journal) }
    }
    static func unregister(host: String) { _ = engines.withLock { $0.removeValue(forKey: host) } }

    private static func stub(for request: URLRequest) -> (engine: MockEngine, journal: RequestJournal)? {
        guard let host = request.url?.host else { return nil }
        return engines.withLock { $0[host] }
    }

    public override class func canInit(with request: URLRequest) -> Bool { stub(for: request) != nil }
    public override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    public override func startLoading() {
        guard let (engine, journal) = Self.stub(for: request), let url = request.url else {
            client?.urlProtocol(self, didFailWithError: URLError(.cannotConnectToHost))
            return
        }
        var headers: [String: String] = [:]
        for (name, value) in request.allHTTPHeaderFields ?? [:] { headers[name] = value }
        let raw = RawRequest(
            method: request.httpMethod ?? "GET", path: url.path.isEmpty ? "/" : url.path, query: url.query ?? "",
            headers: headers, body: Self.body(of: request))
        let loading = Loading(protocol: self)
        Task {
            let response = await engine.respond(to: raw)
            journal.record(raw, answered: response, by: engine)
            loading.finish(response, url: url)
        }
    }

    /// Carries the protocol instance into the task that answers it; `URLProtocol` is not `Sendable`, but
    /// the loading system expects exactly this: one callback sequence from any thread.
    private struct Loading: @unchecked Sendable {
        let `protocol`: MockURLProtocol

        func finish(_ response: MockResponse, url: URL) {
            let client = `protocol`.client
            if response.dropConnection {
                client?.urlProtocol(`protocol`, didFailWithError: URLError(.networkConnectionLost))
                return
            }
            var fields: [String: String] = [:]
            for header in response.headers { fields[header.name] = header.value }
            let http = HTTPURLResponse(
                url: url, statusCode: response.status, httpVersion: "HTTP/1.1", headerFields: fields)!
            client?.urlProtocol(`protocol`, didReceive: http, cacheStoragePolicy: .notAllowed)
            client?.urlProtocol(`protocol`, didLoad: Data(response.body))
            client?.urlProtocolDidFinishLoading(`protocol`)
        }
    }

    public override func stopLoading() {}

    /// `URLSession` moves bodies into a stream before a protocol sees them.
    private static func body(of request: URLRequest) -> [UInt8] {
        if let body = request.httpBody { return Array(body) }
        guard let stream = request.httpBodyStream else { return [] }
        stream.open()
        defer { stream.close() }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            if count <= 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return bytes
    }
}
