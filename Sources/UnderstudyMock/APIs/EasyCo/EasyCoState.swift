import Synchronization
import UnderstudyCore

/// One table's rows in insertion order, with the position of each row by `id`.
///
/// Only the rows are persisted; the index is rebuilt when a state file is read, so embeds and
/// `property_id` policies look rows up in constant time. Every change gives the table a new
/// ``generation``, unique in the process, which keys the column vectors computed from its rows.
struct PostgrestTable: Codable, Sendable {
    private(set) var rows: [PostgrestRow]
    private(set) var positions: [String: Int]
    private(set) var generation: UInt64

    private static let generations = Atomic<UInt64>(0)

    private static func nextGeneration() -> UInt64 {
        generations.add(1, ordering: .relaxed).newValue
    }

    init(rows: [PostgrestRow] = []) {
        self.rows = rows
        positions = Self.index(rows)
        generation = Self.nextGeneration()
    }

    init(from decoder: any Decoder) throws {
        self.init(rows: try decoder.singleValueContainer().decode([PostgrestRow].self))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rows)
    }

    /// The row whose `id` is `id`.
    func row(id: String) -> PostgrestRow? { positions[id].map { rows[$0] } }

    mutating func append(_ row: PostgrestRow) {
        if let id = row["id"]?.stringValue { positions[id] = rows.count }
        rows.append(row)
        generation = Self.nextGeneration()
    }

    mutating func replace(at position: Int, with row: PostgrestRow) {
        rows[position] = row
        generation = Self.nextGeneration()
    }

    /// Removes the rows at `positions` (kept in order) and rebuilds the index.
    mutating func remove(at removed: Set<Int>) {
        guard !removed.isEmpty else { return }
        rows = rows.enumerated().filter { !removed.contains($0.offset) }.map(\.element)
        positions = Self.index(rows)
        generation = Self.nextGeneration()
    }

    private static func index(_ rows: [PostgrestRow]) -> [String: Int] {
        var positions: [String: Int] = [:]
        positions.reserveCapacity(rows.count)
        for (position, row) in rows.enumerated() {
            if let id = row["id"]?.stringValue { positions[id] = position }
        }
        return positions
    }
}

/// A seeded Supabase user (a row of `auth.users`, which PostgREST does not expose).
struct EasyCoUser: Codable, Sendable, Hashable {
    var id: String
    var name: String
    var email: String
}

/// Everything the EasyCo mock remembers.
struct EasyCoState: Codable, Sendable {
    var users: [EasyCoUser]
    /// The user whose token is printed at start and issued when `POST /__understudy/token` names nobody.
    var defaultUser: String
    var tables: [String: PostgrestTable]
    /// Rows inserted so far: new ids are derived from it, so they are the same on every run.
    var insertions: Int

    func user(_ key: String) -> EasyCoUser? {
        let key = key.lowercased()
        return users.first { $0.id == key || $0.email.lowercased() == key }
    }
}
