/// The positions of a table's rows sorted by a key, maintained on every write, so that a list walks its page instead
/// of sorting the table.
///
/// The owner decides where a row goes among rows of its key (``first(where:)`` finds the place, ``insert(_:_:at:)``
/// puts it there). The positions are kept in chunks of at most twice `chunkSize`, so a write moves one chunk, not the
/// whole order (O(log n + chunk)); an offset is reached by skipping whole chunks (O(chunks)).
///
/// ```swift
/// var byRent = OrderedPositions<Double>()
/// byRent.insert(850, 0, at: byRent.first { $0.key > 850 })
/// byRent.insert(600, 1, at: byRent.first { $0.key > 600 })
/// Array(byRent)   // [1, 0]
/// ```
package struct OrderedPositions<Key: Comparable & Sendable>: BidirectionalCollection, Sendable {
    package struct Entry: Sendable {
        package var key: Key
        package var position: Int

        package init(key: Key, position: Int) {
            self.key = key
            self.position = position
        }
    }

    package struct Index: Comparable, Sendable {
        var chunk: Int
        var offset: Int

        package static func < (lhs: Index, rhs: Index) -> Bool { (lhs.chunk, lhs.offset) < (rhs.chunk, rhs.offset) }
    }

    /// How many positions a chunk holds before it is split (tests split often with a small one).
    package let chunkSize: Int
    /// Never empty; no chunk is empty but the only one of an empty order.
    private var chunks: [[Entry]] = [[]]
    package private(set) var count = 0

    package init(chunkSize: Int = 256) { self.chunkSize = chunkSize }

    /// An order of `entries`, already in order.
    package init(sorted entries: [Entry], chunkSize: Int = 256) {
        self.chunkSize = chunkSize
        count = entries.count
        if !entries.isEmpty {
            chunks = stride(from: 0, to: entries.count, by: chunkSize).map {
                Array(entries[$0..<Swift.min($0 + chunkSize, entries.count)])
            }
        }
    }

    package var startIndex: Index { Index(chunk: 0, offset: 0) }
    package var endIndex: Index { Index(chunk: chunks.count - 1, offset: chunks[chunks.count - 1].count) }
    package subscript(index: Index) -> Int { chunks[index.chunk][index.offset].position }

    /// The key of the row at an index.
    package func key(at index: Index) -> Key { chunks[index.chunk][index.offset].key }

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
    /// other way, then by the owner's tiebreak, lists them): one binary search per key.
    package func byDescendingKey() -> some Sequence<Int> {
        sequence(state: (run: endIndex..<endIndex, next: endIndex)) { walk -> Int? in
            if walk.next == walk.run.upperBound {
                guard walk.run.lowerBound > startIndex else { return nil }
                let last = index(before: walk.run.lowerBound)
                walk.run = range(of: key(at: last)).lowerBound..<walk.run.lowerBound
                walk.next = walk.run.lowerBound
            }
            defer { walk.next = index(after: walk.next) }
            return self[walk.next]
        }
    }

    /// The indices of the rows of one key (two binary searches).
    package func range(of key: Key) -> Range<Index> {
        first { $0.key >= key }..<first { $0.key > key }
    }

    /// The first index whose entry `isPast`, along which it is false, then true (a binary search).
    package func first(where isPast: (Entry) -> Bool) -> Index {
        let chunk = chunks.partitioningIndex { $0.last.map(isPast) ?? true }
        guard chunk < chunks.count else { return endIndex }
        return Index(chunk: chunk, offset: chunks[chunk].partitioningIndex(where: isPast))
    }

    package mutating func insert(_ key: Key, _ position: Int, at index: Index) {
        chunks[index.chunk].insert(Entry(key: key, position: position), at: index.offset)
        count += 1
        if chunks[index.chunk].count > 2 * chunkSize {
            let half = chunks[index.chunk].count / 2
            chunks.insert(Array(chunks[index.chunk][half...]), at: index.chunk + 1)
            chunks[index.chunk].removeSubrange(half...)
        }
    }

    /// Removes a position found at `index` (or, when the owner's place for it was wrong, wherever it is).
    package mutating func remove(_ position: Int, near index: Index) {
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
        } else if chunk + 1 < chunks.count, chunks[chunk].count + chunks[chunk + 1].count <= chunkSize {
            chunks[chunk] += chunks[chunk + 1]
            chunks.remove(at: chunk + 1)
        }
    }

    /// Gives every position its new number, dropping those `renumbered` maps to `nil`, in O(n): for a table whose
    /// rows moved (a removal that closes the gaps) while their order did not change.
    package mutating func renumber(_ renumbered: (Int) -> Int?) {
        var entries: [Entry] = []
        entries.reserveCapacity(count)
        for chunk in chunks {
            for entry in chunk {
                if let position = renumbered(entry.position) {
                    entries.append(Entry(key: entry.key, position: position))
                }
            }
        }
        self = OrderedPositions(sorted: entries, chunkSize: chunkSize)
    }
}
