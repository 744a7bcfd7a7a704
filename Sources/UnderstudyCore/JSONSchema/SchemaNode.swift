/// Where a schema sits: a registered document and an interned JSON pointer into it (see ``PointerTable``).
struct SchemaLocation: Sendable, Hashable {
    var document: Int
    var pointer: Int
}

/// One compiled schema: its keywords in evaluation order, and what the evaluator needs to know about it.
///
/// Nodes live in the registry's arena and refer to each other by index, so a schema graph with cycles is plain
/// data, compiled once and shared by every validation.
struct SchemaNode: Sendable {
    /// The keywords that apply, cheapest first and the `unevaluated*` ones last (they need every other annotation).
    var keywords: [SchemaKeyword] = []
    /// The schema resource (`$id`) the node belongs to: its base URI, and its place in the dynamic scope.
    var resource: Int
    var location: SchemaLocation
    /// Whether `unevaluatedItems` or `unevaluatedProperties` is among the keywords: only then are annotations
    /// collected below this node.
    var hasUnevaluated = false
    /// OpenAPI 3.0's `nullable: true`: `null` is valid, whatever the other keywords say.
    var nullable = false
    /// `readOnly` / `writeOnly`, for ``SchemaValidator/Configuration/direction``.
    var access: PropertyAccess = .readWrite
    /// Whether the schema is a Swift model's canonical form (``SchemaDialect/understudy``): its messages speak of the
    /// model.
    var isModel = false
    /// `discriminator`'s property and mapping, which pick the branch whose findings are shown when no branch of a
    /// `oneOf`/`anyOf` matches.
    var discriminator: Discriminator?

    init(resource: Int, location: SchemaLocation) {
        self.resource = resource
        self.location = location
    }

    struct Discriminator: Sendable {
        var propertyName: String
        /// Discriminator values to references (`#/components/schemas/Cat`), as written.
        var mapping: [String: String]
    }
}

/// JSON types as `type` names them; `integer` is any integral number.
struct JSONTypes: OptionSet, Sendable, Hashable {
    let rawValue: UInt8

    static let null = JSONTypes(rawValue: 1 << 0)
    static let boolean = JSONTypes(rawValue: 1 << 1)
    static let object = JSONTypes(rawValue: 1 << 2)
    static let array = JSONTypes(rawValue: 1 << 3)
    static let number = JSONTypes(rawValue: 1 << 4)
    static let string = JSONTypes(rawValue: 1 << 5)
    static let integer = JSONTypes(rawValue: 1 << 6)

    /// In `type`'s own order, for messages.
    static let named: [(JSONTypes, String)] = [
        (.object, "object"), (.array, "array"), (.string, "string"), (.integer, "integer"), (.number, "number"),
        (.boolean, "boolean"), (.null, "null"),
    ]

    init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    init?(name: String) {
        guard let type = Self.named.first(where: { $0.1 == name })?.0 else { return nil }
        self = type
    }

    /// `string or null`.
    var description: String {
        Self.named.filter { contains($0.0) }.map(\.1).joined(separator: " or ")
    }
}

/// A reference (`$ref`, `$dynamicRef`) after linking: the node it names, or the URI nothing is registered at.
enum SchemaReference: Sendable {
    case resolved(Int)
    case unresolved(String)
}

/// One keyword (or a group that is evaluated together, such as `properties` with `additionalProperties`).
enum SchemaKeyword: Sendable {
    case types(JSONTypes)
    case constant(JSONValue)
    case enumeration(EnumValues)
    case multipleOf(ExactDecimal, literal: String)
    case bound(ExactDecimal, literal: String, kind: BoundKind)
    case minLength(Int)
    case maxLength(Int)
    case pattern(ECMAPattern)
    case format(JSONSchemaFormat, asserted: Bool)
    case minItems(Int)
    case maxItems(Int)
    case uniqueItems
    case minProperties(Int)
    case maxProperties(Int)
    case required([String])
    case dependentRequired([DependentRequirement])
    /// `$ref`, with the URI it was written as resolved against the base (for messages and relinking).
    case reference(SchemaReference, uri: String)
    /// `$dynamicRef`; `anchor` is set when the initial target carries the matching `$dynamicAnchor`, so the
    /// dynamic scope decides.
    case dynamicReference(SchemaReference, uri: String, anchor: String?)
    case allOf([Int])
    case anyOf([Int])
    case oneOf([Int])
    case not(Int)
    case conditional(if: Int, then: Int?, else: Int?)
    case dependentSchemas([DependentSchema])
    case members(ObjectMembers)
    case propertyNames(Int)
    case items(prefix: [Int], rest: Int?)
    case contains(Int, minimum: Int, maximum: Int?)
    case unevaluatedItems(Int)
    case unevaluatedProperties(Int)
    /// The `false` schema.
    case never
    /// What a Swift model's decoder asserts beyond JSON Schema (``SchemaDialect/understudy``).
    case model(ModelAssertion)
    /// `x-pairs`: an array alternating keys (`key`) and values (`value`).
    case pairs(key: Int, value: Int)

    /// The evaluation order: type first (most findings are wrong types), cheap checks before applicators, and
    /// the `unevaluated*` keywords after everything whose annotations they read.
    var rank: Int {
        switch self {
        case .types: 0
        case .never: 0
        case .constant, .enumeration: 1
        case .multipleOf, .bound, .minLength, .maxLength, .pattern, .format, .minItems, .maxItems, .uniqueItems,
            .minProperties, .maxProperties, .required, .dependentRequired, .model:
            2
        case .reference, .dynamicReference: 3
        // Names before the members' values, as a decoder reads a dictionary's keys.
        case .allOf, .anyOf, .oneOf, .not, .conditional, .dependentSchemas, .propertyNames: 4
        case .members, .items, .contains, .pairs: 5
        case .unevaluatedItems, .unevaluatedProperties: 9
        }
    }
}

/// The assertions of ``SchemaDialect/understudy`` on a value itself.
enum ModelAssertion: Sendable {
    /// A ``StringFormat`` the decoder needs (`date-time-no-fraction`, `objectid`, `date-pattern(…)`).
    case format(StringFormat)
    /// An integer a Swift `Int` holds.
    case integer64
    /// Rules between an object's properties, once each is valid on its own.
    case rules([ObjectRule])
}

enum BoundKind: Sendable {
    case minimum, exclusiveMinimum, maximum, exclusiveMaximum
}

/// `enum`'s values, with its strings in a set: an enum of 400 time zone names is one lookup.
struct EnumValues: Sendable {
    var values: [JSONValue]
    var strings: Set<String>

    init(_ values: [JSONValue]) {
        self.values = values
        strings = Set(values.compactMap(\.stringValue))
    }

    func contains(_ value: JSONValue) -> Bool {
        if case .string(let string) = value {
            // `Set` compares by canonical equivalence; JSON compares code points, so a hit is confirmed.
            if let hit = strings.firstIndex(of: string), strings[hit].utf8.elementsEqual(string.utf8) { return true }
            return values.contains { JSONEquality.equal($0, value) }
        }
        return values.contains { JSONEquality.equal($0, value) }
    }
}

struct DependentRequirement: Sendable {
    var property: String
    var required: [String]
}

struct DependentSchema: Sendable {
    var property: String
    var schema: Int
}

/// `properties`, `patternProperties` and `additionalProperties` of one schema, evaluated in one pass over the
/// members (`additionalProperties` applies to what the other two leave).
struct ObjectMembers: Sendable {
    /// In the schema's order, so findings come in a stable order.
    var properties: [(name: String, schema: Int)] = []
    var propertyIndex: [String: Int] = [:]
    var patterns: [(pattern: ECMAPattern, schema: Int)] = []
    var additional: Int?
    /// Whether `properties` is present (for undeclared-member notes).
    var declaresProperties = false
    /// A Swift model's `required` (``SchemaDialect/understudy``), checked in the properties' order with their other
    /// findings.
    var required: Set<String> = []
}
