import Foundation
import UnderstudyCore

/// A request to one table, as PostgREST reads it: the query string, the headers it negotiates with, and the body.
package struct PostgrestRequest {
    package var table: String
    package var query: QueryItems
    /// The JSON body of a write; `nil` when there is none.
    package var body: JSONValue?
    /// A read (GET or HEAD): the schema is named by `Accept-Profile`, a write's by `Content-Profile`.
    package var isRead: Bool
    /// A HEAD: the rows are counted, not written.
    package var isHead: Bool
    /// A header's value, by lower-cased name.
    package var header: (String) -> String?

    package init(
        table: String, query: QueryItems, body: JSONValue?, isRead: Bool, isHead: Bool,
        header: @escaping (String) -> String?
    ) {
        self.table = table
        self.query = query
        self.body = body
        self.isRead = isRead
        self.isHead = isHead
        self.header = header
    }
}

/// PostgREST's answer to a table request.
package struct PostgrestAnswer: Sendable {
    package var status: Int
    package var headers: [(name: String, value: String)]
    package var body: [UInt8] = []
}

/// The rows of a PostgREST project, as a mock keeps them in its state.
package protocol PostgrestRows {
    /// Every table of the catalog, by name.
    var tables: [String: PostgrestTable] { get set }
    /// Counts one more row the database gives an id to; returns its number (1 for the first).
    mutating func countInsertion() -> Int
    /// Whether `auth.users`, which PostgREST does not expose, holds this id (user columns reference it).
    func hasUser(_ id: String) -> Bool
}

/// PostgREST's table endpoints over the tables a catalog declares: reads (filters, logic trees, `select` with
/// embeds, `order`, `limit`/`offset`, `Range`, counts), inserts and upserts, updates and deletes, with row-level
/// security, column types and constraints, and PostgREST's errors. Nothing here knows a table by name.
///
/// ```swift
/// let service = PostgrestService(catalog: PostgrestCatalog(spec: EasyCo.spec), seed: 1)
/// let answer = try service.read(request, caller: .anonymous, tables: state.tables)
/// ```
package struct PostgrestService: Sendable {
    package let catalog: PostgrestCatalog
    /// The seed new rows' ids are derived from.
    package let seed: UInt64
    /// Column vectors of the tables, reused by every request until a table changes.
    let cache = PostgrestColumnCache()

    package init(catalog: PostgrestCatalog, seed: UInt64) {
        self.catalog = catalog
        self.seed = seed
    }

    // MARK: Reads

    /// `GET /<table>` (and HEAD): the rows the caller sees that pass the filters, ordered, ranged and shaped.
    package func read(
        _ request: PostgrestRequest, caller: PostgrestCaller, tables: [String: PostgrestTable]
    ) throws(PostgrestError) -> PostgrestAnswer {
        let (preferences, negotiation, query) = try parts(of: request)
        let executor = PostgrestExecutor(catalog: catalog, tables: tables, caller: caller, cache: cache)
        let root = try executor.plan(query, table: request.table)
        let range = try PostgrestRange(
            header: request.header("range"), unit: request.header("range-unit"), offset: root.offset, limit: root.limit)
        // Only the rows up to the range's end need ordering; the count needs them all.
        let matched = try executor.matches(
            root, ordered: range.upper.map { $0.addingSaturated(1) }, counting: preferences.count != nil)
        let slice = range.slice(matched.count)
        // As PostgREST, the singular check comes first: an offset past the end returns no row.
        try negotiation.check(rows: slice.count)
        let total = preferences.count != nil ? matched.count : nil
        if let total, range.lower > total {
            throw PostgrestErrors.range(
                "An offset of \(range.lower) was requested, but there are only \(total) rows.", total: total)
        }
        // A HEAD (supabase's `select(head: true, count: .exact)`) only counts: writing 50 000 rows for nothing took
        // 0.4 s at 100 000 rows (scripts/bench-postgrest.sh).
        let body = request.isHead ? [] : negotiation.body(try executor.write(root, positions: matched[slice]))
        // Embeds filter their rows while they are written: a regex there may have run out of time too.
        try executor.timeout.ensureInTime()
        let status = total.map { slice.count < $0 ? 206 : 200 } ?? 200
        let contentRange = Self.contentRange(lower: slice.lowerBound, count: slice.count, total: total)
        return PostgrestAnswer(
            status: status,
            headers: negotiation.headers + [("Content-Range", contentRange)] + preferences.headers,
            body: body)
    }

    /// `0-24/*`, `0-24/3573458`, or `*/0` for no rows.
    private static func contentRange(lower: Int, count: Int, total: Int?) -> String {
        let totalText = total.map(String.init) ?? "*"
        return count == 0 ? "*/\(totalText)" : "\(lower)-\(lower + count - 1)/\(totalText)"
    }

    // MARK: Writes

    /// A write as PostgREST reads it before it opens a transaction: its preferences, representation and query, and
    /// the rows or values of its body in the table's types. Nothing of the state is read yet.
    package struct Write {
        fileprivate enum Change {
            /// The body's objects, for the table.
            case insert([[String: JSONValue]], PostgrestTableInfo)
            /// The columns to set, stored as the columns store them (`updated_at` included).
            case update(PostgrestRow, PostgrestTableInfo)
            /// The table is checked when the filters are planned.
            case delete
        }

        fileprivate let table: String
        fileprivate let change: Change
        fileprivate let preferences: PostgrestPreferences
        fileprivate let negotiation: PostgrestNegotiation
        fileprivate let query: PostgrestQuery
        /// The write's timestamp, as `created_at` and `updated_at` store it.
        fileprivate let now: String
    }

    /// Reads a `POST`, `PATCH` or `DELETE` on a table, refusing what PostgREST refuses before any row is read, so a
    /// malformed request never takes the store's write lock (or, with shared state, a database transaction).
    /// - Throws: PostgREST's 400s and 404s of the request itself (its query, its body, an unknown table or column).
    package func write(_ request: PostgrestRequest, _ operation: RowPolicy.Operation, now: Date) throws(PostgrestError)
        -> Write
    {
        let (preferences, negotiation, query) = try parts(of: request)
        let stamp = PostgrestTime.timestamp(now)
        guard operation != .delete else {
            return Write(
                table: request.table, change: .delete, preferences: preferences, negotiation: negotiation,
                query: query, now: stamp)
        }
        guard let info = catalog.table(request.table) else { throw PostgrestErrors.unknownTable(request.table) }
        let change: Write.Change
        if operation == .insert {
            let objects = try Self.insertedObjects(request.body, columns: query.columns)
            if let columns = query.columns, let unknown = columns.first(where: { info.column($0) == nil }) {
                throw PostgrestErrors.unknownColumn(unknown, of: info.name)
            }
            change = .insert(objects, info)
        } else {
            change = .update(try Self.updatedValues(request.body, query: query, info: info, now: stamp), info)
        }
        return Write(
            table: request.table, change: change, preferences: preferences, negotiation: negotiation, query: query,
            now: stamp)
    }

    /// Applies a write to the state. Throwing leaves `state` partly written: the caller's store undoes the write,
    /// as PostgreSQL rolls the transaction back.
    package func apply(_ write: Write, caller: PostgrestCaller, to state: inout some PostgrestRows)
        throws(PostgrestError) -> PostgrestAnswer
    {
        switch write.change {
        case .insert(let objects, let info): try insert(objects, into: info, write, caller: caller, state: &state)
        case .update(let values, let info): try update(values, in: info, write, caller: caller, state: &state)
        case .delete: try delete(write, caller: caller, from: &state)
        }
    }

    // MARK: Inserts

    /// `POST /<table>`: inserts the body's rows after row-level security, foreign-key and unique-key checks; 201
    /// with the rows (`return=representation`), a `Location` (`headers-only`) or nothing.
    private func insert(
        _ objects: [[String: JSONValue]], into info: PostgrestTableInfo, _ write: Write, caller: PostgrestCaller,
        state: inout some PostgrestRows
    ) throws(PostgrestError) -> PostgrestAnswer {
        let (table, preferences, negotiation, query, now) = (
            write.table, write.preferences, write.negotiation, write.query, write.now
        )
        // Every value is read before any row is checked, as json_populate_recordset reads the whole body first.
        var rows: [PostgrestRow] = []
        for object in objects {
            rows.append(
                try newRow(
                    object, info: info, columns: query.columns, missingDefault: preferences.missingDefault,
                    now: now,
                    state: &state))
        }
        // Positions of the inserted (or merged) rows, for the representation.
        var written: [Int] = []
        for (object, row) in zip(objects, rows) {
            try checkInsert(row, info: info, caller: caller, state: state)
            if let existing = try conflict(row, info: info, state: state, query: query, preferences: preferences) {
                guard preferences.resolution == .mergeDuplicates else { continue }
                let executor = PostgrestExecutor(
                    catalog: catalog, tables: state.tables, caller: caller, cache: cache)
                guard executor.security(table, .update, row: existing.row) else {
                    throw PostgrestErrors.rowSecurity(table, anonymous: caller.role == .anonymous)
                }
                var merged = existing.row
                for key in object.keys where info.column(key) != nil && key != "id" { merged[key] = row[key] }
                if info.column("updated_at") != nil { merged["updated_at"] = .string(now) }
                state.tables[table]?.replace(at: existing.position, with: merged)
                written.append(existing.position)
                continue
            }
            state.tables[table, default: PostgrestTable()].append(row)
            written.append((state.tables[table]?.rows.count ?? 1) - 1)
        }
        // Throwing here undoes every row of the write, as PostgREST rolls the transaction back.
        try negotiation.check(rows: written.count)
        var headers = [("Content-Range", Self.contentRange(lower: 0, count: 0, total: nil))] + preferences.headers
        switch preferences.returning {
        case .representation?:
            let executor = PostgrestExecutor(catalog: catalog, tables: state.tables, caller: caller, cache: cache)
            let node = try executor.plan(PostgrestQuery.shaping(query), table: table)
            var body: [JSONValue] = []
            for position in written { body.append(.object(try executor.shape(node, position))) }
            return negotiation.answer(body, status: 201, headers: headers)
        case .headersOnly?:
            if let position = written.last, let id = state.tables[table]?.rows[position]["id"]?.stringValue {
                headers.append(("Location", "/\(table)?id=eq.\(id)"))
            }
            return PostgrestAnswer(status: 201, headers: headers)
        default:
            return PostgrestAnswer(status: 201, headers: headers)
        }
    }

    /// What every request reads first: its preferences, the representation it answers, its query.
    private func parts(
        of request: PostgrestRequest
    ) throws(PostgrestError) -> (PostgrestPreferences, PostgrestNegotiation, PostgrestQuery) {
        let preferences = try PostgrestPreferences(request.header("prefer"))
        let negotiation = try PostgrestNegotiation(
            accept: request.header("accept"),
            profile: request.header(request.isRead ? "accept-profile" : "content-profile"))
        return (preferences, negotiation, try PostgrestQuery(request.query))
    }

    /// The objects of an insert's body: one object, or every object of an array (none for `[]`).
    /// - Throws: PGRST102 for a body that is neither, or an array whose objects do not all have the same keys
    ///   (PostgREST allows that only with `columns=`, which supabase-js and supabase-swift send with arrays).
    private static func insertedObjects(_ body: JSONValue?, columns: [String]?) throws(PostgrestError) -> [[String:
        JSONValue]]
    {
        switch body {
        case .object(let object)?:
            return [object]
        case .array(let elements)?:
            let objects = elements.compactMap(\.objectValue)
            let keys = objects.first.map { Set($0.keys) }
            guard objects.count == elements.count,
                columns != nil || objects.allSatisfy({ Set($0.keys) == keys })
            else { throw PostgrestErrors.make(.badRequest, code: "PGRST102", "All object keys must match") }
            return objects
        default:
            throw PostgrestErrors.make(.badRequest, code: "PGRST102", "Empty or invalid json")
        }
    }

    /// A row from an insert's object: every column, defaults, a new id and timestamps, values as their columns
    /// store them (``PostgrestInput``).
    ///
    /// A column the insert does not name gets its default. With `columns=`, the insert names those columns for
    /// every object, and one an object lacks is NULL, as `json_populate_recordset` reads it, or its default under
    /// `Prefer: missing=default` (docs.postgrest.org, references/api/preferences, "Missing").
    private func newRow(
        _ object: [String: JSONValue], info: PostgrestTableInfo, columns: [String]?, missingDefault: Bool, now: String,
        state: inout some PostgrestRows
    ) throws(PostgrestError) -> PostgrestRow {
        var row = info.defaults
        row["id"] = .string(Self.rowID(seed: seed, number: state.countInsertion()))
        for stamp in ["created_at", "updated_at"] where info.column(stamp) != nil { row[stamp] = .string(now) }
        for name in columns ?? [] where object[name] == nil && !missingDefault { row[name] = JSONValue.null }
        for (key, value) in object {
            if let columns, !columns.contains(key) { continue }
            guard let column = info.column(key) else {
                throw PostgrestErrors.unknownColumn(key, of: info.name)
            }
            row[key] = try PostgrestInput.stored(value, column: column, in: info)
        }
        return row
    }

    /// Row-level security (42501) and foreign keys (23503) of a new row.
    private func checkInsert(
        _ row: PostgrestRow, info: PostgrestTableInfo, caller: PostgrestCaller, state: some PostgrestRows
    ) throws(PostgrestError) {
        let executor = PostgrestExecutor(catalog: catalog, tables: state.tables, caller: caller, cache: cache)
        guard executor.security(info.name, .insert, row: row) else {
            throw PostgrestErrors.rowSecurity(info.name, anonymous: caller.role == .anonymous)
        }
        try checkConstraints(row, info: info, state: state)
    }

    /// The constraints of a row a write stores: NOT NULL (23502) and CHECK (23514), then the foreign keys (23503),
    /// to other tables and to `auth.users`.
    private func checkConstraints(_ row: PostgrestRow, info: PostgrestTableInfo, state: some PostgrestRows)
        throws(PostgrestError)
    {
        try PostgrestInput.check(row, info: info)
        for key in catalog.keys(from: info.name) {
            guard let id = row[key.column]?.stringValue else { continue }
            if state.tables[key.referencedTable]?.row(id: id) == nil {
                throw PostgrestErrors.missingReference(
                    info.name, column: key.column, value: id, referenced: key.referencedTable)
            }
        }
        for column in info.facts.userColumns where info.column(column) != nil {
            guard let id = row[column]?.stringValue else { continue }
            if !state.hasUser(id) {
                throw PostgrestErrors.missingReference(info.name, column: column, value: id, referenced: "users")
            }
        }
    }

    /// The existing row a new row collides with on a unique key, when an upsert resolves it.
    /// - Throws: 23505 for a duplicate the request does not resolve; 42P10 for an `on_conflict` that is no
    ///   unique key.
    private func conflict(
        _ row: PostgrestRow, info: PostgrestTableInfo, state: some PostgrestRows, query: PostgrestQuery,
        preferences: PostgrestPreferences
    ) throws(PostgrestError) -> (position: Int, row: PostgrestRow)? {
        if let target = query.onConflict, preferences.resolution != nil,
            !info.facts.uniqueKeys.contains(where: { Set($0) == Set(target) }) && target != ["id"]
        {
            throw PostgrestErrors.make(
                .badRequest, code: "42P10",
                "there is no unique or exclusion constraint matching the ON CONFLICT specification")
        }
        guard let table = state.tables[info.name] else { return nil }
        for key in info.facts.uniqueKeys {
            let values = key.map { row[$0] ?? .null }
            // NULLs never collide in a unique index.
            if values.contains(.null) { continue }
            guard let position = table.position(unique: key, values: values) else { continue }
            if let target = query.onConflict, preferences.resolution != nil, Set(target) == Set(key) {
                return (position, table.rows[position])
            }
            throw PostgrestErrors.duplicate(
                info.name, columns: key, values: values.map { $0.stringValue ?? $0.serialized() })
        }
        return nil
    }

    /// The id of the `number`th row the database numbered: derived from the seed, so runs are reproducible.
    package static func rowID(seed: UInt64, number: Int) -> String {
        var random = SeededRandom(seed: seed).derived("easyco insert \(number)")
        return random.uuid()
    }

    // MARK: Updates

    /// `PATCH /rest/v1/<table>?filters`: sets the body's columns on the matching rows the caller may update (the
    /// update policies' `USING`; others are left alone, as PostgreSQL skips them), each new row checked against
    /// the same policies (`WITH CHECK`: 42501), the foreign keys (23503) and the unique keys (23505); 204, or 200
    /// with the rows under `return=representation`. PostgREST serves it on every table
    /// (docs/references/api/tables_views.rst, "Update").
    private func update(
        _ values: PostgrestRow, in info: PostgrestTableInfo, _ write: Write, caller: PostgrestCaller,
        state: inout some PostgrestRows
    ) throws(PostgrestError) -> PostgrestAnswer {
        let (table, preferences, negotiation, query) = (write.table, write.preferences, write.negotiation, write.query)
        let executor = PostgrestExecutor(catalog: catalog, tables: state.tables, caller: caller, cache: cache)
        let root = try executor.plan(query, table: table)
        let positions =
            values.isEmpty
            ? [] : try Self.targets(root, of: .update, in: state.tables[table], executor: executor)
        try Self.checkAffected(positions.count, negotiation: negotiation, preferences: preferences)
        for position in positions {
            guard var row = state.tables[table]?.rows[position] else { continue }
            for (key, value) in values { row[key] = value }
            guard executor.security(table, .update, row: row) else {
                throw PostgrestErrors.rowSecurity(table, anonymous: caller.role == .anonymous)
            }
            try checkConstraints(row, info: info, state: state)
            for key in info.facts.uniqueKeys + [["id"]] {
                let keyValues = key.map { row[$0] ?? .null }
                if keyValues.contains(.null) { continue }
                let other =
                    key == ["id"]
                    ? row["id"]?.stringValue.flatMap { state.tables[table]?.position(id: $0) }
                    : state.tables[table]?.position(unique: key, values: keyValues)
                if let other, other != position {
                    throw PostgrestErrors.duplicate(
                        table, columns: key, values: keyValues.map { $0.stringValue ?? $0.serialized() })
                }
            }
            state.tables[table]?.replace(at: position, with: row)
        }
        let total = preferences.count != nil ? positions.count : nil
        let headers = [("Content-Range", Self.contentRange(lower: 0, count: 0, total: total))] + preferences.headers
        guard preferences.returning == .representation else {
            return PostgrestAnswer(status: 204, headers: headers)
        }
        let shaper = PostgrestExecutor(catalog: catalog, tables: state.tables, caller: caller, cache: cache)
        let node = try shaper.plan(PostgrestQuery.shaping(query), table: table)
        var body: [JSONValue] = []
        for position in positions { body.append(.object(try shaper.shape(node, position))) }
        return negotiation.answer(body, status: 200, headers: headers)
    }

    /// The columns a `PATCH` sets, as the columns store them, with `updated_at` when the table has one.
    /// - Throws: PGRST102 for a body that is not an object, PGRST204 for an unknown column, or the error of a value
    ///   its column cannot store.
    private static func updatedValues(
        _ body: JSONValue?, query: PostgrestQuery, info: PostgrestTableInfo, now: String
    ) throws(PostgrestError) -> PostgrestRow {
        guard case .object(let changes)? = body else {
            throw PostgrestErrors.make(.badRequest, code: "PGRST102", "Empty or invalid json")
        }
        var values: PostgrestRow = [:]
        for (key, value) in changes {
            if let columns = query.columns, !columns.contains(key) { continue }
            guard let column = info.column(key) else {
                throw PostgrestErrors.unknownColumn(key, of: info.name)
            }
            values[key] = try PostgrestInput.stored(value, column: column, in: info)
        }
        // An empty body changes no row, as PostgREST plans it (no SET list, no statement that touches a row).
        if info.column("updated_at") != nil, values["updated_at"] == nil, !values.isEmpty {
            values["updated_at"] = .string(now)
        }
        return values
    }

    /// The rows an UPDATE or DELETE changes: those the filters match and the operation's policies let the caller
    /// change; with `limit`, the first in the required `order`.
    private static func targets(
        _ root: PostgrestNode, of operation: RowPolicy.Operation, in rows: PostgrestTable?, executor: PostgrestExecutor
    ) throws(PostgrestError) -> [Int] {
        let allowed = executor.security(root.table.name, operation)
        var positions = (rows?.rows ?? []).indices.filter { position in
            !executor.timeout.expired && allowed(position) && (root.predicate?(position) ?? true) == true
        }
        try executor.timeout.ensureInTime()
        guard let limit = root.limit else { return positions }
        guard !root.order.isEmpty else {
            throw PostgrestErrors.make(
                .badRequest, code: "PGRST109", "A 'limit' was applied without an explicit 'order'",
                hint: "Apply an 'order' using unique column(s)")
        }
        positions = Array(executor.sorted(positions, by: root.order).dropFirst(root.offset).prefix(limit))
        return positions
    }

    /// PostgREST's order after a write's rows are known: the singular check, then max-affected
    /// (src/PostgREST/Query.hs); throwing undoes the write.
    private static func checkAffected(
        _ count: Int, negotiation: PostgrestNegotiation, preferences: PostgrestPreferences
    ) throws(PostgrestError) {
        try negotiation.check(rows: count)
        if preferences.strict, let maximum = preferences.maxAffected, count > maximum {
            throw PostgrestErrors.make(
                .badRequest, code: "PGRST124", "Query result exceeds max-affected preference constraint",
                details: "The query affects \(count) rows")
        }
    }

    // MARK: Deletes

    /// `DELETE /<table>?filters`: removes the matching rows the caller may delete; 204, or 200 with the deleted
    /// rows under `return=representation`.
    private func delete(_ write: Write, caller: PostgrestCaller, from state: inout some PostgrestRows)
        throws(PostgrestError) -> PostgrestAnswer
    {
        let (table, preferences, negotiation, query) = (write.table, write.preferences, write.negotiation, write.query)
        let executor = PostgrestExecutor(catalog: catalog, tables: state.tables, caller: caller, cache: cache)
        let root = try executor.plan(query, table: table)
        let positions = try Self.targets(root, of: .delete, in: state.tables[table], executor: executor)
        try Self.checkAffected(positions.count, negotiation: negotiation, preferences: preferences)
        var representation: [JSONValue] = []
        if preferences.returning == .representation {
            for position in positions { representation.append(.object(try executor.shape(root, position))) }
        }
        state.tables[table]?.remove(at: Set(positions))
        let total = preferences.count != nil ? positions.count : nil
        let headers = [("Content-Range", Self.contentRange(lower: 0, count: 0, total: total))] + preferences.headers
        if preferences.returning == .representation {
            return negotiation.answer(representation, status: 200, headers: headers)
        }
        return PostgrestAnswer(status: 204, headers: headers)
    }
}

extension PostgrestQuery {
    /// The shaping parameters of a query (select, embed filters, orders, limits), for the rows a write returns.
    static func shaping(_ query: PostgrestQuery) -> PostgrestQuery {
        var copy = query
        copy.limits[[]] = nil
        copy.offsets[[]] = nil
        copy.orders[[]] = nil
        copy.conditions[[]] = nil
        return copy
    }
}
