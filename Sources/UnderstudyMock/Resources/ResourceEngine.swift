import Foundation
import UnderstudyCore

/// The stateful resources of one spec: the resources inferred from it (``ResourceGraph``) keep their items, so a
/// create is found by the read of its id, listed, replaced, updated, acted on and deleted, and a deleted item answers
/// the document's 404.
///
/// A create stores the validated body with what the server adds: the identifier in the format its schema gives (an
/// integer sequence, a UUID, a string), the `readOnly` members and the other required ones, timestamps named
/// `created…`/`updated…` at the clock's time, and the parent's id in a member named after its path parameter.
/// Answers carry the stored item where the document's answer holds the item (the body itself, or a member of an
/// envelope such as `data`), the page of items where it holds a list (filtered by query parameters named after a
/// member, in the order the request or the list declares, paged by `limit`/`offset` or `page` and a size, with counts
/// such as `total`), and `Location` where the document declares it. What the document declares of an operation is
/// kept too: an operation on the caller's own items (``Ownership``) sees no one else's, an action with an
/// ``ActionEffect`` changes the items it acts on. `Prefer: code=…`, `example=…` and `dynamic=true` still choose a
/// documented answer, without touching the state.
///
/// The engine keeps its tables in a ``ResourceState`` inside any ``StoredState``: ``ResourceMock`` serves a
/// document from a state of its own; a built-in API's overlay keeps its plain resources there, next to the state
/// only it understands, so that one write of the overlay changes both.
struct ResourceEngine<State: StoredState>: Sendable {
    package let spec: APISpec
    package let graph: ResourceGraph
    /// The stateless answers this engine refines.
    let fixture: FixtureMock
    let store: StateStore<State>
    /// Where the resources' tables are in the state.
    let tables: any WritableKeyPath<State, ResourceState> & Sendable
    private let plans: [String: Plan]
    /// The answers' generated envelopes, by endpoint (``ResourceItems/envelopes``).
    private let envelopes = Locked<[String: JSONValue]>([:])
    private let seed: UInt64
    private let now: @Sendable () -> Date

    /// What the engine does for one endpoint of a resource.
    struct Plan: Sendable {
        let resource: Resource
        let operation: ResourceOperation
        let endpoint: AnyEndpoint
        /// The member that names an item's owner, when an operation of the resource declares one.
        let ownerMember: String?
        /// Whether the endpoint lists in the order the resource's table keeps (``ResourceState/keptOrder``), and
        /// the resource's items are owned (a list of anyone's walks only when no item is).
        let keptOrder: Bool
        let owned: Bool
        /// Whether the endpoint lists every parent's items (``Resource/listsAcrossParents(_:)``).
        let acrossParents: Bool
    }

    /// Creates the engine of `spec`'s resources, over the tables at `tables` in `store`'s state.
    /// - Parameter serving: the names of the resources the engine answers for; every resource of the graph when
    ///   `nil`.
    package init(
        spec: APISpec, graph: ResourceGraph, fixture: FixtureMock, store: StateStore<State>,
        tables: any WritableKeyPath<State, ResourceState> & Sendable, serving: Set<String>? = nil,
        configuration: MockConfiguration
    ) {
        self.spec = spec
        self.graph = graph
        self.fixture = fixture
        self.store = store
        self.tables = tables
        seed = configuration.seed
        now = configuration.now
        var plans: [String: Plan] = [:]
        for resource in graph.resources where serving?.contains(resource.name) ?? true {
            let ownership = spec.ownership(of: resource)
            let order = spec.keptOrder(of: resource)
            for operation in resource.operations {
                guard let endpoint = spec.endpoint(operation.endpoint) else { continue }
                plans[operation.endpoint] = Plan(
                    resource: resource, operation: operation, endpoint: endpoint, ownerMember: ownership?.member,
                    keptOrder: !order.isEmpty && endpoint.order == order, owned: ownership != nil,
                    acrossParents: resource.listsAcrossParents(endpoint))
            }
        }
        self.plans = plans
    }

    private func read<T>(_ body: (ResourceState) throws -> T) rethrows -> T {
        try store.read { try body($0[keyPath: tables]) }
    }

    private func write<T>(_ body: (inout ResourceState) throws -> T) async throws -> T {
        try await store.write { try body(&$0[keyPath: tables]) }
    }

    // MARK: Answers

    /// Answers a request to an endpoint of a resource the engine serves; `nil` for any other endpoint, and where
    /// the answer does not depend on the items (the descriptor's answer is the answer).
    package func handle(_ request: MockRequest, endpoint: AnyEndpoint) async throws -> MockResponse? {
        // An operation that documents no success (only `400: Invalid pet value`) answers what it documents, a
        // refusal, and so changes nothing.
        guard let plan = plans[endpoint.id], endpoint.documentsSuccess else { return nil }
        // An answer chosen in `Prefer` is the document's, and changes nothing.
        let preference = Preference(request.header("prefer"))
        guard preference.code == nil, preference.example == nil, !preference.dynamic else { return nil }
        let items = ResourceItems(spec: spec, resource: plan.resource, seed: seed, now: now(), envelopes: envelopes)
        let place = Place(request: request, plan: plan)
        let viewer = Viewer(request: request, endpoint: endpoint)
        switch plan.operation.role {
        case .list, .search: return try list(request, plan: plan, place: place, viewer: viewer, items: items)
        case .create: return try await create(request, plan: plan, place: place, viewer: viewer, items: items)
        case .read: return try read(request, plan: plan, place: place, viewer: viewer)
        case .replace, .update:
            return try await change(request, plan: plan, place: place, viewer: viewer, items: items)
        case .delete: return try await delete(request, plan: plan, place: place, viewer: viewer)
        case .action:
            if let effect = endpoint.effect {
                return try await act(effect, request, plan: plan, place: place, viewer: viewer, items: items)
            }
            guard place.id != nil else { return nil }
            return try read(request, plan: plan, place: place, viewer: viewer)
        }
    }

    private func list(_ request: MockRequest, plan: Plan, place: Place, viewer: Viewer, items: ResourceItems) throws
        -> MockResponse?
    {
        guard plan.operation.answer != nil else { return nil }
        // Under a parent that does not exist, the items made there anyway (see ``create``) where the document gives no
        // 404; none under a parent deleted.
        let lenient = !plan.endpoint.documents(.notFound) && deleted(place, plan: plan, parent: true) == nil
        var criteria = ListCriteria(endpoint: plan.endpoint, resource: plan.resource, spec: spec)
        criteria.path = request.pathParameters
        if plan.endpoint.method == .post, case .object(let members)? = request.json { criteria.body = members }
        // Paged here, but for a `Range` (its header names the rows the answer holds, which the fixture writes).
        let linkHeader = plan.endpoint.pagination == .linkHeader ? LinkHeaderPage(request.query) : nil
        let paged = plan.endpoint.pagination != .range
        func cut<Rows: Collection>(_ rows: Rows) -> Rows.SubSequence {
            guard let linkHeader else { return criteria.page(rows, query: request.query) }
            let window = linkHeader.window(total: rows.count)
            let first = rows.index(rows.startIndex, offsetBy: window.lowerBound)
            return rows[first..<rows.index(first, offsetBy: window.count)]
        }
        // A list that asks nothing of the items walks the order its table keeps and reads only its page's rows.
        let walks =
            plan.keptOrder && !place.acrossParents && (viewer.isScoped || !plan.owned)
            && !criteria.asksAnything(request.query)
        let found: (page: [ResourceRow], total: Int)?? = read { state in
            guard lenient || parentExists(place, plan: plan, in: state) else { return .some(nil) }
            guard walks, let table = state.tables[plan.resource.name],
                let order = table.positions(orderedBy: ResourceState.keptOrder)
            else { return nil }
            if viewer.isScoped && viewer.caller == nil { return ([], 0) }
            // A list of anyone's items walks the rows no one owns (none is, or it would not walk), whoever asks.
            let owner = viewer.isScoped ? viewer.caller : nil
            let positions = order[order.range(of: .text(ResourceRow.orderKey(parent: place.parent, owner: owner)))]
            let shown = paged ? cut(positions) : positions[...]
            return (shown.map { table[$0] }, positions.count)
        }
        let page: [ResourceRow]
        let total: Int
        switch found {
        case .some(nil): return try missing(plan, place: place, request: request, parent: true)
        case .some(let walked?): (page, total) = walked
        case nil:
            let nested = plan.resource.parent != nil && !place.acrossParents
            let rows = read { $0.rows(of: plan.resource.name, under: place.parent, nested: nested, seenBy: viewer) }
            let now = now()
            var matching = rows.filter { criteria.matches($0.item, query: request.query, now: now) }
            matching = criteria.sorted(matching, by: \.item, query: request.query)
            (page, total) = (paged ? Array(cut(matching)) : matching, matching.count)
        }
        var answer = items.listAnswer(
            page.map { ($0.key, $0.item) }, total: total, endpoint: plan.endpoint, pointer: plan.operation.answer!,
            element: plan.operation.element)
        criteria.describePage(&answer, query: request.query, total: total)
        if case .pageInBody = plan.endpoint.pagination {} else if let schema = plan.endpoint.response?.schema,
            plan.operation.answer != .root
        {
            criteria.describeLinks(
                &answer, answer: schema, path: request.path, query: request.query, total: total, shown: page.count,
                spec: spec)
        }
        return try fixture.answer(
            request, endpoint: plan.endpoint, spec: spec, state: answer, listed: linkHeader == nil ? nil : total)
    }

    private func read(_ request: MockRequest, plan: Plan, place: Place, viewer: Viewer) throws -> MockResponse? {
        guard let id = place.id else { return nil }
        let row = try viewer.finds(
            read { $0.tables[plan.resource.name]?[key: ResourceRow.key(parent: place.parent, id: id)] },
            of: plan.resource)
        guard let row else { return try missing(plan, place: place, request: request, parent: false) }
        return try answer(request, plan: plan, row: row)
    }

    private func create(_ request: MockRequest, plan: Plan, place: Place, viewer: Viewer, items: ResourceItems)
        async throws -> MockResponse?
    {
        // Under a parent that does not exist, where the document gives no 404 to refuse with, the item is made all
        // the same: its create answers success, so it must be there to read and delete.
        let lenient = !plan.endpoint.documents(.notFound)
        let outcome: Outcome = try await write { state in
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
            var item = items.stored(
                body, endpoint: plan.endpoint, query: request.query, id: id!, parent: place.parent, old: nil)
            let owner = viewer.owner(of: item, member: plan.ownerMember)
            if let owner, let member = plan.ownerMember { items.name(owner, in: &item, member: member) }
            let row = ResourceRow(parent: place.parent, id: id!, item: item, owner: owner)
            state.tables[plan.resource.name, default: ResourceState.table()].append(row)
            state.markLiving(row.key, of: plan.resource.name)
            return .row(row)
        }
        return try respond(outcome, request: request, plan: plan, place: place)
    }

    /// A replace or an update: on an item path, of the item it names; on the collection, of the item the body
    /// names. A missing item is created by a replace on the collection (an assignment: `PUT /principals/{p}/roles`)
    /// or one whose operation documents no 404 (PUT as an upsert).
    private func change(_ request: MockRequest, plan: Plan, place: Place, viewer: Viewer, items: ResourceItems)
        async throws -> MockResponse?
    {
        let body = request.json ?? .object([:])
        guard let id = place.id ?? items.givenID(in: body) else { return nil }
        let replaces = plan.operation.role == .replace
        let upserts = replaces && (place.id == nil || !plan.endpoint.documents(.notFound))
        let outcome: Outcome = try await write { state in
            let key = ResourceRow.key(parent: place.parent, id: id)
            let stored = state.tables[plan.resource.name]?[key: key]
            // An item made under a parent the mock does not have (its create is lenient) is there to change.
            guard stored != nil || parentExists(place, plan: plan, in: state) else { return .missing(parent: true) }
            let old = try viewer.finds(stored, of: plan.resource)
            // Another user's item is not there for the caller, not even to replace.
            if stored != nil, old == nil { return .missing(parent: false) }
            guard old != nil || upserts else { return .missing(parent: false) }
            var merged = body
            if !replaces, case .object(let members) = body, case .object(var base)? = old?.item {
                // Under the item's own names: `FriendlyName=Office` changes `friendly_name`.
                for (name, value) in members { base[items.memberName(writtenAs: name)] = value }
                merged = .object(base)
            }
            var item = items.stored(
                merged, endpoint: plan.endpoint, query: request.query, id: id, parent: place.parent, old: old?.item)
            let owner = old?.owner ?? viewer.owner(of: item, member: plan.ownerMember)
            if let owner, let member = plan.ownerMember { items.name(owner, in: &item, member: member) }
            let row = ResourceRow(parent: place.parent, id: id, item: item, owner: owner)
            state.tables[plan.resource.name, default: ResourceState.table()].append(row)
            state.markLiving(key, of: plan.resource.name)
            return .row(row)
        }
        return try respond(outcome, request: request, plan: plan, place: place)
    }

    private func delete(_ request: MockRequest, plan: Plan, place: Place, viewer: Viewer) async throws
        -> MockResponse?
    {
        guard let id = place.id else { return nil }
        let documentsNotFound = plan.endpoint.documents(.notFound)
        let outcome: Outcome = try await write { state in
            let key = ResourceRow.key(parent: place.parent, id: id)
            guard let row = try viewer.finds(state.tables[plan.resource.name]?[key: key], of: plan.resource) else {
                // Answered as documented all the same (it documents no 404): what a delete answered success for is
                // gone for the reads after it.
                if !documentsNotFound, !viewer.isScoped { state.markDeleted(key, of: plan.resource.name) }
                return .missing(parent: false)
            }
            state.tables[plan.resource.name]?[key: key] = nil
            state.markDeleted(key, of: plan.resource.name)
            removeChildren(of: plan.resource, parent: place.parent, id: id, in: &state)
            return .row(row)
        }
        if case .missing = outcome, !documentsNotFound {
            return try overlooked("\(plan.resource.name) \(id) does not exist", plan: plan, request: request)
        }
        return try respond(outcome, request: request, plan: plan, place: place)
    }

    /// An action with a declared effect: on an item, the item changed; on the collection, every item the caller may
    /// act on.
    private func act(
        _ effect: ActionEffect, _ request: MockRequest, plan: Plan, place: Place, viewer: Viewer, items: ResourceItems
    ) async throws -> MockResponse? {
        let name = plan.resource.name
        let outcome: Outcome? = try await write { state in
            guard parentExists(place, plan: plan, in: state) else { return .missing(parent: true) }
            guard let id = place.id else {
                let rows = state.rows(of: name, under: place.parent, nested: plan.resource.parent != nil, seenBy: viewer)
                for var row in rows {
                    let changed = items.applying(effect, to: row.item)
                    guard changed != row.item else { continue }
                    row.item = changed
                    state.tables[name]?.append(row)
                }
                return nil
            }
            guard
                var row = try viewer.finds(
                    state.tables[name]?[key: ResourceRow.key(parent: place.parent, id: id)], of: plan.resource)
            else { return .missing(parent: false) }
            let changed = items.applying(effect, to: row.item)
            if changed != row.item {
                row.item = changed
                state.tables[name]?.append(row)
            }
            return .row(row)
        }
        guard let outcome else {
            return try fixture.answer(
                request, endpoint: plan.endpoint, spec: spec, state: items.acknowledgement(plan.endpoint))
        }
        return try respond(outcome, request: request, plan: plan, place: place)
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

    private func respond(_ outcome: Outcome, request: MockRequest, plan: Plan, place: Place) throws -> MockResponse? {
        switch outcome {
        case .missing(let parent): return try missing(plan, place: place, request: request, parent: parent)
        case .row(let row): return try answer(request, plan: plan, row: row)
        }
    }

    /// The answer carrying a stored item where the document's answer holds it, with its `Location`; else the answer
    /// naming its identifier, else an acknowledgement.
    private func answer(_ request: MockRequest, plan: Plan, row: ResourceRow) throws -> MockResponse? {
        let items = ResourceItems(spec: spec, resource: plan.resource, seed: seed, now: now(), envelopes: envelopes)
        let id = row.id
        let state =
            plan.operation.answer.map { items.itemAnswer(row.item, key: row.key, endpoint: plan.endpoint, pointer: $0) }
            ?? items.identifierAnswer(id, endpoint: plan.endpoint) ?? items.acknowledgement(plan.endpoint)
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
    private func missing(_ plan: Plan, place: Place, request: MockRequest, parent: Bool) throws -> MockResponse? {
        let what =
            parent
            ? "the \(plan.resource.parent?.resource ?? "parent") this \(plan.resource.name) item belongs to"
            : "\(FixtureGenerator.singular(plan.resource.name)) \(place.id ?? "")"
        let message = "\(what) does not exist"
        if plan.endpoint.documents(.notFound) { throw MockError(.notFound, message) }
        if let gone = deleted(place, plan: plan, parent: parent) { throw MockError(.notFound, "\(gone) was deleted") }
        return try overlooked(message, plan: plan, request: request)
    }

    /// The documented answer to a request the document gives no way to refuse, naming what was wrong.
    private func overlooked(_ message: String, plan: Plan, request: MockRequest) throws -> MockResponse {
        var response = try fixture.answer(request, endpoint: plan.endpoint, spec: spec)
        response.headers.append((MockEngine.overlookedHeader, MockEngine.headerText([message])))
        return response
    }

    /// Whether the parent a request names exists; a parent the engine keeps no table of is the overlay's to find.
    private func parentExists(_ place: Place, plan: Plan, in state: ResourceState) -> Bool {
        guard let (resource, key) = parentKey(place, plan: plan), let table = state.tables[resource] else { return true }
        return table[key: key] != nil
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
        read { state in
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

/// Whose items a request may see: anyone's, or, on an operation that acts on the caller's own items
/// (``Ownership``), the caller's alone (none for an anonymous caller).
struct Viewer {
    /// Whether the operation acts on the caller's own items.
    let isScoped: Bool
    /// The authenticated caller.
    let caller: String?
    /// Whether another user's item is refused (403) rather than hidden (404).
    let forbidsOthers: Bool
    let method: HTTPMethod

    init(request: MockRequest, endpoint: AnyEndpoint) {
        isScoped = endpoint.owner != nil
        caller = request.principal?.subject
        forbidsOthers = endpoint.owner?.others == .forbidden
        method = endpoint.method
    }

    func sees(_ row: ResourceRow) -> Bool {
        !isScoped || caller != nil && row.owner == caller
    }

    /// The row when the caller may act on it; `nil` when it is not there for them.
    /// - Throws: ``MockError`` 403 for another user's item where the operation refuses it rather than hides it.
    func finds(_ row: ResourceRow?, of resource: Resource) throws -> ResourceRow? {
        guard let row, !sees(row) else { return row }
        guard forbidsOthers else { return nil }
        let verb =
            switch method {
            case .get: "read"
            case .delete: "delete"
            case .put, .patch: "change"
            case .post: "act on"
            }
        throw MockError(
            .forbidden,
            "\(FixtureGenerator.singular(resource.name)) \(row.id) belongs to another user; you can only \(verb) your own")
    }

    /// The owner of a new item: the caller where the operation makes the caller's items, else the one its owner
    /// member names.
    func owner(of item: JSONValue, member: String?) -> String? {
        if isScoped { return caller }
        return member.flatMap { item[$0] }.flatMap(ResourceItems.text)
    }
}

/// Where a request is in a resource: the values of the collection path's parameters (named as the collection
/// names them), and the item's id when the path names one.
struct Place {
    var parent: [String: String] = [:]
    var id: String?
    /// Whether the request lists the items of every parent (``Resource/listsAcrossParents(_:)``).
    var acrossParents: Bool

    init<State>(request: MockRequest, plan: ResourceEngine<State>.Plan) {
        let own = plan.endpoint.path.segments
        let collection = plan.resource.collection.segments
        acrossParents = plan.acrossParents
        // The collection's parameters bind items to their parent's; under no parent resource they name nothing
        // the mock keeps (`/repositories/{owner}/pulls` with no `repositories` items): any value reaches every item.
        for (index, segment) in collection.enumerated() where plan.resource.parent != nil && !acrossParents {
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

extension ResourceState {
    /// The items of a resource under a parent (every item of a top-level resource) that a viewer sees: on an
    /// operation on the caller's own items, the caller's, found by their owner.
    func rows(of name: String, under parent: [String: String], nested: Bool, seenBy viewer: Viewer) -> [ResourceRow] {
        guard let table = tables[name] else { return [] }
        guard viewer.isScoped else { return nested ? table.rows(in: ResourceRow.group(parent)) : Array(table) }
        guard let caller = viewer.caller else { return [] }
        return table.rows(in: ResourceRow.ownerGroup(caller)).filter { !nested || $0.parent == parent }
    }
}

extension APISpec {
    /// How a resource's items are owned, when one of its operations acts on the caller's own items.
    func ownership(of resource: Resource) -> Ownership? {
        resource.operations.lazy.compactMap { self.endpoint($0.endpoint)?.owner }.first
    }

    /// The order a resource's table keeps: the one its list declares.
    func keptOrder(of resource: Resource) -> [SortKey] {
        resource.operations(.list).lazy.compactMap { self.endpoint($0.endpoint)?.order }.first { !$0.isEmpty } ?? []
    }
}
