import Foundation

/// A value shared by concurrent tasks, read and changed only under a lock.
///
/// `Synchronization.Mutex` needs macOS 15 and iOS 18; an app's test target that links ``UnderstudyTesting``
/// runs on iOS 17 and macOS 14, so every module here uses this instead.
///
/// ```swift
/// let counts = Locked([String: Int]())
/// counts.withLock { $0["GET /activities", default: 0] += 1 }
/// ```
package final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock; keep it short and never suspend in it.
    package func withLock<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
