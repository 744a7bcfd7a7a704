import UnderstudyCore

/// PostgreSQL's `statement_timeout` for one statement, with Supabase's defaults per role (`anon` 3 s,
/// `authenticated` 8 s; the service role gets 8 s too rather than none, so no request can pin a core).
///
/// Regular-expression filters check it while they backtrack and row scans check it between rows; a
/// statement that runs past it, or whose request is cancelled, ends with 57014 as PostgreSQL ends it, which
/// PostgREST answers with 500.
package final class PostgrestStatementTimeout {
    private let deadline: ContinuousClock.Instant
    /// Sticky: once the statement is over time, every later check says so without reading the clock.
    package private(set) var expired = false

    package init(seconds: Int) {
        deadline = ContinuousClock.now.advanced(by: .seconds(seconds))
    }

    package convenience init(role: PostgrestCaller.Role) {
        self.init(seconds: role == .anonymous ? 3 : 8)
    }

    /// Whether the statement must stop now: past its deadline, or its request cancelled.
    package func check() -> Bool {
        if !expired && (Task.isCancelled || ContinuousClock.now >= deadline) { expired = true }
        return expired
    }

    /// - Throws: 57014 when the statement ran out of time.
    package func ensureInTime() throws(PostgrestError) {
        if expired { throw Self.error }
    }

    package static let error = PostgrestErrors.make(
        .internalServerError, code: "57014", "canceling statement due to statement timeout")
}
