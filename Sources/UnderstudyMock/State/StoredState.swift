import Foundation

/// The state of a mock as ``StateStore`` keeps it: named tables of rows (``StateTable``) and small values
/// (``StateValue``), so a write persists only the rows it changed.
///
/// ```swift
/// struct NotesState: StoredState {
///     var notes = StateTable<Note>()
///     var nextID = StateValue(1)
///
///     mutating func visit(_ visitor: inout StateVisitor) {
///         visitor.visit("notes", &notes)
///         visitor.visit("nextID", &nextID)
///     }
/// }
/// ```
package protocol StoredState: Sendable {
    /// Shows every table and value of the state to `visitor`, each under a name unique in the state and
    /// stable across versions (it names the rows in the state file).
    mutating func visit(_ visitor: inout StateVisitor)
}

/// What a ``StateStore`` does to each table and value of a ``StoredState``: keep or undo one write, collect the
/// changes of the writes a commit holds, keep or undo them, list or load every row, apply rows another mock
/// changed.
package struct StateVisitor {
    enum Operation {
        /// The write succeeded: its changes join the next commit.
        case keepWrite
        /// The write threw: its changes are undone, the other writes of the commit kept.
        case undoWrite
        case collect
        case commit
        case rollback
        case records
        case load([String: [StateRecord]])
        /// Rows other mocks sharing the state changed, by part, in the order they were written.
        case merge([String: [StateRecord]])
    }

    let operation: Operation
    private(set) var changes: [StateRecord] = []
    private(set) var failure: (any Error)?
    private let encoder = JSONEncoder()
    private let decoder = JSONDecoder()

    init(_ operation: Operation) {
        self.operation = operation
        encoder.outputFormatting = .sortedKeys
    }

    /// Visits a table.
    package mutating func visit<Row>(_ name: String, _ table: inout StateTable<Row>) {
        visitPart(name, &table)
    }

    /// Visits a value.
    package mutating func visit<Value>(_ name: String, _ value: inout StateValue<Value>) {
        visitPart(name, &value)
    }

    mutating func visitPart<Part: StatePart>(_ name: String, _ part: inout Part) {
        guard failure == nil else { return }
        do {
            switch operation {
            case .collect:
                guard part.hasChanges else { return }
                for change in part.changes() {
                    changes.append(
                        StateRecord(
                            part: name, key: change.key, ordinal: change.ordinal,
                            data: try change.row.map { try encoder.encode($0) }))
                }
            case .keepWrite:
                part.keepWrite()
            case .undoWrite:
                part.undoWrite()
            case .commit:
                part.commit()
            case .rollback:
                part.rollback()
            case .records:
                for record in part.records() {
                    changes.append(
                        StateRecord(
                            part: name, key: record.key, ordinal: record.ordinal, data: try encoder.encode(record.row)))
                }
            case .load(let stored):
                let records: [(key: String, ordinal: Int64, row: Part.Row)] = try (stored[name] ?? []).map { record in
                    (record.key, record.ordinal, try decoder.decode(Part.Row.self, from: record.data ?? Data()))
                }
                part.load(records)
            case .merge(let changed):
                for record in changed[name] ?? [] {
                    let row = try record.data.map { try decoder.decode(Part.Row.self, from: $0) }
                    part.merge(key: record.key, ordinal: record.ordinal, row: row)
                }
            }
        } catch {
            failure = StateFileError(description: "\(name): \(error)")
        }
    }
}

/// A table or value of a ``StoredState``, as the store journals, persists and loads it.
protocol StatePart {
    associatedtype Row: Codable
    /// Whether the writes since the last commit changed anything.
    var hasChanges: Bool { get }
    /// The rows the writes since the last commit changed: their row now, `nil` when removed.
    func changes() -> [(key: String, ordinal: Int64, row: Row?)]
    /// Ends the current write, keeping its changes for the next commit.
    mutating func keepWrite()
    /// Undoes the current write's changes only.
    mutating func undoWrite()
    /// Keeps the changes of the writes since the last commit.
    mutating func commit()
    /// Undoes the changes of every write since the last commit.
    mutating func rollback()
    /// Every row, in order.
    func records() -> [(key: String, ordinal: Int64, row: Row)]
    /// Replaces every row with stored ones (sorted by ordinal).
    mutating func load(_ records: [(key: String, ordinal: Int64, row: Row)])
    /// Adds, replaces or (`row` `nil`) removes one row as another mock sharing the state did, outside any write
    /// (the store commits after merging).
    mutating func merge(key: String, ordinal: Int64, row: Row?)
}

/// One row of a state file or shared state: `data` is its JSON, `nil` for a removed row.
package struct StateRecord: Sendable {
    package var part: String
    package var key: String
    package var ordinal: Int64
    package var data: Data?

    package init(part: String, key: String, ordinal: Int64, data: Data?) {
        self.part = part
        self.key = key
        self.ordinal = ordinal
        self.data = data
    }
}
