/// Validates a ``JSONValue`` against a Swift model's ``Schema`` and returns every violation, not just the first.
///
/// The verdict is the schema engine's (``SchemaValidator``), on the schema's canonical form (``Schema/canonicalJSON``)
/// read as ``SchemaDialect/understudy``: JSON Schema 2020-12 with what the app's `JSONDecoder` adds (formats of
/// ``StringFormat``, 64-bit integers, ``ObjectRule``s, key/value pair arrays). Each violation is a ``Diagnostic``
/// with a JSON Pointer, what was expected, what was found, and a stable rule id. Members the schema does not declare
/// are notes (`JSONDecoder` ignores them), unless the object forbids them.
///
/// ```swift
/// let validator = Validator(definitions: spec.definitions)
/// for finding in validator.validate(body, against: endpoint.response!.schema) {
///     print(finding.summary)   // "/0/creator/_id: expected string, found integer 12"
/// }
/// ```
public struct Validator: Sendable {
    public var definitions: SchemaDefinitions { schemas.definitions }
    /// Responses by default; a `readOnly` property is not required in a request, a `writeOnly` one not in a
    /// response.
    public let direction: MessageDirection
    private let schemas: ModelSchemas

    /// A validator of schemas that refer to `definitions`, compiled when first needed.
    public init(definitions: SchemaDefinitions = [:], direction: MessageDirection = .response) {
        self.init(schemas: ModelSchemas(definitions), direction: direction)
    }

    /// A validator of the spec's schemas, compiled once for the spec (``APISpec/modelSchemas``).
    package init(spec: APISpec, direction: MessageDirection = .response) {
        self.init(schemas: spec.modelSchemas, direction: direction)
    }

    private init(schemas: ModelSchemas, direction: MessageDirection) {
        self.schemas = schemas
        self.direction = direction
    }

    /// All violations of `schema` by `value`, in document order.
    /// - Parameter mergingRepeats: one finding per rule and schema location (array indices collapsed), with
    ///   its ``Diagnostic/occurrences`` and first examples, rather than one per element: a drifted field in a
    ///   list of 100,000 is one finding, and memory does not grow with the list.
    public func validate(_ value: JSONValue, against schema: Schema, mergingRepeats: Bool = false) -> [Diagnostic] {
        SchemaValidator(configuration(mergingRepeats: mergingRepeats))
            .validate(value, against: schemas.compiled(schema))
    }

    /// Whether `value` satisfies `schema` (notes do not count).
    public func isValid(_ value: JSONValue, against schema: Schema) -> Bool {
        SchemaValidator(configuration(mergingRepeats: false)).isValid(value, against: schemas.compiled(schema))
    }

    private func configuration(mergingRepeats: Bool) -> SchemaValidator.Configuration {
        SchemaValidator.Configuration(direction: direction, undeclaredMembers: true, mergingRepeats: mergingRepeats)
    }
}

/// The schema engine's reading of Swift models' schemas: each ``Schema`` asked for is compiled once, as its canonical
/// form (``Schema/canonicalJSON``, with each object's declaration order) in the ``SchemaDialect/understudy``
/// dialect, beside the canonical form of the definitions it refers to (only those it reaches are compiled).
///
/// Every schema compiled joins one registry, which only grows, in place: the registry handed out last lets go of its
/// storage before the next schema is compiled, so a document of 900 models is not copied once per schema asked for
/// (only a validation still running holds it, and then it is copied).
package final class ModelSchemas: Sendable {
    static let uri = "urn:understudy:models"
    let definitions: SchemaDefinitions
    private let state = Locked(State())

    private struct State {
        var compiler: SchemaCompiler?
        var registry: SchemaRegistry?
        var nodes: [Schema: Int] = [:]
    }

    package init(_ definitions: SchemaDefinitions) {
        self.definitions = definitions
    }

    /// The compiled form of `schema`.
    package func compiled(_ schema: Schema) -> CompiledSchema {
        state.withLock { state in
            if let node = state.nodes[schema], let registry = state.registry {
                return CompiledSchema(registry: registry, node: node)
            }
            var compiler = state.compiler ?? Self.compiler(definitions)
            (state.compiler, state.registry) = (nil, nil)
            // Each schema is a document of its own, whose references name the definitions' document.
            let uri = "\(Self.uri):\(state.nodes.count)"
            let document = Self.referringToDefinitions(schema.canonical(ordered: true))
            try? compiler.add(document: document, uri: uri, schemaRoots: [.root])
            let registry = SchemaRegistry(dialect: .understudy, storage: compiler.storage)
            let node = registry.schema(inDocument: uri, at: .root)?.node ?? 0
            state.nodes[schema] = node
            (state.compiler, state.registry) = (compiler, registry)
            return CompiledSchema(registry: registry, node: node)
        }
    }

    /// `value` with its references (`#/definitions/Pet`) made absolute, into the definitions' document.
    private static func referringToDefinitions(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(var members):
            for (key, member) in members {
                if key == "$ref", let reference = member.stringValue, reference.hasPrefix("#") {
                    members[key] = .string(uri + reference)
                } else {
                    members[key] = referringToDefinitions(member)
                }
            }
            return .object(members)
        case .array(let elements): return .array(elements.map(referringToDefinitions))
        default: return value
        }
    }

    /// A compiler holding the definitions' canonical forms (each compiled when a schema refers to it).
    private static func compiler(_ definitions: SchemaDefinitions) -> SchemaCompiler {
        let document: JSONValue = ["definitions": .object(definitions.mapValues { $0.canonical(ordered: true) })]
        var compiler = SchemaCompiler(dialect: .understudy, storage: SchemaRegistry(dialect: .understudy).storage)
        try? compiler.add(document: document, uri: uri, schemaRoots: [])
        return compiler
    }
}

/// How schemas and values are written in messages.
package enum Render {
    package static func quoted(_ string: String) -> String {
        let shown = string.count > 60 ? String(string.prefix(57)) + "..." : string
        return JSONValue.string(shown).serialized()
    }

    /// `a, b, c`; a long list (a time zone parameter's 419 names) shows its first ten and its count.
    package static func list(_ items: [String]) -> String {
        items.count <= 12
            ? items.joined(separator: ", ") : items.prefix(10).joined(separator: ", ") + ", … (\(items.count) in all)"
    }

    package static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    package static func found(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let bool): "boolean \(bool)"
        case .number(let number): "\(number.isInteger ? "integer" : "number") \(number.literal)"
        case .string(let string): "string \(quoted(string))"
        case .array(let elements): "array of \(elements.count)"
        case .object(let members): members.isEmpty ? "empty object" : "object"
        }
    }

    package static func expected(_ schema: Schema) -> String {
        switch schema {
        case .any: "any value"
        case .boolean: "boolean"
        case .integer(let constraints):
            constraints.values.map { "integer (one of \(list($0.map(String.init))))" } ?? "integer"
        case .number: "number"
        case .decimal: "number (decimal)"
        case .string(let constraints):
            if let values = constraints.values {
                "string (one of \(list(values.map(quoted))))"
            } else if let format = constraints.format {
                "string in \(format) format"
            } else {
                "string"
            }
        case .array: "array"
        case .object: "object"
        case .map: "object"
        case .pairs: "array of alternating keys and values"
        case .oneOf(let alternatives): alternatives.map(expected).joined(separator: " or ")
        case .nullable(let wrapped): "\(expected(wrapped)) or null"
        case .ref(let name): name
        }
    }
}
