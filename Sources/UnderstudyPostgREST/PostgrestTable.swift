import UnderstudyCore

/// One table's rows in insertion order, with the position of each row by `id` and by each unique key.
///
/// The rows stay dense (the executor's column vectors are by position): appends and replacements cost
/// constant time, a delete (a scan of the table anyway) rebuilds the indexes. The table journals what the
/// writes since the last commit changed, and what the current one did, so ``StateStore`` persists only those
/// rows, undoes a write that throws and keeps the others of its commit. Every
/// change gives the table a new ``generation``, unique in the process, which keys the column vectors computed
/// from its rows.
package struct PostgrestTable: Codable, Sendable {
    package private(set) var rows: [PostgrestRow]
    package private(set) var positions: [String: Int]
    package private(set) var generation: UInt64
    /// The order of each row in the state file, by position.
    private var ordinals: [Int64]
    private var nextOrdinal: Int64
    /// The unique keys (column lists) the table indexes, and each key's value → position.
    private var uniqueKeys: [[String]] = []
    private var uniques: [String: Int] = [:]
    /// What the writes since the last commit changed.
    private var journal = Journal.none
    /// What the current write changed.
    private var writeJournal = Journal.none
    /// The ids the writes since the last commit changed.
    private var touched: Set<String> = []
    /// The ids of `touched` the current write added.
    private var touchedByWrite: Set<String> = []

    private enum Journal {
        case none
        /// Rows were appended past `count` and rows before it replaced (first old row by position).
        case incremental(count: Int, replaced: [Int: PostgrestRow])
        /// A delete copied the rows as they were before.
        case snapshot(rows: [PostgrestRow], ordinals: [Int64])

        /// Keeps the row at `position` as it was before its first replacement.
        mutating func remember(_ row: PostgrestRow, at position: Int) {
            guard case .incremental(let count, var replaced) = self, position < count, replaced[position] == nil
            else { return }
            replaced[position] = row
            self = .incremental(count: count, replaced: replaced)
        }
    }

    package init(rows: [PostgrestRow] = []) {
        self.init(rows: rows, ordinals: rows.indices.map(Int64.init))
    }

    private init(rows: [PostgrestRow], ordinals: [Int64]) {
        self.rows = rows
        self.ordinals = ordinals
        positions = [:]
        generation = ProcessRevision.next()
        nextOrdinal = (ordinals.max() ?? -1) + 1
        reindex()
    }

    package init(from decoder: any Decoder) throws {
        self.init(rows: try decoder.singleValueContainer().decode([PostgrestRow].self))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rows)
    }

    /// The row whose `id` is `id`.
    package func row(id: String) -> PostgrestRow? { positions[id].map { rows[$0] } }

    /// The position of the row whose `id` is `id`.
    package func position(id: String) -> Int? { positions[id] }

    /// Indexes the table's unique keys, so inserts find a duplicate without a scan.
    package mutating func indexUniqueKeys(_ keys: [[String]]) {
        uniqueKeys = keys
        reindex()
    }

    /// The position of the row whose `key` columns hold `values`.
    package func position(unique key: [String], values: [JSONValue]) -> Int? {
        uniques[Self.uniqueValue(key, values)]
    }

    package mutating func append(_ row: PostgrestRow) {
        begin()
        index(row, at: rows.count)
        rows.append(row)
        ordinals.append(nextOrdinal)
        nextOrdinal += 1
        touch(row)
        generation = ProcessRevision.next()
    }

    package mutating func replace(at position: Int, with row: PostgrestRow) {
        begin()
        journal.remember(rows[position], at: position)
        writeJournal.remember(rows[position], at: position)
        touch(rows[position])
        unindex(rows[position], at: position)
        rows[position] = row
        index(row, at: position)
        touch(row)
        generation = ProcessRevision.next()
    }

    /// Removes the rows at `positions` (kept in order) and rebuilds the indexes.
    package mutating func remove(at removed: Set<Int>) {
        guard !removed.isEmpty else { return }
        begin()
        if case .incremental = journal {
            var before = self
            before.rollback()
            journal = .snapshot(rows: before.rows, ordinals: before.ordinals)
        }
        if case .incremental = writeJournal {
            var before = self
            before.undoWrite()
            writeJournal = .snapshot(rows: before.rows, ordinals: before.ordinals)
        }
        for position in removed { touch(rows[position]) }
        let kept = rows.indices.filter { !removed.contains($0) }
        rows = kept.map { rows[$0] }
        ordinals = kept.map { ordinals[$0] }
        reindex()
        generation = ProcessRevision.next()
    }

    // MARK: Indexes

    private mutating func begin() {
        if case .none = journal { journal = .incremental(count: rows.count, replaced: [:]) }
        if case .none = writeJournal { writeJournal = .incremental(count: rows.count, replaced: [:]) }
    }

    private mutating func touch(_ row: PostgrestRow) {
        if let id = row["id"]?.stringValue, touched.insert(id).inserted { touchedByWrite.insert(id) }
    }

    private mutating func reindex() {
        positions = [:]
        uniques = [:]
        positions.reserveCapacity(rows.count)
        for (position, row) in rows.enumerated() { index(row, at: position) }
    }

    private mutating func index(_ row: PostgrestRow, at position: Int) {
        if let id = row["id"]?.stringValue { positions[id] = position }
        for key in uniqueKeys {
            let values = key.map { row[$0] ?? .null }
            // NULLs never collide in a unique index.
            if values.contains(.null) { continue }
            let value = Self.uniqueValue(key, values)
            if uniques[value] == nil { uniques[value] = position }
        }
    }

    private mutating func unindex(_ row: PostgrestRow, at position: Int) {
        if let id = row["id"]?.stringValue, positions[id] == position { positions[id] = nil }
        for key in uniqueKeys {
            let value = Self.uniqueValue(key, key.map { row[$0] ?? .null })
            if uniques[value] == position { uniques[value] = nil }
        }
    }

    private static func uniqueValue(_ key: [String], _ values: [JSONValue]) -> String {
        zip(key, values).map { "\($0)=\($1.serialized())" }.joined(separator: "\u{1F}")
    }
}

/// The journal of a write, as ``StateStore`` keeps it (the table is a state part of the mock's store).
extension PostgrestTable {
    package var hasChanges: Bool { !touched.isEmpty }

    package func changes() -> [(key: String, ordinal: Int64, row: PostgrestRow?)] {
        touched.map { id in (id, positions[id].map { ordinals[$0] } ?? 0, row(id: id)) }
    }

    package mutating func keepWrite() {
        writeJournal = .none
        touchedByWrite.removeAll(keepingCapacity: true)
    }

    package mutating func undoWrite() {
        undo(writeJournal)
        touched.subtract(touchedByWrite)
        keepWrite()
        generation = ProcessRevision.next()
    }

    package mutating func commit() {
        journal = .none
        touched.removeAll(keepingCapacity: true)
        keepWrite()
    }

    package mutating func rollback() {
        undo(journal)
        commit()
        generation = ProcessRevision.next()
    }

    /// Puts the rows back as they were when the journal began.
    private mutating func undo(_ journal: Journal) {
        switch journal {
        case .none: break
        case .incremental(let count, let replaced):
            for position in (count..<rows.count).reversed() { unindex(rows[position], at: position) }
            rows.removeSubrange(count...)
            ordinals.removeSubrange(count...)
            for (position, row) in replaced {
                unindex(rows[position], at: position)
                rows[position] = row
                index(row, at: position)
            }
        case .snapshot(let before, let beforeOrdinals):
            rows = before
            ordinals = beforeOrdinals
            reindex()
        }
    }

    package func records() -> [(key: String, ordinal: Int64, row: PostgrestRow)] {
        rows.indices.map { (rows[$0]["id"]?.stringValue ?? "\(ordinals[$0])", ordinals[$0], rows[$0]) }
    }

    package mutating func merge(key: String, ordinal: Int64, row: PostgrestRow?) {
        if let position = positions[key] {
            if let row { replace(at: position, with: row) } else { remove(at: [position]) }
        } else if let row {
            append(row)
            ordinals[ordinals.count - 1] = ordinal
            nextOrdinal = Swift.max(nextOrdinal, ordinal + 1)
        }
    }

    package mutating func load(_ records: [(key: String, ordinal: Int64, row: PostgrestRow)]) {
        let keys = uniqueKeys
        self = PostgrestTable(rows: records.map(\.row), ordinals: records.map(\.ordinal))
        indexUniqueKeys(keys)
    }
}
