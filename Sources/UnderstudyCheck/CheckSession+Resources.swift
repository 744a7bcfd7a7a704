import Foundation
import UnderstudyCore

/// The values of an endpoint's path parameters, and whether any was made up (a document's example, or one
/// generated from the parameter's schema) rather than taken from the server's answers or `--param`.
struct PathValues: Sendable {
    var values: [String: String]
    var guessed = false
}

extension CheckSession {
    /// The values of an endpoint's path parameters: `--param`; else, on a resource's item, an item the run has
    /// seen (one it created first), and under a nested collection, its parent's item; else what a link of the
    /// document takes from an earlier answer; else a value found in earlier answers (``ParameterDiscovery``). With `guessing`, what is still missing is the document's example
    /// or a value generated from the parameter's schema; without it, `nil` until earlier answers say.
    /// - Parameter preset: values decided already (a probe's unknown id), before `--param`.
    func pathValues(for endpoint: AnyEndpoint, guessing: Bool, preset: [String: String] = [:]) -> PathValues? {
        let segments = endpoint.path.segments
        var values = preset
        for name in endpoint.path.parameterNames where values[name] == nil { values[name] = options.parameters[name] }
        let (ledger, bodies, linked) = state.withLock { ($0.items, $0.bodies, $0.linked[endpoint.id] ?? [:]) }
        if let (resource, _) = graph.role(of: endpoint.id), !resource.listsAcrossParents(endpoint) {
            let known = knownValues(
                of: resource, ledger: ledger, itemLevel: segments.count > resource.collection.segments.count)
            if let (template, found) = known {
                values.merge(ResourceGraph.renamed(found, from: template, to: endpoint.path)) { given, _ in given }
            }
        }
        values.merge(linked) { given, _ in given }
        var guessed = false
        var generator = FixtureGenerator(seed: options.seed, spec: spec)
        // A parameter inside a segment (`{Sid}.json`) is filled like one that is the whole segment.
        for (index, segment) in segments.enumerated() {
            for name in segment.parameterNames where values[name] == nil {
                var owner: String?
                if index > 0, case .literal(let text) = segments[index - 1] { owner = text }
                let list = ResourceInference.shape(Array(segments[..<index]))
                if let found = ParameterDiscovery.value(for: name, owner: owner, listPath: list, in: bodies) {
                    values[name] = found.value
                    if !found.certain { guessed = true }
                    continue
                }
                guard guessing else { return nil }
                guessed = true
                let parameter = endpoint.parameters.first { $0.location == .path && $0.name == name }
                values[name] = Self.text(
                    parameter?.example ?? generator.value(for: parameter?.schema ?? .string(), name: name))
            }
        }
        return PathValues(values: values, guessed: guessed)
    }

    /// The path values the ledger gives an endpoint of `resource`: an item's (its collection's values and its
    /// id, named as the item path names them), or for a collection-level endpoint of a nested resource, its
    /// parent's item's.
    private func knownValues(of resource: Resource, ledger: ResourceLedger, itemLevel: Bool)
        -> (template: PathTemplate, values: [String: String])?
    {
        if itemLevel, let item = resource.item, let known = ledger.first(of: resource.name) {
            return (item, Self.itemValues(known, of: resource))
        }
        guard !itemLevel, let parent = resource.parent, let parentResource = graph.resource(named: parent.resource),
            let item = parentResource.item, let known = ledger.first(of: parentResource.name)
        else { return nil }
        return (item, Self.itemValues(known, of: parentResource))
    }

    /// An item's path values, named as the resource's item path names them.
    static func itemValues(_ item: ResourceLedger.Item, of resource: Resource) -> [String: String] {
        guard let path = resource.item else { return item.parent }
        var values = ResourceGraph.renamed(item.parent, from: resource.collection, to: path)
        if let parameter = resource.identifier?.parameter { values[parameter] = item.id }
        return values
    }

    /// Remembers the items an answer names: a list's or a search's items, a created or read item (its member,
    /// the answer's identifier member, or the last segment of `Location`); forgets a deleted one.
    func learn(_ endpoint: AnyEndpoint, path: [String: String], response: RecordedResponse, body: JSONValue?) {
        guard let (resource, operation) = graph.role(of: endpoint.id) else { return }
        // A list of every parent's items names none of their parents.
        let parent =
            resource.listsAcrossParents(endpoint)
            ? [:] : ResourceGraph.renamed(path, from: endpoint.path, to: resource.collection)
        if operation.role == .delete, let id = Self.itemID(in: path, endpoint: endpoint, resource: resource) {
            state.withLock { state in
                state.items.remove(ResourceLedger.Item(parent: parent, id: id), of: resource.name)
                // What a link took from the deleted item's answers names nothing now.
                state.linked = state.linked.filter { !$0.value.values.contains(id) }
            }
            return
        }
        let ids = itemIDs(endpoint, path: path, response: response, body: body)
        guard !ids.isEmpty else { return }
        state.withLock { state in
            for id in ids {
                state.items.add(
                    ResourceLedger.Item(parent: parent, id: id, created: operation.role == .create), of: resource.name)
            }
        }
    }

    /// Remembers the values an answer gives the operations its links name: from the answer's body
    /// (`username: $response.body#/owner/username`; a pointer that names nothing in a list answer is read in its
    /// first item, as a link from a list means it) or its headers, from the request's own path, query or body
    /// (`userId: $request.path.id`), or written in the link. A later answer's values replace an earlier one's: they
    /// name what the run saw last.
    func follow(
        _ links: [ResponseLink], request: OutgoingRequest, path: [String: String], response: RecordedResponse,
        body: JSONValue?
    ) {
        guard !links.isEmpty else { return }
        let first = body.flatMap { PaginationWalk.items(in: $0)?.first }
        let query = QueryItems(URLComponents(string: request.url)?.percentEncodedQuery ?? "")
        lazy var sent = request.body.flatMap { try? JSONValue(parsing: $0) }
        var found: [String: [String: String]] = [:]
        for link in links {
            for (name, source) in link.values {
                let value: String?
                switch source {
                case .responseBody(let pointer):
                    value = (body?[pointer: pointer] ?? first?[pointer: pointer]).flatMap(Self.scalar)
                case .responseHeader(let header): value = response.headers[header]
                case .requestPath(let parameter): value = path[parameter]
                case .requestQuery(let parameter): value = query[parameter]
                case .requestBody(let pointer): value = sent?[pointer: pointer].flatMap(Self.scalar)
                case .constant(let text): value = text
                }
                guard let value, !value.isEmpty else { continue }
                found[link.target, default: [:]][name] = value
            }
        }
        guard !found.isEmpty else { return }
        state.withLock { state in
            state.linked.merge(found) { earlier, later in earlier.merging(later) { _, new in new } }
        }
    }

    /// The ids of the items an answer of a resource's endpoint names.
    func itemIDs(_ endpoint: AnyEndpoint, path: [String: String], response: RecordedResponse, body: JSONValue?)
        -> [String]
    {
        guard let (resource, operation) = graph.role(of: endpoint.id) else { return [] }
        let member = resource.identifier?.member
        switch operation.role {
        case .list, .search:
            guard let pointer = operation.answer, let member, let items = body?[pointer: pointer]?.arrayValue else {
                return []
            }
            return items.compactMap { $0[pointer: operation.element ?? .root]?[member].flatMap(Self.scalar) }
        case .delete:
            return []
        default:
            if let id = Self.itemID(in: path, endpoint: endpoint, resource: resource) { return [id] }
            // A create may answer the items it made as a list (42's `POST /v2/slots` opens a range of slots).
            if let pointer = operation.answer, let member, let answer = body?[pointer: pointer] {
                let ids = (answer.arrayValue ?? [answer]).compactMap { $0[member].flatMap(Self.scalar) }
                if !ids.isEmpty { return ids }
            }
            let names = [member, resource.identifier?.parameter].compactMap { $0 }
            if let body, let id = Self.identifier(in: body, named: names, at: operation.answer) { return [id] }
            if let location = response.headers["Location"],
                let last = location.split(separator: "?")[0].split(separator: "/").last
            {
                return [String(last).removingPercentEncoding ?? String(last)]
            }
            return []
        }
    }

    /// An item's identifier in an answer whose schema may not declare it: a member of one of `names` at the top, at
    /// the answer's pointer, or one level down (`{"data": {"id": "b1"}, "permissions": {...}}`, a first member
    /// that is an object wins).
    static func identifier(in body: JSONValue, named names: [String], at pointer: JSONPointer?) -> String? {
        var places = [body]
        if let pointer, let answer = body[pointer: pointer] { places.append(answer) }
        if case .object(let members) = body {
            places += members.keys.sorted().compactMap { key in
                if case .object = members[key]! { return members[key]! }
                return nil
            }
        }
        for place in places {
            for name in names { if let id = place[name].flatMap(scalar) { return id } }
        }
        return nil
    }

    /// The id an item-level path names (the segment after the collection's).
    static func itemID(in path: [String: String], endpoint: AnyEndpoint, resource: Resource) -> String? {
        let segments = endpoint.path.segments
        let index = resource.collection.segments.count
        guard resource.item != nil, index < segments.count, let name = segments[index].parameterNames.first else {
            return nil
        }
        return path[name]
    }

    /// A scalar's text; `nil` for anything else and for an empty string.
    static func scalar(_ value: JSONValue) -> String? {
        switch value {
        case .string(let string) where !string.isEmpty: string
        case .number(let number): number.literal
        default: nil
        }
    }

    // MARK: Bodies

    /// A valid request body for an endpoint, generated from its model (the same for a seed), or `nil` when it
    /// takes none or its body is not described by a model.
    func requestBody(for endpoint: AnyEndpoint) -> JSONValue? {
        guard let model = endpoint.request else { return nil }
        var random = SeededRandom(seed: options.seed).derived("request \(endpoint.id)")
        var generator = FixtureGenerator(seed: random.next(), spec: spec, optionalKeys: spec.optionalKeys)
        generator.direction = .request
        return generator.value(for: model)
    }

    /// A body in the media type the endpoint takes: JSON where the document allows it (and for built-in
    /// specs), else YAML (written as JSON, which YAML 1.2 reads), a form, multipart form data, or a few bytes of the
    /// documented type.
    func encoded(_ body: JSONValue?, for endpoint: AnyEndpoint) -> (bytes: [UInt8], contentType: String)? {
        let types = endpoint.requestMediaTypes
        if types.isEmpty || types.contains(where: { DocumentedResponse.isJSON(MediaType.essence($0)) }) {
            let type = types.first { DocumentedResponse.isJSON(MediaType.essence($0)) } ?? "application/json"
            return body.map { ($0.serializedBytes(), type) }
        }
        if let type = types.first(where: { DocumentedResponse.isYAML(MediaType.essence($0)) }) {
            return body.map { ($0.serializedBytes(), type) }
        }
        if types.contains(MediaType.form) {
            return (
                Array(
                    Self.formFields(body).map { "\(PathTemplate.percentEncode($0))=\(PathTemplate.percentEncode($1))" }
                        .joined(separator: "&").utf8), MediaType.form
            )
        }
        if types.contains("multipart/form-data") {
            let boundary = "understudy-\(options.seed)"
            var text = ""
            for (name, value) in Self.formFields(body) {
                text += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n"
            }
            return (Array((text + "--\(boundary)--\r\n").utf8), "multipart/form-data; boundary=\(boundary)")
        }
        guard endpoint.body != .none, let type = types.first else { return nil }
        return (Array("understudy".utf8), type.contains("*") ? "application/octet-stream" : type)
    }

    /// An object's members as form fields: scalars as text, arrays one field per element, objects as JSON.
    private static func formFields(_ body: JSONValue?) -> [(String, String)] {
        guard case .object(let members)? = body else { return [] }
        return members.keys.sorted().flatMap { name -> [(String, String)] in
            switch members[name]! {
            case .array(let elements): elements.map { (name, text($0)) }
            case let value: [(name, text(value))]
            }
        }
    }
}
