import NIOCore
import NIOHTTPTypes
import UnderstudyMock

extension ConnectionGuard {
    /// When a connection has been quiet or slow for too long, from the request parts read and the answers written.
    ///
    /// A connection is *idle* from its start, and from the end of the last answer when no request is under way,
    /// for at most the idle timeout; a request is *arriving* from its first bytes until its end has been read,
    /// for at most the request timeout, however often bytes trickle in (slowloris). Between its end and its
    /// answer, a request has no deadline: the mock is working on it.
    struct StateMachine {
        let idleTimeout: TimeAmount
        let requestTimeout: TimeAmount
        private(set) var idleSince: NIODeadline?
        private(set) var arrivingSince: NIODeadline?
        /// Request heads read and not answered yet.
        private var unanswered = 0
        /// Whether the current read produced a request part: bytes that did not are the start of a request.
        private var readAPart = false

        init(idleTimeout: TimeAmount, requestTimeout: TimeAmount, now: NIODeadline) {
            self.idleTimeout = idleTimeout
            self.requestTimeout = requestTimeout
            idleSince = now
        }

        mutating func read(_ part: HTTPRequestPart, now: @autoclosure () -> NIODeadline) {
            readAPart = true
            switch part {
            case .head:
                unanswered += 1
                idleSince = nil
                if arrivingSince == nil { arrivingSince = now() }
            case .body:
                break
            case .end:
                arrivingSince = nil
            }
        }

        /// The end of one read from the socket.
        mutating func readComplete(now: @autoclosure () -> NIODeadline) {
            if !readAPart, idleSince != nil {
                idleSince = nil
                arrivingSince = now()
            }
            readAPart = false
        }

        /// The end of an answer was written.
        mutating func wroteEnd(now: @autoclosure () -> NIODeadline) {
            unanswered = max(0, unanswered - 1)
            if unanswered == 0, arrivingSince == nil { idleSince = now() }
        }

        /// Whether the connection has been idle, or its request arriving, for too long at `now`.
        func isOverdue(at now: NIODeadline) -> Bool {
            if let idleSince, now - idleSince >= idleTimeout { return true }
            if let arrivingSince, now - arrivingSince >= requestTimeout { return true }
            return false
        }
    }
}
