import Foundation
import Synchronization

/// The mutable state of one mock, shared by concurrent requests, optionally persisted to a state file.
///
/// Every write runs under a lock and changes the state in place, so its cost does not grow with the state:
/// the tables journal the rows a write touches, a write whose body throws is undone row by row, and with a
/// file only those rows are written, in one SQLite transaction that is durable before `write` returns (a write
/// acknowledged to a client survives `kill -9`). The file is locked while the store lives: a second store
/// (in this process or another) on the same file is refused. Reads never touch the disk.
///
/// ```swift
/// let store = try StateStore(seed: NotesState(), file: stateFile)
/// let count = store.read { $0.notes.count }
/// try store.write { $0.notes.append(note) }
/// ```
public final class StateStore<State: StoredState>: Sendable {
    private struct Contents: @unchecked Sendable {
        var state: State
        var version: UInt64
        /// Used only under the lock.
        let database: StateDatabase?
    }

    private let contents: Mutex<Contents>
    private let seed: State

    /// Creates a store; when `file` holds a state it is loaded instead of `seed`, otherwise the file is
    /// created with the seed.
    /// - Throws: ``StateFileError`` when the file is locked by another mock, is not a state file of this
    ///   kind (a JSON state file of an earlier version, another program's file, another API's state), or
    ///   cannot be read or written.
    public init(seed: State, file: URL? = nil) throws {
        var seed = seed
        try Self.visit(&seed, .commit)
        self.seed = seed
        var initial = seed
        var database: StateDatabase?
        if let file {
            let opened = try StateDatabase(file: file, kind: String(reflecting: State.self))
            if opened.isNew {
                try opened.replaceAll(with: try Self.visit(&initial, .records))
            } else {
                try Self.visit(&initial, .load(try opened.load()))
            }
            database = opened
        }
        contents = Mutex(Contents(state: initial, version: 0, database: database))
    }

    /// Increases with every write; responses computed from the state can be cached per version.
    public var version: UInt64 { contents.withLock { $0.version } }

    /// Reads the state.
    public func read<T>(_ body: (State) throws -> T) rethrows -> T {
        try contents.withLock { try body($0.state) }
    }

    /// Changes the state; when `body` throws nothing is changed. Persisted before returning.
    /// - Throws: what `body` throws, or a ``StateFileError`` (then the change is not applied).
    @discardableResult
    public func write<T>(_ body: (inout State) throws -> T) throws -> T {
        try contents.withLock { contents in
            let result: T
            do {
                result = try body(&contents.state)
                if let database = contents.database {
                    try database.apply(try Self.visit(&contents.state, .collect))
                }
            } catch {
                _ = try? Self.visit(&contents.state, .rollback)
                throw error
            }
            _ = try? Self.visit(&contents.state, .commit)
            contents.version &+= 1
            return result
        }
    }

    /// Restores the seed state.
    /// - Parameter keep: copies what survives a reset from the old state into the fresh one (issued tokens).
    public func reset(keeping keep: (_ fresh: inout State, _ old: State) -> Void = { _, _ in }) throws {
        try contents.withLock { contents in
            var fresh = seed
            keep(&fresh, contents.state)
            try Self.visit(&fresh, .commit)
            try contents.database?.replaceAll(with: try Self.visit(&fresh, .records))
            contents.state = fresh
            contents.version &+= 1
        }
    }

    @discardableResult
    private static func visit(_ state: inout State, _ operation: StateVisitor.Operation) throws -> [StateRecord] {
        var visitor = StateVisitor(operation)
        state.visit(&visitor)
        if let failure = visitor.failure { throw failure }
        return visitor.changes
    }
}

/// The state file cannot be used: locked by another mock, not a state file of this kind, or unreadable.
public struct StateFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    init(description: String) {
        self.description = description
    }

    /// Another mock (or another store in this process) holds the file.
    static func locked(_ path: String) -> StateFileError {
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
    static func foreign(_ path: String, _ reason: String) -> StateFileError {
        StateFileError(
            description: "the file \(path) is not an understudy state file of this mock (\(reason)); it was left "
                + "untouched: give another --state file")
    }

    static func cannotOpen(_ path: String, _ reason: String) -> StateFileError {
        StateFileError(description: "cannot use the state file \(path): \(reason)")
    }
}
