/// Every schema resource of a set of documents, compiled once and found by URI.
///
/// A registry is immutable: ``adding(document:uri:schemaRoots:)`` returns a new one that also knows the document
/// (and links the references earlier documents made to it). A 2020-12 registry knows the 2020-12 metaschemas
/// without network access.
///
/// ```swift
/// let registry = try SchemaRegistry(dialect: .jsonSchema2020_12)
///     .adding(document: openAPIDocument, uri: "https://example.com/openapi.json",
///             schemaRoots: ["/components/schemas/Pet", "/components/schemas/Owner"])
/// let pet = registry.schema(at: "https://example.com/openapi.json#/components/schemas/Pet")!
/// let findings = SchemaValidator().validate(body, against: pet)
/// ```
public final class SchemaRegistry: Sendable {
    /// The dialect every schema of this registry is read in.
    public let dialect: SchemaDialect
    let storage: Storage

    /// A registry that knows no document but, for 2020-12, the metaschemas.
    public convenience init(dialect: SchemaDialect) {
        switch dialect {
        case .jsonSchema2020_12, .understudy: self.init(dialect: dialect, storage: MetaSchemas.registry.storage)
        case .openAPI30: self.init(dialect: dialect, storage: Storage())
        }
    }

    init(dialect: SchemaDialect, storage: Storage) {
        self.dialect = dialect
        self.storage = storage
    }

    /// This registry and `document`, retrieved from `uri`, with its schemas compiled.
    ///
    /// - Parameters:
    ///   - document: the JSON of the document.
    ///   - uri: where the document was retrieved from: the base URI of its relative references.
    ///   - schemaRoots: where schemas sit in the document (for an OpenAPI document: each component schema, each
    ///     media type's schema, ...); each is compiled with everything below it and walked for `$id`, `$anchor`
    ///     and `$dynamicAnchor`. `nil` means the document itself is a schema.
    /// - Returns: a registry that also holds the document.
    /// - Throws: ``SchemaRegistryError`` when a document is already registered at `uri`.
    public func adding(document: JSONValue, uri: String, schemaRoots: [JSONPointer]? = nil) throws(SchemaRegistryError)
        -> SchemaRegistry
    {
        var compiler = SchemaCompiler(dialect: dialect, storage: storage)
        try compiler.add(document: document, uri: uri, schemaRoots: schemaRoots ?? [.root])
        return SchemaRegistry(dialect: dialect, storage: compiler.storage)
    }

    /// The schema at `uri` (`openapi.json#/components/schemas/Pet`, `urn:example:root#node`), or `nil` when no
    /// compiled schema is there.
    public func schema(at uri: String) -> CompiledSchema? {
        guard let path = storage.locate(URIReference(uri)), let pointer = storage.pointers.lookup(path.tokens),
            let node = storage.nodeIndex[SchemaLocation(document: path.document, pointer: pointer)]
        else { return nil }
        return CompiledSchema(registry: self, node: node)
    }

    /// The schema at a JSON pointer of the document registered at `uri` (no fragment to percent-encode: an OpenAPI
    /// path such as `/pets/{petId}` is a pointer token as it is), or `nil` when no compiled schema is there.
    public func schema(inDocument uri: String, at pointer: JSONPointer) -> CompiledSchema? {
        let normalized = URIReference(uri).withoutFragment.description
        guard let document = storage.documentURIs.firstIndex(where: { $0 == uri || $0 == normalized }),
            let id = storage.pointers.lookup(pointer.tokens),
            let node = storage.nodeIndex[SchemaLocation(document: document, pointer: id)]
        else { return nil }
        return CompiledSchema(registry: self, node: node)
    }

    /// The references no registered document answers, as absolute URIs, sorted: what a lint reports before any
    /// validation does.
    public var unresolvedReferences: [String] {
        Set(storage.unlinked.flatMap { storage.nodes[$0].keywords.compactMap(\.unresolvedURI) }).sorted()
    }

    /// Everything a registry knows; a value, so adding a document copies and extends it.
    struct Storage: Sendable {
        var documents: [JSONValue] = []
        var documentURIs: [String] = []
        var resources: [SchemaResource] = []
        /// Absolute URIs without fragment (a document's, or an `$id`'s) to resources.
        var resourceIndex: [String: Int] = [:]
        /// `uri#name` of every `$anchor` and `$dynamicAnchor` to where it sits.
        var anchors: [String: SchemaLocation] = [:]
        var nodes: [SchemaNode] = []
        var nodeIndex: [SchemaLocation: Int] = [:]
        var pointers = PointerTable()
        /// Nodes with a reference that did not resolve yet: a later document may answer it.
        var unlinked: [Int] = []
        /// Whether any `$dynamicRef` depends on the dynamic scope: only then does evaluation track it.
        var usesDynamicScope = false

        /// Where a URI points: a resource's root, a JSON pointer below it, or an anchor; `nil` when no registered
        /// document has it.
        func locate(_ reference: URIReference) -> DocumentPath? {
            let base = reference.withoutFragment.description
            guard let resource = resourceIndex[base] else { return nil }
            let root = resources[resource].root
            let fragment = reference.decodedFragment ?? ""
            if fragment.isEmpty { return path(of: root) }
            if fragment.hasPrefix("/") {
                let path = DocumentPath(
                    document: root.document, tokens: pointers.tokens(root.pointer) + JSONPointer(fragment).tokens)
                return value(at: path) == nil ? nil : path
            }
            return anchors[base + "#" + fragment].map(path(of:))
        }

        func path(of location: SchemaLocation) -> DocumentPath {
            DocumentPath(document: location.document, tokens: pointers.tokens(location.pointer))
        }

        func value(at path: DocumentPath) -> JSONValue? {
            documents[path.document][pointer: JSONPointer(tokens: path.tokens)]
        }

        /// `https://example.com/schema.json#/properties/name`: where a node sits, as findings name it.
        func uri(of node: SchemaNode) -> String {
            let resource = resources[node.resource]
            let tokens = pointers.tokens(node.location.pointer)
            let rootTokens = pointers.tokens(resource.root.pointer)
            if resource.root.document == node.location.document, tokens.starts(with: rootTokens) {
                return resource.uri + "#" + JSONPointer(tokens: Array(tokens.dropFirst(rootTokens.count))).description
            }
            return documentURIs[node.location.document] + "#" + JSONPointer(tokens: tokens).description
        }
    }
}

extension SchemaRegistry.Storage {
    /// Whether a node is the `false` schema.
    func isFalse(_ id: Int) -> Bool {
        guard nodes[id].keywords.count == 1, case .never = nodes[id].keywords[0] else { return false }
        return true
    }

    /// Whether a message in `direction` leaves out a member of this schema: `readOnly` in a request, `writeOnly` in a
    /// response, read through `$ref`s (a few hops).
    func isLeftOut(_ schema: Int, in direction: MessageDirection) -> Bool {
        var current = schema
        for _ in 0..<32 {
            switch (nodes[current].access, direction) {
            case (.readOnly, .request), (.writeOnly, .response): return true
            default: break
            }
            guard
                let next = nodes[current].keywords.lazy.compactMap({ keyword -> Int? in
                    if case .reference(.resolved(let target), _) = keyword { return target }
                    return nil
                }).first
            else { return false }
            current = next
        }
        return false
    }
}

/// One schema resource: a document, or a subschema with its own `$id`.
struct SchemaResource: Sendable {
    var uri: String
    var root: SchemaLocation
    /// `$dynamicAnchor` names in this resource to their nodes.
    var dynamicAnchors: [String: Int] = [:]
}

/// A compiled schema, ready to validate against: a node of a registry.
public struct CompiledSchema: Sendable, Hashable {
    public let registry: SchemaRegistry
    let node: Int

    /// Where the schema sits (`https://example.com/openapi.json#/components/schemas/Pet`).
    public var uri: String { registry.storage.uri(of: registry.storage.nodes[node]) }

    /// The same schema of the same registry.
    public static func == (lhs: CompiledSchema, rhs: CompiledSchema) -> Bool {
        lhs.registry === rhs.registry && lhs.node == rhs.node
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(registry))
        hasher.combine(node)
    }
}

/// Why a document could not be added to a ``SchemaRegistry``.
public struct SchemaRegistryError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Reason: Sendable, Hashable {
        case duplicateDocument(String)
    }

    private let reason: Reason

    /// A document is already registered at this URI.
    public static func duplicateDocument(_ uri: String) -> SchemaRegistryError {
        SchemaRegistryError(reason: .duplicateDocument(uri))
    }

    public var description: String {
        switch reason {
        case .duplicateDocument(let uri): "a document is already registered at \(uri); register each document once"
        }
    }
}

extension SchemaKeyword {
    /// The URI of a reference nothing answers yet.
    var unresolvedURI: String? {
        switch self {
        case .reference(.unresolved(let uri), _), .dynamicReference(.unresolved(let uri), _, _): uri
        default: nil
        }
    }
}
