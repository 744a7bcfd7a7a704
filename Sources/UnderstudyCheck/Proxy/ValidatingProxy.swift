import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import UnderstudyCore

/// How a ``ValidatingProxy`` forwards.
public struct ProxyOptions: Sendable {
    /// The upstream exchange: timeout and response size cap (`retries` is ignored: the app decides).
    public var transport: HTTPTransport.Options
    /// Request bodies larger than this are answered with 413 and not forwarded.
    public var maximumRequestBodyBytes: Int
    /// Whether the answers are kept as fixtures (``ValidatingProxy/recordings()``, `understudy record`).
    public var recording: Bool

    public init(
        transport: HTTPTransport.Options = HTTPTransport.Options(), maximumRequestBodyBytes: Int = 32 << 20,
        recording: Bool = false
    ) {
        self.transport = transport
        self.maximumRequestBodyBytes = maximumRequestBodyBytes
        self.recording = recording
    }
}

/// A reverse proxy that forwards every request to the real server and returns its answer unchanged, and
/// on the side judges the request and the response against the spec.
///
/// Findings carry the endpoint, pointer, expected and found, and a `curl` line against the upstream;
/// bearer tokens, `apikey` values, passwords and tokens seen in traffic are redacted before anything is
/// reported. The same finding is reported once.
///
/// ```swift
/// let proxy = try await ValidatingProxy.start(spec: Fitness.spec, upstream: "https://staging.example.com") {
///     print($0.summary)
/// }
/// // point the app at proxy.baseURL ...
/// await proxy.stop()
/// let reports = proxy.reports()
/// ```
public final class ValidatingProxy: Sendable {
    public let host: String
    /// The bound port (the free port picked when started with 0).
    public let port: Int
    /// The upstream base URL, without a trailing slash.
    public let upstream: String
    private let session: ProxySession
    private let transport: HTTPTransport
    private let task: Task<Void, any Error>
    private let group: ServiceGroup

    /// `http://host:port` (`http://[::1]:8080` for an IPv6 address).
    public let baseURL: URL

    private init(
        address: ServerAddress, port: Int, session: ProxySession, transport: HTTPTransport, task: Task<Void, any Error>,
        group: ServiceGroup
    ) {
        self.host = address.host
        self.port = port
        baseURL = address.baseURL(port: port)
        self.upstream = session.upstream
        self.session = session
        self.transport = transport
        self.task = task
        self.group = group
    }

    /// Starts a proxy for one API; returns once the socket is bound.
    /// - Parameters:
    ///   - spec: the contract to judge traffic against.
    ///   - upstream: the real server's base URL (`https://staging.example.com`).
    ///   - host: the address to bind.
    ///   - port: the port to bind; 0 picks a free one.
    ///   - options: timeouts and size caps.
    ///   - onFinding: called with each new finding (redacted) as soon as it is found, from any task.
    /// - Throws: when the address cannot be bound.
    public static func start(
        spec: APISpec, upstream: String, host: String = "127.0.0.1", port: Int = 0,
        options: ProxyOptions = ProxyOptions(),
        onFinding: @escaping @Sendable (Diagnostic) -> Void = { _ in }
    ) async throws -> ValidatingProxy {
        try await start(
            specs: [spec], upstream: upstream, host: host, port: port, options: options, onFinding: onFinding)
    }

    /// Starts a proxy for APIs served by one upstream (apinest: fitness and achievements).
    public static func start(
        specs: [APISpec], upstream: String, host: String = "127.0.0.1", port: Int = 0,
        options: ProxyOptions = ProxyOptions(), onFinding: @escaping @Sendable (Diagnostic) -> Void = { _ in }
    ) async throws -> ValidatingProxy {
        precondition(!specs.isEmpty, "a proxy needs at least one spec")
        let address = try ServerAddress(host)
        let base = upstream.hasSuffix("/") ? String(upstream.dropLast()) : upstream
        let session = ProxySession(specs: specs, upstream: base, recording: options.recording, onFinding: onFinding)
        let transport = HTTPTransport(options: options.transport)
        var logger = Logger(label: "understudy.proxy")
        logger.logLevel = .warning
        let (bound, continuation) = AsyncThrowingStream<Int, any Error>.makeStream()
        let application = Application(
            responder: ProxyResponder(session: session, transport: transport, limit: options.maximumRequestBodyBytes),
            configuration: ApplicationConfiguration(address: .hostname(address.host, port: port)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? port) },
            logger: logger)
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: [application], gracefulShutdownSignals: [], logger: logger))
        let task = Task {
            do {
                try await group.run()
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
                throw error
            }
        }
        do {
            for try await actualPort in bound {
                return ValidatingProxy(
                    address: address, port: actualPort, session: session, transport: transport, task: task,
                    group: group)
            }
        } catch {
            await transport.shutdown()
            throw error
        }
        await transport.shutdown()
        throw ProxyError(description: "the proxy stopped before it was ready")
    }

    /// Every finding so far, in the order found, once the inspections of answered requests are done.
    public var findings: [Diagnostic] {
        get async {
            await session.settle()
            return session.findings
        }
    }

    /// What the proxy recorded (with ``ProxyOptions/recording``), once inspections are done: by API, one fixture per
    /// endpoint holding the first answer it saw for each status (and the request that got it), secrets redacted.
    /// An answer that broke the contract is reported and not kept.
    public func recordings() async -> [String: [EndpointFixture]] {
        await session.settle()
        return session.recordings()
    }

    /// One report per API in the shape of `understudy check --format json`, once inspections are done.
    public func reports() async -> [CheckReport] {
        await session.settle()
        return session.reports()
    }

    /// Stops accepting connections, lets requests in flight finish, waits for their inspections, and closes
    /// the upstream connections.
    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
        await session.settle()
        await transport.shutdown()
    }
}

/// The proxy could not start.
public struct ProxyError: Error, Sendable, CustomStringConvertible {
    public let description: String
}

/// Forwards each request upstream and answers with what came back.
struct ProxyResponder: HTTPResponder {
    let session: ProxySession
    let transport: HTTPTransport
    let limit: Int

    /// Hop-by-hop fields (RFC 9110 §7.6.1) describe one connection, not the message; `Host` and
    /// `Content-Length` are set again for the next hop.
    static let hopByHop: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "te", "trailer",
        "transfer-encoding", "upgrade", "host", "content-length",
    ]

    func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: limit)
        } catch {
            session.report(
                [
                    Diagnostic(
                        .warning, rule: .proxyRequestTooLarge,
                        endpoint: "\(request.method.rawValue) \(request.uri.path)",
                        message: "the request body is over the proxy's \(limit)-byte limit; it was not forwarded",
                        expected: "at most \(limit) bytes", found: "more")
                ], spec: session.specs[0], exchange: nil, endpoint: nil)
            return Self.error(.contentTooLarge, "the request body is over the proxy's \(limit)-byte limit")
        }
        guard let method = UnderstudyCore.HTTPMethod(rawValue: request.method.rawValue) else {
            session.report(
                [
                    Diagnostic(
                        .note, rule: .proxyUnsupportedMethod,
                        endpoint: "\(request.method.rawValue) \(request.uri.path)",
                        message: "the proxy forwards GET, POST, PUT, PATCH and DELETE only")
                ], spec: session.specs[0], exchange: nil, endpoint: nil)
            return Self.error(.notImplemented, "the proxy does not forward \(request.method.rawValue)")
        }
        let skipped = Self.skippedFields(request.headers)
        var headers = HeaderFields()
        for field in request.headers where !skipped.contains(field.name.canonicalName) {
            headers.add(field.name.rawName, field.value)
        }
        let proxied = ProxiedRequest(
            method: method, path: request.uri.path, query: request.uri.query, headers: headers,
            body: Array(buffer: body))
        session.learnSecrets(from: proxied)
        let target = session.upstream + proxied.path + (proxied.query.map { "?" + $0 } ?? "")
        let exchange = await transport.send(
            OutgoingRequest(
                method: method, url: target, headers: headers, body: proxied.body.isEmpty ? nil : proxied.body))
        session.inspectLater(proxied, exchange)
        switch exchange.outcome {
        case .response(let response):
            var fields = HTTPFields()
            let skipped = Self.skippedFields(response.headers.map { ($0.name.lowercased(), $0.value) })
            for field in response.headers where !skipped.contains(field.name.lowercased()) {
                if let name = HTTPField.Name(field.name) { fields.append(HTTPField(name: name, value: field.value)) }
            }
            return Response(
                status: .init(code: response.status), headers: fields,
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: response.body)))
        case .failure(let failure):
            return Self.error(.badGateway, "the upstream did not answer: \(failure.description)")
        }
    }

    /// The hop-by-hop fields, plus the ones a `Connection` header names.
    static func skippedFields(_ fields: HTTPFields) -> Set<String> {
        skippedFields(fields.map { ($0.name.canonicalName, $0.value) })
    }

    static func skippedFields(_ fields: [(name: String, value: String)]) -> Set<String> {
        var names = hopByHop
        for field in fields where field.name == "connection" {
            for token in field.value.split(separator: ",") {
                names.insert(token.trimmingCharacters(in: .whitespaces).lowercased())
            }
        }
        return names
    }

    /// `{"error": "...", "message": "..."}` from the proxy itself.
    static func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
        let body: JSONValue = [
            "error": .string(status.reasonPhrase), "message": .string(message), "source": "understudy proxy",
        ]
        return Response(
            status: status, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body.serializedBytes())))
    }
}
