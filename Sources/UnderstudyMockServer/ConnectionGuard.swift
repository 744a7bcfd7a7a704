import HTTPTypes
import NIOCore
import NIOHTTPTypes
import UnderstudyCore
import UnderstudyMock

/// Closes connections that are idle or slow for too long, and refuses connections beyond a server's budget.
///
/// Deadlines: see ``StateMachine``; they are checked a few times per timeout, so a connection is closed at
/// most half a timeout after its deadline. A connection beyond the budget is answered `503` with
/// `Connection: close` at once, without reading its request, and closed: its output first, then the whole
/// connection once the client closes its side or a second has passed, so the client reads the answer rather
/// than a reset.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// What every connection of a server shares.
    struct Limits: Sendable {
        let idleTimeout: TimeAmount
        let requestTimeout: TimeAmount
        let budget: ConnectionBudget
        /// The answer to a connection beyond the budget.
        let refusal: WireAnswer
    }

    private let limits: Limits
    private var state: StateMachine?
    private var counted = false
    private var refused = false
    private var tick: Scheduled<Void>?

    init(_ limits: Limits) {
        self.limits = limits
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        state?.read(unwrapInboundIn(data), now: .now())
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        state?.readComplete(now: .now())
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { state?.wroteEnd(now: .now()) }
        context.write(data, promise: promise)
    }

    /// An answer was written to the socket past this handler (``CachedAnswerHandler``).
    func wroteAnswer() {
        state?.wroteEnd(now: .now())
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if refused, let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    private func start(_ context: ChannelHandlerContext) {
        guard state == nil, !refused else { return }
        guard limits.budget.take() else { return refuse(context) }
        counted = true
        state = StateMachine(idleTimeout: limits.idleTimeout, requestTimeout: limits.requestTimeout, now: .now())
        let period = TimeAmount.nanoseconds(
            max(min(limits.idleTimeout.nanoseconds, limits.requestTimeout.nanoseconds) / 2, 1_000_000))
        scheduleCheck(context, in: period)
    }

    private func scheduleCheck(_ context: ChannelHandlerContext, in period: TimeAmount) {
        tick = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: period) {
            guard let state = self.state else { return }
            if state.isOverdue(at: .now()) {
                context.close(promise: nil)
            } else {
                self.scheduleCheck(context, in: period)
            }
        }
    }

    private func refuse(_ context: ChannelHandlerContext) {
        refused = true
        var head = limits.refusal.head
        head.headerFields[.connection] = "close"
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(limits.refusal.body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.close(mode: .output, promise: nil)
        tick = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: .seconds(1)) {
            context.close(promise: nil)
        }
    }

    private func stop() {
        tick?.cancel()
        tick = nil
        state = nil
        if counted {
            counted = false
            limits.budget.giveBack()
        }
    }
}

/// How many connections a server (or every server of one `understudy mock`) may hold open at once.
final class ConnectionBudget: Sendable {
    let maximum: Int
    private let open = Locked(0)

    init(maximum: Int) {
        self.maximum = maximum
    }

    /// The connections open now.
    var count: Int { open.withLock { $0 } }

    /// Takes one connection from the budget; `false` when it is spent.
    func take() -> Bool {
        open.withLock { open in
            guard open < maximum else { return false }
            open += 1
            return true
        }
    }

    func giveBack() {
        open.withLock { $0 -= 1 }
    }
}
