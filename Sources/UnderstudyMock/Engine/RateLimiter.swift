import Foundation
import Synchronization

/// A fixed-window request counter per client, answering how many seconds to wait when over the limit.
final class RateLimiter: Sendable {
    private let limit: RateLimit
    private let now: @Sendable () -> Date
    private let windows = Mutex<[String: (start: Date, count: Int)]>([:])

    init(_ limit: RateLimit, now: @escaping @Sendable () -> Date) {
        self.limit = limit
        self.now = now
    }

    /// `nil` when the request is admitted; otherwise the whole seconds until the window ends (at least 1).
    func admit(_ client: String) -> Int? {
        let now = now()
        return windows.withLock { windows in
            var window = windows[client] ?? (now, 0)
            if now.timeIntervalSince(window.start) >= limit.seconds { window = (now, 0) }
            guard window.count < limit.requests else {
                let remaining = limit.seconds - now.timeIntervalSince(window.start)
                return max(1, Int(remaining.rounded(.up)))
            }
            window.count += 1
            windows[client] = window
            return nil
        }
    }
}
