import Foundation
import UnderstudyCore

/// A sort order a ``StateTable`` keeps its rows in, maintained on every write, so that a list walks its page
/// instead of sorting the table.
///
/// ```swift
/// // Each user's activities together, newest first.
/// let byUser = StateOrder<Activity>("user", key: { .text($0.userId.uuidString) }) { $0.createdOnUtc > $1.createdOnUtc }
/// let order = table.positions(orderedBy: "user")!
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

/// The positions of a table's rows in one of its orders: by key, then by the tiebreak, then by position.
///
/// They are kept in chunks of at most twice the order's chunk size, so a write moves one chunk, not the whole
/// order (O(log n + chunk)); an offset is reached by skipping whole chunks.
package struct OrderedPositions<Row: StateRow>: BidirectionalCollection, Sendable {
    struct Entry: Sendable {
        var key: StateOrderKey
        var position: Int
    }

    package struct Index: Comparable, Sendable {
        var chunk: Int
        var offset: Int

        package static func < (lhs: Index, rhs: Index) -> Bool { (lhs.chunk, lhs.offset) < (rhs.chunk, rhs.offset) }
    }

    let order: StateOrder<Row>
    /// Never empty; no chunk is empty but the only one of an empty order.
    private var chunks: [[Entry]] = [[]]
    package private(set) var count = 0

    init(_ order: StateOrder<Row>) { self.order = order }

    package var startIndex: Index { Index(chunk: 0, offset: 0) }
    package var endIndex: Index { Index(chunk: chunks.count - 1, offset: chunks[chunks.count - 1].count) }
    package subscript(index: Index) -> Int { chunks[index.chunk][index.offset].position }

    package func index(after index: Index) -> Index {
        if index.offset + 1 < chunks[index.chunk].count || index.chunk + 1 == chunks.count {
            return Index(chunk: index.chunk, offset: index.offset + 1)
        }
        return Index(chunk: index.chunk + 1, offset: 0)
    }

    package func index(before index: Index) -> Index {
        index.offset > 0
            ? Index(chunk: index.chunk, offset: index.offset - 1)
            : Index(chunk: index.chunk - 1, offset: chunks[index.chunk - 1].count - 1)
    }

    /// Skips whole chunks: O(chunks).
    package func index(_ index: Index, offsetBy distance: Int) -> Index {
        self.index(at: offset(of: index) + distance)
    }

    package func index(_ index: Index, offsetBy distance: Int, limitedBy limit: Index) -> Index? {
        let (from, to) = (offset(of: index), offset(of: limit))
        if distance >= 0 ? (from <= to && from + distance > to) : (from >= to && from + distance < to) { return nil }
        return self.index(at: from + distance)
    }

    package func distance(from start: Index, to end: Index) -> Int { offset(of: end) - offset(of: start) }

    /// How many positions come before an index.
    private func offset(of index: Index) -> Int {
        chunks[..<index.chunk].reduce(0) { $0 + $1.count } + index.offset
    }

    /// The index of the position `offset` places from the start.
    private func index(at offset: Int) -> Index {
        var remaining = offset
        for chunk in chunks.indices {
            if remaining < chunks[chunk].count || chunk == chunks.count - 1 {
                return Index(chunk: chunk, offset: remaining)
            }
            remaining -= chunks[chunk].count
        }
        return endIndex
    }

    /// The positions from the last key to the first, each key's rows still in their order (as a sort by key the
    /// other way, then by the tiebreak, lists them): one binary search per key.
    package func byDescendingKey() -> some Sequence<Int> {
        sequence(state: (run: endIndex..<endIndex, next: endIndex)) { walk -> Int? in
            if walk.next == walk.run.upperBound {
                guard walk.run.lowerBound > startIndex else { return nil }
                let last = index(before: walk.run.lowerBound)
                walk.run = range(of: chunks[last.chunk][last.offset].key).lowerBound..<walk.run.lowerBound
                walk.next = walk.run.lowerBound
            }
            defer { walk.next = index(after: walk.next) }
            return self[walk.next]
        }
    }

    /// The indices of the rows of one key (two binary searches).
    package func range(of key: StateOrderKey) -> Range<Index> {
        first { $0.key >= key }..<first { $0.key > key }
    }

    /// Where a row at `position` belongs: the first place whose row does not come before it (its own place while it
    /// is kept). The tiebreak reads rows only within its key.
    func place(of row: Row, key: StateOrderKey, at position: Int, rows: (Int) -> Row) -> Index {
        first { entry in
            if entry.key != key { return key < entry.key }
            let other = rows(entry.position)
            if order.tiebreak(other, row) { return false }
            if order.tiebreak(row, other) { return true }
            return position <= entry.position
        }
    }

    /// The first index whose entry `isPast`, along which it is false, then true.
    private func first(where isPast: (Entry) -> Bool) -> Index {
        let chunk = chunks.partitioningIndex { $0.last.map(isPast) ?? true }
        guard chunk < chunks.count else { return endIndex }
        return Index(chunk: chunk, offset: chunks[chunk].partitioningIndex(where: isPast))
    }

    mutating func insert(_ key: StateOrderKey, _ position: Int, at index: Index) {
        chunks[index.chunk].insert(Entry(key: key, position: position), at: index.offset)
        count += 1
        if chunks[index.chunk].count > 2 * order.chunkSize {
            let half = chunks[index.chunk].count / 2
            chunks.insert(Array(chunks[index.chunk][half...]), at: index.chunk + 1)
            chunks[index.chunk].removeSubrange(half...)
        }
    }

    /// Removes a position found at `index` (or, for a row changed in place, which ``StateTable`` prevents,
    /// wherever it is).
    mutating func remove(_ position: Int, near index: Index) {
        var found = index
        if index >= endIndex || self[index] != position {
            guard let other = indices.first(where: { self[$0] == position }) else { return }
            found = other
        }
        let chunk = found.chunk
        chunks[chunk].remove(at: found.offset)
        count -= 1
        // A chunk that fits in its follower's room joins it, so removals leave no trail of small chunks.
        if chunks[chunk].isEmpty && chunks.count > 1 {
            chunks.remove(at: chunk)
        } else if chunk + 1 < chunks.count, chunks[chunk].count + chunks[chunk + 1].count <= order.chunkSize {
            chunks[chunk] += chunks[chunk + 1]
            chunks.remove(at: chunk + 1)
        }
    }
}
