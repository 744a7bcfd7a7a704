import Foundation
import UnderstudyCore

extension RuleID {
    /// A member written by a create, replace or update came back different (or not at all) in the read after it.
    public static let resourceNotKept: RuleID = "resource.not-kept"
    /// An item the check deleted is still read.
    public static let resourceNotDeleted: RuleID = "resource.not-deleted"
    /// A create answered 2xx without naming the item it made.
    public static let resourceIdentifierMissing: RuleID = "resource.identifier-missing"
    /// A request the document allows, made up from its schemas, was refused with a status the document gives.
    public static let requestRefused: RuleID = "check.request-refused"
}

/// `check --allow-writes` on an API without a hand-written write scenario: each resource (parents first) gets an
/// item of the check's own, made with a generated valid body, read back (what was written is what is read),
/// replaced, updated, read back again and acted on; the other writes run once each; then every item the check
/// made is deleted, newest first (children before their parents), and read again to see it gone. Items the check
/// did not make are never deleted. With another user's token, the operations on the caller's own items are asked
/// for the run's items as that user, and must be refused (``asAnotherUser(_:_:)``).
struct Explorer {
    let session: CheckSession
    var spec: APISpec { session.spec }

    /// Interrupted (the task cancelled: SIGINT or SIGTERM in the CLI), it sends nothing new but still removes, in
    /// reverse, every item it made.
    func run() async {
        var made: [(resource: Resource, item: ResourceLedger.Item)] = []
        // A declared table's rows are named by filters: ``exploreTables()`` explores them.
        for resource in session.graph.resources where !isTableEndpoint(resource.collection) {
            guard !Task.isCancelled else { break }
            var created = await create(resource)
            if created == nil { created = await createByPut(resource) }
            guard let (items, sent) = created, let first = items.first else { continue }
            made += items.map { (resource, $0) }
            await exercise(resource, first, sent: sent)
            await asAnotherUser(resource, first)
        }
        if !Task.isCancelled {
            // A table's rows are deleted by the ids of the rows the run inserted; what the spec declares runs as
            // declared.
            await WritePolicy.$vouched.withValue(true) {
                await exploreTables()
                for target in spec.writeHints.targets { await act(target) }
            }
            await otherWrites()
            await session.checkLinkedReads()
        }
        // Not cancelled with the run: what it made goes, also when it was interrupted.
        let removals = made.reversed()
        await Task { [self] in
            for (resource, item) in removals { await remove(item, of: resource) }
        }.value
        guard !Task.isCancelled else { return }
        await WritePolicy.$vouched.withValue(true) {
            for flow in spec.writeHints.flows { await flow.scenario.run(in: session) }
        }
        await deleteFound()
        await endSession()
    }

    /// With `--destructive` (a server whose data may be lost), each delete no item of the run's reached goes, last,
    /// to an item the reads found: the one write a guest never sends.
    private func deleteFound() async {
        guard session.options.destructive, !Task.isCancelled else { return }
        let reached = session.called
        for endpoint in spec.endpoints where endpoint.method == .delete && !reached.contains(endpoint.id) {
            guard explores(endpoint), !endsSession(endpoint), !isTableEndpoint(endpoint.path) else { continue }
            await write(endpoint)
        }
    }

    /// The body of a write: the spec's hint where it declares one, else made up from the request schema (`nil` for
    /// none); `.none` when the hint cannot make one, and the write is not sent.
    func body(for endpoint: AnyEndpoint) async -> JSONValue?? {
        if let make = spec.writeHints.bodies[endpoint.id] {
            guard let body = await make(session) else { return .none }
            return .some(body)
        }
        return .some(session.requestBody(for: endpoint))
    }

    /// Whether a path is a declared table's (`/rest/v1/favorites`), whose rows ``exploreTables()`` writes.
    func isTableEndpoint(_ path: PathTemplate) -> Bool {
        spec.database.contains { path.segments.last == .literal($0.name) }
    }

    /// Whether a path names an item and goes on below it (`/profiles/{username}/follow`).
    static func isBelowAnItem(_ path: PathTemplate) -> Bool {
        guard case .literal? = path.segments.last else { return false }
        return !path.parameterNames.isEmpty
    }

    /// Whether the explorer itself writes through an endpoint: one the run can call, that no flow of the spec calls
    /// alone, and that acts on an item of the explorer's choosing (not one a hint chooses).
    func explores(_ endpoint: AnyEndpoint) -> Bool {
        session.canCall(endpoint) && !spec.writeHints.isLeftToAFlow(endpoint.id)
            && spec.writeHints.target(of: endpoint.id) == nil
    }

    /// Whether a write ends the run's session: declared so, or its path ends in `logout`, `signout` or `revoke`.
    private func endsSession(_ endpoint: AnyEndpoint) -> Bool {
        if spec.writeHints.sessionEnders.contains(endpoint.id) { return true }
        guard case .literal(let last)? = endpoint.path.segments.last else { return false }
        let word = last.lowercased().filter(\.isLetter)
        return ["logout", "signout", "revoke"].contains(word)
    }

    /// The writes that end the session, last: the run has nothing left to send after them.
    private func endSession() async {
        for endpoint in spec.endpoints where endpoint.method != .get && endsSession(endpoint) && explores(endpoint) {
            await write(endpoint)
        }
    }

    /// Sends a write with the path values the run knows or guesses (`preset` first) and its body; not when it lacks
    /// a path value, or the spec's hint makes no body.
    private func write(_ endpoint: AnyEndpoint, preset: [String: String] = [:]) async {
        guard let path = session.pathValues(for: endpoint, guessing: true, preset: preset),
            let body = await body(for: endpoint)
        else { return }
        let request = session.request(
            endpoint, path: path.values, query: session.queryValues(for: endpoint), body: body)
        await send(endpoint, request, path: path)
    }

    // MARK: Create

    /// Creates an item under the first item of the parent the run knows (its own first): the items the answer names
    /// (one, or several where a create makes a range), and the body sent.
    private func create(_ resource: Resource) async -> ([ResourceLedger.Item], JSONValue?)? {
        guard let operation = resource.operation(.create), let endpoint = spec.endpoint(operation.endpoint),
            explores(endpoint)
        else { return nil }
        guard let path = session.pathValues(for: endpoint, guessing: true) else { return nil }
        guard let made = await body(for: endpoint) else { return nil }
        let hinted = spec.writeHints.bodies[endpoint.id] != nil
        let body = hinted ? made : fittingItsPath(namingItem(made, of: resource, for: endpoint), of: resource)
        let request = session.request(
            endpoint, path: path.values, query: session.queryValues(for: endpoint), body: body)
        let (exchange, answer) = await send(endpoint, request, path: path)
        guard let response = exchange.response, (200..<300).contains(response.status) else { return nil }
        let parent = ResourceGraph.renamed(path.values, from: endpoint.path, to: resource.collection)
        var ids = session.itemIDs(endpoint, path: path.values, response: response, body: answer)
        if ids.isEmpty, let id = resource.identifier?.member.flatMap({ body?[$0] }).flatMap(CheckSession.scalar) {
            ids = [id]
        }
        guard !ids.isEmpty else {
            if resource.item != nil {
                session.add(
                    [
                        Diagnostic(
                            .warning, rule: .resourceIdentifierMissing, endpoint: endpoint.id,
                            message:
                                "the answer names no \(resource.identifier?.member ?? "identifier") and has no Location: "
                                + "the created item cannot be read, changed or deleted",
                            expected: "the new item's \(resource.identifier?.member ?? "id")", found: "none")
                    ], request: request)
            }
            return nil
        }
        let items = ids.map { ResourceLedger.Item(parent: parent, id: $0, created: true) }
        session.state.withLock { state in
            for item in items { state.items.add(item, of: resource.name) }
        }
        return (items, body)
    }

    /// Creates an item by `PUT` on an id of the run's own (`PUT /accounts/understudy-accounts-1`), where the resource
    /// has no create that made one and its replace documents `201 Created`: a contents or accounts API names its
    /// items by their path. The id is read first and must be absent, so nothing there is replaced.
    private func createByPut(_ resource: Resource) async -> ([ResourceLedger.Item], JSONValue?)? {
        guard let parameter = resource.identifier?.parameter,
            let endpoint = resource.operations(.replace).compactMap({ spec.endpoint($0.endpoint) }).first(where: {
                $0.method == .put && $0.successes.contains(.created)
                    && $0.path.parameterNames.last == parameter
            }),
            explores(endpoint)
        else { return nil }
        let short = resource.name.split(separator: ".").last.map(String.init) ?? resource.name
        let id = "understudy-\(short)-\(session.options.seed)"
        guard let path = session.pathValues(for: endpoint, guessing: true, preset: [parameter: id]),
            let body = await body(for: endpoint)
        else { return nil }
        if let read = resource.operation(.read).flatMap({ spec.endpoint($0.endpoint) }), session.canCall(read) {
            let readPath = ResourceGraph.renamed(path.values, from: endpoint.path, to: read.path)
            let request = session.request(read, path: readPath, query: session.queryValues(for: read))
            let (exchange, _) = await session.perform(read, request, expecting: [.notFound], path: readPath)
            guard exchange.response?.status == 404 else { return nil }
        }
        let item = ResourceLedger.Item(
            parent: ResourceGraph.renamed(path.values, from: endpoint.path, to: resource.collection), id: id,
            created: true)
        // The run names the item before it exists, so the write policy lets the `PUT` through.
        session.state.withLock { $0.items.add(item, of: resource.name) }
        let request = session.request(endpoint, path: path.values, query: session.queryValues(for: endpoint), body: body)
        let (exchange, _) = await send(endpoint, request, path: path)
        guard let status = exchange.response?.status, (200..<300).contains(status) else {
            session.state.withLock { $0.items.remove(item, of: resource.name) }
            return nil
        }
        return ([item], body)
    }

    // MARK: Exercise

    /// Reads the item back, replaces and updates it (reading back after each), and runs its actions.
    private func exercise(_ resource: Resource, _ item: ResourceLedger.Item, sent: JSONValue?) async {
        await readBack(resource, item, sent: sent, after: resource.operation(.create)?.endpoint)
        for role in [ResourceOperation.Role.replace, .update] {
            for operation in resource.operations(role) {
                guard let endpoint = spec.endpoint(operation.endpoint), explores(endpoint) else { continue }
                guard var body = await body(for: endpoint) else { continue }
                // The body names the item where its model has the identifier member (`PUT /pet` by body id).
                if let member = resource.identifier?.member, case .object(var members)? = body,
                    let value = typedID(item.id, member: member, endpoint: endpoint)
                {
                    members[member] = value
                    body = .object(members)
                }
                let path = values(of: item, in: resource, for: endpoint)
                let request = session.request(
                    endpoint, path: path, query: session.queryValues(for: endpoint), body: body)
                let (exchange, _) = await send(endpoint, request, path: PathValues(values: path))
                if let status = exchange.response?.status, (200..<300).contains(status) {
                    await readBack(resource, item, sent: body, after: endpoint.id)
                }
            }
        }
        // An item is acted on before it is closed: `publish` before `cancel`.
        let actions = resource.operations(.action)
        for operation in actions.filter({ !Self.closes($0.endpoint) }) + actions.filter({ Self.closes($0.endpoint) }) {
            guard let endpoint = spec.endpoint(operation.endpoint), explores(endpoint),
                endpoint.path.segments.count > resource.collection.segments.count, let body = await body(for: endpoint)
            else { continue }
            let path = values(of: item, in: resource, for: endpoint)
            let request = session.request(endpoint, path: path, query: session.queryValues(for: endpoint), body: body)
            await send(endpoint, request, path: PathValues(values: path))
        }
    }

    /// Whether an action's name says it closes the item (`cancel`, `complete`, `archive`, …).
    static func closes(_ endpoint: String) -> Bool {
        let last = endpoint.split(whereSeparator: { $0 == "/" || $0 == ":" }).last.map { $0.lowercased() } ?? ""
        return ["cancel", "close", "complete", "archive", "finish", "end", "reject", "deactivate", "disable"]
            .contains(last)
    }

    /// Runs actions the spec declares on an item it chooses (``WriteHints/acting(_:because:on:)``), in order.
    private func act(_ target: WriteHints.Target) async {
        let endpoints = target.actions.compactMap(spec.endpoint).filter(session.canCall)
        guard !endpoints.isEmpty else { return }
        guard let id = await target.choose(session) else {
            for endpoint in endpoints { session.skip(endpoint, because: "no item to act on: \(target.reason)") }
            return
        }
        for endpoint in endpoints {
            let parameter =
                session.graph.role(of: endpoint.id).flatMap { resource, _ in
                    endpoint.path.parameterNames.dropFirst(resource.collection.parameterNames.count).first
                } ?? endpoint.path.parameterNames.last
            guard let parameter else { continue }
            await write(endpoint, preset: [parameter: id])
        }
    }

    /// Reads the item and compares what was written with what is read: each member the request sent that the
    /// read's item declares for answers must come back equal (a warning: a server may normalize what it keeps).
    private func readBack(_ resource: Resource, _ item: ResourceLedger.Item, sent: JSONValue?, after writer: String?)
        async
    {
        guard let operation = resource.operation(.read), let endpoint = spec.endpoint(operation.endpoint),
            session.canCall(endpoint)
        else { return }
        let path = values(of: item, in: resource, for: endpoint)
        let request = session.request(endpoint, path: path, query: session.queryValues(for: endpoint))
        let (_, answer) = await session.perform(endpoint, request, expecting: endpoint.expectedStatuses(), path: path)
        guard let writer, case .object(let written)? = sent, let pointer = operation.answer,
            case .object(let read)? = answer?[pointer: pointer],
            case .object(let schema)? = resource.schema.resolved(in: spec.definitions)
        else { return }
        reportNotKept(
            written.keys.sorted().filter { schema[$0]?.access == .readWrite }, written: written, read: read,
            at: pointer, writer: writer, reader: endpoint.id, request: request)
    }

    /// A `resource.not-kept` warning for each of `names` that the write sent and the read after it answers otherwise
    /// (``same(_:_:)``), at `pointer` in the read's answer.
    func reportNotKept(
        _ names: [String], written: [String: JSONValue], read: [String: JSONValue], at pointer: JSONPointer,
        writer: String, reader: String, request: OutgoingRequest
    ) {
        for name in names where !Self.same(written[name], read[name]) {
            let found = read[name].map { Render.found($0) } ?? "no \(name)"
            session.add(
                [
                    Diagnostic(
                        .warning, rule: .resourceNotKept, at: pointer.appending(name), endpoint: reader,
                        message:
                            "\(writer) wrote \(name) as \(Render.found(written[name]!)); the read after it answers \(found)",
                        expected: Render.found(written[name]!), found: found)
                ], request: request)
        }
    }

    /// Whether what was written is what was read: numbers by value (`1.0` and `1`), dates and instants by the
    /// instant they name (`2025-09-27T16:15:00Z` and `…16:15:00.000Z`; a day `2025-09-22` kept as its midnight
    /// UTC), and a `null` written as a member left out.
    static func same(_ written: JSONValue?, _ read: JSONValue?) -> Bool {
        switch (written, read) {
        case (.number(let a)?, .number(let b)?):
            return a.literal == b.literal || Double(a.literal) == Double(b.literal)
        case (.string(let a)?, .string(let b)?) where a != b:
            guard let first = Date(iso8601: a), let second = Date(iso8601: b) else { return false }
            return first == second
        case (.null?, nil): return true
        default: return written == read
        }
    }

    // MARK: Other writes

    /// Every write no resource step reached, once, with a generated body: a collection's actions, writes that
    /// belong to no resource, changes to items the run did not make. A delete is sent only to an item the run
    /// made, never here.
    private func otherWrites() async {
        let reached = session.called
        for endpoint in spec.endpoints where endpoint.method != .get && !reached.contains(endpoint.id) {
            // A sign-in is checked by signing in; what ends the session comes last.
            guard explores(endpoint), !session.signInEndpoints.contains(endpoint.id), !endsSession(endpoint),
                !isTableEndpoint(endpoint.path)
            else {
                continue
            }
            // A delete goes only to an item the run made: one on a collection (PostgREST's `DELETE /favorites`, with
            // made-up filters or none) may remove what others own. One below an item removes a relation the other
            // writes made (`DELETE /profiles/{username}/follow`).
            if session.graph.role(of: endpoint.id)?.operation.role == .delete { continue }
            if endpoint.method == .delete, !Self.isBelowAnItem(endpoint.path) { continue }
            // A delete of a whole collection inside an item is sent when the item's own are gone (``remove(_:of:)``).
            if endpoint.method == .delete, session.graph.resource(withCollection: endpoint.path) != nil { continue }
            await write(endpoint)
        }
    }

    /// Sends a request made up from the document's schemas. A refusal the document gives the operation (400, 409,
    /// 422) is a warning: the request breaks a rule the document does not state, which is worth a look but is no
    /// proof the server is wrong.
    @discardableResult
    func send(_ endpoint: AnyEndpoint, _ request: OutgoingRequest, path: PathValues) async
        -> (exchange: Exchange, body: JSONValue?)
    {
        var expected = endpoint.expectedStatuses(guessedPath: path.guessed)
        let refusals = endpoint.errors.filter {
            (400..<500).contains($0.rawValue) && ![401, 403].contains($0.rawValue)
        }
        expected?.formUnion(refusals)
        let result = await session.perform(endpoint, request, expecting: expected, path: path.values)
        if let response = result.exchange.response, refusals.contains(HTTPStatus(rawValue: response.status)),
            !(endpoint.expectedStatuses(guessedPath: path.guessed)?.contains(HTTPStatus(rawValue: response.status))
                ?? true)
        {
            session.add(
                [
                    Diagnostic(
                        .warning, rule: .requestRefused, endpoint: endpoint.id,
                        message: "a request the document allows (made up from its schemas) was refused with "
                            + "\(response.status); the document does not say which rule it breaks",
                        expected: endpoint.success.description, found: String(response.status))
                ], request: request)
        }
        return result
    }

    // MARK: Clean-up

    /// Deletes an item the run made, then reads it to see it gone; says so where the API cannot delete it.
    private func remove(_ item: ResourceLedger.Item, of resource: Resource) async {
        await emptyCollections(in: item, of: resource)
        guard let operation = resource.operation(.delete), let endpoint = spec.endpoint(operation.endpoint) else {
            if let create = resource.operation(.create)?.endpoint {
                session.note(create, "the created \(resource.name) item \(item.id) stays: the API has no delete for it")
            }
            return
        }
        guard explores(endpoint) else { return }
        let path = values(of: item, in: resource, for: endpoint)
        let request = session.request(endpoint, path: path, query: session.queryValues(for: endpoint))
        let (exchange, _) = await session.perform(endpoint, request, expecting: endpoint.expectedStatuses(), path: path)
        guard let status = exchange.response?.status, (200..<300).contains(status),
            let read = resource.operation(.read), let readEndpoint = spec.endpoint(read.endpoint),
            session.canCall(readEndpoint)
        else { return }
        let readPath = values(of: item, in: resource, for: readEndpoint)
        let again = session.request(readEndpoint, path: readPath, query: session.queryValues(for: readEndpoint))
        await session.probe(readEndpoint, again) { response in
            guard (200..<300).contains(response.status) else { return [] }
            return [
                Diagnostic(
                    .error, rule: .resourceNotDeleted,
                    message: "\(endpoint.id) answered \(status), and the item is still read (\(response.status))",
                    expected: readEndpoint.documents(.notFound) ? "404" : "a refusal", found: String(response.status))
            ]
        }
    }

    /// Deletes each whole collection inside an item the run made (`DELETE /buckets/{own}/collections`), once per run:
    /// what the run made in it was deleted first, so nothing another request still needs goes with it.
    private func emptyCollections(in item: ResourceLedger.Item, of resource: Resource) async {
        let reached = session.state.withLock { $0.reached }
        for endpoint in spec.endpoints where endpoint.method == .delete && reached[endpoint.id] == nil {
            guard let child = session.graph.resource(withCollection: endpoint.path),
                child.parent?.resource == resource.name, explores(endpoint)
            else { continue }
            let path = values(of: item, in: resource, for: endpoint)
            let request = session.request(endpoint, path: path, query: session.queryValues(for: endpoint))
            await send(endpoint, request, path: PathValues(values: path))
        }
    }

    // MARK: Helpers

    /// A create's body with the item's name, where the client gives it (the identifier member, or `name`: `{"name":
    /// ...}` for `/databases/{database}`), safe in a path and recognizable: `understudy-databases-1`, within the
    /// member's lengths. A made-up person's name would do for the schema, but servers refuse spaces in names they
    /// put in URLs or use as keys.
    private func namingItem(_ body: JSONValue?, of resource: Resource, for endpoint: AnyEndpoint) -> JSONValue? {
        guard case .object(var members)? = body,
            let member = [resource.identifier?.member, "name"].compactMap({ $0 }).first(where: { members[$0] != nil }),
            case .object(let object)? = endpoint.request?.schema.resolved(in: spec.definitions),
            case .string(let constraints)? = object[member]?.schema.resolved(in: spec.definitions),
            constraints.format == nil, constraints.values == nil, constraints.pattern == nil
        else { return body }
        let short = resource.name.split(separator: ".").last.map(String.init) ?? resource.name
        var name = "understudy-\(short)-\(session.options.seed)"
        if let maximum = constraints.maxLength, name.count > maximum { name = String(name.suffix(maximum)) }
        if let minimum = constraints.minLength, name.count < minimum {
            name += String(repeating: "0", count: minimum - name.count)
        }
        members[member] = .string(name)
        return .object(members)
    }

    /// A body whose identifier is one the item's path refuses, given one it takes: the Petstore creates an `Order`
    /// whose `id` is any int64, and reads it back at `/store/order/{orderId}` where `orderId` is at most 5. The read
    /// back must be able to name what was made.
    private func fittingItsPath(_ body: JSONValue?, of resource: Resource) -> JSONValue? {
        guard case .object(var members)? = body, let identifier = resource.identifier,
            let member = identifier.member, let value = members[member],
            let read = resource.operation(.read).flatMap({ spec.endpoint($0.endpoint) }),
            let parameter = read.parameters.first(where: { $0.location == .path && $0.name == identifier.parameter })
        else { return body }
        guard parameter.findings(value, in: spec).contains(where: { $0.severity == .error }) else { return body }
        var random = SeededRandom(seed: session.options.seed).derived("identifier \(resource.name)")
        var generator = FixtureGenerator(seed: random.next(), spec: spec, optionalKeys: spec.optionalKeys)
        members[member] = generator.value(for: parameter)
        return .object(members)
    }

    /// The item's path values, named as `endpoint`'s path names them.
    func values(of item: ResourceLedger.Item, in resource: Resource, for endpoint: AnyEndpoint) -> [String: String] {
        // A list of every parent's items is named by none of them.
        guard !resource.listsAcrossParents(endpoint) else { return [:] }
        let own = CheckSession.itemValues(item, of: resource)
        guard let template = resource.item else {
            return ResourceGraph.renamed(item.parent, from: resource.collection, to: endpoint.path)
        }
        return ResourceGraph.renamed(own, from: template, to: endpoint.path)
    }

    /// The id as a value of the member's schema in the endpoint's request model (`42` for an integer).
    private func typedID(_ id: String, member: String, endpoint: AnyEndpoint) -> JSONValue? {
        guard case .object(let object)? = endpoint.request?.schema.resolved(in: spec.definitions),
            let property = object[member]
        else { return nil }
        switch property.schema.resolved(in: spec.definitions) {
        case .integer?: return Int(id).map(JSONValue.integer)
        case .number?: return Double(id).map(JSONValue.double)
        default: return .string(id)
        }
    }

}
