import Foundation
import UnderstudyCore
import UnderstudyMock

#if canImport(FoundationNetworking)
    import FoundationNetworking
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
    package let engine: MockEngine
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
        try await engine.behaviour.accessToken(for: user)
    }

    /// The API key the app is configured with (EasyCo's `anon` key, which every Supabase request carries), or `nil`
    /// for an API that has none.
    public func apiKey() async throws -> String? {
        try await engine.behaviour.credential(for: nil).apiKey
    }

    /// Calls an endpoint as the app would, to put in place what a test needs (an event owned by a user, a favorite
    /// row, a slot): through the API's own rules, signed in as `user` (a seeded user by e-mail, login or id; `nil` for
    /// the API's default user), and left out of the ``journal``, which holds what the app sent.
    ///
    /// ```swift
    /// let created = try await mock.arrange(VideGreniers.createEvent, body: event, as: "demo@videgreniers.test")
    /// ```
    /// - Returns: the answer, decoded as the endpoint's response model.
    /// - Throws: ``ArrangeError`` when the mock refuses the call, or the decoder's error.
    @discardableResult
    public func arrange<Request: Encodable, Response>(
        _ endpoint: Endpoint<Request, Response>, path: [String: String] = [:], query: [(String, String)] = [],
        body: Request, headers: [String: String] = [:], as user: String? = nil
    ) async throws -> Response {
        guard let spec = engine.behaviour.specs.first(where: { $0.endpoint(endpoint.id) != nil }) else {
            throw ArrangeError(endpoint: endpoint.id, status: 404, body: "not an endpoint of \(engine.behaviour.name)")
        }
        var fields = ["Accept": "application/json"]
        if Request.self != NoBody.self { fields["Content-Type"] = "application/json" }
        if endpoint.auth != .none {
            let credential = try await engine.behaviour.credential(for: user)
            if let token = credential.token { fields["Authorization"] = "Bearer \(token)" }
            if let key = credential.apiKey { fields["apikey"] = key }
        }
        for (name, value) in headers { fields[name] = value }
        let bytes = Request.self == NoBody.self ? [] : Array(try spec.wire.makeEncoder().encode(body))
        let target = query.map { "\(PathTemplate.percentEncode($0.0))=\(PathTemplate.percentEncode($0.1))" }
            .joined(separator: "&")
        let raw = RawRequest(
            method: endpoint.method.rawValue, path: spec.basePath + endpoint.path.expand(path), query: target,
            headers: fields, body: bytes)
        let response = await engine.respond(to: raw)
        guard (200..<300).contains(response.status) else {
            throw ArrangeError(
                endpoint: endpoint.id, status: response.status, body: String(decoding: response.body, as: UTF8.self))
        }
        if Response.self == NoContent.self, let none = NoContent() as? Response { return none }
        return try spec.wire.makeDecoder().decode(Response.self, from: Data(response.body))
    }

    /// ``arrange(_:path:query:body:headers:as:)`` for an endpoint that takes no body.
    @discardableResult
    public func arrange<Response>(
        _ endpoint: Endpoint<NoBody, Response>, path: [String: String] = [:], query: [(String, String)] = [],
        headers: [String: String] = [:], as user: String? = nil
    ) async throws -> Response {
        try await arrange(endpoint, path: path, query: query, body: NoBody(), headers: headers, as: user)
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

/// A call a test made to put something in place that the mock refused.
public struct ArrangeError: Error, CustomStringConvertible {
    public let endpoint: String
    public let status: Int
    public let body: String

    public var description: String { "arranging through \(endpoint) was refused with \(status): \(body)" }
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
