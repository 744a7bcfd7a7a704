import Foundation
import UnderstudyCore

/// Which writes a run may send. A check is a guest on staging: it changes only what it made.
///
/// Every request that is not a read passes through ``CheckSession/refusal(of:for:unknown:)`` before it is sent, the
/// explorer's and the probes' alike. A write is sent when it
/// - creates an item (the graph's create of a collection, under any parent: a new item changes nothing that was
///   there), or reads by `POST` (a search);
/// - names, in its path or (for `PUT /pet` by body id) in its body, an item the run created, or lies below one
///   (`POST /collections/{own}/delete` acts inside the run's own collection);
/// - names an item no server holds (a probe's unknown id), unless it is a `PUT` or `PATCH`, which may create it;
/// - is a sign-in, or acts on no item and no collection and does not say it acts on many (`POST /echo`).
///
/// It is not sent, and the coverage table says why, when it deletes, replaces or updates a collection or an item the
/// run did not make (`DELETE /buckets`, `PUT /buckets/staging`), or acts on a collection, a query or a filter rather
/// than an item (`POST /flows/bulk_delete`, `POST /batch`, `POST /reset`, a body with a `filter`). `--destructive`
/// (``CheckOptions/destructive``) lifts the rule for a server whose data may be lost. The writes a built-in spec
/// declares (``WriteHints``) are its author's deliberate choices and run as declared.
enum WritePolicy {
    /// Whether the requests sent now were chosen to act on the run's own items by other means: a built-in spec's
    /// declared write flows and targets, and PostgREST deletes filtered by the ids of the rows the run inserted.
    @TaskLocal static var vouched = false

    /// Words in an operation's name that say it acts on many items, on a filter's matches, or on the whole server.
    static let sweepingWords: Set<String> = [
        "all", "batch", "bulk", "clear", "delete", "deletes", "destroy", "drop", "erase", "flush", "import", "mass",
        "migrate", "prune", "purge", "remove", "reset", "restore", "rollback", "truncate", "wipe",
    ]

    /// Request members that choose the items a write acts on by criteria, not by name.
    static let selectingMembers: Set<String> = [
        "criteria", "filter", "filters", "match", "query", "selector", "where",
    ]

    /// The words of an identifier: `bulk_set_state` → bulk, set, state; `deleteMany` → delete, many (camel case split
    /// as `JSONEncoder`'s snake case splits it).
    static func words(_ text: String) -> [String] {
        text.split { !$0.isLetter }.flatMap { TypeName.snakeCase(String($0)).split(separator: "_").map(String.init) }
    }
}

extension CheckSession {
    /// Why a request must not be sent, or `nil` when it may be (``WritePolicy``).
    /// - Parameter unknown: a path value the request made up so that it names nothing (a probe's unknown id).
    func refusal(of request: OutgoingRequest, for endpoint: AnyEndpoint, unknown: String? = nil) -> String? {
        guard endpoint.method != .get, !options.destructive, !WritePolicy.vouched,
            !signInEndpoints.contains(endpoint.id)
        else { return nil }
        let role = graph.role(of: endpoint.id)
        if let role, [.create, .search, .list, .read].contains(role.operation.role) { return nil }
        let values = pathValues(sentIn: request, for: endpoint)
        // What the request acts on is the last thing its path names; one made up to name nothing is safe unless
        // written to, which may create it.
        if let unknown, let last = endpoint.path.parameterNames.last, values[last] == unknown {
            return [.put, .patch].contains(endpoint.method)
                ? "a \(endpoint.method.rawValue) to an unknown id may create an item the run could not remove" : nil
        }
        if let named = namedItem(in: values, of: endpoint, body: request.body, role: role) {
            let owned = state.withLock { state in named.contains { state.items.created($0.item, of: $0.resource) } }
            if owned { return nil }
            let deepest = named.last!
            return "\(deepest.resource) item \(deepest.item.id) was not made by the run: it is left as it is"
        }
        if let (resource, operation) = role, [.replace, .update, .delete].contains(operation.role) {
            return "\(endpoint.method.rawValue) \(endpoint.path) acts on the whole \(resource.name) collection"
        }
        if !endpoint.path.parameterNames.isEmpty {
            return "acts on \(endpoint.path.expand(values)), which the run did not make"
        }
        if endpoint.method != .post {
            return "\(endpoint.method.rawValue) \(endpoint.path) acts on all it names, not on an item the run made"
        }
        let literals = endpoint.path.segments.compactMap { segment -> String? in
            if case .literal(let text) = segment { return text }
            return nil
        }
        let words = Set(WritePolicy.words((literals + [endpoint.summary]).joined(separator: " ")))
        if let word = words.intersection(WritePolicy.sweepingWords).sorted().first {
            return "its name says it acts on many items (\(word)), not on one the run made"
        }
        if case .object(let members)? = endpoint.request?.schema.resolved(in: spec.definitions),
            let member = members.properties.map({ $0.name.lowercased() }).filter(WritePolicy.selectingMembers.contains).sorted()
                .first
        {
            return "it chooses what it acts on by its \(member), not an item the run made"
        }
        return nil
    }

    /// The path values of a request, read back from its URL.
    private func pathValues(sentIn request: OutgoingRequest, for endpoint: AnyEndpoint) -> [String: String] {
        var path = request.url.dropFirst(options.baseURL.count)
        if let query = path.firstIndex(of: "?") { path = path[..<query] }
        return endpoint.path.match(String(path)) ?? [:]
    }

    /// The items of resources a request names, outermost first: each item path its path begins with, or, for a
    /// collection-level replace, update or delete (`PUT /pet`), the item its body names by the identifier member.
    private func namedItem(
        in values: [String: String], of endpoint: AnyEndpoint, body: [UInt8]?,
        role: (resource: Resource, operation: ResourceOperation)?
    ) -> [(resource: String, item: ResourceLedger.Item)]? {
        let segments = endpoint.path.segments
        var named: [(depth: Int, resource: String, item: ResourceLedger.Item)] = []
        for resource in graph.resources {
            // The item's own segment may carry more than its id (`/tasks/{id}:cancel`).
            guard let template = resource.item, let parameter = resource.identifier?.parameter,
                template.segments.count <= segments.count,
                ResourceInference.shape(Array(segments[..<(template.segments.count - 1)]))
                    == ResourceInference.shape(Array(template.segments.dropLast())),
                !segments[template.segments.count - 1].parameterNames.isEmpty
            else { continue }
            let own = ResourceGraph.renamed(values, from: endpoint.path, to: template)
            guard let id = own[parameter] else { continue }
            let parent = ResourceGraph.renamed(own, from: template, to: resource.collection)
            named.append((template.segments.count, resource.name, ResourceLedger.Item(parent: parent, id: id)))
        }
        if named.isEmpty, let (resource, operation) = role, [.replace, .update, .delete].contains(operation.role),
            let member = resource.identifier?.member, let body, let value = try? JSONValue(parsing: body),
            let id = value[member].flatMap(Self.scalar)
        {
            let parent = ResourceGraph.renamed(values, from: endpoint.path, to: resource.collection)
            named.append((0, resource.name, ResourceLedger.Item(parent: parent, id: id)))
        }
        guard !named.isEmpty else { return nil }
        return named.sorted { $0.depth < $1.depth }.map { ($0.resource, $0.item) }
    }
}
