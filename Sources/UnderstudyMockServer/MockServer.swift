import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
import UnderstudyCore
import UnderstudyMock

/// A mock API served by Hummingbird on a real socket.
///
/// ```swift
/// let server = try await MockServer.start(behaviour, port: 0)   // a free port
/// print(server.baseURL)                                          // http://127.0.0.1:52731
/// await server.stop()
/// ```
public final class MockServer: Sendable {
    package let engine: MockEngine
    public let host: String
    /// The bound port (the free port picked when started with 0).
    public let port: Int
    private let task: Task<Void, any Error>
    private let group: ServiceGroup
    /// `http://host:port` (`http://[::1]:4010` for an IPv6 address).
    public let baseURL: URL

    private init(engine: MockEngine, address: ServerAddress, port: Int, task: Task<Void, any Error>, group: ServiceGroup) {
        self.engine = engine
        self.host = address.host
        self.port = port
        baseURL = address.baseURL(port: port)
        self.task = task
        self.group = group
    }

    /// Starts serving `behaviour`; returns once the socket is bound.
    /// - Throws: when the address cannot be bound.
    public static func start(
        _ behaviour: any MockBehaviour, host: String = "127.0.0.1", port: Int = 0,
        configuration: MockConfiguration = MockConfiguration()
    ) async throws -> MockServer {
        try await start(
            behaviour, host: host, port: port, configuration: configuration,
            budget: ConnectionBudget(maximum: configuration.maximumConnections))
    }

    /// The `Server` header of every answer.
    static let serverName = "understudy"

    /// Starts serving `behaviour` with connections taken from `budget`, which several servers may share.
    static func start(
        _ behaviour: any MockBehaviour, host: String, port: Int, configuration: MockConfiguration,
        budget: ConnectionBudget
    ) async throws -> MockServer {
        let address = try ServerAddress(host)
        let engine = MockEngine(behaviour: behaviour, configuration: configuration)
        var logger = Logger(label: "understudy.mock.\(behaviour.name)")
        logger.logLevel = .warning
        let bound = BoundPort()
        let limits = ConnectionGuard.Limits(
            idleTimeout: TimeAmount(configuration.idleTimeout),
            requestTimeout: TimeAmount(configuration.requestTimeout),
            budget: budget, refusal: WireAnswer(engine.serviceUnavailable()))
        let dates = HTTPDateCache()
        // The guard comes first, so it sees every request part and every answer, the cached ones included;
        // it keeps the idle timeout, which Hummingbird's own would apply to the requests it sees only.
        let http1 = HTTP1Channel.Configuration(
            additionalChannelHandlers: [ConnectionGuard(limits), CachedAnswerHandler(engine: engine, dates: dates)],
            idleTimeout: nil)
        let application = Application(
            responder: MockHTTPResponder(engine: engine),
            server: .http1(configuration: http1),
            configuration: ApplicationConfiguration(
                address: .hostname(address.host, port: port), serverName: serverName),
            onServerRunning: { channel in bound.resolve(.success(channel.localAddress?.port ?? port)) },
            logger: logger)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [application], gracefulShutdownSignals: [], logger: logger))
        let task = Task {
            do {
                try await group.run()
                bound.resolve(.failure(MockServerError(description: "the server stopped before it was ready")))
            } catch {
                bound.resolve(.failure(error))
                throw error
            }
        }
        let actualPort = try await bound.value()
        return MockServer(engine: engine, address: address, port: actualPort, task: task, group: group)
    }

    /// A token the app would get for a seeded user (by e-mail, login or id; `nil` for the API's default user), as
    /// its sign-in answers it: what `MockURLStub.token(for:)` gives in process.
    /// - Throws: ``MockError`` 404 for an unknown user; 500 when the API issues no access token.
    public func token(for user: String? = nil) async throws -> String {
        try await engine.behaviour.accessToken(for: user)
    }

    /// Stops accepting connections, lets requests in flight finish, closes every connection, and
    /// returns once the server has stopped.
    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
    }
}

extension MockServer {
    /// Starts the mock of `api` with its seeded state.
    public static func start(
        _ api: MockAPI, host: String = "127.0.0.1", port: Int = 0,
        configuration: MockConfiguration = MockConfiguration()
    ) async throws -> MockServer {
        let configuration = configuration.servingSharedState
        let behaviour = try await api.makeBehaviour(configuration: configuration)
        return try await start(behaviour, host: host, port: port, configuration: configuration)
    }
}

/// Runs `body` with a mock server on a free loopback port, stopping it afterwards whatever happens.
///
/// ```swift
/// try await withMockServer(.videgreniers) { server in
///     let url = server.baseURL.appending(path: "health")
///     ...
/// }
/// ```
public func withMockServer<T>(
    _ api: MockAPI, configuration: MockConfiguration = MockConfiguration(), _ body: (MockServer) async throws -> T
) async throws -> T {
    let server = try await MockServer.start(api, configuration: configuration)
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

extension MockConfiguration {
    /// This configuration with PostgreSQL behind a `postgres://` state, unless another backend is set.
    var servingSharedState: MockConfiguration {
        var configuration = self
        configuration.sharedState = configuration.sharedState ?? SharedStateDatabase.opener
        return configuration
    }
}

/// The server could not start.
public struct MockServerError: Error, Sendable, CustomStringConvertible {
    public let description: String
}

/// A one-shot value delivered from the server's `onServerRunning` callback (or its failure).
private final class BoundPort: Sendable {
    private let state = Locked<(result: Result<Int, any Error>?, waiter: CheckedContinuation<Int, any Error>?)>(
        (nil, nil))

    func resolve(_ result: Result<Int, any Error>) {
        let waiter: CheckedContinuation<Int, any Error>? = state.withLock { state in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(with: result)
    }

    func value() async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            let ready: Result<Int, any Error>? = state.withLock { state in
                if let result = state.result { return result }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }
}

/// The request context: the client address is kept for rate limiting.
struct MockRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let client: String

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        client = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }
}

/// Adapts Hummingbird requests and responses to the transport-independent ``MockEngine``.
struct MockHTTPResponder: HTTPResponder {
    let engine: MockEngine

    func respond(to request: Request, context: MockRequestContext) async throws -> Response {
        var request = request
        let limit = engine.maximumBodyBytes
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: limit)
        } catch {
            return Self.response(engine.payloadTooLarge(path: request.uri.path))
        }
        let raw = RawRequest(request.head, uri: request.uri, body: Array(buffer: body), client: context.client)
        var response = await engine.respond(to: raw)
        if request.method == .connect {
            // NIO frames every answer to CONNECT without a body or length (a 2xx would open a tunnel), so the
            // only clean end of the answer is the end of the connection.
            response.headers.append(("Connection", "close"))
            response.dropConnection = true
        }
        return Self.response(response)
    }

    /// The header fields of an answer (names that are not valid HTTP field names are left out).
    static func fields(_ response: MockResponse) -> HTTPFields {
        var fields = HTTPFields()
        for header in response.headers {
            if let name = HTTPField.Name(header.name) { fields.append(HTTPField(name: name, value: header.value)) }
        }
        return fields
    }

    static func response(_ response: MockResponse) -> Response {
        let fields = fields(response)
        let buffer = ByteBuffer(bytes: response.body)
        if response.dropConnection {
            let body = ResponseBody(contentLength: buffer.readableBytes + 64) { writer in
                try await writer.write(buffer)
                throw MockServerError(description: "connection dropped by an injected fault")
            }
            return Response(status: .init(code: response.status), headers: fields, body: body)
        }
        return Response(status: .init(code: response.status), headers: fields, body: ResponseBody(byteBuffer: buffer))
    }
}

extension RawRequest {
    /// A request as Hummingbird delivers it: header names lower-cased (the last value of a name wins), and the
    /// HTTP/1 `Host`, which arrives as the request's authority rather than as a header field.
    init(_ head: HTTPRequest, uri: URI, body: [UInt8], client: String) {
        var headers: [String: String] = [:]
        for field in head.headerFields { headers[field.name.canonicalName] = field.value }
        if let authority = head.authority { headers["host"] = authority }
        self.init(
            method: head.method.rawValue, path: uri.path, query: uri.query ?? "", lowercasedHeaders: headers,
            body: body,
            client: client)
    }
}
