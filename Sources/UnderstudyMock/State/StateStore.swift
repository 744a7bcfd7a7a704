import Foundation
import Synchronization

/// The mutable state of one mock, shared by concurrent requests, optionally persisted to a file.
///
/// Every write runs under a lock, so concurrent writes lose nothing, and is written to disk (temporary
/// file, `fsync`, atomic rename) before `write` returns: a write acknowledged to a client survives a
/// restart, even after `kill -9`. Reads never touch the disk.
///
/// ```swift
/// let store = try StateStore(seed: ApinestState(...), file: stateFile)
/// let count = store.read { $0.activities.count }
/// try store.write { $0.activities.append(activity) }
/// ```
public final class StateStore<State: Codable & Sendable>: Sendable {
    private struct Contents {
        var state: State
        var version: UInt64
    }

    private let contents: Mutex<Contents>
    private let seed: State
    private let file: URL?

    /// Creates a store; when `file` exists its state is loaded instead of `seed`.
    /// - Throws: when the file exists but cannot be read as this state.
    public init(seed: State, file: URL? = nil) throws {
        self.seed = seed
        self.file = file
        var initial = seed
        if let file, FileManager.default.fileExists(atPath: file.path) {
            do {
                initial = try JSONDecoder().decode(State.self, from: Data(contentsOf: file))
            } catch {
                throw StateFileError(description: "cannot read the state file \(file.path): \(error)")
            }
        }
        contents = Mutex(Contents(state: initial, version: 0))
        if let file, !FileManager.default.fileExists(atPath: file.path) { try Self.persist(initial, to: file) }
    }

    /// Increases with every write; responses computed from the state can be cached per version.
    public var version: UInt64 { contents.withLock { $0.version } }

    /// Reads the state.
    public func read<T>(_ body: (State) throws -> T) rethrows -> T {
        try contents.withLock { try body($0.state) }
    }

    /// Changes the state; when `body` throws nothing is changed. Persisted before returning.
    /// - Throws: what `body` throws, or a file error (then the change is not applied).
    @discardableResult
    public func write<T>(_ body: (inout State) throws -> T) throws -> T {
        try contents.withLock { contents in
            var state = contents.state
            let result = try body(&state)
            if let file { try Self.persist(state, to: file) }
            contents.state = state
            contents.version &+= 1
            return result
        }
    }

    /// Restores the seed state.
    public func reset() throws {
        try write { $0 = seed }
    }

    private static func persist(_ state: State, to file: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(state)
        let temporary = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).tmp")
        _ = FileManager.default.createFile(atPath: temporary.path, contents: nil)
        let handle = try FileHandle(forWritingTo: temporary)
        try handle.write(contentsOf: data)
        try handle.synchronize()
        try handle.close()
        if rename(temporary.path, file.path) != 0 {
            throw StateFileError(description: "cannot replace the state file \(file.path): errno \(errno)")
        }
    }
}

/// The state file could not be read or written.
public struct StateFileError: Error, Sendable, CustomStringConvertible {
    public let description: String
}
