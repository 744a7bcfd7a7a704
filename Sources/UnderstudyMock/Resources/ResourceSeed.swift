import Foundation
import UnderstudyCore

/// The first state of a ``ResourceMock``: for each resource, the items of its list's and read's fixtures (the
/// document's examples that validate, a fixtures folder's files, else generated bodies), topped up with generated
/// items to three; a nested resource gets two items under each of its parent's first three items.
struct ResourceSeed {
    let spec: APISpec
    let graph: ResourceGraph
    let source: FixtureSource
    let now: @Sendable () -> Date

    /// How many items a top-level resource starts with, at least.
    static let itemCount = 3

    func state() -> ResourceState {
        var state = ResourceState(spec: spec, graph: graph)
        // Parents come before their children in the graph.
        for resource in graph.resources {
            var (pool, recorded) = fixtureItems(of: resource)
            var groups = parentGroups(of: resource, in: state)
            // A recorded list of a nested resource goes under the parent its request named (made if need be); the
            // other parents get the other items.
            if let recorded, resource.parent != nil {
                ensureParent(of: resource, group: recorded.group, in: &state)
                insert(recorded.items, of: resource, under: recorded.group, in: &state)
                groups.removeAll { $0 == recorded.group }
            } else if let recorded {
                pool = recorded.items + pool
            }
            let wanted = resource.parent == nil ? Self.itemCount : 2 * groups.count
            if pool.count < wanted {
                var generator = source.generator(for: spec, purpose: "\(resource.name) seed")
                for _ in pool.count..<wanted { pool.append(generator.value(for: resource.schema)) }
            }
            let perGroup = resource.parent == nil ? pool.count : 2
            for (index, group) in groups.enumerated() {
                insert(Array(pool.dropFirst(index * perGroup).prefix(perGroup)), of: resource, under: group, in: &state)
            }
        }
        return state
    }

    /// Stores items of a resource under a parent's path values, with their own ids where they give one.
    private func insert(
        _ bodies: [JSONValue], of resource: Resource, under group: [String: String], in state: inout ResourceState
    ) {
        let items = ResourceItems(spec: spec, resource: resource, seed: source.seed, now: now())
        // The items of a resource whose operations act on the caller's own are the ready credential's user's.
        let ownership = spec.ownership(of: resource)
        let owner = ownership.map { _ in FixtureMock.readySubject }
        for body in bodies {
            var id = items.givenID(in: body)
            if let given = id, state.tables[resource.name]?[key: ResourceRow.key(parent: group, id: given)] != nil {
                id = nil
            }
            let key = id ?? items.newID(under: group, in: &state)
            var item = items.stored(
                body, endpoint: nil, query: QueryItems(""), id: key, parent: group, old: nil, trusted: true)
            if let owner, let member = ownership?.member { items.name(owner, in: &item, member: member) }
            state.tables[resource.name, default: ResourceState.table()].append(
                ResourceRow(parent: group, id: key, item: item, owner: owner))
        }
    }

    /// Makes the parent item a group names (and its own parent), with a generated body, where the state lacks it.
    private func ensureParent(of resource: Resource, group: [String: String], in state: inout ResourceState) {
        guard let parent = resource.parent, let parentResource = graph.resource(named: parent.resource),
            let id = group[parent.parameter]
        else { return }
        // Named as ``ResourceMock`` looks a parent up: by the parent's collection names.
        let grandparent = Dictionary(
            parentResource.collection.parameterNames.compactMap { name in group[name].map { (name, $0) } },
            uniquingKeysWith: { first, _ in first })
        guard state.tables[parent.resource]?[key: ResourceRow.key(parent: grandparent, id: id)] == nil else { return }
        ensureParent(of: parentResource, group: grandparent, in: &state)
        var generator = source.generator(for: spec, purpose: "\(parentResource.name) recorded parent \(id)")
        // Its identifier member is the recorded id (``ResourceItems/stored``).
        let body = generator.value(for: parentResource.schema)
        let items = ResourceItems(spec: spec, resource: parentResource, seed: source.seed, now: now())
        let item = items.stored(
            body, endpoint: nil, query: QueryItems(""), id: id, parent: grandparent, old: nil, trusted: true)
        state.tables[parent.resource, default: ResourceState.table()].append(
            ResourceRow(parent: grandparent, id: id, item: item))
    }

    /// The items in the list's and the read's fixtures; apart, a recorded list's items with the collection path's
    /// values its request named.
    private func fixtureItems(of resource: Resource) -> (
        [JSONValue], recorded: (group: [String: String], items: [JSONValue])?
    ) {
        var items: [JSONValue] = []
        var recorded: (group: [String: String], items: [JSONValue])?
        for operation in resource.operations where operation.role == .list || operation.role == .read {
            guard let pointer = operation.answer else { continue }
            let found = source.body(operation.endpoint, in: spec)[pointer: pointer]
            if operation.role == .list {
                let listed = (found?.arrayValue ?? []).compactMap { $0[pointer: operation.element ?? .root] }
                let path = source.recordedPath(operation.endpoint, in: spec)
                if recorded == nil, !path.isEmpty, let endpoint = spec.endpoint(operation.endpoint) {
                    recorded = (ResourceGraph.renamed(path, from: endpoint.path, to: resource.collection), listed)
                } else {
                    items += listed
                }
            } else if let found {
                items.append(found)
            }
        }
        return (items, recorded)
    }

    /// The collection path's values of each group of items: one top-level group, or one per item of the parent
    /// (its first three).
    private func parentGroups(of resource: Resource, in state: ResourceState) -> [[String: String]] {
        guard let parent = resource.parent,
            let parentResource = graph.resource(named: parent.resource),
            let rows = state.tables[parent.resource]
        else { return resource.parent == nil ? [[:]] : [] }
        let names = resource.collection.parameterNames
        return rows.prefix(3).compactMap { row in
            let values =
                parentResource.collection.parameterNames.map { row.parent[$0] ?? "" }
                + [row.id]
            guard values.count == names.count else { return nil }
            return Dictionary(zip(names, values), uniquingKeysWith: { first, _ in first })
        }
    }
}
