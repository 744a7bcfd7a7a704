import Foundation
import UnderstudyCore

/// A fixed-window request counter per client, answering how many seconds to wait when over the limit.
final class RateLimiter: Sendable {
    private let limit: RateLimit
    private let now: @Sendable () -> Date
    private let windows = Locked<Windows>(Windows())

    /// The counters, keyed by a client-chosen value (the `Authorization` header): without pruning, a client
    /// sending a new value with every request would grow them without bound.
    struct Windows {
        var counters: [String: (start: Date, count: Int)] = [:]
        /// The size at which expired windows are dropped; doubled when most of them are still running.
        var pruneAt = 4_096
    }

    /// How many clients have a counter.
    var clientCount: Int { windows.withLock { $0.counters.count } }

    init(_ limit: RateLimit, now: @escaping @Sendable () -> Date) {
        self.limit = limit
        self.now = now
    }

    /// `nil` when the request is admitted; otherwise the whole seconds until the window ends (at least 1).
    func admit(_ client: String) -> Int? {
        let now = now()
        return windows.withLock { windows in
            if windows.counters.count >= windows.pruneAt {
                windows.counters = windows.counters.filter { now.timeIntervalSince($0.value.start) < limit.seconds }
                windows.pruneAt = max(4_096, windows.counters.count * 2)
            }
            var window = windows.counters[client] ?? (now, 0)
            if now.timeIntervalSince(window.start) >= limit.seconds { window = (now, 0) }
            guard window.count < limit.requests else {
                let remaining = limit.seconds - now.timeIntervalSince(window.start)
                return max(1, Int(remaining.rounded(.up)))
            }
            window.count += 1
            windows.counters[client] = window
            return nil
        }
    }
}
