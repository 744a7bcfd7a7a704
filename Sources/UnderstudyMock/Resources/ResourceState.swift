import UnderstudyCore

/// One stored item of a resource: its body as the server keeps it, and the parent it sits under.
struct ResourceRow: StateRow {
    /// The parent's path values and the item's identifier (``key(parent:id:)``).
    let key: String
    /// The item's identifier, as its path names it.
    let id: String
    /// The values of the collection path's parameters (`["ownerId": "7"]`); empty at the top level.
    var parent: [String: String]
    /// The item, with its identifier, the server's members and every member the client wrote.
    var item: JSONValue
    /// The user the item belongs to (a principal's subject), when its resource's operations act on the caller's own
    /// items (``Ownership``).
    var owner: String?

    init(parent: [String: String], id: String, item: JSONValue, owner: String? = nil) {
        key = Self.key(parent: parent, id: id)
        self.id = id
        self.parent = parent
        self.item = item
        self.owner = owner
    }

    /// The group of one owner's rows.
    static func ownerGroup(_ owner: String) -> String { "owner \(owner)" }

    /// What a table's kept order sorts first: the rows of one parent and one owner are together.
    var orderKey: String { Self.orderKey(parent: parent, owner: owner) }

    static func orderKey(parent: [String: String], owner: String?) -> String {
        group(parent) + " " + (owner ?? "")
    }

    /// The group of the rows under one parent, so a nested list reads only its own rows.
    static func group(_ parent: [String: String]) -> String {
        JSONValue.object(parent.mapValues(JSONValue.string)).serialized()
    }

    /// The key of an item under a parent: the parent's values and the id as a JSON array, which no value (a path
    /// segment may hold `/` as `%2F`) can make ambiguous.
    static func key(parent: [String: String], id: String) -> String {
        JSONValue.array((parent.keys.sorted().map { parent[$0]! } + [id]).map(JSONValue.string)).serialized()
    }
}

/// The state of a ``ResourceMock``: one table of items per resource, the last integer identifier each issued, and
/// the keys of the items deleted last.
struct ResourceState: StoredState {
    var tables: [String: StateTable<ResourceRow>] = [:]
    var sequences = StateValue<[String: Int]>([:])
    /// The keys of each resource's items deleted last (at most ``deletedCapacity``), oldest first: an item
    /// deleted is gone, even where the document gives its read no 404.
    var deleted = StateValue<[String: [String]]>([:])

    static let deletedCapacity = 256

    mutating func markDeleted(_ key: String, of resource: String) {
        var keys = deleted.value[resource, default: []]
        keys.removeAll { $0 == key }
        keys.append(key)
        if keys.count > Self.deletedCapacity { keys.removeFirst(keys.count - Self.deletedCapacity) }
        deleted.value[resource] = keys
    }

    mutating func markLiving(_ key: String, of resource: String) {
        guard deleted.value[resource]?.contains(key) == true else { return }
        deleted.value[resource]?.removeAll { $0 == key }
    }

    func wasDeleted(_ key: String, of resource: String) -> Bool {
        deleted.value[resource]?.contains(key) == true
    }

    /// The tables of a spec's resources (of those named in `resources`, else of all), each kept in the order its list
    /// declares.
    /// - Parameter groups: for a resource, the groups its rows also belong to: the lookups an overlay makes on every
    ///   write (42's slots by quarter hour, for the overlap check of a new range).
    init(
        spec: APISpec, graph: ResourceGraph, resources: Set<String>? = nil,
        groups: [String: @Sendable (ResourceRow) -> [String]] = [:]
    ) {
        for resource in graph.resources where resources?.contains(resource.name) ?? true {
            tables[resource.name] = Self.table(order: spec.keptOrder(of: resource), groups: groups[resource.name])
        }
    }

    /// The name of the order a table keeps its rows in: the declared order of its list (``AnyEndpoint/order``), each
    /// parent's and owner's rows together (``ResourceRow/orderKey``).
    static let keptOrder = "declared"

    static func table(order: [SortKey] = [], groups: (@Sendable (ResourceRow) -> [String])? = nil)
        -> StateTable<ResourceRow>
    {
        StateTable(
            groups: { row in
                [ResourceRow.group(row.parent)] + (row.owner.map { [ResourceRow.ownerGroup($0)] } ?? [])
                    + (groups?(row) ?? [])
            },
            orders: order.isEmpty
                ? []
                : [
                    StateOrder(keptOrder, key: { .text($0.orderKey) }) { lhs, rhs in
                        QueryMeaning.precedes(lhs.item, rhs.item, by: order) == true
                    }
                ])
    }

    mutating func visit(_ visitor: inout StateVisitor) {
        for name in tables.keys.sorted() { visitor.visit("resource:\(name)", &tables[name]!) }
        visitor.visit("sequences", &sequences)
        visitor.visit("deleted", &deleted)
    }
}
