import NIOCore
import NIOPosix
import UnderstudyCore

/// A loopback HTTP/1.1 server that answers each path with bytes written verbatim, so a test can send
/// whatever a broken server sends: a wrong status, HTML, a truncated body, a connection closed mid-answer,
/// or no answer at all.
///
/// ```swift
/// try await CannedServer.with(["/activities": .json(body)]) { server in ... server.baseURL ... }
/// ```
final class CannedServer: Sendable {
    /// What the server does for one path.
    enum Answer: Sendable {
        /// Writes these bytes (a complete or deliberately broken response) and closes the connection.
        case raw([UInt8])
        /// Never answers (for timeouts).
        case silence
        /// The answer chosen from the request line and headers (a token, a query value, a body length).
        case choose(@Sendable (_ head: String) -> Answer)

        /// A complete response with a JSON body.
        static func json(
            _ body: String, status: Int = 200, contentType: String = "application/json; charset=utf-8",
            headers: [(String, String)] = []
        ) -> Answer {
            response(status: status, headers: [("Content-Type", contentType)] + headers, body: Array(body.utf8))
        }

        static func response(status: Int, headers: [(String, String)], body: [UInt8]) -> Answer {
            var head = "HTTP/1.1 \(status) Status\r\nContent-Length: \(body.count)\r\nConnection: close\r\n"
            for (name, value) in headers { head += "\(name): \(value)\r\n" }
            return .raw(Array((head + "\r\n").utf8) + body)
        }
    }

    let port: Int
    var baseURL: String { "http://127.0.0.1:\(port)" }
    /// Every request line and its headers, as received.
    var requests: [String] { received.withLock { $0 } }

    private let channel: any Channel
    private let received: Locked<[String]>

    private init(channel: any Channel) {
        self.channel = channel
        self.port = channel.localAddress!.port!
        self.received = Locked([])
    }

    /// Starts a server answering each path with its answer, and any other path with `otherwise` (by default
    /// a 404), runs `body` and stops the server.
    static func with<T>(
        _ answers: [String: Answer], otherwise: Answer = .json(#"{"message":"no canned answer","statusCode":404}"#, status: 404),
        _ body: (CannedServer) async throws -> T
    ) async throws -> T {
        let log = Log()
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Handler(answers: answers, otherwise: otherwise, log: log))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        let server = CannedServer(channel: channel)
        log.server = server
        do {
            let result = try await body(server)
            try? await channel.close()
            return result
        } catch {
            try? await channel.close()
            throw error
        }
    }

    fileprivate func record(_ request: String) {
        received.withLock { $0.append(request) }
    }

    fileprivate final class Log: @unchecked Sendable {
        // Set once before the first connection is accepted.
        weak var server: CannedServer?
    }

    private final class Handler: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer

        let answers: [String: Answer]
        let otherwise: Answer
        let log: Log
        var buffer: [UInt8] = []
        var answered = false

        init(answers: [String: Answer], otherwise: Answer, log: Log) {
            self.answers = answers
            self.otherwise = otherwise
            self.log = log
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var incoming = unwrapInboundIn(data)
            buffer += incoming.readBytes(length: incoming.readableBytes) ?? []
            guard !answered, let end = buffer.firstRange(of: Array("\r\n\r\n".utf8)) else { return }
            answered = true
            let head = String(decoding: buffer[..<end.lowerBound], as: UTF8.self)
            log.server?.record(head)
            let target = head.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
            let path = String(target.split(separator: "?", maxSplits: 1).first ?? "")
            var answer = answers[path] ?? otherwise
            if case .choose(let choose) = answer { answer = choose(head) }
            switch answer {
            case .silence, .choose:
                return
            case .raw(let bytes):
                context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: bytes))).whenComplete { _ in context.close(promise: nil) }
            }
        }
    }
}
