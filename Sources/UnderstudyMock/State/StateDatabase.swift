import CSQLite
import Foundation

/// A state file: an SQLite database of rows, written one transaction per acknowledged write.
///
/// The file is locked for the life of the object (`flock`, then SQLite's exclusive locking mode), so a
/// second mock on the same file refuses to start instead of overwriting the first one's writes. Commits are
/// durable before they return (write-ahead log, `synchronous=FULL`). A file that is not an understudy state
/// file of the same kind is refused before anything is written to it.
final class StateDatabase: @unchecked Sendable {
    /// The format of the rows; a file of another format is refused.
    static let format = "1"

    private let path: String
    /// The descriptor holding the `flock`; -1 once closed.
    private var lock: Int32
    private var connection: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    /// Whether the file held no state yet (it was created, or empty).
    private(set) var isNew = false
    /// The device and inode of the file opened, which must still be at ``path`` when a write commits.
    private var identity: [Int]?

    /// Opens and locks a state file, creating it when it does not exist.
    /// - Parameters:
    ///   - kind: what the file holds (the state's type); a file of another kind is refused.
    ///   - reset: start the file afresh (``isNew``), also when it is empty, truncated or damaged; a file that is
    ///     not an understudy state file of this kind is still refused.
    /// - Throws: ``StateFileError`` when the file is locked by another process, is not an understudy state
    ///   file of this kind, is empty or damaged (without `reset`), or cannot be opened.
    init(file: URL, kind: String, reset: Bool = false) throws {
        path = file.path
        let existed = access(path, F_OK) == 0
        lock = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lock >= 0 else { throw StateFileError.cannotOpen(path, String(cString: strerror(errno))) }
        do {
            guard flock(lock, LOCK_EX | LOCK_NB) == 0 else { throw StateFileError.locked(path) }
            identity = Self.identity(of: path)
            if reset {
                // Another program's file is still refused; this one's rows, damaged or not, are replaced.
                do {
                    if try Self.checkHeader(lock, path: path) { try openConnection(kind: kind) }
                } catch let error as StateFileError where error.isDamage {}
                try startAfresh(kind: kind)
            } else {
                // A file someone else emptied is not a new one: the rows it held are gone.
                guard try Self.checkHeader(lock, path: path) || !existed else { throw StateFileError.empty(path) }
                try openConnection(kind: kind)
            }
        } catch {
            shutDown()
            throw error
        }
    }

    deinit { shutDown() }

    /// Closes the file and releases its lock now, not when the last reference goes (a task that wrote through the
    /// store may hold one a while longer); a later write is refused with ``StateFileError/closed(_:)``.
    func release() {
        shutDown()
    }

    private func shutDown() {
        closeConnection()
        // Closing the descriptor also drops the process's POSIX locks on the file: SQLite is closed first.
        if lock >= 0 { close(lock) }
        lock = -1
    }

    private func closeConnection() {
        for statement in statements.values { sqlite3_finalize(statement) }
        statements = [:]
        if let connection { sqlite3_close_v2(connection) }
        connection = nil
    }

    /// Empties the file and its write-ahead log, still holding the lock, and opens it as a new one.
    private func startAfresh(kind: String) throws {
        closeConnection()
        guard ftruncate(lock, 0) == 0 else { throw StateFileError.cannotOpen(path, String(cString: strerror(errno))) }
        for suffix in ["-wal", "-shm", "-journal"] { unlink(path + suffix) }
        try openConnection(kind: kind)
    }

    /// Refuses to commit when the file at ``path`` is no longer the one open (its folder was removed, or it was
    /// moved or replaced): SQLite would write on into a file no restart finds.
    private func checkInPlace() throws {
        guard let identity, Self.identity(of: path) == identity else { throw StateFileError.removed(path) }
    }

    /// The device and inode of the file at `path`, `nil` when there is none.
    private static func identity(of path: String) -> [Int]? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let device = (attributes[.systemNumber] as? NSNumber)?.intValue,
            let inode = (attributes[.systemFileNumber] as? NSNumber)?.intValue
        else { return nil }
        return [device, inode]
    }

    /// Refuses a file that is not empty and not SQLite, reading only its first bytes.
    /// - Returns: whether the file holds anything.
    private static func checkHeader(_ descriptor: Int32, path: String) throws -> Bool {
        var header = [UInt8](repeating: 0, count: 16)
        let count = pread(descriptor, &header, 16, 0)
        guard count != 0 else { return false }
        let sqlite = Array("SQLite format 3\0".utf8)
        if count == 16 && header == sqlite { return true }
        if count > 0 && count < 16 && header.prefix(count).elementsEqual(sqlite.prefix(count)) {
            throw StateFileError.damaged(path, "it ends within its header")
        }
        let first = header.prefix(max(0, count)).first { ![9, 10, 13, 32].contains($0) }
        if first == UInt8(ascii: "{") { throw StateFileError.jsonState(path) }
        throw StateFileError.foreign(path, "it is not an SQLite database")
    }

    private func openConnection(kind: String) throws {
        guard sqlite3_open_v2(path, &connection, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK
        else { throw failure("cannot open") }
        // Exclusive locking before the first read: no shared-memory file, and no other connection gets in.
        try execute("PRAGMA locking_mode=EXCLUSIVE")
        try execute("BEGIN EXCLUSIVE")
        let tables = try strings("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        if tables.isEmpty {
            try execute(
                """
                CREATE TABLE understudy_state (name TEXT PRIMARY KEY, value TEXT NOT NULL);
                CREATE TABLE state_rows (
                    part TEXT NOT NULL, key TEXT NOT NULL, ordinal INTEGER NOT NULL, data BLOB NOT NULL,
                    PRIMARY KEY (part, key)) WITHOUT ROWID;
                """)
            try run("INSERT INTO understudy_state VALUES ('format', ?), ('kind', ?)", [Self.format, kind])
            isNew = true
        } else {
            guard tables == ["state_rows", "understudy_state"] else {
                try? execute("ROLLBACK")
                throw StateFileError.foreign(path, "it is an SQLite database of another program")
            }
            let format = try strings("SELECT value FROM understudy_state WHERE name = 'format'")
            let stored = try strings("SELECT value FROM understudy_state WHERE name = 'kind'")
            guard format == [Self.format], stored == [kind] else {
                try? execute("ROLLBACK")
                throw StateFileError.foreign(
                    path, "it holds \(stored.first ?? "nothing known") in format \(format.first ?? "?"), "
                        + "not \(kind) in format \(Self.format)")
            }
        }
        try execute("COMMIT")
        try execute("PRAGMA journal_mode=WAL")
        try execute("PRAGMA synchronous=FULL")
    }

    // MARK: Rows

    /// Every stored row, by part, in order.
    func load() throws -> [String: [StateRecord]] {
        var parts: [String: [StateRecord]] = [:]
        let statement = try prepare("SELECT part, key, ordinal, data FROM state_rows ORDER BY part, ordinal")
        defer { sqlite3_reset(statement) }
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else { throw failure("cannot read") }
            let part = text(statement, 0)
            let bytes = sqlite3_column_blob(statement, 3)
            let data = bytes.map { Data(bytes: $0, count: Int(sqlite3_column_bytes(statement, 3))) } ?? Data()
            parts[part, default: []].append(
                StateRecord(
                    part: part, key: text(statement, 1),
                    ordinal: sqlite3_column_int64(statement, 2), data: data))
        }
        return parts
    }

    /// Writes the rows one write changed, in one durable transaction.
    func apply(_ changes: [StateRecord]) throws {
        guard !changes.isEmpty else { return }
        try transaction {
            for change in changes { try store(change) }
        }
    }

    /// Replaces every row (a reset, or the seed of a new file).
    func replaceAll(with records: [StateRecord]) throws {
        try transaction {
            try execute("DELETE FROM state_rows")
            for record in records { try store(record) }
        }
    }

    private func store(_ record: StateRecord) throws {
        if let data = record.data {
            let statement = try prepare("INSERT OR REPLACE INTO state_rows VALUES (?, ?, ?, ?)")
            defer { sqlite3_reset(statement) }
            bind(record.part, 1, statement)
            bind(record.key, 2, statement)
            sqlite3_bind_int64(statement, 3, record.ordinal)
            _ = data.withUnsafeBytes { sqlite3_bind_blob(statement, 4, $0.baseAddress, Int32($0.count), transient) }
            guard sqlite3_step(statement) == SQLITE_DONE else { throw failure("cannot write") }
        } else {
            let statement = try prepare("DELETE FROM state_rows WHERE part = ? AND key = ?")
            defer { sqlite3_reset(statement) }
            bind(record.part, 1, statement)
            bind(record.key, 2, statement)
            guard sqlite3_step(statement) == SQLITE_DONE else { throw failure("cannot write") }
        }
    }

    private func transaction(_ body: () throws -> Void) throws {
        guard connection != nil else { throw StateFileError.closed(path) }
        try execute("BEGIN")
        do {
            try body()
            try checkInPlace()
            try execute("COMMIT")
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    // MARK: SQLite

    /// SQLite copies bound values (`SQLITE_TRANSIENT`, which Swift does not import).
    private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private func bind(_ text: String, _ index: Int32, _ statement: OpaquePointer) {
        sqlite3_bind_text(statement, index, text, -1, transient)
    }

    private func prepare(_ sql: String) throws -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw failure("cannot read")
        }
        statements[sql] = statement
        return statement
    }

    private func execute(_ sql: String) throws {
        guard sqlite3_exec(connection, sql, nil, nil, nil) == SQLITE_OK else { throw failure("cannot read") }
    }

    private func run(_ sql: String, _ values: [String]) throws {
        let statement = try prepare(sql)
        defer { sqlite3_reset(statement) }
        for (index, value) in values.enumerated() { bind(value, Int32(index + 1), statement) }
        guard sqlite3_step(statement) == SQLITE_DONE else { throw failure("cannot write") }
    }

    private func strings(_ sql: String) throws -> [String] {
        let statement = try prepare(sql)
        defer { sqlite3_reset(statement) }
        var values: [String] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { return values }
            guard step == SQLITE_ROW else { throw failure("cannot read") }
            values.append(text(statement, 0))
        }
    }

    private func text(_ statement: OpaquePointer, _ column: Int32) -> String {
        sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
    }

    private func failure(_ action: String) -> StateFileError {
        let code = connection.map { sqlite3_errcode($0) } ?? SQLITE_CANTOPEN
        let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
        if code == SQLITE_BUSY || code == SQLITE_LOCKED { return .locked(path) }
        // The header said SQLite (``checkHeader(_:path:)``): what follows it is truncated or overwritten.
        if code == SQLITE_NOTADB || code == SQLITE_CORRUPT { return .damaged(path, message) }
        return .cannotOpen(path, "SQLite \(action): \(message)")
    }
}
