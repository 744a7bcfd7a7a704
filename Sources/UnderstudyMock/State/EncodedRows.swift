import UnderstudyCore

/// The JSON of listed rows, each encoded once per content: a list concatenates the bytes kept for its rows and
/// encodes only those that changed since (their ``StateTable/revision(of:)``, or a revision of a row they show,
/// differs), so an unpaged list costs what its bytes cost rather than an encoding of every row per request.
///
/// Look rows up while reading the state (a row not kept gives its model), and encode outside the store's lock:
///
/// ```swift
/// let listed = store.read { state in
///     state.activities.map { activity in
///         encoded.row(activity.id, stamp: .init(row: state.activities.revision(of: activity.id) ?? 0)) {
///             state.model(activity)
///         }
///     }
/// }
/// return try encoded.array(listed, as: Fitness.spec)
/// ```
package final class EncodedRows<Key: Hashable & Sendable>: Sendable {
    /// What a row's JSON is made of: the revision of the row and of the row it shows (its creator, say).
    package struct Stamp: Equatable, Sendable {
        var row: UInt64
        var shown: UInt64

        package init(row: UInt64, shown: UInt64 = 0) {
            self.row = row
            self.shown = shown
        }
    }

    /// A row of a list: its kept bytes, or the model to encode and keep.
    package enum Listed<Model> {
        case encoded(Key, [UInt8])
        case missing(Key, stamp: Stamp, Model)

        var key: Key {
            switch self {
            case .encoded(let key, _), .missing(let key, _, _): key
            }
        }
    }

    private let entries = Locked<[Key: (stamp: Stamp, bytes: [UInt8])]>([:])

    package init() {}

    /// The row's kept bytes when they were encoded from the same `stamp`, otherwise the row's model, which `model`
    /// builds.
    package func row<Model>(_ key: Key, stamp: Stamp, model: () -> Model) -> Listed<Model> {
        if let entry = entries.withLock({ $0[key] }), entry.stamp == stamp { return .encoded(key, entry.bytes) }
        return .missing(key, stamp: stamp, model())
    }

    /// A JSON array of the rows, in order, as `spec`'s server writes it (``APISpec/wireBytes(_:)``); the rows
    /// encoded now are kept. Once the rows kept outnumber twice the list's (and 1,024), those it does not show
    /// (removed rows) are forgotten.
    package func array<Model: Encodable>(_ rows: [Listed<Model>], as spec: APISpec) throws -> MockResponse {
        var encoded: [(key: Key, stamp: Stamp, bytes: [UInt8])] = []
        let parts = try rows.map { row in
            switch row {
            case .encoded(_, let bytes):
                return bytes
            case .missing(let key, let stamp, let model):
                let bytes = try spec.wireBytes(model)
                encoded.append((key, stamp, bytes))
                return bytes
            }
        }
        var body: [UInt8] = []
        body.reserveCapacity(parts.reduce(2 + parts.count) { $0 + $1.count })
        body.append(UInt8(ascii: "["))
        for (index, part) in parts.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body += part
        }
        body.append(UInt8(ascii: "]"))
        if !encoded.isEmpty {
            entries.withLock { entries in
                for row in encoded { entries[row.key] = (row.stamp, row.bytes) }
                guard entries.count > 2 * rows.count + 1_024 else { return }
                let listed = Set(rows.map(\.key))
                entries = entries.filter { listed.contains($0.key) }
            }
        }
        return .json(bytes: body)
    }
}
