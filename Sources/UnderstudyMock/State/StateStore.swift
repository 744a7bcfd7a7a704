import Foundation
import UnderstudyCore

/// The mutable state of one mock, shared by concurrent requests, optionally persisted to a state file or
/// shared with other mocks through a PostgreSQL database.
///
/// Every write runs under a lock and changes the state in place, so its cost does not grow with the state:
/// the tables journal the rows a write touches, a write whose body throws is undone row by row, and with a
/// file only those rows are written, in one SQLite transaction that is durable before `write` returns (a write
/// acknowledged to a client survives `kill -9`); writes that arrive during a commit share the next one (group
/// commit). The file is locked while the store lives: a second store (in this process or another) on the same
/// file is refused. Reads never touch the disk.
///
/// With a `postgres://` URL instead of a file, several mocks (replicas behind a load balancer) share one state
/// (``SharedStateDatabase``): a write is committed to the database before it returns, writes of all replicas
/// run one at a time, and ``synchronize()``, called before each request, applies what other replicas wrote,
/// so a client reads its own writes whichever replica answers. Reads still come from memory.
///
/// ```swift
/// let store = try await StateStore(seed: NotesState(), file: stateFile)
/// let count = store.read { $0.notes.count }
/// try await store.write { $0.notes.append(note) }
/// ```
package final class StateStore<State: StoredState>: Sendable {
    private struct Contents: @unchecked Sendable {
        var state: State
        /// ``StateStore/version``, in a lock of its own: advanced under the store's lock, read without it.
        let version = Locked<UInt64>(0)
        /// Used only under the lock.
        let database: StateDatabase?
        /// The shared database's version the state holds every write of.
        var sharedVersion: Int64 = 0
        /// A write to the shared database is between its body and its commit: other mocks' rows wait.
        var isWriting = false

        func advanceVersion() { version.withLock { $0 &+= 1 } }
    }

    private let contents: Locked<Contents>
    private let published: Locked<UInt64>
    private let seed: State
    private let shared: (any SharedStateBackend)?
    /// Whether writes are persisted (to a file or a shared database), and so committed in groups.
    private let isDurable: Bool
    /// The writes waiting for the next commit to the file or the shared database.
    private let commits = CommitQueue<PendingWrite>()
    /// The commits and resets of this process to the shared database, one at a time (the database orders the
    /// processes).
    private let sharedWrites = SerialGate()

    /// Creates a store; when `file` holds a state it is loaded instead of `seed`, otherwise the file is
    /// created with the seed. A URL that `sharing` handles (`postgres://`) shares the state with every mock using
    /// the same database.
    /// - Parameters:
    ///   - kind: what the file and the shared database call the state (a file of another kind is refused); the
    ///     state's type by default, which is enough where one type holds one API's state.
    ///   - reset: start `file` from `seed` whatever it holds, also when it is empty, truncated or damaged.
    /// - Throws: ``StateFileError`` when the file is locked by another mock, is not a state file of this
    ///   kind (a JSON state file of an earlier version, another program's file, another API's state), is empty
    ///   or damaged (without `reset`), or cannot be read or written; or when the database cannot be reached.
    package init(
        seed: State, file: URL? = nil, sharing: SharedStateOpener? = nil, kind: String? = nil, reset: Bool = false
    ) async throws {
        let kind = kind ?? String(reflecting: State.self)
        var seed = seed
        try Self.visit(&seed, .commit)
        self.seed = seed
        var initial = seed
        var database: StateDatabase?
        var shared: (any SharedStateBackend)?
        var sharedVersion: Int64 = 0
        if let file, !file.isFileURL {
            guard let sharing, sharing.handles(file) else { throw StateFileError.noSharedState(file) }
            let opened = try await sharing.open(file, kind, try Self.visit(&initial, .records))
            if let stored = opened.stored {
                try Self.visit(&initial, .load(stored.rows))
                sharedVersion = stored.version
            }
            shared = opened.0
        } else if let file {
            let opened = try StateDatabase(file: file, kind: kind, reset: reset)
            if opened.isNew {
                try opened.replaceAll(with: try Self.visit(&initial, .records))
            } else {
                try Self.visit(&initial, .load(try opened.load()))
            }
            database = opened
        }
        self.shared = shared
        isDurable = shared != nil || database != nil
        let contents = Contents(state: initial, database: database, sharedVersion: sharedVersion)
        published = contents.version
        self.contents = Locked(contents)
    }

    /// Increases with every write; responses computed from the state can be cached per version.
    ///
    /// Read without the store's lock, which a write keeps through its commit to disk and a read through its
    /// whole answer: the server's event loops ask the version for every answer they serve from the cache, and
    /// waited out each fsync and each list being rendered (a cached GET at 1,000/s while lists of 3,000 activities
    /// were: p50 7.9 ms, p99 45 ms; since, 0.20 and 5.8 ms: scripts/bench-speed.sh). The version changes under the
    /// lock, before the lock is released.
    package var version: UInt64 { published.withLock { $0 } }

    /// Whether other mocks may change the state (it lives in a shared database): answers computed from it
    /// hold only until the next ``synchronize()``.
    package var isShared: Bool { shared != nil }

    /// Reads the state.
    package func read<T>(_ body: (State) throws -> T) rethrows -> T {
        try contents.withLock { try body($0.state) }
    }

    /// Applies what other mocks sharing the state wrote since the last call (nothing to do without a shared
    /// database).
    /// - Throws: ``StateFileError`` when the database cannot be reached.
    package func synchronize() async throws {
        guard let shared else { return }
        let since = contents.withLock { $0.sharedVersion }
        guard let update = try await shared.changes(since: since) else { return }
        try contents.withLock { contents in
            // A write in flight applies them itself, under the database's lock.
            guard !contents.isWriting else { return }
            try Self.apply(update, to: &contents)
        }
    }

    /// Changes the state; when `body` throws nothing is changed. Persisted before returning.
    ///
    /// With a file or a shared database, writes that arrive while a commit is made durable are committed
    /// together in the next one (``CommitQueue``), each still returning only once durable. With a file, the lock
    /// is held from the first body of a commit to its end, so reads never see a write that is not yet durable.
    /// - Throws: what `body` throws, or a ``StateFileError`` (then the change is not applied).
    @discardableResult
    package func write<T>(_ body: (inout State) throws -> T) async throws -> T {
        guard isDurable else {
            // Kept outside the lock's closure: a result returned through it would have to be `sending`.
            var result: T?
            try contents.withLock { contents in
                do {
                    result = try body(&contents.state)
                } catch {
                    _ = try? Self.visit(&contents.state, .rollback)
                    throw error
                }
                _ = try? Self.visit(&contents.state, .commit)
                contents.advanceVersion()
            }
            return result!
        }
        // The commit's leader runs every body while their writers wait for it, so none outlives its call.
        return try await withoutActuallyEscaping(body) { body in
            let outcome = Outcome<T>()
            try await commits.submit(PendingWrite { outcome.value = try body(&$0) }) { try await commit($0) }
            return outcome.value!
        }
    }

    /// Runs the writes of one commit and makes them durable.
    /// - Returns: each write's own error, `nil` for those kept.
    /// - Throws: when the commit failed: every write is undone.
    private func commit(_ writes: [PendingWrite]) async throws -> [(any Error)?] {
        guard let shared else {
            return try contents.withLock { contents in
                let failures = Self.run(writes, on: &contents.state)
                do {
                    try contents.database?.apply(try Self.visit(&contents.state, .collect))
                } catch {
                    _ = try? Self.visit(&contents.state, .rollback)
                    throw error
                }
                _ = try? Self.visit(&contents.state, .commit)
                contents.advanceVersion()
                return failures
            }
        }
        return try await sharedWrites.run { () async throws -> [(any Error)?] in
            var failures: [(any Error)?] = []
            let since = contents.withLock { $0.sharedVersion }
            do {
                let version = try await shared.write(since: since) { update in
                    try contents.withLock { contents in
                        if let update { try Self.apply(update, to: &contents) }
                        contents.isWriting = true
                        failures = Self.run(writes, on: &contents.state)
                        // Every write refused: no version for the other mocks to apply.
                        guard failures.contains(where: { $0 == nil }) else { throw NothingToCommit() }
                        return try Self.visit(&contents.state, .collect)
                    }
                }
                contents.withLock { contents in
                    _ = try? Self.visit(&contents.state, .commit)
                    contents.isWriting = false
                    contents.sharedVersion = version
                    contents.advanceVersion()
                }
            } catch {
                contents.withLock { contents in
                    if contents.isWriting { _ = try? Self.visit(&contents.state, .rollback) }
                    contents.isWriting = false
                }
                if error is NothingToCommit { return failures }
                throw error
            }
            return failures
        }
    }

    /// Runs writes one after the other; one that throws is undone alone.
    private static func run(_ writes: [PendingWrite], on state: inout State) -> [(any Error)?] {
        writes.map { write in
            do {
                try write.body(&state)
                _ = try? visit(&state, .keepWrite)
                return nil
            } catch {
                _ = try? visit(&state, .undoWrite)
                return error
            }
        }
    }

    /// Releases the state file now (its lock among it), once the commit in progress is durable, so the file can be
    /// opened again in this process at once: a mock stopped and started again on the same `--state` inside a test
    /// suite. The state stays readable; a write after it is refused with ``StateFileError/closed(_:)``. A store
    /// without a file, or with a shared database, has nothing to release.
    package func close() {
        contents.withLock { $0.database?.release() }
    }

    /// Restores the seed state.
    /// - Parameter keep: copies what survives a reset from the old state into the fresh one (issued tokens).
    package func reset(keeping keep: (_ fresh: inout State, _ old: State) -> Void = { _, _ in }) async throws {
        guard let shared else {
            return try contents.withLock { contents in
                let fresh = try seedState(keeping: keep, from: contents.state)
                try contents.database?.replaceAll(with: try Self.records(of: fresh))
                contents.state = fresh
                contents.advanceVersion()
            }
        }
        try await sharedWrites.run { () async throws in
            let fresh = try contents.withLock { try seedState(keeping: keep, from: $0.state) }
            let version = try await shared.replaceAll(with: try Self.records(of: fresh))
            contents.withLock { contents in
                contents.state = fresh
                contents.sharedVersion = version
                contents.advanceVersion()
            }
        }
    }

    /// A write waiting for its commit. Its body runs only under the lock, by the commit's leader, while the
    /// writer waits.
    private struct PendingWrite: @unchecked Sendable {
        let body: (inout State) throws -> Void
    }

    /// Ends a shared commit whose writes all threw: its transaction is rolled back.
    private struct NothingToCommit: Error {}

    /// A write's result, set by the commit's leader before the writer resumes.
    private final class Outcome<T>: @unchecked Sendable {
        var value: T?
    }

    private func seedState(keeping keep: (_ fresh: inout State, _ old: State) -> Void, from old: State) throws -> State
    {
        var fresh = seed
        keep(&fresh, old)
        try Self.visit(&fresh, .commit)
        return fresh
    }

    /// Applies other mocks' writes.
    private static func apply(_ update: SharedStateUpdate, to contents: inout Contents) throws {
        // A write of this mock committed meanwhile holds these rows already.
        guard update.version > contents.sharedVersion else { return }
        switch update {
        case .rows(let rows, let version):
            try visit(&contents.state, .merge(rows))
            contents.sharedVersion = version
        case .reload(let rows, let version):
            try visit(&contents.state, .load(rows))
            contents.sharedVersion = version
        }
        try visit(&contents.state, .commit)
        contents.advanceVersion()
    }

    private static func records(of state: State) throws -> [StateRecord] {
        var state = state
        return try visit(&state, .records)
    }

    @discardableResult
    private static func visit(_ state: inout State, _ operation: StateVisitor.Operation) throws -> [StateRecord] {
        var visitor = StateVisitor(operation)
        state.visit(&visitor)
        if let failure = visitor.failure { throw failure }
        return visitor.changes
    }
}

/// Runs async bodies one at a time, in the order they arrive.
final class SerialGate: Sendable {
    private let state = Locked<(busy: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

    func run<T>(_ body: () async throws -> T) async throws -> T {
        await enter()
        defer { leave() }
        return try await body()
    }

    private func enter() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted = state.withLock { state in
                if state.busy {
                    state.waiting.append(continuation)
                    return false
                }
                state.busy = true
                return true
            }
            if admitted { continuation.resume() }
        }
    }

    /// Hands the gate to the next body waiting, or opens it.
    private func leave() {
        let next = state.withLock { state in
            if state.waiting.isEmpty {
                state.busy = false
                return nil as CheckedContinuation<Void, Never>?
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}

/// The state file cannot be used: locked by another mock, not a state file of this kind, or unreadable.
package struct StateFileError: Error, Sendable, Equatable, CustomStringConvertible {
    package let description: String
    /// Whether the file is damaged (truncated or overwritten), which `--state-reset` replaces.
    let isDamage: Bool

    package init(description: String) {
        self.init(description: description, isDamage: false)
    }

    private init(description: String, isDamage: Bool) {
        self.description = description
        self.isDamage = isDamage
    }

    /// Another mock (or another store in this process) holds the file.
    package static func locked(_ path: String) -> StateFileError {
        StateFileError(
            description:
                "the state file \(path) is in use by another understudy mock (it is locked); "
                + "stop that mock, or give this one another --state file")
    }

    /// A JSON state file of an earlier understudy version.
    static func jsonState(_ path: String) -> StateFileError {
        StateFileError(
            description:
                "the state file \(path) is a JSON state file of an earlier understudy version; state files are "
                + "now SQLite databases and the JSON ones are not migrated: move it away (or delete it) to start "
                + "from the seed state")
    }

    /// A file that is not an understudy state file of this kind; it was not changed.
    package static func foreign(_ path: String, _ reason: String) -> StateFileError {
        StateFileError(
            description: "the file \(path) is not an understudy state file of this mock (\(reason)); it was left "
                + "untouched: give another --state file")
    }

    /// A URL no shared-state backend of this process reaches.
    static func noSharedState(_ url: URL) -> StateFileError {
        StateFileError(
            description:
                "cannot keep the state in \(url.scheme ?? "that URL")://…: give a file, or a postgres:// URL to "
                + "a mock started by UnderstudyMockServer (understudy mock, MockServer.start)")
    }

    /// An existing state file with nothing in it: its rows were lost, not never written.
    static func empty(_ path: String) -> StateFileError {
        StateFileError(
            description:
                "the state file \(path) is empty (0 bytes): the state it held is lost; start from the seed "
                + "state with --state-reset, or give another --state file")
    }

    /// A state file cut short or overwritten: SQLite cannot read it.
    static func damaged(_ path: String, _ reason: String) -> StateFileError {
        StateFileError(
            description:
                "the state file \(path) is damaged (\(reason)): it was truncated or overwritten and its rows cannot "
                + "be read; it was left untouched: start from the seed state with --state-reset (the file is "
                + "replaced), or move it away",
            isDamage: true)
    }

    /// The file was removed, moved or replaced while the mock held it; the write was not acknowledged.
    static func removed(_ path: String) -> StateFileError {
        StateFileError(
            description:
                "the state file \(path) was removed or replaced while the mock ran (its folder deleted?); the "
                + "write was not kept: restart the mock to write to a new file")
    }

    /// The store was closed (``StateStore/close()``); the write was not kept.
    package static func closed(_ path: String) -> StateFileError {
        StateFileError(description: "the state file \(path) was closed; the write was not kept")
    }

    package static func cannotOpen(_ path: String, _ reason: String) -> StateFileError {
        StateFileError(description: "cannot use the state file \(path): \(reason)")
    }
}
