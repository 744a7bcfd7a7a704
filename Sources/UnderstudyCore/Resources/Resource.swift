/// A resource of an API: a collection of items that share an identifier, and the operations on them.
///
/// Most of a REST API is resources. `/pets` lists and creates pets, `/pets/{petId}` reads, replaces and deletes
/// one, `POST /pets/{petId}/adopt` acts on one, `/owners/{ownerId}/pets` holds the pets of one owner. One
/// resource model drives both the stateful mock (a create is found by the read of its id) and the checker's
/// exploration (ids from list answers, its own writes, clean-up). Resources are inferred from any document
/// (``ResourceGraph/init(spec:)``) and can be declared where inference is wrong (``ResourceDeclaration``).
///
/// ```swift
/// let graph = ResourceGraph(spec: spec)
/// let pets = graph.resource(named: "pets")
/// pets?.operation(.read)?.endpoint          // "GET /pets/{petId}"
/// pets?.identifier                           // petId <-> id
/// ```
public struct Resource: Sendable, Hashable {
    /// A name unique in the API: the collection's last literal segment (`pets`), prefixed by its parent's name
    /// where two collections end alike (`owners.pets`).
    public var name: String
    /// The path of the collection (`/pets`, `/owners/{ownerId}/pets`), as the document writes it.
    public var collection: PathTemplate
    /// The path of one item (`/pets/{petId}`), when the API addresses items one by one.
    public var item: PathTemplate?
    /// How an item is named in its path and in its body.
    public var identifier: ResourceIdentifier?
    /// The operations on the resource, in the order ``ResourceOperation/Role`` lists them.
    public var operations: [ResourceOperation]
    /// The resource whose item the collection sits under (`owners` for `/owners/{ownerId}/pets`).
    public var parent: ResourceParent?
    /// The schema of one item as the server answers it (the read's answer, else the list's items).
    public var schema: Schema
    /// What the resource was inferred from, or `declared`.
    public var basis: [ResourceBasis]

    public init(
        name: String, collection: PathTemplate, item: PathTemplate? = nil, identifier: ResourceIdentifier? = nil,
        operations: [ResourceOperation] = [], parent: ResourceParent? = nil, schema: Schema = .any,
        basis: [ResourceBasis] = []
    ) {
        self.name = name
        self.collection = collection
        self.item = item
        self.identifier = identifier
        self.operations = operations
        self.parent = parent
        self.schema = schema
        self.basis = basis
    }

    /// The first operation with a role.
    public func operation(_ role: ResourceOperation.Role) -> ResourceOperation? {
        operations.first { $0.role == role }
    }

    /// Every operation with a role.
    public func operations(_ role: ResourceOperation.Role) -> [ResourceOperation] {
        operations.filter { $0.role == role }
    }

    /// Whether an endpoint of a nested resource lists the items of every parent rather than one parent's: its path
    /// does not follow the collection's (`GET /v2/campus/{id}/locations` of the sessions kept under their users), or
    /// the parameter in the parent's place declares a meaning, which filters the items instead
    /// (`GET /v2/campus/{id}/events`: the events whose `campus_ids` hold `id`).
    public func listsAcrossParents(_ endpoint: AnyEndpoint) -> Bool {
        guard parent != nil else { return false }
        let filters = endpoint.filteringPathParameters
        return zip(collection.segments, endpoint.path.segments).contains { mine, theirs in
            switch (mine, theirs) {
            // `/Addresses.json` lists the items of `/Addresses/{Sid}.json` (``ResourceGraph``'s grouping).
            case (.literal(let mine), .literal(let theirs)): mine != theirs && mine != theirs + ".json"
            case (.literal, _): true
            case (.parameter, .parameter(let name)): filters.contains(name)
            default: false
            }
        }
    }
}

extension AnyEndpoint {
    /// The path parameters that filter a list's items (they declare a ``QueryMeaning``) rather than name a parent.
    public var filteringPathParameters: Set<String> {
        Set(parameters.filter { $0.location == .path && $0.meaning != nil }.map(\.name))
    }
}

/// How an item is named: the item path's parameter and the body member holding the same value.
public struct ResourceIdentifier: Sendable, Hashable, CustomStringConvertible {
    /// The item path's last parameter (`petId`).
    public var parameter: String
    /// The member of an item's body that holds it (`id`), when the item schema has one.
    public var member: String?

    public init(parameter: String, member: String?) {
        self.parameter = parameter
        self.member = member
    }

    public var description: String { "\(parameter) <-> \(member ?? "(no member)")" }
}

/// The resource a collection sits under, and the path parameter that names its item.
public struct ResourceParent: Sendable, Hashable {
    /// The parent resource's ``Resource/name``.
    public var resource: String
    /// The parameter of the collection's path that names the parent's item (`ownerId`).
    public var parameter: String

    public init(resource: String, parameter: String) {
        self.resource = resource
        self.parameter = parameter
    }
}

/// One operation of a resource.
public struct ResourceOperation: Sendable, Hashable {
    /// What an operation does to the resource.
    public enum Role: String, Sendable, Hashable, CaseIterable, Comparable {
        /// `GET` on the collection.
        case list
        /// A read of several items by criteria (`GET /pet/findByStatus`, `POST /jobs/filter`).
        case search
        /// `POST` on the collection.
        case create
        /// `GET` on an item.
        case read
        /// `PUT` on an item, or on the collection with the identifier in the body.
        case replace
        /// `PATCH` on an item (or `POST` with the item's members).
        case update
        /// `DELETE` on an item.
        case delete
        /// Anything else on an item (`POST /pets/{petId}/adopt`, `GET /items/{sku}/label`), or on the collection
        /// (`POST /user/createWithList`).
        case action

        public static func < (lhs: Role, rhs: Role) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    public var role: Role
    /// The endpoint (`METHOD /path`).
    public var endpoint: String
    /// Where the item is in the success answer: the whole body (empty pointer), a member of an envelope
    /// (`/data`), or for ``Role/list`` and ``Role/search`` the array of items (`/items`, or the whole body);
    /// `nil` when the answer does not carry the resource's items.
    public var answer: JSONPointer?
    /// For a list or a search whose elements wrap the item (`[{"data": {...}}]`), where the item is in each
    /// (`/data`); `nil` when the elements are the items.
    public var element: JSONPointer?

    public init(_ role: Role, _ endpoint: String, answer: JSONPointer? = nil, element: JSONPointer? = nil) {
        self.role = role
        self.endpoint = endpoint
        self.answer = answer
        self.element = element
    }
}

/// An OpenAPI link of a success answer: which operation its values lead to, and where each parameter of that
/// operation comes from (`petId: $response.body#/id`, `userId: $request.path.id`).
public struct ResponseLink: Sendable, Hashable {
    /// The operation linked to (`GET /pets/{petId}`).
    public var target: String
    /// Parameter of the target → where its value comes from.
    public var values: [String: LinkValue]

    public init(target: String, values: [String: LinkValue]) {
        self.target = target
        self.values = values
    }

    /// Parameter → the place in the answer's body that gives it.
    public var bodyPointers: [String: JSONPointer] {
        values.compactMapValues { if case .responseBody(let pointer) = $0 { pointer } else { nil } }
    }
}

/// Where a link takes a parameter's value (OpenAPI's runtime expressions, and constants).
public enum LinkValue: Sendable, Hashable {
    /// `$response.body#/owner/id`.
    case responseBody(JSONPointer)
    /// `$response.header.X-Request-Id` (a header's name, any case).
    case responseHeader(String)
    /// `$request.path.id`: a path value of the request answered.
    case requestPath(String)
    /// `$request.query.owner`.
    case requestQuery(String)
    /// `$request.body#/name`.
    case requestBody(JSONPointer)
    /// A value written in the link (`limit: 10`), as text.
    case constant(String)

    /// The source a link parameter's value names: a runtime expression (bare, or alone in braces,
    /// `{$response.body#/id}`), else a constant; `nil` for what no request could be given (`$url`, `$method`, an
    /// object).
    public init?(_ value: JSONValue) {
        guard case .string(var text) = value else {
            switch value {
            case .number(let number): self = .constant(number.literal)
            case .bool(let flag): self = .constant(String(flag))
            default: return nil
            }
            return
        }
        if text.hasPrefix("{$"), text.hasSuffix("}") { text = String(text.dropFirst().dropLast()) }
        guard text.hasPrefix("$") else {
            self = .constant(text)
            return
        }
        let forms: [(String, (String) -> LinkValue)] = [
            ("$response.body#", { .responseBody(JSONPointer($0)) }), ("$response.header.", { .responseHeader($0) }),
            ("$request.path.", { .requestPath($0) }), ("$request.query.", { .requestQuery($0) }),
            ("$request.body#", { .requestBody(JSONPointer($0)) }),
        ]
        guard let (prefix, make) = forms.first(where: { text.hasPrefix($0.0) }) else { return nil }
        self = make(String(text.dropFirst(prefix.count)))
    }
}

/// What a resource, or one of its parts, rests on.
public enum ResourceBasis: String, Sendable, Hashable, CaseIterable {
    /// `x-understudy-resource` on an operation, or a declaration in the descriptors.
    case declared
    /// A collection path and an item path one parameter below it (`/pets`, `/pets/{petId}`).
    case pathShape = "path shape"
    /// The item schema has a member for the item path's parameter (`petId` <-> `id`).
    case identifierMember = "identifier member"
    /// The create's success answer declares a `Location` header.
    case location = "Location header"
    /// An OpenAPI link gives the item path's parameter from another operation's answer.
    case links
    /// The list's items are the item's schema.
    case listItems = "list items"
}

/// A correction of inference on one operation: the resource it belongs to and its role there, or that it belongs
/// to none. Written on an operation as `x-understudy-resource`, in a user's document or in an exported one.
///
/// ```yaml
/// post:
///   x-understudy-resource: {resource: jobs, role: search}
/// ```
public enum ResourceDeclaration: Sendable, Hashable {
    /// The operation belongs to no resource (`x-understudy-resource: false`).
    case none
    /// The operation has `role` in `resource`; `identifier` names the item's body member, when inference misses it.
    case operation(resource: String, role: ResourceOperation.Role, identifier: String?)

    /// The name of the OpenAPI extension.
    public static let extensionName = "x-understudy-resource"

    /// Reads `false` or `{"resource": "jobs", "role": "search", "identifier": "id"}`; `nil` for anything else.
    public init?(json: JSONValue) {
        if json == .bool(false) {
            self = .none
            return
        }
        guard let resource = json["resource"]?.stringValue, !resource.isEmpty,
            let role = json["role"]?.stringValue.flatMap(ResourceOperation.Role.init(rawValue:))
        else { return nil }
        self = .operation(resource: resource, role: role, identifier: json["identifier"]?.stringValue)
    }

    /// The extension's value.
    public var json: JSONValue {
        switch self {
        case .none: return false
        case .operation(let resource, let role, let identifier):
            var object: [String: JSONValue] = ["resource": .string(resource), "role": .string(role.rawValue)]
            if let identifier { object["identifier"] = .string(identifier) }
            return .object(object)
        }
    }
}
