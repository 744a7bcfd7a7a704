import UnderstudyCore

extension RuleID {
    /// Another user's token read, changed, acted on, deleted or listed an item the run made, through an operation the
    /// document declares the caller's own (`x-understudy-owner`).
    public static let probeOwnerNotEnforced: RuleID = "probe.owner-not-enforced"
    /// Another user's request for an item the run made was answered with another status than the declared refusal
    /// (404, or 403 where the document declares `others: forbidden`).
    public static let probeOwnerStatus: RuleID = "probe.owner-status"
}

extension Explorer {
    /// With `--other-token`, the operations the document declares the caller's own (``Ownership``) are sent again on
    /// an item the run made, as another user: a read, a change, an action and a delete must be refused as the document
    /// declares (404, as if the item did not exist; 403 where it declares `others: forbidden`), and the first page of
    /// a list must leave the item out. A 2xx is one user reaching another's data: OWASP's API1, broken object level
    /// authorization (owasp.org/API-Security/editions/2023/en/0xa1-broken-object-level-authorization). The delete
    /// goes last: a server that lets it through has removed the item the other requests name.
    func asAnotherUser(_ resource: Resource, _ item: ResourceLedger.Item) async {
        guard let other = session.options.credentials.otherToken else { return }
        let roles: [ResourceOperation.Role] = [.list, .read, .replace, .update, .action, .delete]
        for operation in roles.flatMap(resource.operations) {
            // An operation on the collection (`POST /messages/read-all`) acts on the other user's own items.
            guard let endpoint = spec.endpoint(operation.endpoint), let owner = endpoint.owner,
                operation.role == .list
                    || endpoint.path.segments.dropFirst(resource.collection.segments.count).first?.parameterNames
                        .isEmpty == false,
                endpoint.method == .get ? session.canCall(endpoint) : explores(endpoint), takesBearer(endpoint),
                let body = await body(for: endpoint)
            else { continue }
            let path =
                operation.role == .list
                ? ResourceGraph.renamed(item.parent, from: resource.collection, to: endpoint.path)
                : values(of: item, in: resource, for: endpoint)
            var request = session.request(endpoint, path: path, query: session.queryValues(for: endpoint), body: body)
            request.headers.set("Authorization", "Bearer \(other)")
            let described = "\(resource.name) item \(item.id), made by this run's user"
            if operation.role == .list {
                await session.probe(endpoint, request) { [session] response in
                    guard (200..<300).contains(response.status), let answer = try? JSONValue(parsing: response.body),
                        session.itemIDs(endpoint, path: path, response: response, body: answer).contains(item.id)
                    else { return [] }
                    return [
                        Diagnostic(
                            .error, rule: .probeOwnerNotEnforced,
                            message: "another user's list (--other-token) shows \(described)",
                            expected: "a list without \(item.id)", found: "\(item.id) listed")
                    ]
                }
                continue
            }
            let verdict = RefusalVerdict(
                spec: spec, expected: owner.others == .forbidden ? .forbidden : .notFound,
                what: "another user's request (--other-token) for \(described)", wrongStatus: .probeOwnerStatus,
                accepted: .probeOwnerNotEnforced, refusalSeverity: .warning, endpoint: endpoint)
            // The refusal is the declaration's, not an assumption: a 2xx is an error whatever the document says of 404.
            await session.probe(endpoint, request, judge: verdict.judge)
        }
    }

    /// Whether the run authenticates `endpoint` with its bearer token, which the other user's replaces: a request
    /// that also carries an API key naming the run's user would still be the run's.
    private func takesBearer(_ endpoint: AnyEndpoint) -> Bool {
        guard !endpoint.security.isEmpty else { return endpoint.auth != .none }
        return session.satisfiableSecurity(endpoint)?.allSatisfy { if case .bearer = $0 { true } else { false } }
            == true
    }
}
