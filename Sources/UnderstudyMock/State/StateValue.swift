/// One value of a ``StoredState`` that is not a table (counters, settings), persisted as a whole when it
/// changes: keep it small.
///
/// ```swift
/// var counters = StateValue(Counters(issued: 0))
/// counters.value.issued += 1
/// ```
package struct StateValue<Value: Codable & Sendable>: Sendable {
    private var current: Value
    /// The value before the first change of the writes not yet committed.
    private var before: Value?
    /// The value before the current write, and whether the write was the first to change it since the commit.
    private var beforeWrite: (value: Value, isFirst: Bool)?

    package init(_ value: Value) {
        current = value
    }

    package var value: Value {
        get { current }
        set {
            if beforeWrite == nil { beforeWrite = (current, before == nil) }
            if before == nil { before = current }
            current = newValue
        }
    }

    var hasChanges: Bool { before != nil }

    mutating func keepWrite() { beforeWrite = nil }

    mutating func undoWrite() {
        guard let beforeWrite else { return }
        current = beforeWrite.value
        if beforeWrite.isFirst { before = nil }
        self.beforeWrite = nil
    }

    mutating func commit() {
        before = nil
        beforeWrite = nil
    }

    mutating func rollback() {
        if let before { current = before }
        before = nil
        beforeWrite = nil
    }
}

extension StateValue: StatePart {
    func changes() -> [(key: String, ordinal: Int64, row: Value?)] {
        hasChanges ? [("value", 0, current)] : []
    }

    func records() -> [(key: String, ordinal: Int64, row: Value)] { [("value", 0, current)] }

    mutating func load(_ records: [(key: String, ordinal: Int64, row: Value)]) {
        if let record = records.first { current = record.row }
        before = nil
        beforeWrite = nil
    }

    mutating func merge(key: String, ordinal: Int64, row: Value?) {
        if let row { current = row }
    }
}

extension StateValue: Codable {
    /// The value (a state is encoded for comparisons; the store persists it when it changes).
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(current)
    }

    package init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(Value.self))
    }
}
