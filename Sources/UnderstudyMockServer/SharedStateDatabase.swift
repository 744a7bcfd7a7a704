import Foundation
import Logging
import PostgresNIO
import UnderstudyCore
import UnderstudyMock

/// A state shared by several mocks (replicas behind a load balancer): the rows in a PostgreSQL database, one
/// scope per kind of state, written one transaction per acknowledged write.
///
/// Writes are serialized across every mock of a scope by the row lock of the scope's version: a write takes
/// the next version, first applies the rows other mocks wrote since its own copy (so its body sees the latest
/// state), then stores the rows it changed under that version, and commits before it is acknowledged. Between
/// writes a mock catches up by reading the rows of newer versions, so a client sent to another replica reads
/// its own writes. A reset marks every row of the scope removed and stores the seed under a new version;
/// mocks that see it reload the whole state.
///
/// Tables (created when missing, in the database the URL names):
/// - `understudy_states`: `scope` (the state's type), `format`, `version`, `reset_version`;
/// - `understudy_rows`: `scope`, `part`, `key`, `ordinal`, `data` (the row's JSON), `removed`, `version`.
final class SharedStateDatabase: SharedStateBackend {
    /// The format of the rows; a scope written in another format is refused.
    static let format = "1"

    /// Opens a `postgres://` or `postgresql://` URL's database: what ``MockServer`` gives the stores of the mocks it
    /// starts (``MockConfiguration/sharedState``).
    static let opener = SharedStateOpener(handles: handles) { url, kind, seed in
        let (database, stored) = try await open(url, kind: kind, seed: seed)
        return (database, stored)
    }

    /// Reads what other mocks wrote (one connection: a catch-up is one or two short queries).
    private let reads: PostgresLink
    /// Runs this process's writes, one at a time (``StateStore`` serializes them).
    private let writes: PostgresLink
    private let scope: String
    private let location: String
    private let logger: Logger

    /// Whether a URL names a PostgreSQL database (`postgres://` or `postgresql://`).
    static func handles(_ url: URL) -> Bool {
        ["postgres", "postgresql"].contains(url.scheme?.lowercased() ?? "")
    }

    /// Connects to the database of `url` and opens the scope of `kind`, creating the tables and the scope
    /// (with `seed`'s rows) when missing.
    /// - Returns: the database, and the stored rows and version when the scope existed.
    /// - Throws: ``StateFileError`` when the database cannot be reached or holds this scope in another format.
    static func open(
        _ url: URL, kind: String, seed: [StateRecord]
    ) async throws -> (SharedStateDatabase, stored: (rows: [String: [StateRecord]], version: Int64)?) {
        let database = try SharedStateDatabase(url: url, scope: kind)
        do {
            let stored = try await database.prepare(seed: seed)
            return (database, stored)
        } catch {
            await database.close()
            throw database.failure(error)
        }
    }

    private init(url: URL, scope: String) throws {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false), let host = components.host,
            !host.isEmpty
        else {
            throw StateFileError.cannotOpen(
                url.absoluteString, "a PostgreSQL URL names a host: postgres://user@host:5432/database")
        }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }) { $1 }
        let tls: PostgresConnection.Configuration.TLS
        do {
            switch query["sslmode"] ?? "prefer" {
            case "disable": tls = .disable
            case "prefer", "allow": tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
            case "require", "verify-ca", "verify-full":
                tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            case let mode: throw StateFileError.cannotOpen(url.absoluteString, "unknown sslmode \(mode)")
            }
        } catch let error as NIOSSLError {
            throw StateFileError.cannotOpen(url.absoluteString, "TLS: \(error)")
        }
        let database = String(components.path.drop { $0 == "/" })
        let configuration = PostgresConnection.Configuration(
            host: host, port: components.port ?? 5432, username: components.user ?? "postgres",
            password: components.password, database: database.isEmpty ? nil : database, tls: tls)
        var logger = Logger(label: "understudy.state")
        logger.logLevel = .critical
        self.logger = logger
        self.scope = scope
        reads = PostgresLink(configuration, logger: logger)
        writes = PostgresLink(configuration, logger: logger)
        // Shown in errors without the password.
        var shown = components
        shown.password = nil
        shown.query = nil
        location = shown.string ?? "the PostgreSQL database"
    }

    func close() async {
        await reads.close()
        await writes.close()
    }

    /// Creates what is missing (once, however many mocks start at the same time) and reads the stored state.
    private func prepare(seed: [StateRecord]) async throws -> (rows: [String: [StateRecord]], version: Int64)? {
        try await writes.transaction { connection in
            // One mock at a time creates the tables and the scope: CREATE TABLE IF NOT EXISTS races otherwise.
            try await connection.query("SELECT pg_advisory_xact_lock(8271663)", logger: logger)
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS understudy_states (
                    scope text PRIMARY KEY, format text NOT NULL, version bigint NOT NULL,
                    reset_version bigint NOT NULL)
                """, logger: logger)
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS understudy_rows (
                    scope text NOT NULL, part text NOT NULL, key text NOT NULL, ordinal bigint NOT NULL,
                    data bytea, removed boolean NOT NULL, version bigint NOT NULL,
                    PRIMARY KEY (scope, part, key))
                """, logger: logger)
            try await connection.query(
                "CREATE INDEX IF NOT EXISTS understudy_rows_version ON understudy_rows (scope, version)",
                logger: logger)
            let rows = try await connection.query(
                "SELECT format, version FROM understudy_states WHERE scope = \(scope) FOR UPDATE", logger: logger)
            var found: (format: String, version: Int64)?
            for try await (format, version) in rows.decode((String, Int64).self) { found = (format, version) }
            guard let found else {
                try await connection.query(
                    "INSERT INTO understudy_states VALUES (\(scope), \(Self.format), 0, 0)", logger: logger)
                try await Self.store(seed, version: 0, scope: scope, on: connection, logger: logger)
                return nil
            }
            guard found.format == Self.format else {
                throw StateFileError.foreign(
                    location, "it holds \(scope) in format \(found.format), not in format \(Self.format)")
            }
            return (try await Self.live(scope: scope, on: connection, logger: logger), found.version)
        }
    }

    /// What other mocks wrote after `version`; `nil` when nothing.
    func changes(since version: Int64) async throws -> SharedStateUpdate? {
        do {
            return try await reads.use { connection in
                try await Self.changes(since: version, scope: scope, on: connection, locked: false, logger: logger)
            }
        } catch {
            throw failure(error)
        }
    }

    /// Runs one write of every mock sharing the scope at a time: `body` receives what other mocks wrote after
    /// `version` (apply it, then make the write) and returns the rows the write changed, which are committed
    /// under the write's version before this returns.
    /// - Returns: the version the state is at after the write.
    /// - Throws: what `body` throws (nothing is stored), or a ``StateFileError``.
    func write(since version: Int64, _ body: (SharedStateUpdate?) throws -> [StateRecord]) async throws -> Int64 {
        do {
            return try await writes.transaction { connection in
                let next = try await Self.nextVersion(scope: scope, on: connection, logger: logger)
                let update = try await Self.changes(
                    since: version, scope: scope, on: connection, locked: true, logger: logger)
                try await Self.store(try body(update), version: next, scope: scope, on: connection, logger: logger)
                return next
            }
        } catch let error as PostgresTransactionError {
            // The body's own error (a refused write) as it is; the database's as a StateFileError.
            if let body = error.closureError, !(body is PSQLError) { throw body }
            throw failure(error)
        } catch let error as PSQLError {
            throw failure(error)
        }
    }

    /// Replaces every row of the scope (a reset): the old rows are marked removed under the new version.
    func replaceAll(with records: [StateRecord]) async throws -> Int64 {
        do {
            return try await writes.transaction { connection in
                let next = try await Self.nextVersion(scope: scope, on: connection, logger: logger)
                try await connection.query(
                    "UPDATE understudy_states SET reset_version = \(next) WHERE scope = \(scope)", logger: logger)
                try await connection.query(
                    "UPDATE understudy_rows SET removed = true, version = \(next) WHERE scope = \(scope)",
                    logger: logger)
                try await Self.store(records, version: next, scope: scope, on: connection, logger: logger)
                return next
            }
        } catch {
            throw failure(error)
        }
    }

    // MARK: Queries

    /// Takes the scope's next version, holding its row lock (every other write of the scope waits) until the
    /// transaction ends.
    private static func nextVersion(scope: String, on connection: PostgresConnection, logger: Logger) async throws
        -> Int64
    {
        let rows = try await connection.query(
            "UPDATE understudy_states SET version = version + 1 WHERE scope = \(scope) RETURNING version",
            logger: logger)
        for try await version in rows.decode(Int64.self) { return version }
        throw StateFileError(description: "the shared state \(scope) was removed from the database")
    }

    /// The rows written after `version`. With `locked`, the caller holds the scope's row lock (the versions up to
    /// its own are all committed); without it, only rows up to the committed version are read.
    private static func changes(
        since version: Int64, scope: String, on connection: PostgresConnection, locked: Bool, logger: Logger
    ) async throws -> SharedStateUpdate? {
        let rows = try await connection.query(
            "SELECT version, reset_version FROM understudy_states WHERE scope = \(scope)", logger: logger)
        var current: (version: Int64, reset: Int64)?
        for try await (version, reset) in rows.decode((Int64, Int64).self) { current = (version, reset) }
        guard let current else {
            throw StateFileError(description: "the shared state \(scope) was removed from the database")
        }
        // Under the lock the scope's version is already this write's own, not yet committed.
        let committed = locked ? current.version - 1 : current.version
        guard committed > version else { return nil }
        if current.reset > version {
            return .reload(try await live(scope: scope, on: connection, logger: logger), version: committed)
        }
        let changed = try await connection.query(
            """
            SELECT part, key, ordinal, data, removed FROM understudy_rows
            WHERE scope = \(scope) AND version > \(version) AND version <= \(committed) ORDER BY version, ordinal
            """, logger: logger)
        var parts: [String: [StateRecord]] = [:]
        for try await (part, key, ordinal, data, removed) in changed.decode((String, String, Int64, Data?, Bool).self) {
            parts[part, default: []].append(
                StateRecord(part: part, key: key, ordinal: ordinal, data: removed ? nil : data))
        }
        return .rows(parts, version: committed)
    }

    /// Every row of the scope that is not removed, by part, in order.
    private static func live(scope: String, on connection: PostgresConnection, logger: Logger) async throws -> [String:
        [StateRecord]]
    {
        let rows = try await connection.query(
            """
            SELECT part, key, ordinal, data FROM understudy_rows
            WHERE scope = \(scope) AND NOT removed ORDER BY part, ordinal
            """, logger: logger)
        var parts: [String: [StateRecord]] = [:]
        for try await (part, key, ordinal, data) in rows.decode((String, String, Int64, Data?).self) {
            parts[part, default: []].append(StateRecord(part: part, key: key, ordinal: ordinal, data: data))
        }
        return parts
    }

    /// Upserts rows in one statement (arrays unnested), so a write of many rows costs one round trip.
    private static func store(
        _ records: [StateRecord], version: Int64, scope: String, on connection: PostgresConnection, logger: Logger
    ) async throws {
        guard !records.isEmpty else { return }
        let parts = records.map(\.part)
        let keys = records.map(\.key)
        let ordinals = records.map(\.ordinal)
        // A removed row is kept, empty, so other mocks see its removal.
        let data = records.map { ByteBuffer(bytes: $0.data ?? Data()) }
        let removed = records.map { $0.data == nil }
        try await connection.query(
            """
            INSERT INTO understudy_rows
            SELECT \(scope), part, key, ordinal, data, removed, \(version)
            FROM unnest(\(parts)::text[], \(keys)::text[], \(ordinals)::bigint[], \(data)::bytea[], \(removed)::boolean[])
                AS changed(part, key, ordinal, data, removed)
            ON CONFLICT (scope, part, key) DO UPDATE SET ordinal = excluded.ordinal, data = excluded.data,
                removed = excluded.removed, version = excluded.version
            """, logger: logger)
    }

    /// A ``StateFileError`` naming the database (never its password) and PostgreSQL's own message.
    private func failure(_ error: any Error) -> StateFileError {
        if let error = error as? StateFileError { return error }
        if let error = error as? PostgresTransactionError,
            let cause = error.closureError ?? error.commitError ?? error.beginError
        {
            return failure(cause)
        }
        guard let error = error as? PSQLError else { return .cannotOpen(location, "\(error)") }
        if let message = error.serverInfo?[.message] {
            return .cannotOpen(location, "PostgreSQL: \(message)")
        }
        let cause = error.underlying.map { "\($0)" } ?? "\(error.code)"
        return .cannotOpen(location, "cannot reach PostgreSQL (\(cause))")
    }
}

/// One connection to PostgreSQL, opened on first use and again after it failed, so a server that goes away
/// fails the requests of that moment (503) instead of holding them, and the mock recovers when it is back.
final class PostgresLink: Sendable {
    private let configuration: PostgresConnection.Configuration
    private let logger: Logger
    private let current = Locked<PostgresConnection?>(nil)

    init(_ configuration: PostgresConnection.Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Closes the connection; it lives until it is closed (PostgresNIO requires it).
    deinit {
        guard let connection = current.withLock({ $0 }), !connection.isClosed else { return }
        let closing: EventLoopFuture<Void> = connection.close()
        closing.whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    func use<T>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        let connection = try await open()
        do {
            return try await body(connection)
        } catch {
            if connection.isClosed { current.withLock { if $0 === connection { $0 = nil } } }
            throw error
        }
    }

    func transaction<T>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await use { connection in
            try await connection.withTransaction(logger: logger) { try await body($0) }
        }
    }

    func close() async {
        let connection = current.withLock { current in
            defer { current = nil }
            return current
        }
        try? await connection?.close()
    }

    private func open() async throws -> PostgresConnection {
        if let connection = current.withLock({ $0 }), !connection.isClosed { return connection }
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
        // Two requests may have connected at once: one connection is kept, the other closed.
        let kept = current.withLock { current in
            if let other = current, !other.isClosed { return other }
            current = connection
            return connection
        }
        if kept !== connection { try? await connection.close() }
        return kept
    }
}
