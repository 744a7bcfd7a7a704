import HTTPTypes
import Hummingbird
import HummingbirdCore
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import UnderstudyMock

/// Answers a GET whose answer the engine already holds (``MockEngine/cachedAnswer(for:)``) on the connection's
/// event loop, so the hot path of a fixture read skips the hop to a Swift task and back that every request
/// Hummingbird handles costs; any other request goes on to Hummingbird unchanged.
///
/// The answer is the one Hummingbird would write: the same head and body, with `Date` and `Server`. Its head is
/// encoded once (``WireAnswer/encodedHead``) and written, with the body, straight to the socket from the HTTP/1.1
/// encoder's place in the pipeline, past the handlers that would convert and encode it again for every answer
/// (their outbound side keeps no state between answers; the ``ConnectionGuard`` is told of it). While a
/// request handed on is unanswered, later ones are handed on too, so answers keep the order of the requests.
final class CachedAnswerHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let engine: MockEngine
    private let dates: HTTPDateCache
    /// A GET head held until its end shows it has no body.
    private var held: HTTPRequest?
    /// Requests handed on to Hummingbird whose answer is not written yet.
    private var pending = 0
    /// The HTTP/1.1 encoder's context: bytes written from it go to the socket.
    private var encoder: ChannelHandlerContext?
    private var connectionGuard: ConnectionGuard?

    init(engine: MockEngine, dates: HTTPDateCache) {
        self.engine = engine
        self.dates = dates
    }

    func handlerAdded(context: ChannelHandlerContext) {
        encoder = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self)
        connectionGuard = try? context.pipeline.syncOperations.handler(type: ConnectionGuard.self)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        encoder = nil
        connectionGuard = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            // Hummingbird closes the connection after a request with `Connection: close`: it keeps those.
            if pending == 0, head.method == .get, head.headerFields[.connection] != "close" {
                held = head
                return
            }
            pending += 1
        case .body:
            handOnHeldHead(context)
        case .end:
            if let head = held {
                held = nil
                let raw = RawRequest(head, uri: URI(head.path ?? ""), body: [], client: "")
                if let answer = engine.cachedAnswer(for: raw) {
                    write(answer, context: context)
                    return
                }
                held = head
                handOnHeldHead(context)
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { pending = max(0, pending - 1) }
        context.write(data, promise: promise)
    }

    private func handOnHeldHead(_ context: ChannelHandlerContext) {
        guard let head = held else { return }
        held = nil
        pending += 1
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    private func write(_ answer: CachedAnswer, context: ChannelHandlerContext) {
        let wire = answer.wire
        if let encoded = wire.encodedHead, let encoder, let connectionGuard {
            let date = dates.now
            var head = context.channel.allocator.buffer(
                capacity: encoded.beforeDate.readableBytes + date.utf8.count + encoded.afterDate.readableBytes)
            head.writeImmutableBuffer(encoded.beforeDate)
            head.writeString(date)
            head.writeImmutableBuffer(encoded.afterDate)
            encoder.write(NIOAny(head), promise: nil)
            encoder.writeAndFlush(NIOAny(wire.body), promise: nil)
            connectionGuard.wroteAnswer()
            return
        }
        var head = wire.head
        head.headerFields[.date] = dates.now
        head.headerFields[.server] = MockServer.serverName
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(wire.body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}
