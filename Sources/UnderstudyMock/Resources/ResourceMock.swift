import Foundation
import UnderstudyCore

/// Serves any ``APISpec`` statefully: the resources inferred from it (``ResourceGraph``) keep their items, so a
/// create is found by the read of its id, listed, replaced, updated and deleted, and a deleted item answers the
/// document's 404. Everything else is the ``FixtureMock``'s: routing, security, validation, documented statuses,
/// headers and paging, and the answers of the endpoints that belong to no resource.
///
/// A create stores the validated body with what the server adds: the identifier in the format its schema gives
/// (an integer sequence, a UUID, a string), the `readOnly` members and the other required ones, timestamps named
/// `created…`/`updated…` at the clock's time, and the parent's id in a member named after its path parameter.
/// Answers carry the stored item where the document's answer holds the item (the body itself, or a member of an
/// envelope such as `data`), the page of items where it holds a list (filtered by query parameters named after a
/// member, paged by `limit`/`offset` or `page` and a size, with counts such as `total`), and `Location` where the
/// document declares it. `Prefer: code=…`, `example=…` and `dynamic=true` still choose a documented answer, without
/// touching the state.
///
/// ```swift
/// let spec = try OpenAPIImport.spec(bytes, source: "petstore.yaml")
/// let server = try await MockServer.start(try await ResourceMock(spec: spec))
/// ```
package final class ResourceMock: ReadsFixtures {
    /// The stateless answers this mock refines.
    package let fixture: FixtureMock
    package var fixtures: FixtureSource? { fixture.fixtures }
    /// The resources whose items are kept.
    package let graph: ResourceGraph
    let store: StateStore<ResourceState>
    private let plans: [String: Plan]
    private let seed: UInt64
    private let now: @Sendable () -> Date

    /// What the mock does for one endpoint of a resource.
    struct Plan: Sendable {
        let resource: Resource
        let operation: ResourceOperation
        let endpoint: AnyEndpoint
        /// The resources nested under this one, which a delete removes with it.
        let children: [Resource]
    }

    /// Creates the mock of `spec`, its state seeded from the document's examples (or the fixtures folder) and
    /// generated items, or read from the state file.
    /// - Throws: ``StateFileError`` when the state file cannot be used, or a fixture file cannot be read.
    package init(spec: APISpec, configuration: MockConfiguration = MockConfiguration()) async throws {
        let source = try FixtureSource(seed: configuration.seed, folder: configuration.fixturesDirectory, specs: [spec])
        fixture = FixtureMock(spec: spec, configuration: configuration, recorded: source)
        graph = ResourceGraph(spec: spec)
        seed = configuration.seed
        now = configuration.now
        var plans: [String: Plan] = [:]
        for resource in graph.resources {
            let children = graph.resources.filter { $0.parent?.resource == resource.name }
            for operation in resource.operations {
                guard let endpoint = spec.endpoint(operation.endpoint) else { continue }
                plans[operation.endpoint] = Plan(
                    resource: resource, operation: operation, endpoint: endpoint, children: children)
            }
        }
        self.plans = plans
        let initial = ResourceSeed(spec: spec, graph: graph, source: source, now: configuration.now).state()
        store = try await configuration.stateStore(
            seed: initial, for: spec.id, kind: "understudy resources of \(spec.id)")
    }

    package var name: String { fixture.name }
    package var ignoresUndeclaredQuery: Bool { fixture.ignoresUndeclaredQuery }
    package var specs: [APISpec] { fixture.specs }
    package var validationStatus: HTTPStatus { fixture.validationStatus }
    package var stateVersion: UInt64 { store.version }
    package var sharesState: Bool { store.isShared }

    package func synchronize() async throws { try await store.synchronize() }

    package func authenticate(_ request: MockRequest, endpoint: AnyEndpoint) async throws -> Principal? {
        try await fixture.authenticate(request, endpoint: endpoint)
    }

    package func errorResponse(_ error: MockError, spec: APISpec, endpoint: AnyEndpoint) -> MockResponse {
        fixture.errorResponse(error, spec: spec, endpoint: endpoint)
    }

    package func unreadableBody(mediaType: String) -> UnreadableBody? { fixture.unreadableBody(mediaType: mediaType) }

    package func reset() async throws { try await store.reset() }

    package func issueToken(for user: String?) async throws -> JSONValue { try await fixture.issueToken(for: user) }

    package func startupNotes() async -> [String] {
        var notes = await fixture.startupNotes()
        let kept = graph.resources.filter { $0.item != nil || $0.operation(.create) != nil }
        if !kept.isEmpty {
            let counts = store.read { state in
                kept.map { "\($0.name) (\(state.tables[$0.name]?.count ?? 0))" }
            }
            notes.insert("stateful: \(counts.joined(separator: ", ")); POST /__understudy/reset restores them", at: 1)
        }
        return notes
    }

    // MARK: Answers

    package func handle(_ request: MockRequest, endpoint: AnyEndpoint, spec: APISpec) async throws -> MockResponse? {
        // An operation that documents no success (only `400: Invalid pet value`) answers what it documents, a
        // refusal, and so changes nothing.
        guard let plan = plans[endpoint.id], endpoint.documentsSuccess else { return nil }
        // An answer chosen in `Prefer` is the document's, and changes nothing.
        let preference = Preference(request.header("prefer"))
        guard preference.code == nil, preference.example == nil, !preference.dynamic else { return nil }
        let items = ResourceItems(spec: spec, resource: plan.resource, seed: seed, now: now())
        let place = Place(request: request, plan: plan)
        switch plan.operation.role {
        case .list, .search: return try list(request, plan: plan, place: place, items: items, spec: spec)
        case .create: return try await create(request, plan: plan, place: place, items: items, spec: spec)
        case .read: return try read(request, plan: plan, place: place, spec: spec)
        case .replace, .update: return try await change(request, plan: plan, place: place, items: items, spec: spec)
        case .delete: return try await delete(request, plan: plan, place: place, spec: spec)
        case .action:
            guard place.id != nil else { return nil }
            return try read(request, plan: plan, place: place, spec: spec)
        }
    }

    private func list(_ request: MockRequest, plan: Plan, place: Place, items: ResourceItems, spec: APISpec) throws
        -> MockResponse?
    {
        guard plan.operation.answer != nil else { return nil }
        // Under a parent that does not exist, the items made there anyway (see ``create``) where the document gives no
        // 404; none under a parent deleted.
        let lenient = !plan.endpoint.documents(.notFound) && deleted(place, plan: plan, parent: true) == nil
        let rows: [ResourceRow]? = store.read { state in
            guard lenient || parentExists(place, plan: plan, in: state) else { return nil }
            let table = state.tables[plan.resource.name]
            return plan.resource.parent == nil
                ? table.map(Array.init) ?? [] : table?.rows(in: ResourceRow.group(place.parent)) ?? []
        }
        guard let rows else { return try missing(plan, place: place, request: request, spec: spec, parent: true) }
        var criteria = ListCriteria(endpoint: plan.endpoint, resource: plan.resource, spec: spec)
        if plan.endpoint.method == .post, case .object(let members)? = request.json { criteria.body = members }
        let now = now()
        var matching = rows.filter { criteria.matches($0.item, query: request.query, now: now) }
        matching = criteria.sorted(matching, by: \.item, query: request.query)
        let page: ArraySlice<ResourceRow>
        switch plan.endpoint.pagination {
        case .none, .pageInBody: page = criteria.page(matching, query: request.query)
        case .linkHeader, .range: page = matching[...]  // paged with the answer's headers
        }
        var answer = items.listAnswer(
            page.map { ($0.key, $0.item) }, total: matching.count, endpoint: plan.endpoint,
            pointer: plan.operation.answer!, element: plan.operation.element)
        criteria.describePage(&answer, query: request.query, total: matching.count)
        return try fixture.answer(request, endpoint: plan.endpoint, spec: spec, state: answer)
    }

    private func read(_ request: MockRequest, plan: Plan, place: Place, spec: APISpec) throws -> MockResponse? {
        guard let id = place.id else { return nil }
        let row = store.read { $0.tables[plan.resource.name]?[key: ResourceRow.key(parent: place.parent, id: id)] }
        guard let row else { return try missing(plan, place: place, request: request, spec: spec, parent: false) }
        return try answer(request, plan: plan, row: row, spec: spec)
    }

    private func create(_ request: MockRequest, plan: Plan, place: Place, items: ResourceItems, spec: APISpec)
        async throws -> MockResponse?
    {
        // Under a parent that does not exist, where the document gives no 404 to refuse with, the item is made all
        // the same: its create answers success, so it must be there to read and delete.
        let lenient = !plan.endpoint.documents(.notFound)
        let outcome: Outcome = try await store.write { state in
            guard lenient || parentExists(place, plan: plan, in: state) else { return .missing(parent: true) }
            let body = request.json ?? .object([:])
            var id = items.givenID(in: body)
            if let given = id,
                state.tables[plan.resource.name]?[key: ResourceRow.key(parent: place.parent, id: given)] != nil,
                plan.endpoint.documents(.conflict)
            {
                throw MockError(.conflict, "\(plan.resource.name) \(given) already exists")
            }
            if id == nil { id = items.newID(under: place.parent, in: &state) }
            let row = ResourceRow(
                parent: place.parent, id: id!,
                item: items.stored(
                    body, endpoint: plan.endpoint, query: request.query, id: id!, parent: place.parent, old: nil))
            state.tables[plan.resource.name, default: ResourceState.table()].append(row)
            state.markLiving(row.key, of: plan.resource.name)
            return .row(row)
        }
        return try respond(outcome, request: request, plan: plan, place: place, spec: spec)
    }

    /// A replace or an update: on an item path, of the item it names; on the collection, of the item the body
    /// names. A missing item is created by a replace on the collection (an assignment: `PUT /principals/{p}/roles`)
    /// or one whose operation documents no 404 (PUT as an upsert).
    private func change(_ request: MockRequest, plan: Plan, place: Place, items: ResourceItems, spec: APISpec)
        async throws -> MockResponse?
    {
        let body = request.json ?? .object([:])
        guard let id = place.id ?? items.givenID(in: body) else { return nil }
        let replaces = plan.operation.role == .replace
        let upserts = replaces && (place.id == nil || !plan.endpoint.documents(.notFound))
        let outcome: Outcome = try await store.write { state in
            guard parentExists(place, plan: plan, in: state) else { return .missing(parent: true) }
            let key = ResourceRow.key(parent: place.parent, id: id)
            let old = state.tables[plan.resource.name]?[key: key]
            guard old != nil || upserts else { return .missing(parent: false) }
            var merged = body
            if !replaces, case .object(let members) = body, case .object(var base)? = old?.item {
                for (name, value) in members { base[name] = value }
                merged = .object(base)
            }
            let row = ResourceRow(
                parent: place.parent, id: id,
                item: items.stored(
                    merged, endpoint: plan.endpoint, query: request.query, id: id, parent: place.parent,
                    old: old?.item))
            state.tables[plan.resource.name, default: ResourceState.table()].append(row)
            state.markLiving(key, of: plan.resource.name)
            return .row(row)
        }
        return try respond(outcome, request: request, plan: plan, place: place, spec: spec)
    }

    private func delete(_ request: MockRequest, plan: Plan, place: Place, spec: APISpec) async throws
        -> MockResponse?
    {
        guard let id = place.id else { return nil }
        let documentsNotFound = plan.endpoint.documents(.notFound)
        let outcome: Outcome = try await store.write { state in
            let key = ResourceRow.key(parent: place.parent, id: id)
            guard let row = state.tables[plan.resource.name]?[key: key] else {
                // Answered as documented all the same (it documents no 404): what a delete answered success for is
                // gone for the reads after it.
                if !documentsNotFound { state.markDeleted(key, of: plan.resource.name) }
                return .missing(parent: false)
            }
            state.tables[plan.resource.name]?[key: key] = nil
            state.markDeleted(key, of: plan.resource.name)
            removeChildren(of: plan.resource, parent: place.parent, id: id, in: &state)
            return .row(row)
        }
        if case .missing = outcome, !documentsNotFound {
            return try overlooked(
                "\(plan.resource.name) \(id) does not exist", plan: plan, request: request, spec: spec)
        }
        return try respond(outcome, request: request, plan: plan, place: place, spec: spec)
    }

    /// Removes the items nested under a removed one, and theirs.
    private func removeChildren(
        of resource: Resource, parent: [String: String], id: String, in state: inout ResourceState
    ) {
        for child in graph.resources where child.parent?.resource == resource.name {
            let names = child.collection.parameterNames
            let values = resource.collection.parameterNames.map { parent[$0] ?? "" } + [id]
            guard names.count == values.count else { continue }
            let group = Dictionary(zip(names, values), uniquingKeysWith: { first, _ in first })
            let rows = state.tables[child.name]?.rows(in: ResourceRow.group(group)) ?? []
            for row in rows {
                state.tables[child.name]?[key: row.key] = nil
                state.markDeleted(row.key, of: child.name)
                removeChildren(of: child, parent: group, id: row.id, in: &state)
            }
        }
    }

    private enum Outcome {
        case row(ResourceRow)
        case missing(parent: Bool)
    }

    private func respond(_ outcome: Outcome, request: MockRequest, plan: Plan, place: Place, spec: APISpec) throws
        -> MockResponse?
    {
        switch outcome {
        case .missing(let parent): return try missing(plan, place: place, request: request, spec: spec, parent: parent)
        case .row(let row): return try answer(request, plan: plan, row: row, spec: spec)
        }
    }

    /// The answer carrying a stored item where the document's answer holds it, with its `Location`.
    private func answer(_ request: MockRequest, plan: Plan, row: ResourceRow, spec: APISpec) throws -> MockResponse? {
        let items = ResourceItems(spec: spec, resource: plan.resource, seed: seed, now: now())
        let id = row.id
        let state =
            plan.operation.answer.map { items.itemAnswer(row.item, key: row.key, endpoint: plan.endpoint, pointer: $0) }
            ?? items.identifierAnswer(id, endpoint: plan.endpoint)
        var response = try fixture.answer(request, endpoint: plan.endpoint, spec: spec, state: state)
        if let item = plan.resource.item,
            let index = response.headers.firstIndex(where: { $0.name.lowercased() == "location" })
        {
            // The parent's values are named as the collection names them.
            var values = ResourceGraph.renamed(row.parent, from: plan.resource.collection, to: item)
            if let parameter = plan.resource.identifier?.parameter { values[parameter] = id }
            response.headers[index].value = request.origin + spec.basePath + item.expand(values)
        }
        return response
    }

    /// The item (or its parent) does not exist: the document's 404 where the operation documents it (or a
    /// `default`); a 404 all the same for an item deleted (a server that deleted it has nothing to answer with,
    /// whatever its document says); otherwise the documented answer, naming what was wrong in
    /// `Understudy-Overlooked`, as for any request the document gives no way to refuse.
    private func missing(_ plan: Plan, place: Place, request: MockRequest, spec: APISpec, parent: Bool) throws
        -> MockResponse?
    {
        let what =
            parent
            ? "the \(plan.resource.parent?.resource ?? "parent") this \(plan.resource.name) item belongs to"
            : "\(plan.resource.name) \(place.id ?? "")"
        let message = "\(what) does not exist"
        if plan.endpoint.documents(.notFound) { throw MockError(.notFound, message) }
        if let gone = deleted(place, plan: plan, parent: parent) { throw MockError(.notFound, "\(gone) was deleted") }
        return try overlooked(message, plan: plan, request: request, spec: spec)
    }

    /// The documented answer to a request the document gives no way to refuse, naming what was wrong.
    private func overlooked(_ message: String, plan: Plan, request: MockRequest, spec: APISpec) throws -> MockResponse {
        var response = try fixture.answer(request, endpoint: plan.endpoint, spec: spec)
        response.headers.append((MockEngine.overlookedHeader, MockEngine.headerText([message])))
        return response
    }

    private func parentExists(_ place: Place, plan: Plan, in state: ResourceState) -> Bool {
        guard let (resource, key) = parentKey(place, plan: plan) else { return true }
        return state.tables[resource]?[key: key] != nil
    }

    /// The parent resource's name and the key of its item a request names, when the resource is nested.
    private func parentKey(_ place: Place, plan: Plan) -> (resource: String, key: String)? {
        guard let parent = plan.resource.parent,
            let resource = graph.resources.first(where: { $0.name == parent.resource }),
            let id = place.parent[parent.parameter]
        else { return nil }
        let grandparent = Dictionary(
            resource.collection.parameterNames.compactMap { name in place.parent[name].map { (name, $0) } },
            uniquingKeysWith: { first, _ in first })
        return (resource.name, ResourceRow.key(parent: grandparent, id: id))
    }

    /// What of a request's item was deleted (the item, or the parent it belonged to), if anything.
    private func deleted(_ place: Place, plan: Plan, parent: Bool) -> String? {
        store.read { state in
            if !parent, let id = place.id,
                state.wasDeleted(ResourceRow.key(parent: place.parent, id: id), of: plan.resource.name)
            {
                return "\(plan.resource.name) \(id)"
            }
            if let (resource, key) = parentKey(place, plan: plan), state.wasDeleted(key, of: resource) {
                return "the \(resource) item this \(plan.resource.name) item belonged to"
            }
            return nil
        }
    }
}

/// Where a request is in a resource: the values of the collection path's parameters (named as the collection
/// names them), and the item's id when the path names one.
struct Place {
    var parent: [String: String] = [:]
    var id: String?

    init(request: MockRequest, plan: ResourceMock.Plan) {
        let own = plan.endpoint.path.segments
        let collection = plan.resource.collection.segments
        // The collection's parameters bind items to their parent's; under no parent resource they name nothing
        // the mock keeps (`/repositories/{owner}/pulls` with no `repositories` items): any value reaches every item.
        for (index, segment) in collection.enumerated() where plan.resource.parent != nil {
            guard case .parameter(let name) = segment, index < own.count, case .parameter(let ownName) = own[index]
            else { continue }
            parent[name] = request.pathParameters[ownName] ?? ""
        }
        // The item's segment: `{petId}`, or `{petId}:adopt` for a custom method.
        if plan.resource.item != nil, collection.count < own.count,
            let name = own[collection.count].parameterNames.first
        {
            id = request.pathParameters[name]
        }
    }
}
