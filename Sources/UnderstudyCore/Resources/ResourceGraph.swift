/// The resources of an API, inferred from its endpoints and corrected by what is declared on them.
///
/// Inference reads, strongest evidence first: ``ResourceDeclaration``s (`x-understudy-resource`); the path shape
/// (a collection `/pets` and an item one parameter below it, `/pets/{petId}`); the item schema's member for the
/// item's parameter (`petId` <-> `id`, `{username}` <-> `username`); a create's `Location` header; a list whose
/// items are the item's schema. Operations below an item (`POST /pets/{petId}/adopt`) are its actions; those
/// below a collection are searches when their answer lists the items or their name says so (`findByStatus`,
/// `POST /jobs/filter`), actions otherwise. An endpoint that fits no resource is in ``others``.
///
/// ```swift
/// for resource in ResourceGraph(spec: spec).resources {
///     print(resource.name, resource.collection, resource.item ?? "-", resource.identifier?.description ?? "-")
/// }
/// ```
public struct ResourceGraph: Sendable {
    /// The resources, parents before their children, then by collection path.
    public let resources: [Resource]
    /// The endpoints (`METHOD /path`) that belong to no resource, in the spec's order.
    public let others: [String]

    /// Infers the resources of a spec.
    public init(spec: APISpec) {
        var inference = ResourceInference(spec: spec)
        resources = inference.resources()
        let claimed = Set(resources.flatMap { $0.operations.map(\.endpoint) })
        others = spec.endpoints.map(\.id).filter { !claimed.contains($0) }
    }

    /// The resource with a name.
    public func resource(named name: String) -> Resource? {
        resources.first { $0.name == name }
    }

    /// The resource and role of an endpoint, when it belongs to one.
    public func role(of endpoint: String) -> (resource: Resource, operation: ResourceOperation)? {
        for resource in resources {
            if let operation = resource.operations.first(where: { $0.endpoint == endpoint }) {
                return (resource, operation)
            }
        }
        return nil
    }

    /// The resource whose item path is `template`, compared by shape (parameter names aside).
    public func resource(withItem template: PathTemplate) -> Resource? {
        let shape = ResourceInference.shape(template.segments)
        return resources.first { $0.item.map { ResourceInference.shape($0.segments) == shape } ?? false }
    }

    /// The resource whose collection path is `template`, compared by shape.
    public func resource(withCollection template: PathTemplate) -> Resource? {
        let shape = ResourceInference.shape(template.segments)
        return resources.first { ResourceInference.shape($0.collection.segments) == shape }
    }
}

/// The work of ``ResourceGraph/init(spec:)``, and the reading of answers the mock and the checker share.
package struct ResourceInference {
    let spec: APISpec
    /// Endpoints by path shape (parameters as `{}`), in the spec's order.
    private var byShape: [String: [AnyEndpoint]] = [:]
    /// The shapes, sorted: those with a common prefix are neighbours.
    private let sortedShapes: [String]
    /// The spec's endpoints by id.
    private let endpoints: [String: AnyEndpoint]

    init(spec: APISpec) {
        self.spec = spec
        for endpoint in spec.endpoints where endpoint.resource == nil {
            byShape[Self.groupingShape(endpoint.path.segments), default: []].append(endpoint)
        }
        sortedShapes = byShape.keys.sorted()
        endpoints = Dictionary(spec.endpoints.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// A path's shape: its segments with every parameter as `{}` (`/pets/{}`).
    package static func shape(_ segments: [PathTemplate.Segment]) -> String {
        "/"
            + segments.map { segment in
                switch segment {
                case .literal(let text): text
                case .parameter: "{}"
                case .template(let parts):
                    parts.map { part in
                        switch part {
                        case .literal(let text): text
                        case .parameter: "{}"
                        }
                    }.joined()
                }
            }.joined(separator: "/")
    }

    /// The shape resources are grouped by: without a format suffix at the end (`/Addresses.json` lists the items of
    /// `/Addresses/{Sid}.json`, as one telephony API writes every path).
    static func groupingShape(_ segments: [PathTemplate.Segment]) -> String {
        let shape = shape(segments)
        return shape.hasSuffix(".json") && shape.count > ".json".count + 1 ? String(shape.dropLast(".json".count)) : shape
    }

    /// The parameter an item path ends with: the whole last segment (`/pets/{petId}`), or the one parameter in it
    /// (`/Addresses/{Sid}.json`).
    static func itemParameter(_ path: PathTemplate) -> String? {
        switch path.segments.last {
        case .parameter(let name): return name
        case .template(let parts):
            let names = parts.compactMap { part -> String? in
                if case .parameter(let name) = part { return name }
                return nil
            }
            return names.count == 1 ? names[0] : nil
        default: return nil
        }
    }

    private static func segments(_ shape: String) -> [String] {
        shape.split(separator: "/").map(String.init)
    }

    mutating func resources() -> [Resource] {
        // Collections: the parent of every item shape (`/pets` of `/pets/{}`), and every shape that both lists
        // and creates.
        var collections: Set<String> = []
        for shape in byShape.keys {
            let parts = Self.segments(shape)
            if parts.count >= 2, parts.last == "{}" {
                let collection = "/" + parts.dropLast().joined(separator: "/")
                // A collection named by a parameter (`/envvars/{env}` over `/envvars/{env}/{name}`) is one when it
                // lists or creates.
                if parts[parts.count - 2] != "{}" || (byShape[collection] ?? []).contains(where: isListOrCreate) {
                    collections.insert(collection)
                }
            }
            let methods = Set((byShape[shape] ?? []).map(\.method))
            if parts.last != "{}", !parts.isEmpty, methods.contains(.get), methods.contains(.post) {
                collections.insert(shape)
            }
        }
        // Parents first: a nested collection needs its parent's name.
        let ordered = collections.sorted { (Self.segments($0).count, $0) < (Self.segments($1).count, $1) }
        var claimed: Set<String> = []
        var resources = applyingDeclarations(
            to: Self.uniquelyNamed(
                ordered.compactMap { resource(collection: $0, collections: collections, claimed: &claimed) }))
        // A collection's parent is the resource whose item path is the longest prefix of it
        // (`/owners/{ownerId}` of `/owners/{ownerId}/pets`, and of `/owners/{ownerId}/files/{folder}`), a declared
        // collection's too (`/v2/users/{login}/projects_users`).
        for index in resources.indices {
            let segments = resources[index].collection.segments
            for length in stride(from: segments.count - 1, through: 1, by: -1) {
                guard case .parameter(let parameter) = segments[length - 1] else { continue }
                let prefix = Self.shape(Array(segments[..<length]))
                guard let parent = resources.first(where: { $0.item.map { Self.groupingShape($0.segments) } == prefix })
                else {
                    continue
                }
                resources[index].parent = ResourceParent(resource: parent.name, parameter: parameter)
                break
            }
        }
        return resources
    }

    private func isListOrCreate(_ endpoint: AnyEndpoint) -> Bool {
        endpoint.method == .post
            || endpoint.method == .get && endpoint.response.map { Self.listItems(in: $0.schema, spec.definitions) != nil } == true
    }

    private mutating func resource(collection: String, collections: Set<String>, claimed: inout Set<String>)
        -> Resource?
    {
        let itemShape = collection + "/{}"
        let collectionEndpoints = byShape[collection] ?? []
        // A path whose read answers a list (`GET /repositories/{username}`) lists by its parameter: no item.
        let itemEndpoints = (byShape[itemShape] ?? []).contains { endpoint in
            endpoint.method == .get && endpoint.response.map { Self.isList($0.schema, spec.definitions) } == true
        } ? [] : byShape[itemShape] ?? []
        guard !collectionEndpoints.isEmpty || !itemEndpoints.isEmpty else { return nil }
        let collectionPath = collectionEndpoints.first?.path ?? PathTemplate(Self.prefix(of: itemEndpoints[0].path))
        let itemPath = itemEndpoints.first?.path
        let name = Self.segments(collection).last { $0 != "{}" } ?? "items"

        let read = itemEndpoints.first { $0.method == .get }
        let list = collectionEndpoints.first { $0.method == .get }
        let schema = itemSchema(read: read, list: list, item: itemEndpoints, collection: collectionEndpoints)

        var operations: [ResourceOperation] = []
        for endpoint in collectionEndpoints {
            let role: ResourceOperation.Role =
                switch endpoint.method {
                case .get: .list
                case .post: .create
                case .put: .replace
                case .patch, .delete: .action
                }
            operations.append(ResourceOperation(role, endpoint.id, answer: answer(of: endpoint, role: role, schema)))
        }
        for endpoint in itemEndpoints {
            let role: ResourceOperation.Role =
                switch endpoint.method {
                case .get: .read
                case .put: .replace
                case .patch, .post: .update
                case .delete: .delete
                }
            operations.append(ResourceOperation(role, endpoint.id, answer: answer(of: endpoint, role: role, schema)))
        }
        // Below the collection: searches and the collection's actions. Below an item: its actions, except the
        // collections of nested resources. Shapes that start alike are together in sorted order.
        for shape in shapesStarting(with: collection) {
            let endpoints = byShape[shape] ?? []
            // `/tasks/{id}:cancel` (a custom method, as Google's API guidelines write them) acts on the item too.
            let customMethod = shape.hasPrefix(itemShape + ":") && !shape.dropFirst(itemShape.count).contains("/")
            let belowCollection = shape.hasPrefix(collection + "/") && !shape.hasPrefix(itemShape) && !customMethod
            let belowItem = shape.hasPrefix(itemShape + "/") || customMethod
            guard belowCollection || belowItem else { continue }
            let rest = Self.segments(String(shape.dropFirst((belowItem ? itemShape : collection).count)))
            // A nested collection (and everything under it) is another resource's; so is an item below this one.
            guard !rest.contains("{}") else { continue }
            // Within a nested collection: the shape is one of the collections below the item, or lies under one.
            if belowItem, Self.prefixes(of: shape).contains(where: { $0.count > itemShape.count && collections.contains($0) }) {
                continue
            }
            if belowCollection, collections.contains(shape) { continue }
            for endpoint in endpoints where !claimed.contains(endpoint.id) {
                var role = ResourceOperation.Role.action
                var answer: JSONPointer?
                if belowCollection, endpoint.method == .get || endpoint.method == .post {
                    answer = self.answer(of: endpoint, role: .search, schema)
                    let searchLike = rest.last.map(Self.isSearchName) ?? false
                    if searchLike || (answer != nil && endpoint.method == .get) { role = .search }
                    if role != .search { answer = nil }
                }
                if role == .action { answer = self.answer(of: endpoint, role: .read, schema) }
                operations.append(ResourceOperation(role, endpoint.id, answer: answer))
            }
        }
        for index in operations.indices where operations[index].answer != nil {
            operations[index].element = element(of: operations[index], schema)
        }
        operations.sort { ($0.role, $0.endpoint) < ($1.role, $1.endpoint) }
        for operation in operations { claimed.insert(operation.endpoint) }

        var basis: [ResourceBasis] = []
        var identifier: ResourceIdentifier?
        if let itemPath, let parameter = Self.itemParameter(itemPath) {
            basis.append(.pathShape)
            // The read's item first; then a list's items and a create's body, which may name an item its read
            // leaves unnamed (`GET /envvars/{env}/{name}` answers the value alone).
            let schemas =
                [schema] + [list?.response?.schema].compactMap { $0 }.compactMap {
                    Self.listItems(in: $0, spec.definitions)?.schema
                } + collectionEndpoints.filter { $0.method == .post }.compactMap(\.request?.schema)
            let definitions = spec.definitions
            let summary = itemEndpoints.lazy.compactMap { endpoint in
                endpoint.parameters.first { $0.location == .path && $0.name == parameter }?.summary
            }.first
            let inferred = schemas.lazy.compactMap {
                Self.identifierMember(for: parameter, summary: summary, in: $0, definitions: definitions)
            }.first
            // An OpenAPI link from the create or the list to an item operation says which member fills the item's
            // parameter (`petId: $response.body#/id`, `$response.body#/0/id`).
            let itemIDs = Set(itemEndpoints.map(\.id))
            let linked = collectionEndpoints.lazy.flatMap(\.links).compactMap { link -> String? in
                guard itemIDs.contains(link.target) else { return nil }
                return link.bodyPointers[parameter]?.tokens.last { Int($0) == nil }
            }.first
            let member = linked ?? inferred
            identifier = ResourceIdentifier(parameter: parameter, member: member)
            if inferred != nil { basis.append(.identifierMember) }
            if linked != nil { basis.append(.links) }
        }
        let create = collectionEndpoints.first { $0.method == .post }
        if let create, create.documentedResponses(in: spec).contains(where: { response in
            (200..<300).contains(response.status ?? 0) && response.headers.contains { $0.name.lowercased() == "location" }
        }) {
            basis.append(.location)
        }
        if operations.contains(where: { $0.role == .list && $0.answer != nil }) { basis.append(.listItems) }
        return Resource(
            name: name, collection: collectionPath, item: itemPath, identifier: identifier, operations: operations,
            schema: schema, basis: basis)
    }

    /// The template of a path without its last segment.
    private static func prefix(of path: PathTemplate) -> String {
        let template = path.template.hasSuffix("/") ? String(path.template.dropLast()) : path.template
        guard let slash = template.lastIndex(of: "/") else { return "/" }
        return template[..<slash].isEmpty ? "/" : String(template[..<slash])
    }

    /// The shapes that begin with `prefix` (the collection's own and every one below it), in order.
    private func shapesStarting(with prefix: String) -> ArraySlice<String> {
        let low = sortedShapes.partitioningIndex { $0 >= prefix }
        var end = low
        while end < sortedShapes.endIndex, sortedShapes[end].hasPrefix(prefix) { end += 1 }
        return sortedShapes[low..<end]
    }

    /// A shape and the shapes of its leading segments (`/a/{}/b` → `/a/{}/b`, `/a/{}`, `/a`).
    private static func prefixes(of shape: String) -> [String] {
        var parts = segments(shape)
        var result: [String] = []
        while !parts.isEmpty {
            result.append("/" + parts.joined(separator: "/"))
            parts.removeLast()
        }
        return result
    }

    /// Names that say an operation reads by criteria (`findByStatus`, `filter`, `search`, `count`, `list`), not
    /// that it writes (`createWithList`).
    package static func isSearchName(_ segment: String) -> Bool {
        let lowered = segment.lowercased()
        if ["create", "add", "insert", "update", "delete", "remove", "set", "put"].contains(where: lowered.hasPrefix) {
            return false
        }
        return ["search", "filter", "query", "find", "lookup", "count", "paginate"].contains(where: lowered.contains)
            || lowered.hasPrefix("list")
    }

    /// The item's schema: the read's answer, else the list's items, else what a replace, update or create
    /// answers or takes.
    private func itemSchema(read: AnyEndpoint?, list: AnyEndpoint?, item: [AnyEndpoint], collection: [AnyEndpoint])
        -> Schema
    {
        if let schema = read?.response?.schema, schema != .any { return Self.unwrapped(schema, spec.definitions) }
        if let schema = list?.response?.schema, let items = Self.listItems(in: schema, spec.definitions) {
            return items.schema
        }
        for endpoint in item + collection where endpoint.method != .get && endpoint.method != .delete {
            if let schema = endpoint.response?.schema, Self.isObject(schema, spec.definitions) {
                return Self.unwrapped(schema, spec.definitions)
            }
        }
        for endpoint in collection where endpoint.method == .post {
            if let schema = endpoint.request?.schema, Self.isObject(schema, spec.definitions) { return schema }
        }
        return .any
    }

    /// A single-item envelope's item (`{data: Pet}`, `{article: Article}` → the item); the schema itself
    /// otherwise.
    private static func unwrapped(_ schema: Schema, _ definitions: SchemaDefinitions) -> Schema {
        guard case .object(let object)? = schema.resolved(in: definitions) else { return schema }
        let objects = object.properties.filter { isObject($0.schema, definitions) }
        let enveloped = objects.first { envelopeMembers.contains($0.name) }
        // A larger envelope names no item of its own (`{success, data, message, errors, timestamp}`).
        let names = Set(object.properties.map(\.name))
        let data =
            object.properties.count == 1
            ? objects.first
            : object.properties.count <= 3 || names.isDisjoint(with: ["id", "_id", "uuid"]) ? enveloped : nil
        return data?.schema.nonNull ?? schema
    }

    /// Whether an answer is a list: an array, or an object around one (`{roles: [...]}`, `{data: [...], total: 3}`).
    private static func isList(_ schema: Schema, _ definitions: SchemaDefinitions) -> Bool {
        switch schema.resolved(in: definitions) {
        case .array?: return true
        case .object(let object)?:
            let arrays = object.properties.filter {
                if case .array? = $0.schema.resolved(in: definitions) { return true }
                return false
            }
            guard arrays.count == 1 else { return false }
            if object.properties.count == 1 { return true }
            let others = object.properties.filter { $0.name != arrays[0].name }
            return envelopeMembers.contains(arrays[0].name) && others.count <= 3
                && others.allSatisfy { property in
                    switch property.schema.resolved(in: definitions) {
                    case .integer?, .string?, .boolean?, .number?: true
                    default: false
                    }
                }
        default: return false
        }
    }

    private static func isObject(_ schema: Schema, _ definitions: SchemaDefinitions) -> Bool {
        if case .object = schema.resolved(in: definitions) { return true }
        return false
    }

    /// Members that wrap a single item or a page of items.
    package static let envelopeMembers: Set<String> = [
        "data", "items", "results", "result", "content", "records", "entries", "elements", "values", "list", "rows",
        "hits", "objects", "value",
    ]

    /// The array of items in a list answer's schema: the answer itself, or one array member of an envelope (one
    /// named as envelopes name it, else the only array member).
    package static func listItems(in schema: Schema, _ definitions: SchemaDefinitions) -> (pointer: JSONPointer, schema: Schema)? {
        switch schema.resolved(in: definitions) {
        case .array(let array)?: return (.root, array.items)
        case .object(let object)?:
            let arrays = object.properties.compactMap { property -> (String, Schema)? in
                if case .array(let array)? = property.schema.resolved(in: definitions) {
                    return (property.name, array.items)
                }
                return nil
            }
            guard let chosen = arrays.first(where: { envelopeMembers.contains($0.0) }) ?? (arrays.count == 1 ? arrays[0] : nil)
            else { return nil }
            return (JSONPointer(tokens: [chosen.0]), chosen.1)
        default: return nil
        }
    }

    /// For a list or a search whose elements wrap the item, where the item is in each.
    private func element(of operation: ResourceOperation, _ item: Schema) -> JSONPointer? {
        guard operation.role == .list || operation.role == .search, let pointer = operation.answer,
            let response = endpoints[operation.endpoint]?.response?.schema,
            let (found, elements) = Self.listItems(in: response, spec.definitions), found == pointer
        else { return nil }
        return Self.element(elements, item, spec.definitions)
    }

    /// Where the resource's item (or for a list or search, its array of items) is in an endpoint's answer.
    private func answer(of endpoint: AnyEndpoint, role: ResourceOperation.Role, _ item: Schema) -> JSONPointer? {
        guard let response = endpoint.response?.schema else { return nil }
        let definitions = spec.definitions
        if role == .list || role == .search {
            guard let (pointer, items) = Self.listItems(in: response, definitions) else { return nil }
            let matches = Self.same(items, item, definitions) || Self.element(items, item, definitions) != nil
            return matches || item == .any || role == .list ? pointer : nil
        }
        if Self.same(response, item, definitions) { return .root }
        // A create may answer the items it made as a list (42's `POST /v2/slots` opens a range of slots).
        if role == .create, let (pointer, items) = Self.listItems(in: response, definitions),
            Self.same(items, item, definitions)
        {
            return pointer
        }
        guard case .object(let object)? = response.resolved(in: definitions) else { return nil }
        for property in object.properties where Self.same(property.schema.nonNull, item, definitions) {
            return JSONPointer(tokens: [property.name])
        }
        return nil
    }

    /// Where the item is in each element of a list whose elements wrap it (`[{"data": {...}}]` → `/data`); `nil` when
    /// the elements are the items.
    package static func element(_ elements: Schema, _ item: Schema, _ definitions: SchemaDefinitions) -> JSONPointer? {
        guard !same(elements, item, definitions), case .object(let object)? = elements.resolved(in: definitions),
            object.properties.count <= 3
        else { return nil }
        return object.properties.first { same($0.schema.nonNull, item, definitions) }.map { JSONPointer(tokens: [$0.name]) }
    }

    /// Whether two schemas describe the same item: the same model, or equal after references.
    package static func same(_ first: Schema, _ second: Schema, _ definitions: SchemaDefinitions) -> Bool {
        if case .ref(let a) = first.nonNull, case .ref(let b) = second.nonNull { return a == b }
        guard let a = first.resolved(in: definitions), let b = second.resolved(in: definitions) else { return false }
        if case .any = a { return false }
        return a == b
    }

    /// The member of an item's schema that holds the item path's parameter: the parameter's own name (or its
    /// snake or camel spelling), `id` for a parameter that ends in an id (`petId`, `pet_id`), then the usual
    /// identifier names.
    package static func identifierMember(
        for parameter: String, summary: String? = nil, in schema: Schema, definitions: SchemaDefinitions
    ) -> String? {
        guard case .object(let object)? = schema.resolved(in: definitions) else { return nil }
        let names = Set(object.properties.map(\.name))
        let lowered = parameter.lowercased()
        var candidates = [parameter, snakeCase(parameter), camelCase(parameter)]
        // The parameter's description says what it holds: "Database name" for `{database}`.
        let words = Set((summary ?? "").lowercased().split { !$0.isLetter }.map(String.init))
        if words.contains("name") { candidates.append("name") }
        if words.contains("slug") { candidates.append("slug") }
        if lowered == "id" || lowered.hasSuffix("id") || lowered.hasSuffix("_id") { candidates += ["id", "_id", "ID", "Id"] }
        if lowered.hasSuffix("uuid") { candidates += ["uuid", "id"] }
        if lowered.hasSuffix("name") { candidates += ["name"] }
        if lowered.hasSuffix("key") { candidates += ["key"] }
        if lowered.hasSuffix("slug") { candidates += ["slug"] }
        if lowered.hasSuffix("code") { candidates += ["code"] }
        // A member the object describes, before one only its `required` names (any value).
        let described = Set(object.properties.filter { $0.schema != .any }.map(\.name))
        return candidates.first(where: described.contains) ?? candidates.first(where: names.contains)
    }

    private static func snakeCase(_ name: String) -> String {
        var result = ""
        for character in name {
            if character.isUppercase {
                if !result.isEmpty { result += "_" }
                result += character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }

    private static func camelCase(_ name: String) -> String {
        let parts = name.split(separator: "_")
        guard let first = parts.first else { return name }
        return String(first) + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// Names made unique: collections that end alike are named by their whole path's literals (`owners.pets`), and
    /// then by their parameters too (`roles.grants.roleName`).
    private static func uniquelyNamed(_ resources: [Resource]) -> [Resource] {
        func renamed(_ resources: [Resource], _ name: (Resource) -> String) -> [Resource] {
            var counts: [String: Int] = [:]
            for resource in resources { counts[resource.name, default: 0] += 1 }
            return resources.map { resource in
                guard counts[resource.name, default: 0] > 1 else { return resource }
                var copy = resource
                copy.name = name(resource)
                return copy
            }
        }
        let byLiterals = renamed(resources) { resource in
            resource.collection.segments.compactMap { segment -> String? in
                if case .literal(let text) = segment { return text }
                return nil
            }.joined(separator: ".")
        }
        return renamed(byLiterals) { ([$0.name] + $0.collection.parameterNames).joined(separator: ".") }
    }

    /// Moves the declared operations where their declarations say (creating the resources they name).
    private func applyingDeclarations(to inferred: [Resource]) -> [Resource] {
        var resources = inferred
        /// The identifier members declarations name, by resource: an action's item path may come after the list's.
        var members: [String: String] = [:]
        // A path whose parameter filters the items (a meaning) is not the collection's, where another path is.
        let filtering = spec.endpoints.filter { !$0.filteringPathParameters.isEmpty }
        for endpoint in spec.endpoints.filter({ $0.filteringPathParameters.isEmpty }) + filtering {
            guard case .operation(let name, let role, let member)? = endpoint.resource else { continue }
            let index: Int
            if let existing = resources.firstIndex(where: { $0.name == name }) {
                index = existing
            } else {
                let itemRoles: Set<ResourceOperation.Role> = [.read, .update, .delete]
                let itemLevel = itemRoles.contains(role) || (role == .replace && endpoint.path.parameterNames.last != nil)
                let collection = itemLevel ? PathTemplate(Self.prefix(of: endpoint.path)) : endpoint.path
                resources.append(Resource(name: name, collection: collection, basis: [.declared]))
                index = resources.count - 1
            }
            var resource = resources[index]
            if role == .read || resource.item == nil && [.update, .delete].contains(role) {
                resource.item = resource.item ?? endpoint.path
                if role == .read, let schema = endpoint.response?.schema { resource.schema = schema }
            }
            // Without a read, a declared list's items are the item (`GET /v2/me/slots` for `POST /v2/slots`, which
            // takes a request model): what the other operations answer is found anew.
            if role == .list, resource.operation(.read) == nil, let response = endpoint.response?.schema,
                let items = Self.listItems(in: response, spec.definitions)?.schema,
                !Self.same(items, resource.schema, spec.definitions)
            {
                resource.schema = items
                for position in resource.operations.indices {
                    let operation = resource.operations[position]
                    guard let known = endpoints[operation.endpoint] else { continue }
                    resource.operations[position].answer = answer(of: known, role: operation.role, items)
                    resource.operations[position].element = element(of: resource.operations[position], items)
                }
            }
            // An action below an item no other operation addresses (`POST /notifications/{id}/read` without a read)
            // names the item's path all the same.
            let segments = endpoint.path.segments
            let depth = resource.collection.segments.count
            if role == .action, resource.item == nil, segments.count > depth + 1, case .parameter = segments[depth] {
                let text = endpoint.path.template.split(separator: "/")[depth]
                resource.item = PathTemplate(resource.collection.template + "/" + text)
            }
            if let member { members[name] = member }
            if let member = members[name], let item = resource.item, let parameter = Self.itemParameter(item) {
                resource.identifier = ResourceIdentifier(parameter: parameter, member: member)
            }
            var operation = ResourceOperation(role, endpoint.id, answer: answer(of: endpoint, role: role, resource.schema))
            operation.element = operation.answer.flatMap { _ in element(of: operation, resource.schema) }
            resource.operations.append(operation)
            resource.operations.sort { ($0.role, $0.endpoint) < ($1.role, $1.endpoint) }
            if !resource.basis.contains(.declared) { resource.basis.append(.declared) }
            resources[index] = resource
        }
        // The resources declarations made, as the inferred ones are ordered: parents first, then by path, whatever
        // order the document gives its operations in.
        let made = resources[inferred.count...].sorted {
            ($0.collection.segments.count, Self.shape($0.collection.segments))
                < ($1.collection.segments.count, Self.shape($1.collection.segments))
        }
        return Array(resources[..<inferred.count]) + made
    }
}

extension ResourceGraph {
    /// The values of `template`'s parameters at the positions where `other` has parameters, renamed as `other`
    /// names them: an item path's values given the collection's (`/owners/{owner}/pets` → `/owners/{ownerId}/…`).
    package static func renamed(_ values: [String: String], from template: PathTemplate, to other: PathTemplate)
        -> [String: String]
    {
        var result: [String: String] = [:]
        for (own, theirs) in zip(template.segments, other.segments) {
            for (name, otherName) in zip(own.parameterNames, theirs.parameterNames) {
                if let value = values[name] { result[otherName] = value }
            }
        }
        return result
    }
}
