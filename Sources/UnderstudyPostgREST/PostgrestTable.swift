import UnderstudyCore

/// One table's rows in insertion order, with the position of each row by `id` and by each unique key, and the rows
/// in the order of each indexed column (``positions(orderedBy:)``).
///
/// The rows stay dense (the executor's column vectors are by position): appends and replacements cost
/// constant time (O(log n) per ordered index), a delete (a scan of the table anyway) rebuilds the indexes. The table journals what the
/// writes since the last commit changed, and what the current one did, so ``StateStore`` persists only those
/// rows, undoes a write that throws and keeps the others of its commit. Every
/// change gives the table a new ``generation``, unique in the process, which keys the column vectors computed
/// from its rows; the table remembers which rows its recent appends and replacements wrote
/// (``positionsChanged(since:)``), so a vector is brought up to date row by row rather than computed again.
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
    /// The indexed columns, each with the rows by its value, then by position.
    private var orders: [(extractor: PostgrestExtractor, positions: OrderedPositions<PostgrestIndexKey>)] = []
    /// What the writes since the last commit changed.
    private var journal = Journal.none
    /// What the current write changed.
    private var writeJournal = Journal.none
    /// The ids the writes since the last commit changed.
    private var touched: Set<String> = []
    /// The ids of `touched` the current write added.
    private var touchedByWrite: Set<String> = []
    /// The generations of the recent appends and replacements, oldest first, each with the position it wrote.
    private var recent: [(generation: UInt64, position: Int)] = []
    /// The generation `recent` starts after.
    private var recentBase: UInt64 = 0

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
        recentBase = generation
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

    /// Keeps the rows in the order of each column `extractors` read (btree indexes), maintained on every write, so
    /// that a read ordered by one of them walks its rows instead of sorting the table.
    package mutating func indexOrders(_ extractors: [PostgrestExtractor]) {
        orders = extractors.map { ($0, OrderedPositions()) }
        reindexOrders()
    }

    /// The positions of the rows by the value of `column` (nulls last), then by position; `nil` when the column is
    /// not indexed.
    package func positions(orderedBy column: String) -> OrderedPositions<PostgrestIndexKey>? {
        orders.first { $0.extractor.field.column == column }?.positions
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
        changed(rows.count - 1)
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
        changed(position)
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
        var renumbered = [Int?](repeating: nil, count: rows.count)
        for (position, old) in kept.enumerated() { renumbered[old] = position }
        rows = kept.map { rows[$0] }
        ordinals = kept.map { ordinals[$0] }
        reindexKeys()
        // The rows kept keep their order: the ordered indexes are renumbered, not sorted again.
        for index in orders.indices { orders[index].positions.renumber { renumbered[$0] } }
        changedAll()
    }

    /// The positions the appends and replacements since `generation` wrote, oldest first (a position may come more
    /// than once); `nil` when the table cannot tell: `generation` is not one this table went through recently, or a
    /// removal or an undo came since.
    package func positionsChanged(since generation: UInt64) -> [Int]? {
        if generation == self.generation { return [] }
        if generation == recentBase { return recent.map(\.position) }
        let start = recent.partitioningIndex { $0.generation > generation }
        // The generation must be one of this table's own: a copy changed otherwise went through other generations.
        guard start > 0, recent[start - 1].generation == generation else { return nil }
        return recent[start...].map(\.position)
    }

    private mutating func changed(_ position: Int) {
        generation = ProcessRevision.next()
        recent.append((generation, position))
        if recent.count > 4_096 {
            recentBase = recent[2_047].generation
            recent.removeFirst(2_048)
        }
    }

    private mutating func changedAll() {
        generation = ProcessRevision.next()
        recent.removeAll()
        recentBase = generation
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
        reindexKeys()
        reindexOrders()
    }

    private mutating func reindexKeys() {
        positions = [:]
        uniques = [:]
        positions.reserveCapacity(rows.count)
        for (position, row) in rows.enumerated() { indexKeys(row, at: position) }
    }

    private mutating func reindexOrders() {
        for index in orders.indices {
            let extractor = orders[index].extractor
            let entries = rows.indices.map {
                OrderedPositions.Entry(key: PostgrestIndexKey(extractor, rows[$0]), position: $0)
            }
            orders[index].positions = OrderedPositions(
                sorted: entries.sorted { ($0.key, $0.position) < ($1.key, $1.position) })
        }
    }

    private mutating func index(_ row: PostgrestRow, at position: Int) {
        indexKeys(row, at: position)
        for index in orders.indices {
            let key = PostgrestIndexKey(orders[index].extractor, row)
            orders[index].positions.insert(key, position, at: Self.place(key, position, in: orders[index].positions))
        }
    }

    /// Where a row belongs in an ordered index: after the rows of lower keys and of its key at lower positions.
    private static func place(
        _ key: PostgrestIndexKey, _ position: Int, in order: OrderedPositions<PostgrestIndexKey>
    ) -> OrderedPositions<PostgrestIndexKey>.Index {
        order.first { ($0.key, $0.position) >= (key, position) }
    }

    private mutating func indexKeys(_ row: PostgrestRow, at position: Int) {
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
        for index in orders.indices {
            let key = PostgrestIndexKey(orders[index].extractor, row)
            orders[index].positions.remove(position, near: Self.place(key, position, in: orders[index].positions))
        }
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
        changedAll()
    }

    package mutating func commit() {
        journal = .none
        touched.removeAll(keepingCapacity: true)
        keepWrite()
    }

    package mutating func rollback() {
        undo(journal)
        commit()
        changedAll()
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
        let (keys, extractors) = (uniqueKeys, orders.map(\.extractor))
        self = PostgrestTable(rows: records.map(\.row), ordinals: records.map(\.ordinal))
        indexUniqueKeys(keys)
        indexOrders(extractors)
    }
}

/// The key of an ordered index: a column's value, with SQL NULL after every value (PostgreSQL's btree default,
/// `ASC NULLS LAST`, which a walk backwards turns into `DESC NULLS FIRST`, its default for `DESC`).
package struct PostgrestIndexKey: Comparable, Sendable {
    package let value: PostgrestValue?

    init(_ extractor: PostgrestExtractor, _ row: PostgrestRow) { value = extractor.value(row) }

    package static func < (lhs: Self, rhs: Self) -> Bool {
        switch (lhs.value, rhs.value) {
        case (nil, _): false
        case (_, nil): true
        case (let left?, let right?): PostgrestValue.compare(left, right) < 0
        }
    }

    package static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs.value, rhs.value) {
        case (nil, nil): true
        case (let left?, let right?): PostgrestValue.compare(left, right) == 0
        default: false
        }
    }
}
