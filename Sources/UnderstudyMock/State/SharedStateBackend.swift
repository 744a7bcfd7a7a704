import Foundation

/// A database through which several mocks (replicas behind a load balancer) share one state: `--state
/// postgres://…`.
///
/// ``StateStore`` knows only this protocol. `UnderstudyMockServer` implements it on PostgreSQL, which keeps the
/// database driver out of the engine that an app's test target links (``MockConfiguration/sharedState``).
package protocol SharedStateBackend: Sendable {
    /// What other mocks wrote since `version`; `nil` when nothing.
    func changes(since version: Int64) async throws -> SharedStateUpdate?

    /// Runs one write under the database's lock: `body` gets what other mocks wrote since `version` and returns the
    /// rows to store, committed before this returns.
    /// - Returns: the version the state is at after the write.
    func write(since version: Int64, _ body: (SharedStateUpdate?) throws -> [StateRecord]) async throws -> Int64

    /// Replaces every row (a reset).
    /// - Returns: the version the state is at after it.
    func replaceAll(with records: [StateRecord]) async throws -> Int64
}

/// What a mock reads of other mocks' writes.
package enum SharedStateUpdate {
    /// Rows written since, by part, in version order.
    case rows([String: [StateRecord]], version: Int64)
    /// The state was reset: every row, by part, in order.
    case reload([String: [StateRecord]], version: Int64)

    /// The version the state is at once the update is applied.
    var version: Int64 {
        switch self {
        case .rows(_, let version), .reload(_, let version): version
        }
    }
}

/// Opens the shared state a URL names (a `postgres://` URL for `UnderstudyMockServer`'s PostgreSQL backend).
package struct SharedStateOpener: Sendable {
    /// Whether the URL names a database this opener reaches.
    let handles: @Sendable (URL) -> Bool
    /// Opens the scope `kind` (the state's type), creating it with `seed` when missing; returns the rows stored
    /// and their version when it existed.
    let open:
        @Sendable (_ url: URL, _ kind: String, _ seed: [StateRecord]) async throws -> (
            any SharedStateBackend, stored: (rows: [String: [StateRecord]], version: Int64)?
        )

    package init(
        handles: @escaping @Sendable (URL) -> Bool,
        open:
            @escaping @Sendable (_ url: URL, _ kind: String, _ seed: [StateRecord]) async throws -> (
                any SharedStateBackend, stored: (rows: [String: [StateRecord]], version: Int64)?
            )
    ) {
        self.handles = handles
        self.open = open
    }
}
