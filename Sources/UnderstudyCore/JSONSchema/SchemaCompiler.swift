/// Compiles a document's schemas into a registry's node arena, then links their references.
///
/// Compilation is iterative (a worklist, never recursion), so a schema nested 100,000 deep compiles in linear
/// time and constant stack. It runs in two passes: the first compiles every schema below the roots, registering
/// `$id`s and anchors as it meets them; the second resolves `$ref`/`$dynamicRef` against everything registered,
/// compiling on demand the targets no root covers (`#/definitions/x` in OpenAPI 3.0, a keyword it does not know).
struct SchemaCompiler {
    let dialect: SchemaDialect
    var storage: SchemaRegistry.Storage
    /// Nodes allocated and waiting for their keywords.
    private var pending: [(node: Int, value: JSONValue, vocabularies: Vocabularies)] = []
    /// Nodes whose references are to resolve.
    private var toLink: [Int] = []
    private var vocabulariesByMetaschema: [String: Vocabularies] = [:]

    init(dialect: SchemaDialect, storage: SchemaRegistry.Storage) {
        self.dialect = dialect
        self.storage = storage
    }

    /// 2020-12's keywords (`$id`, `const`, `prefixItems`, …): every dialect but OpenAPI 3.0's.
    private var is2020: Bool { dialect != .openAPI30 }
    /// A Swift model's canonical form (``SchemaDialect/understudy``).
    private var isModel: Bool { dialect == .understudy }

    mutating func add(document: JSONValue, uri: String, schemaRoots: [JSONPointer]) throws(SchemaRegistryError) {
        let uri = URIReference(uri).withoutFragment.description
        guard !storage.documentURIs.contains(uri) else { throw .duplicateDocument(uri) }
        let documentIndex = storage.documents.count
        storage.documents.append(document)
        storage.documentURIs.append(uri)
        addResource(uri, root: SchemaLocation(document: documentIndex, pointer: PointerTable.root))
        for root in schemaRoots {
            guard let value = document[pointer: root] else { continue }
            let path = DocumentPath(document: documentIndex, tokens: root.tokens)
            let context = parentContext(of: path)
            let location = SchemaLocation(document: documentIndex, pointer: storage.pointers.intern(root.tokens))
            _ = node(at: location, value: value, resource: context.resource, vocabularies: context.vocabularies)
        }
        compilePending()
        toLink.append(contentsOf: storage.unlinked)
        storage.unlinked = []
        link()
    }

    @discardableResult
    private mutating func addResource(_ uri: String, root: SchemaLocation) -> Int {
        if let existing = storage.resourceIndex[uri], storage.resources[existing].root == root { return existing }
        storage.resources.append(SchemaResource(uri: uri, root: root))
        // A later document's resource wins: nodes already linked keep their targets.
        storage.resourceIndex[uri] = storage.resources.count - 1
        return storage.resources.count - 1
    }

    /// The node for the schema at `location`, allocated (and queued for compilation) on first sight; `resource` and
    /// `vocabularies` are the enclosing schema's, which an `$id` or `$schema` here replaces.
    private mutating func node(
        at location: SchemaLocation, value: JSONValue, resource: Int, vocabularies: Vocabularies
    ) -> Int {
        if let existing = storage.nodeIndex[location] { return existing }
        var resource = resource
        var vocabularies = vocabularies
        if is2020, case .object(let members) = value {
            if let id = members["$id"]?.stringValue {
                let base = URIReference(storage.resources[resource].uri)
                resource = addResource(
                    URIReference(id).resolved(against: base).withoutFragment.description, root: location)
            }
            if let metaschema = members["$schema"]?.stringValue {
                vocabularies = self.vocabularies(metaschema: metaschema)
            }
        }
        let id = storage.nodes.count
        storage.nodes.append(SchemaNode(resource: resource, location: location))
        storage.nodeIndex[location] = id
        pending.append((id, value, vocabularies))
        return id
    }

    /// What a schema at `location` inherits: the resource and vocabularies of the schemas on the way to it.
    private func parentContext(of path: DocumentPath) -> (resource: Int, vocabularies: Vocabularies) {
        let documentURI = storage.documentURIs[path.document]
        var resource = storage.resourceIndex[documentURI] ?? 0
        var vocabularies = Vocabularies.standard
        var value: JSONValue? = storage.documents[path.document]
        var prefix: Int? = PointerTable.root
        for token in path.tokens {
            if is2020, case .object(let members)? = value {
                if let id = members["$id"]?.stringValue, let prefix {
                    let uri = URIReference(id).resolved(against: URIReference(storage.resources[resource].uri))
                        .withoutFragment.description
                    let root = SchemaLocation(document: path.document, pointer: prefix)
                    if let found = storage.resourceIndex[uri], storage.resources[found].root == root {
                        resource = found
                    }
                }
                if let metaschema = members["$schema"]?.stringValue {
                    vocabularies = vocabulariesByMetaschema[metaschema] ?? .standard
                }
            }
            switch value {
            case .object(let members)?: value = members[token]
            case .array(let elements)?:
                value = Int(token).flatMap { elements.indices.contains($0) ? elements[$0] : nil }
            default: value = nil
            }
            prefix = prefix.flatMap { storage.pointers.existingChild($0, token) }
        }
        return (resource, vocabularies)
    }

    /// The vocabularies a metaschema's `$vocabulary` turns on; the standard set for one this registry does not hold.
    private mutating func vocabularies(metaschema: String) -> Vocabularies {
        if let known = vocabulariesByMetaschema[metaschema] { return known }
        var vocabularies = Vocabularies.standard
        if let path = storage.locate(URIReference(metaschema)),
            let declaration = storage.value(at: path)?["$vocabulary"]?.objectValue
        {
            vocabularies = Vocabularies(declaration: declaration)
        }
        vocabulariesByMetaschema[metaschema] = vocabularies
        return vocabularies
    }

    private mutating func compilePending() {
        while let (id, value, vocabularies) = pending.popLast() {
            switch value {
            case .bool(false): storage.nodes[id].keywords = [.never]
            case .object(let members): compile(id, members, vocabularies)
            // `true`, and anything that is no schema, allow everything.
            default: break
            }
        }
    }
}

// MARK: Keywords

extension SchemaCompiler {
    private mutating func compile(_ id: Int, _ schema: [String: JSONValue], _ vocabularies: Vocabularies) {
        let resource = storage.nodes[id].resource
        let location = storage.nodes[id].location
        let baseURI = storage.resources[resource].uri
        var keywords: [SchemaKeyword] = []

        func child(_ value: JSONValue, _ tokens: String...) -> Int {
            var childLocation = location
            for token in tokens { childLocation.pointer = storage.pointers.child(childLocation.pointer, token) }
            return node(at: childLocation, value: value, resource: resource, vocabularies: vocabularies)
        }
        func children(_ keyword: String) -> [Int]? {
            guard let elements = schema[keyword]?.arrayValue else { return nil }
            return elements.enumerated().map { child($1, keyword, String($0)) }
        }
        func reference(_ keyword: String) -> String? {
            guard let text = schema[keyword]?.stringValue else { return nil }
            return URIReference(text).resolved(against: URIReference(baseURI)).description
        }

        if case .bool(true) = schema["readOnly"] { storage.nodes[id].access = .readOnly }
        if case .bool(true) = schema["writeOnly"] { storage.nodes[id].access = .writeOnly }
        if let discriminator = schema["discriminator"]?.objectValue,
            let property = discriminator["propertyName"]?.stringValue
        {
            let mapping = (discriminator["mapping"]?.objectValue ?? [:]).compactMapValues(\.stringValue)
            storage.nodes[id].discriminator = SchemaNode.Discriminator(propertyName: property, mapping: mapping)
        }

        // OpenAPI 3.0 (JSON Reference): a `$ref` object stands for its target, whatever else it says.
        if !is2020, let uri = reference("$ref") {
            storage.nodes[id].keywords = [.reference(.unresolved(uri), uri: uri)]
            toLink.append(id)
            return
        }
        if !is2020, case .bool(true) = schema["nullable"] { storage.nodes[id].nullable = true }

        if is2020 {
            for keyword in ["$anchor", "$dynamicAnchor"] {
                guard let name = schema[keyword]?.stringValue else { continue }
                storage.anchors[baseURI + "#" + name] = location
                if keyword == "$dynamicAnchor" { storage.resources[resource].dynamicAnchors[name] = id }
            }
            // Walked for their `$id`s and anchors, and compiled for the references that point into them.
            for (name, definition) in schema["$defs"]?.objectValue ?? [:] { _ = child(definition, "$defs", name) }
        }

        if let uri = reference("$ref") {
            keywords.append(.reference(.unresolved(uri), uri: uri))
        }
        if is2020, let uri = reference("$dynamicRef") {
            keywords.append(.dynamicReference(.unresolved(uri), uri: uri, anchor: nil))
        }
        if keywords.contains(where: { $0.unresolvedURI != nil }) { toLink.append(id) }

        if !is2020 || vocabularies.contains(.validation) {
            Self.compileValidation(schema, is2020: is2020, into: &keywords)
        }
        if !is2020 || vocabularies.contains(.applicator) {
            // A model's optional value (`anyOf: [X, {"type": "null"}]`) is X or null, as OpenAPI 3.0's `nullable`: its
            // findings are X's.
            var isOptional = false
            if isModel, let branches = schema["anyOf"]?.arrayValue, branches.count == 2,
                let null = branches.firstIndex(of: ["type": "null"])
            {
                keywords.append(.allOf([child(branches[1 - null], "anyOf", String(1 - null))]))
                storage.nodes[id].nullable = true
                isOptional = true
            }
            for keyword in ["allOf", "anyOf", "oneOf"] where !(keyword == "anyOf" && isOptional) {
                guard let branches = children(keyword) else { continue }
                switch keyword {
                case "allOf": keywords.append(.allOf(branches))
                case "anyOf": keywords.append(.anyOf(branches))
                // A model's alternatives are tried in turn, as its decoder tries them: the first that reads the value
                // wins (``Schema/oneOf(_:)``).
                default: keywords.append(isModel ? .anyOf(branches) : .oneOf(branches))
                }
            }
            if let negated = schema["not"] { keywords.append(.not(child(negated, "not"))) }
            Self.compileObjectApplicators(schema, is2020: is2020, isModel: isModel, child: child, into: &keywords)
            if isModel {
                for (property, access) in Self.compileModel(schema, child: child, into: &keywords) {
                    storage.nodes[property].access = access
                }
            }
            Self.compileArrayApplicators(
                schema, vocabularies, is2020: is2020, child: child, children: children, into: &keywords)
            if is2020 {
                // `then` and `else` without `if` do nothing, but may hold resources a `$ref` names.
                let then = schema["then"].map { child($0, "then") }
                let otherwise = schema["else"].map { child($0, "else") }
                if let condition = schema["if"] {
                    keywords.append(.conditional(if: child(condition, "if"), then: then, else: otherwise))
                }
            }
        }
        if is2020, vocabularies.contains(.unevaluated) {
            if let items = schema["unevaluatedItems"] {
                keywords.append(.unevaluatedItems(child(items, "unevaluatedItems")))
            }
            if let properties = schema["unevaluatedProperties"] {
                keywords.append(.unevaluatedProperties(child(properties, "unevaluatedProperties")))
            }
        }
        if isModel { storage.nodes[id].isModel = true }
        if isModel, let name = schema["format"]?.stringValue, let format = StringFormat(name: name) {
            keywords.append(.model(.format(format)))
        } else if !is2020 || !vocabularies.isDisjoint(with: [.formatAnnotation, .formatAssertion]),
            let name = schema["format"]?.stringValue, let format = JSONSchemaFormat(rawValue: name)
        {
            keywords.append(.format(format, asserted: is2020 && vocabularies.contains(.formatAssertion)))
        }

        storage.nodes[id].hasUnevaluated = keywords.contains {
            switch $0 {
            case .unevaluatedItems, .unevaluatedProperties: true
            default: false
            }
        }
        // A stable sort: keywords of one rank keep the order above.
        storage.nodes[id].keywords = keywords.enumerated()
            .sorted { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }.map(\.element)
    }

    private static func compileValidation(
        _ schema: [String: JSONValue], is2020: Bool, into keywords: inout [SchemaKeyword]
    ) {
        switch schema["type"] {
        case .string(let name)?:
            if let type = JSONTypes(name: name) { keywords.append(.types(type)) }
        case .array(let names)?:
            let types = names.compactMap { $0.stringValue.flatMap(JSONTypes.init(name:)) }
            keywords.append(.types(types.reduce(into: JSONTypes()) { $0.formUnion($1) }))
        default: break
        }
        if is2020, let constant = schema["const"] { keywords.append(.constant(constant)) }
        if let values = schema["enum"]?.arrayValue { keywords.append(.enumeration(EnumValues(values))) }
        if let (divisor, literal) = Self.decimal(schema["multipleOf"]), !divisor.isNegative, !divisor.isZero {
            keywords.append(.multipleOf(divisor, literal: literal))
        }
        for (name, inclusive, exclusive) in [
            ("minimum", BoundKind.minimum, BoundKind.exclusiveMinimum),
            ("maximum", BoundKind.maximum, BoundKind.exclusiveMaximum),
        ] {
            let exclusiveName = "exclusive" + name.prefix(1).uppercased() + name.dropFirst()
            if let (bound, literal) = Self.decimal(schema[name]) {
                // Draft 4 and OpenAPI 3.0: a boolean `exclusiveMaximum` makes `maximum` exclusive.
                let isExclusive = !is2020 && schema[exclusiveName] == .bool(true)
                keywords.append(.bound(bound, literal: literal, kind: isExclusive ? exclusive : inclusive))
            }
            if let (bound, literal) = Self.decimal(schema[exclusiveName]) {
                keywords.append(.bound(bound, literal: literal, kind: exclusive))
            }
        }
        if let count = Self.count(schema["minLength"]) { keywords.append(.minLength(count)) }
        if let count = Self.count(schema["maxLength"]) { keywords.append(.maxLength(count)) }
        if let pattern = schema["pattern"]?.stringValue { keywords.append(.pattern(ECMAPattern(pattern))) }
        if let count = Self.count(schema["minItems"]) { keywords.append(.minItems(count)) }
        if let count = Self.count(schema["maxItems"]) { keywords.append(.maxItems(count)) }
        if schema["uniqueItems"] == .bool(true) { keywords.append(.uniqueItems) }
        if let count = Self.count(schema["minProperties"]) { keywords.append(.minProperties(count)) }
        if let count = Self.count(schema["maxProperties"]) { keywords.append(.maxProperties(count)) }
        if let names = schema["required"]?.arrayValue?.compactMap(\.stringValue), !names.isEmpty {
            keywords.append(.required(names))
        }
        if is2020, let dependencies = schema["dependentRequired"]?.objectValue {
            let requirements = dependencies.keys.sorted().compactMap { property in
                dependencies[property]?.arrayValue.map {
                    DependentRequirement(property: property, required: $0.compactMap(\.stringValue))
                }
            }
            keywords.append(.dependentRequired(requirements))
        }
    }

    /// What a Swift model's canonical form says beyond 2020-12 (``SchemaDialect/understudy``); returns the property
    /// nodes an object's `readOnly`/`writeOnly` lists name, with their access.
    private static func compileModel(
        _ schema: [String: JSONValue], child: (JSONValue, String...) -> Int, into keywords: inout [SchemaKeyword]
    ) -> [(Int, PropertyAccess)] {
        if schema["type"] == "integer" { keywords.append(.model(.integer64)) }
        // A missing member is reported in its place among the others, as a decoder meets it.
        if let required = keywords.firstIndex(where: { if case .required = $0 { true } else { false } }),
            case .required(let names) = keywords[required],
            let object = keywords.firstIndex(where: { if case .members = $0 { true } else { false } }),
            case .members(var declaration) = keywords[object],
            names.allSatisfy({ declaration.propertyIndex[$0] != nil })
        {
            declaration.required = Set(names)
            keywords[object] = .members(declaration)
            keywords.remove(at: required)
        }
        let rules = schema[ObjectRule.extensionName]?.arrayValue?.compactMap(ObjectRule.init(json:)) ?? []
        if !rules.isEmpty { keywords.append(.model(.rules(rules))) }
        if let pairs = schema["x-pairs"]?.objectValue, let key = pairs["key"], let value = pairs["value"] {
            keywords.append(.pairs(key: child(key, "x-pairs", "key"), value: child(value, "x-pairs", "value")))
        }
        // Which properties only answers carry, and which only requests: lists of names on the object.
        let properties = schema["properties"]?.objectValue ?? [:]
        var accesses: [(Int, PropertyAccess)] = []
        for (keyword, access) in [("readOnly", PropertyAccess.readOnly), ("writeOnly", .writeOnly)] {
            for name in schema[keyword]?.arrayValue?.compactMap(\.stringValue) ?? [] {
                guard let property = properties[name] else { continue }
                accesses.append((child(property, "properties", name), access))
            }
        }
        return accesses
    }

    private static func compileObjectApplicators(
        _ schema: [String: JSONValue], is2020: Bool, isModel: Bool, child: (JSONValue, String...) -> Int,
        into keywords: inout [SchemaKeyword]
    ) {
        var members = ObjectMembers()
        if let properties = schema["properties"]?.objectValue {
            members.declaresProperties = true
            for name in properties.keys.sorted() {
                guard let property = properties[name] else { continue }
                let id = child(property, "properties", name)
                members.properties.append((name, id))
                members.propertyIndex[name] = id
            }
        }
        if let patterns = schema["patternProperties"]?.objectValue {
            for pattern in patterns.keys.sorted() {
                guard let property = patterns[pattern] else { continue }
                members.patterns.append((ECMAPattern(pattern), child(property, "patternProperties", pattern)))
            }
        }
        // A model's members in declaration order (its findings follow it).
        if isModel, let order = schema["x-order"]?.arrayValue?.compactMap(\.stringValue) {
            let positions = Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            members.properties.sort { positions[$0.name, default: .max] < positions[$1.name, default: .max] }
        }
        // A model's `true` allows undeclared members without evaluating them: each stays a note.
        if let additional = schema["additionalProperties"], !(isModel && additional == .bool(true)) {
            members.additional = child(additional, "additionalProperties")
        }
        if members.declaresProperties || !members.patterns.isEmpty || members.additional != nil {
            keywords.append(.members(members))
        }
        if is2020, let names = schema["propertyNames"] {
            keywords.append(.propertyNames(child(names, "propertyNames")))
        }
        if is2020, let dependencies = schema["dependentSchemas"]?.objectValue {
            let schemas = dependencies.keys.sorted().compactMap { property in
                dependencies[property].map {
                    DependentSchema(property: property, schema: child($0, "dependentSchemas", property))
                }
            }
            keywords.append(.dependentSchemas(schemas))
        }
        // Draft 7's `dependencies`, which 2020-12 split in two: still common in documents converted to 3.1.
        if is2020, let dependencies = schema["dependencies"]?.objectValue {
            var requirements: [DependentRequirement] = []
            var schemas: [DependentSchema] = []
            for property in dependencies.keys.sorted() {
                guard let dependency = dependencies[property] else { continue }
                if let names = dependency.arrayValue {
                    requirements.append(
                        DependentRequirement(property: property, required: names.compactMap(\.stringValue)))
                } else {
                    schemas.append(
                        DependentSchema(property: property, schema: child(dependency, "dependencies", property)))
                }
            }
            if !requirements.isEmpty { keywords.append(.dependentRequired(requirements)) }
            if !schemas.isEmpty { keywords.append(.dependentSchemas(schemas)) }
        }
    }

    private static func compileArrayApplicators(
        _ schema: [String: JSONValue], _ vocabularies: Vocabularies, is2020: Bool, child: (JSONValue, String...) -> Int,
        children: (String) -> [Int]?, into keywords: inout [SchemaKeyword]
    ) {
        if is2020 {
            let prefix = children("prefixItems") ?? []
            let rest = schema["items"].flatMap { $0.arrayValue == nil ? child($0, "items") : nil }
            if !prefix.isEmpty || rest != nil { keywords.append(.items(prefix: prefix, rest: rest)) }
            if let contained = schema["contains"] {
                let validation = vocabularies.contains(.validation)
                let minimum = validation ? Self.count(schema["minContains"]) ?? 1 : 1
                let maximum = validation ? Self.count(schema["maxContains"]) : nil
                keywords.append(.contains(child(contained, "contains"), minimum: minimum, maximum: maximum))
            }
        } else if let items = schema["items"] {
            // Draft 4's tuple form (`items: [...]` with `additionalItems`), which OpenAPI 3.0 forbids, read kindly.
            if let prefix = children("items") {
                keywords.append(
                    .items(prefix: prefix, rest: schema["additionalItems"].map { child($0, "additionalItems") }))
            } else {
                keywords.append(.items(prefix: [], rest: child(items, "items")))
            }
        }
    }

    /// A number keyword's exact value and literal.
    private static func decimal(_ value: JSONValue?) -> (ExactDecimal, String)? {
        guard case .number(let number)? = value, let exact = ExactDecimal(number) else { return nil }
        return (exact, number.literal)
    }

    /// A count keyword (`minLength: 2`, `maxItems: 1.0`); a huge one is as good as infinite.
    private static func count(_ value: JSONValue?) -> Int? {
        guard case .number(let number)? = value, let exact = ExactDecimal(number), exact.isIntegral,
            !exact.isNegative
        else { return nil }
        return number.intValue ?? Int.max
    }
}

// MARK: Linking

extension SchemaCompiler {
    /// Resolves every queued node's references, compiling the targets no root covered; what stays unresolved waits
    /// in `unlinked` for a later document.
    private mutating func link() {
        while let id = toLink.popLast() {
            var keywords = storage.nodes[id].keywords
            var unresolved = false
            for index in keywords.indices {
                switch keywords[index] {
                case .reference(.unresolved(let uri), _):
                    if let target = target(uri) {
                        keywords[index] = .reference(.resolved(target), uri: uri)
                    } else {
                        unresolved = true
                    }
                case .dynamicReference(.unresolved(let uri), _, _):
                    guard let target = target(uri) else {
                        unresolved = true
                        continue
                    }
                    // Dynamic only when the initial target carries the `$dynamicAnchor` the fragment names.
                    let reference = URIReference(uri)
                    let fragment = reference.decodedFragment ?? ""
                    let anchor = storage.value(at: storage.path(of: storage.nodes[target].location))?["$dynamicAnchor"]
                    let isDynamic = !fragment.isEmpty && !fragment.hasPrefix("/") && anchor?.stringValue == fragment
                    if isDynamic { storage.usesDynamicScope = true }
                    keywords[index] = .dynamicReference(.resolved(target), uri: uri, anchor: isDynamic ? fragment : nil)
                default: continue
                }
            }
            storage.nodes[id].keywords = keywords
            if unresolved { storage.unlinked.append(id) }
        }
    }

    /// The node a reference names, compiled now if nothing compiled it yet.
    private mutating func target(_ uri: String) -> Int? {
        guard let path = storage.locate(URIReference(uri)) else { return nil }
        if let pointer = storage.pointers.lookup(path.tokens),
            let existing = storage.nodeIndex[SchemaLocation(document: path.document, pointer: pointer)]
        {
            return existing
        }
        guard let value = storage.value(at: path) else { return nil }
        let context = parentContext(of: path)
        let location = SchemaLocation(document: path.document, pointer: storage.pointers.intern(path.tokens))
        let id = node(at: location, value: value, resource: context.resource, vocabularies: context.vocabularies)
        compilePending()
        return id
    }
}
