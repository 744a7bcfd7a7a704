/// Numbers unique in the process, increasing: a revision names one content of something (a table, a row), so
/// what is computed from it (column vectors, encoded JSON) can be kept until its revision changes, across
/// copies, resets and reloads.
///
/// ```swift
/// var revision = ProcessRevision.next()
/// ```
package enum ProcessRevision {
    private static let last = Locked<UInt64>(0)

    package static func next() -> UInt64 {
        last.withLock {
            $0 += 1
            return $0
        }
    }
}
