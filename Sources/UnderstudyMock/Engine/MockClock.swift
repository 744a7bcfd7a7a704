import Foundation
import UnderstudyCore

/// A clock a test moves by hand: token expiry, "upcoming events", 42's half-hour notice for a slot, without
/// sleeping. Give it to a mock as its configuration's `now`.
///
/// ```swift
/// let clock = MockClock(start: Date(timeIntervalSince1970: 1_763_461_200))
/// try await withMock(.intra42, configuration: MockConfiguration(now: clock.read)) { mock in
///     clock.advance(by: 7200)    // the 42 token the test holds has expired
/// }
/// ```
public final class MockClock: Sendable {
    private let current: Locked<Date>

    /// A clock that reads `start` until it is moved.
    public init(start: Date = Date()) {
        current = Locked(start)
    }

    /// The clock's time.
    public var now: Date { current.withLock { $0 } }

    /// The clock as a configuration's `now` reads it.
    public var read: @Sendable () -> Date { { self.now } }

    /// Moves the clock forward (or back, with a negative interval).
    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}
