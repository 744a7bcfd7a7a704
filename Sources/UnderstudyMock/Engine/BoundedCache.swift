/// A least-recently-used cache bounded both in entries and in bytes.
///
/// The engine keeps finished GET answers here, and the token service verified tokens: without a byte bound, a
/// thousand distinct query strings over a large list kept a thousand copies of it (gigabytes). Eviction drops
/// the least recently used quarter at once, so its sort is paid once per many insertions rather than on each.
struct BoundedCache<Key: Hashable, Value> {
    let maximumEntries: Int
    let maximumBytes: Int
    private var entries: [Key: (value: Value, bytes: Int, used: UInt64)] = [:]
    private var tick: UInt64 = 0
    /// The bytes the entries account for.
    private(set) var bytes = 0

    init(maximumEntries: Int, maximumBytes: Int) {
        self.maximumEntries = maximumEntries
        self.maximumBytes = maximumBytes
    }

    var count: Int { entries.count }

    /// The value of `key`, marking it as recently used (one hash lookup: this runs on every cached answer).
    mutating func value(for key: Key) -> Value? {
        guard let index = entries.index(forKey: key) else { return nil }
        tick += 1
        entries.values[index].used = tick
        return entries.values[index].value
    }

    /// Stores `value`, which costs `bytes`; a value bigger than an eighth of the budget is not kept, so one
    /// answer cannot flush every other.
    mutating func insert(_ value: Value, bytes cost: Int, for key: Key) {
        guard cost <= maximumBytes / 8 else { return }
        if let old = entries.removeValue(forKey: key) { bytes -= old.bytes }
        tick += 1
        entries[key] = (value, cost, tick)
        bytes += cost
        guard entries.count > maximumEntries || bytes > maximumBytes else { return }
        var byAge = entries.map { (key: $0.key, used: $0.value.used, bytes: $0.value.bytes) }
        byAge.sort { $0.used < $1.used }
        var index = 0
        let keep = maximumEntries * 3 / 4
        while index < byAge.count && (entries.count > keep || bytes > maximumBytes * 3 / 4) {
            entries[byAge[index].key] = nil
            bytes -= byAge[index].bytes
            index += 1
        }
    }

    mutating func removeAll() {
        entries.removeAll()
        bytes = 0
    }
}
