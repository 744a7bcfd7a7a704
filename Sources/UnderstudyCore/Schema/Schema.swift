/// The shape a JSON value must have: the contract side of every check.
///
/// Schemas are usually inferred from `Decodable` models (see ``SchemaInference``) rather than
/// written by hand, so the Swift type stays the single source of truth.
///
/// ```swift
/// let schema: Schema = .object(ObjectSchema(properties: [
///     Property("id", .string(format: .uuid)),
///     Property("note", .nullable(.string()), required: false),
/// ]))
/// ```
public indirect enum Schema: Sendable, Hashable {
    /// Any JSON value, `null` included (open-ended JSON such as `JSONValue` properties).
    case any
    /// `true` or `false`.
    case boolean
    /// An integral number.
    case integer(IntegerConstraints)
    /// Any number (Swift `Double` / `Float`).
    case number(NumberConstraints)
    /// A number decoded as `Decimal`: any number, whose exact digits matter.
    case decimal(NumberConstraints)
    /// A string.
    case string(StringConstraints)
    /// An array whose elements all match `items`.
    case array(ArraySchema)
    /// An object with declared properties.
    case object(ObjectSchema)
    /// An object with arbitrary keys (Swift `[String: T]`, `[Int: T]`, `CodingKeyRepresentable` keys).
    case map(MapSchema)
    /// A flat array alternating keys and values: how `JSONDecoder` expects a dictionary whose key
    /// type is neither `String`, `Int` nor `CodingKeyRepresentable` (for example an `Int`-backed enum).
    case pairs(key: Schema, value: Schema)
    /// A value one of the alternatives reads, tried in turn as a decoder tries them (the first that fits wins): an
    /// imported document's `anyOf` or `oneOf`, whose own schema judges its bodies as JSON Schema says.
    case oneOf([Schema])
    /// The wrapped schema, or `null`.
    case nullable(Schema)
    /// A named definition (see ``SchemaDefinitions``), used for models and recursion.
    case ref(String)

    /// A string, optionally constrained.
    public static func string(
        format: StringFormat? = nil, values: [String]? = nil, minLength: Int? = nil, maxLength: Int? = nil,
        pattern: String? = nil
    ) -> Schema {
        .string(
            StringConstraints(
                format: format, values: values, minLength: minLength, maxLength: maxLength, pattern: pattern))
    }

    /// An integer, optionally constrained.
    public static func integer(minimum: Int? = nil, maximum: Int? = nil, values: [Int]? = nil) -> Schema {
        .integer(IntegerConstraints(minimum: minimum, maximum: maximum, values: values))
    }

    /// A number, optionally constrained.
    public static func number(minimum: Double? = nil, maximum: Double? = nil) -> Schema {
        .number(NumberConstraints(minimum: minimum, maximum: maximum))
    }

    /// A decimal, optionally constrained.
    public static func decimal(minimum: Double? = nil, maximum: Double? = nil, exclusiveMinimum: Double? = nil) -> Schema {
        .decimal(NumberConstraints(minimum: minimum, maximum: maximum, exclusiveMinimum: exclusiveMinimum))
    }

    /// An array of `items`.
    public static func array(_ items: Schema, minItems: Int? = nil, maxItems: Int? = nil) -> Schema {
        .array(ArraySchema(items: items, minItems: minItems, maxItems: maxItems))
    }

    /// An object with the given properties.
    public static func object(_ properties: [Property], additionalProperties: AdditionalProperties = .allowed)
        -> Schema
    {
        .object(ObjectSchema(properties: properties, additionalProperties: additionalProperties))
    }

    /// A string-keyed map of `values`.
    public static func map(_ values: Schema) -> Schema {
        .map(MapSchema(keys: .string(), values: values))
    }

    /// Whether `null` is accepted at the top of this schema.
    public var acceptsNull: Bool {
        switch self {
        case .any, .nullable: true
        case .oneOf(let alternatives): alternatives.contains { $0.acceptsNull }
        default: false
        }
    }

    /// The schema without a top-level ``nullable(_:)`` wrapper.
    public var nonNull: Schema {
        if case .nullable(let wrapped) = self { return wrapped.nonNull }
        return self
    }

    /// The schema behind references and ``nullable(_:)``, however long the chain; `nil` for a reference that is
    /// missing or circular.
    package func resolved(in definitions: SchemaDefinitions) -> Schema? {
        var current = self
        var seen: Set<String> = []
        while true {
            switch current {
            case .ref(let name):
                guard let definition = definitions[name], seen.insert(name).inserted else { return nil }
                current = definition
            case .nullable(let wrapped): current = wrapped
            default: return current
            }
        }
    }
}

/// Constraints on a string.
public struct StringConstraints: Sendable, Hashable {
    public var format: StringFormat?
    /// The only accepted values (an enumeration), in declaration order.
    public var values: [String]?
    public var minLength: Int?
    public var maxLength: Int?
    /// A regular expression (ECMA-262, as JSON Schema's `pattern`) the string must match somewhere: anchor it with
    /// `^…$` to match the whole string.
    public var pattern: String?
    /// Values the string typically takes, not a restriction (JSON Schema's `examples`): the vocabulary of a free
    /// field (`Football`, `Running`), which generated fixtures pick from.
    public var examples: [String]?

    public init(
        format: StringFormat? = nil, values: [String]? = nil, minLength: Int? = nil, maxLength: Int? = nil,
        pattern: String? = nil, examples: [String]? = nil
    ) {
        self.format = format
        self.values = values
        self.minLength = minLength
        self.maxLength = maxLength
        self.pattern = pattern
        self.examples = examples
    }
}

/// Constraints on an integer.
public struct IntegerConstraints: Sendable, Hashable {
    public var minimum: Int?
    public var maximum: Int?
    /// The only accepted values (an `Int`-backed enumeration), in declaration order.
    public var values: [Int]?

    public init(minimum: Int? = nil, maximum: Int? = nil, values: [Int]? = nil) {
        self.minimum = minimum
        self.maximum = maximum
        self.values = values
    }
}

/// Constraints on a number or decimal.
public struct NumberConstraints: Sendable, Hashable {
    public var minimum: Double?
    public var maximum: Double?
    /// Values must be strictly greater than this.
    public var exclusiveMinimum: Double?

    public init(minimum: Double? = nil, maximum: Double? = nil, exclusiveMinimum: Double? = nil) {
        self.minimum = minimum
        self.maximum = maximum
        self.exclusiveMinimum = exclusiveMinimum
    }
}

/// An array's element schema and size bounds.
public struct ArraySchema: Sendable, Hashable {
    public var items: Schema
    public var minItems: Int?
    public var maxItems: Int?

    public init(items: Schema, minItems: Int? = nil, maxItems: Int? = nil) {
        self.items = items
        self.minItems = minItems
        self.maxItems = maxItems
    }
}

/// A map's key and value schemas; keys are always JSON strings, `keys` constrains their text.
public struct MapSchema: Sendable, Hashable {
    /// A string schema the keys must match (an integer format, enum values, a date, ...).
    public var keys: Schema
    public var values: Schema

    public init(keys: Schema = .string(), values: Schema) {
        self.keys = keys
        self.values = values
    }
}

/// What to make of object members the schema does not declare.
public enum AdditionalProperties: Sendable, Hashable {
    /// Unknown members are reported as a note: `JSONDecoder` ignores them.
    case allowed
    /// Unknown members are errors (request bodies that the server rejects when unknown).
    case forbidden
    /// Unknown members must each be a value of this schema (`additionalProperties: {type: string}` beside
    /// declared properties); the app decodes them as a dictionary's.
    indirect case typed(Schema)
}

/// An object's declared properties.
public struct ObjectSchema: Sendable, Hashable {
    /// The properties, in declaration order.
    public var properties: [Property]
    public var additionalProperties: AdditionalProperties
    /// Rules between properties, checked once every property is valid on its own.
    public var rules: [ObjectRule]

    public init(
        properties: [Property], additionalProperties: AdditionalProperties = .allowed, rules: [ObjectRule] = []
    ) {
        self.properties = properties
        self.additionalProperties = additionalProperties
        self.rules = rules
    }

    /// The property with a JSON name, if declared.
    public subscript(name: String) -> Property? {
        get { properties.first { $0.name == name } }
        set {
            if let index = properties.firstIndex(where: { $0.name == name }) {
                if let newValue { properties[index] = newValue } else { properties.remove(at: index) }
            } else if let newValue {
                properties.append(newValue)
            }
        }
    }
}

/// One property of an object: its JSON name, its schema and whether the key must be present.
///
/// A Swift `Optional` property decoded with `decodeIfPresent` is `required: false` with a
/// ``Schema/nullable(_:)`` schema: absent and `null` both decode to `nil`. A non-optional property is
/// required and not nullable; the two rules are reported separately (`null` is not absent).
public struct Property: Sendable, Hashable {
    public var name: String
    public var schema: Schema
    public var required: Bool
    /// Whether the property is in requests, responses or both (OpenAPI's `readOnly` / `writeOnly`); `required`
    /// holds only where it is.
    public var access: PropertyAccess = .readWrite
    /// The value a server gives the property when a write leaves it out (JSON Schema's `default`), where the document
    /// says.
    public var defaultValue: JSONValue?

    public init(_ name: String, _ schema: Schema, required: Bool = true) {
        self.name = name
        self.schema = schema
        self.required = required
    }
}

extension Property {
    /// Whether the property belongs in a message going `direction`: a `readOnly` one is not in requests, a
    /// `writeOnly` one not in responses.
    public func belongs(in direction: MessageDirection) -> Bool {
        switch (access, direction) {
        case (.readOnly, .request), (.writeOnly, .response): false
        default: true
        }
    }
}

/// Which messages a property is in: OpenAPI's `readOnly` (the server's answers only) and `writeOnly` (the
/// client's requests only).
public enum PropertyAccess: String, Sendable, Hashable {
    case readWrite
    case readOnly
    case writeOnly
}

/// Which way a body goes: what a ``Validator`` requires and a ``FixtureGenerator`` writes depend on it.
public enum MessageDirection: Sendable, Hashable {
    case request
    case response
}

/// Named schemas that ``Schema/ref(_:)`` points to, keyed by model name.
public typealias SchemaDefinitions = [String: Schema]

extension Schema {
    /// The model property a location in a value of this schema falls in: `EventDto.startDate` for
    /// `/data/3/startDate` in an `ApiResponse<[EventDto]>`, so one field's findings can be told apart from
    /// the endpoints that carry it. `nil` above the first named model or off the schema.
    public func modelField(at pointer: JSONPointer, definitions: SchemaDefinitions) -> String? {
        var schema = self
        var model: String?
        var path: [String] = []
        var tokens = pointer.tokens[...]
        var steps = 0
        while steps < 256 {
            steps += 1
            switch schema {
            case .ref(let name):
                guard let resolved = definitions[name] else { return nil }
                model = name
                path = []
                schema = resolved
                continue
            case .nullable(let wrapped):
                schema = wrapped
                continue
            default: break
            }
            guard let token = tokens.popFirst() else { break }
            switch schema {
            case .object(let object):
                guard let property = object[token] else { return model.map { ([$0] + path + [token]).joined(separator: ".") } }
                path.append(token)
                schema = property.schema
            case .array(let array): schema = array.items
            case .map(let map): schema = map.values
            default: return nil
            }
        }
        guard let model, !path.isEmpty else { return nil }
        return ([model] + path).joined(separator: ".")
    }
}
