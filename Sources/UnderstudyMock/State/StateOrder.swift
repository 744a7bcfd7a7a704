import Foundation
import UnderstudyCore

/// A sort order a ``StateTable`` keeps its rows in, maintained on every write, so that a list walks its page
/// instead of sorting the table.
///
/// ```swift
/// // Each user's activities together, newest first.
/// let byUser = StateOrder<Activity>("user", key: { .text($0.userId.uuidString) }) { $0.createdOnUtc > $1.createdOnUtc }
/// let order = table.positions(orderedBy: "user")!   // OrderedPositions<StateOrderKey>
/// let mine = order[order.range(of: .text(caller.uuidString))]
/// ```
package struct StateOrder<Row: StateRow>: Sendable {
    /// The name the table's lookups find it by.
    package let name: String
    /// What the rows are ordered by, taken once each time a row is written.
    package let key: @Sendable (Row) -> StateOrderKey
    /// Whether a row comes before another of the same key; rows it does not tell apart keep their insertion order.
    package let tiebreak: @Sendable (Row, Row) -> Bool
    /// How many positions a chunk of the order holds before it is split (tests split often with a small one).
    let chunkSize: Int

    package init(
        _ name: String, key: @escaping @Sendable (Row) -> StateOrderKey, chunkSize: Int = 256,
        tiebreak: @escaping @Sendable (Row, Row) -> Bool
    ) {
        self.name = name
        self.key = key
        self.chunkSize = chunkSize
        self.tiebreak = tiebreak
    }
}

/// What a ``StateOrder`` sorts by: a number (a date, a count), a text (already folded as the list compares it) or
/// a decimal amount.
package enum StateOrderKey: Comparable, Sendable {
    case number(Double)
    case text(String)
    case amount(Decimal)
}

extension OrderedPositions where Key == StateOrderKey {
    /// Where a row at `position` belongs in `order`: the first place whose row does not come before it (its own place
    /// while it is kept). The tiebreak reads rows only within its key.
    func place<Row>(of row: Row, in order: StateOrder<Row>, key: StateOrderKey, at position: Int, rows: (Int) -> Row)
        -> Index
    {
        first { entry in
            if entry.key != key { return key < entry.key }
            let other = rows(entry.position)
            if order.tiebreak(other, row) { return false }
            if order.tiebreak(row, other) { return true }
            return position <= entry.position
        }
    }
}
