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
        var state = ResourceState(resources: graph.resources.map(\.name))
        // Parents come before their children in the graph.
        for resource in graph.resources {
            let items = ResourceItems(spec: spec, resource: resource, seed: source.seed, now: now())
            var pool = fixtureItems(of: resource)
            let groups = parentGroups(of: resource, in: state)
            let wanted = resource.parent == nil ? Self.itemCount : 2 * groups.count
            if pool.count < wanted {
                var random = SeededRandom(seed: source.seed).derived("\(spec.id) \(resource.name) seed")
                var generator = FixtureGenerator(
                    seed: random.next(), definitions: spec.definitions, settings: spec.wire,
                    optionalKeys: spec.optionalKeys)
                for _ in pool.count..<wanted { pool.append(generator.value(for: resource.schema)) }
            }
            let perGroup = resource.parent == nil ? pool.count : 2
            for (index, group) in groups.enumerated() {
                for body in pool.dropFirst(index * perGroup).prefix(perGroup) {
                    var id = items.givenID(in: body)
                    if let given = id, state.tables[resource.name]?[key: ResourceRow.key(parent: group, id: given)] != nil {
                        id = nil
                    }
                    let key = id ?? items.newID(under: group, in: &state)
                    let item = items.stored(
                        body, endpoint: nil, query: QueryItems(""), id: key, parent: group, old: nil, trusted: true)
                    state.tables[resource.name, default: ResourceState.table()].append(
                        ResourceRow(parent: group, id: key, item: item))
                }
            }
        }
        return state
    }

    /// The items in the list's and the read's fixtures.
    private func fixtureItems(of resource: Resource) -> [JSONValue] {
        var items: [JSONValue] = []
        for operation in resource.operations where operation.role == .list || operation.role == .read {
            guard let pointer = operation.answer else { continue }
            let found = source.body(operation.endpoint, in: spec)[pointer: pointer]
            if operation.role == .list {
                items += (found?.arrayValue ?? []).compactMap { $0[pointer: operation.element ?? .root] }
            } else if let found {
                items.append(found)
            }
        }
        return items
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
