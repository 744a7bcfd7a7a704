import UnderstudyCore

/// A row of a ``StateTable``: a `Codable` value with a key unique in its table.
package protocol StateRow: Codable, Sendable {
    associatedtype Key: Hashable & Sendable & CustomStringConvertible
    /// The row's key; its `description` is the key stored in the state file.
    var key: Key { get }
}

/// The rows of one kind in a ``StoredState``, in insertion order, found by key in constant time.
///
/// Positions are stable while a row lives: a removed row leaves a hole that later writes compact, so
/// `firstIndex(where:)` results stay valid inside a write, and a write whose body throws is undone row by
/// row (``StateStore`` journals the rows a write touches, and persists only those).
///
/// Optional groups index rows by derived strings (an e-mail, a user's id, a pair of ids) for the lookups a
/// handler makes on every write, so no write scans the table; optional orders (``StateOrder``) keep the rows
/// sorted as lists show them, so a list walks its page instead of sorting the table.
///
/// ```swift
/// var notes = StateTable<Note>(groups: { ["title:\($0.title)"] })
/// notes.append(Note(id: 1, title: "First"))
/// let first = notes[key: 1]
/// let titled = notes.positions(in: "title:First")
/// ```
package struct StateTable<Row: StateRow>: Sendable {
    private var slots: [Slot?] = []
    private var positions: [Row.Key: Int] = [:]
    private var members: [String: [Int]] = [:]
    private let groups: (@Sendable (Row) -> [String])?
    /// The orders kept, each with its rows' keys and positions.
    private var orders: [(order: StateOrder<Row>, positions: OrderedPositions<StateOrderKey>)]
    /// Rows living in `slots`.
    package private(set) var count = 0
    private var nextOrdinal: Int64 = 0
    /// The row count at which ``sweep(where:)`` next scans.
    private var sweepAt = 64
    /// The rows the writes not yet committed touched: each key's slot and position before its first change.
    private var journal: [Row.Key: (slot: Slot?, position: Int?)] = [:]
    private var slotsBeforeJournal = 0
    /// The rows the current write touched (a commit may hold several writes, and one that throws is undone alone):
    /// each key's slot and position before the write, and whether the write brought the key into `journal`.
    private var writeJournal: [Row.Key: (slot: Slot?, position: Int?, isNew: Bool)] = [:]
    private var slotsBeforeWrite = 0

    struct Slot {
        var row: Row
        /// Orders rows in the state file: the insertion order survives compaction and restarts.
        var ordinal: Int64
        /// Names this content of the row in the process (``revision(of:)``).
        var revision = ProcessRevision.next()
    }

    /// An empty table.
    /// - Parameters:
    ///   - groups: the groups a row belongs to (``positions(in:)`` finds them); none by default.
    ///   - orders: the orders the table keeps its rows in (``positions(orderedBy:)``); none by default.
    package init(groups: (@Sendable (Row) -> [String])? = nil, orders: [StateOrder<Row>] = []) {
        self.groups = groups
        self.orders = orders.map { ($0, OrderedPositions(chunkSize: $0.chunkSize)) }
    }

    /// A table of `rows`, in this order.
    package init(
        _ rows: some Sequence<Row>, groups: (@Sendable (Row) -> [String])? = nil, orders: [StateOrder<Row>] = []
    ) {
        self.init(groups: groups, orders: orders)
        for row in rows { append(row) }
    }

    /// The row with this key; setting a row adds or replaces it, setting `nil` removes it.
    package subscript(key key: Row.Key) -> Row? {
        get { positions[key].flatMap { slots[$0]?.row } }
        set {
            guard let newValue else { return remove(key: key) }
            precondition(newValue.key == key, "a row's key cannot change; remove it and append another")
            append(newValue)
        }
    }

    /// The position of the row with this key.
    package func position(of key: Row.Key) -> Int? { positions[key] }

    /// A number unique in the process to the row's current content: it changes with every change of the row
    /// (and is the old one again when a write is undone), so what is computed from a row (its encoded JSON) can
    /// be kept until the row changes.
    package func revision(of key: Row.Key) -> UInt64? { positions[key].flatMap { slots[$0]?.revision } }

    /// The revision of the row at a position (``revision(of:)``).
    package func revision(at position: Int) -> UInt64 { slots[position]!.revision }

    /// The positions of the rows of a group, in insertion order.
    package func positions(in group: String) -> [Int] { members[group] ?? [] }

    /// The rows of a group, in insertion order.
    package func rows(in group: String) -> [Row] { positions(in: group).map { self[$0] } }

    /// The positions of the rows in one of the table's orders, first to last; `nil` for an order it does not keep.
    package func positions(orderedBy name: String) -> OrderedPositions<StateOrderKey>? {
        orders.first { $0.order.name == name }?.positions
    }

    /// Adds a row at the end; a row with the same key is replaced in place.
    package mutating func append(_ row: Row) {
        if let position = positions[row.key] {
            self[position] = row
            return
        }
        remember(row.key)
        insert(Slot(row: row, ordinal: nextOrdinal), at: slots.count)
        nextOrdinal += 1
    }

    /// Removes the row at a position.
    package mutating func remove(at position: Int) {
        guard let slot = slots[position] else { return }
        remember(slot.row.key)
        clear(position)
    }

    /// Removes the row with this key, if any.
    package mutating func remove(key: Row.Key) {
        if let position = positions[key] { remove(at: position) }
    }

    /// Removes the rows that match (a scan: for rare writes such as deleting an account).
    package mutating func removeAll(where shouldBeRemoved: (Row) throws -> Bool) rethrows {
        for position in slots.indices {
            if let slot = slots[position], try shouldBeRemoved(slot.row) { remove(at: position) }
        }
    }

    /// Removes the rows that match (expired tokens, say) once the table has doubled since the last sweep, so
    /// a sweep on every write costs amortized constant time and the table stays within twice its live rows.
    package mutating func sweep(where isExpired: (Row) throws -> Bool) rethrows {
        guard count >= sweepAt else { return }
        try removeAll(where: isExpired)
        sweepAt = Swift.max(64, 2 * count)
    }

    // MARK: Journal

    private mutating func remember(_ key: Row.Key) {
        if writeJournal.isEmpty { slotsBeforeWrite = slots.count }
        guard writeJournal[key] == nil else { return }
        if journal.isEmpty { slotsBeforeJournal = slots.count }
        let position = positions[key]
        let slot = position.flatMap { slots[$0] }
        let isNew = journal[key] == nil
        if isNew { journal[key] = (slot, position) }
        writeJournal[key] = (slot, position, isNew)
    }

    /// Puts rows back as they were before a change: `before` holds each changed key's slot and position, `count`
    /// the number of slots then.
    private mutating func restore(
        _ before: some Collection<(key: Row.Key, slot: Slot?, position: Int?)>, slotCount: Int
    ) {
        for entry in before { if let position = positions[entry.key] { clear(position) } }
        slots.removeSubrange(slotCount...)
        for entry in before {
            guard let slot = entry.slot, let position = entry.position else { continue }
            insert(slot, at: position)
        }
    }

    private mutating func insert(_ slot: Slot, at position: Int) {
        if position == slots.count { slots.append(slot) } else { slots[position] = slot }
        positions[slot.row.key] = position
        count += 1
        for group in groups?(slot.row) ?? [] { join(group, position) }
        for index in orders.indices {
            let order = orders[index].order
            let key = order.key(slot.row)
            let place = orders[index].positions.place(of: slot.row, in: order, key: key, at: position) {
                slots[$0]!.row
            }
            orders[index].positions.insert(key, position, at: place)
        }
    }

    /// Adds a position to a group, keeping the group in position order (appends are the common case).
    private mutating func join(_ group: String, _ position: Int) {
        var list = members.removeValue(forKey: group) ?? []
        if let last = list.last, last > position {
            list.insert(position, at: list.partitioningIndex { $0 > position })
        } else {
            list.append(position)
        }
        members[group] = list
    }

    private mutating func clear(_ position: Int) {
        guard let slot = slots[position] else { return }
        for index in orders.indices {
            let order = orders[index].order
            let place = orders[index].positions.place(of: slot.row, in: order, key: order.key(slot.row), at: position) {
                slots[$0]!.row
            }
            orders[index].positions.remove(position, near: place)
        }
        slots[position] = nil
        positions[slot.row.key] = nil
        count -= 1
        for group in groups?(slot.row) ?? [] {
            guard let index = members[group]?.lastIndex(of: position) else { continue }
            members[group]?.remove(at: index)
            if members[group]?.isEmpty == true { members[group] = nil }
        }
    }

}

extension StateTable: StatePart {
    var hasChanges: Bool { !journal.isEmpty }

    func changes() -> [(key: String, ordinal: Int64, row: Row?)] {
        journal.keys.map { key in
            let slot = positions[key].flatMap { slots[$0] }
            return (key.description, slot?.ordinal ?? 0, slot?.row)
        }
    }

    mutating func keepWrite() { writeJournal.removeAll(keepingCapacity: true) }

    mutating func undoWrite() {
        guard !writeJournal.isEmpty else { return }
        restore(writeJournal.lazy.map { ($0.key, $0.value.slot, $0.value.position) }, slotCount: slotsBeforeWrite)
        for (key, before) in writeJournal where before.isNew { journal[key] = nil }
        writeJournal.removeAll(keepingCapacity: true)
    }

    /// Keeps the changes; compacts the holes once they outnumber the rows (amortized constant time).
    mutating func commit() {
        journal.removeAll(keepingCapacity: true)
        writeJournal.removeAll(keepingCapacity: true)
        if slots.count - count > Swift.max(64, count) { load(records()) }
    }

    mutating func rollback() {
        guard !journal.isEmpty else { return }
        restore(journal.lazy.map { ($0.key, $0.value.slot, $0.value.position) }, slotCount: slotsBeforeJournal)
        journal.removeAll(keepingCapacity: true)
        writeJournal.removeAll(keepingCapacity: true)
    }

    func records() -> [(key: String, ordinal: Int64, row: Row)] {
        slots.compactMap { $0.map { ($0.row.key.description, $0.ordinal, $0.row) } }
    }

    /// A removal finds the row by its key's description: a scan, as rare as removals by other mocks.
    mutating func merge(key: String, ordinal: Int64, row: Row?) {
        precondition(journal.isEmpty, "rows of other mocks are merged between writes")
        guard let row else {
            if let position = positions.first(where: { $0.key.description == key })?.value { clear(position) }
            return
        }
        if let position = positions[row.key] {
            let kept = slots[position]!.ordinal
            clear(position)
            insert(Slot(row: row, ordinal: kept), at: position)
        } else {
            insert(Slot(row: row, ordinal: ordinal), at: slots.count)
            nextOrdinal = Swift.max(nextOrdinal, ordinal + 1)
        }
    }

    mutating func load(_ records: [(key: String, ordinal: Int64, row: Row)]) {
        let next = Swift.max(nextOrdinal, (records.last?.ordinal ?? -1) + 1)
        self = StateTable(groups: groups, orders: orders.map(\.order))
        for record in records { insert(Slot(row: record.row, ordinal: record.ordinal), at: slots.count) }
        nextOrdinal = next
    }
}

extension StateTable: BidirectionalCollection {
    package var startIndex: Int { slots.firstIndex { $0 != nil } ?? slots.count }
    package var endIndex: Int { slots.count }
    package var isEmpty: Bool { count == 0 }

    package func index(after position: Int) -> Int {
        var next = position + 1
        while next < slots.count && slots[next] == nil { next += 1 }
        return next
    }

    package func index(before position: Int) -> Int {
        var previous = position - 1
        while previous > 0 && slots[previous] == nil { previous -= 1 }
        return previous
    }

    /// The row at a position; setting it replaces the row (a new key must be no other row's).
    package subscript(position: Int) -> Row {
        get { slots[position]!.row }
        set {
            let slot = slots[position]!
            remember(slot.row.key)
            if slot.row.key != newValue.key {
                precondition(positions[newValue.key] == nil, "another row has the key \(newValue.key)")
                remember(newValue.key)
                clear(position)
                insert(Slot(row: newValue, ordinal: slot.ordinal), at: position)
            } else if !orders.isEmpty || groups.map({ $0(slot.row) != $0(newValue) }) == true {
                clear(position)
                insert(Slot(row: newValue, ordinal: slot.ordinal), at: position)
            } else {
                slots[position]!.row = newValue
                slots[position]!.revision = ProcessRevision.next()
            }
        }
    }
}

extension StateTable: Codable {
    /// The rows, in order (a state is encoded for comparisons; the store persists rows one by one).
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Array(self))
    }

    package init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode([Row].self))
    }
}
