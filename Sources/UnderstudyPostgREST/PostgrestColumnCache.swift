import UnderstudyCore

/// Column vectors and foreign-key groupings computed from a table's rows, shared by every request until
/// the table changes.
///
/// A filter, a sort key or a row-level security check reads a typed value by row position instead of
/// hashing into each row's dictionary and converting its JSON (timestamps are parsed once per row written, not once
/// per row and request: after appends and replacements a vector is patched where the rows changed).
package final class PostgrestColumnCache: Sendable {
    private let vectors = Locked<[String: (generation: UInt64, values: [PostgrestValue?])]>([:])
    private let groups = Locked<[String: (generation: UInt64, groups: [String: [Int]])]>([:])
    private let references = Locked<[String: (generations: [UInt64], positions: [Int?])]>([:])

    package init() {}

    /// The value of `extractor` for every row of `table` (named `name`), by position.
    package func values(_ table: PostgrestTable, name: String, extractor: PostgrestExtractor) -> [PostgrestValue?] {
        let key = "\(name)|\(extractor.field)"
        let generation = table.generation
        let (fresh, stale): ([PostgrestValue?]?, UInt64?) = vectors.withLock { vectors in
            guard let hit = vectors[key] else { return (nil, nil) }
            return hit.generation == generation ? (hit.values, nil) : (nil, hit.generation)
        }
        if let fresh { return fresh }
        var values: [PostgrestValue?]
        if let stale, let changed = table.positionsChanged(since: stale), changed.count < table.rows.count / 2,
            var patched = vectors.withLock({ $0[key]?.generation == stale ? $0.removeValue(forKey: key)?.values : nil })
        {
            // A few rows were appended or replaced since: only those are read again, into the vector taken out of
            // the cache (so it is not copied). A page read after each create took 84 ms at 100,000 rows when the
            // vectors were computed again.
            patched.reserveCapacity(table.rows.count)
            while patched.count < table.rows.count { patched.append(nil) }
            for position in changed { patched[position] = extractor.value(table.rows[position]) }
            values = patched
        } else {
            values = table.rows.map(extractor.value)
        }
        vectors.withLock { $0[key] = (generation, values) }
        return values
    }

    /// For every row of `table`, the position in `target` of the row its `column` references (a foreign key).
    package func references(
        _ table: PostgrestTable, name: String, column: String, target: PostgrestTable, targetName: String
    ) -> [Int?] {
        let key = "\(name)|\(column)|\(targetName)"
        let generations = [table.generation, target.generation]
        if let hit = references.withLock({ $0[key] }), hit.generations == generations { return hit.positions }
        let positions = table.rows.map { row in row[column]?.stringValue.flatMap { target.positions[$0] } }
        references.withLock { $0[key] = (generations, positions) }
        return positions
    }

    /// The positions of `table`'s rows by the text value of `column` (a foreign key).
    package func group(_ table: PostgrestTable, name: String, by column: String) -> [String: [Int]] {
        let key = "\(name)|\(column)"
        if let hit = groups.withLock({ $0[key] }), hit.generation == table.generation { return hit.groups }
        var grouped: [String: [Int]] = [:]
        for (position, row) in table.rows.enumerated() {
            if let value = row[column]?.stringValue { grouped[value, default: []].append(position) }
        }
        groups.withLock { $0[key] = (table.generation, grouped) }
        return grouped
    }
}
