import UnderstudyCore

/// The items of each resource a check has seen (in list, read and create answers, and `Location` headers), so
/// later requests can name them: an item path's id, a nested collection's parent.
struct ResourceLedger {
    /// One item: the values of its collection path's parameters (named as the collection names them) and its id.
    struct Item: Hashable, Sendable {
        var parent: [String: String]
        var id: String
        /// Whether this check created it (and so may change and delete it).
        var created = false
    }

    private var items: [String: [Item]] = [:]
    /// Items deleted during the run, by resource: never offered again.
    private var gone: [String: Set<Item>] = [:]

    /// How many items of a resource are remembered: enough to read a few, never a whole list.
    static let capacity = 16

    /// Remembers an item; one this check created goes first, so writes act on the check's own items.
    mutating func add(_ item: Item, of resource: String) {
        var found = items[resource, default: []]
        let key = Item(parent: item.parent, id: item.id)
        guard !(gone[resource]?.contains(key) ?? false) else { return }
        if let index = found.firstIndex(where: { $0.parent == item.parent && $0.id == item.id }) {
            if item.created { found[index].created = true }
        } else if item.created {
            found.insert(item, at: 0)
        } else if found.count < Self.capacity {
            found.append(item)
        }
        items[resource] = found
    }

    /// Forgets a deleted item.
    mutating func remove(_ item: Item, of resource: String) {
        items[resource]?.removeAll { $0.parent == item.parent && $0.id == item.id }
        gone[resource, default: []].insert(Item(parent: item.parent, id: item.id))
    }

    /// Whether the run created an item (and may change and delete it).
    func created(_ item: Item, of resource: String) -> Bool {
        items[resource]?.contains { $0.created && $0.parent == item.parent && $0.id == item.id } ?? false
    }

    /// The first item known of a resource (the check's own first), optionally one this check created.
    func first(of resource: String, created: Bool = false) -> Item? {
        items[resource]?.first { !created || $0.created }
    }
}
