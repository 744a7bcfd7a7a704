/// Which JSON Schema a document's schemas are written in.
///
/// ```swift
/// let registry = SchemaRegistry(dialect: spec.openapi.hasPrefix("3.0") ? .openAPI30 : .jsonSchema2020_12)
/// ```
public enum SchemaDialect: Sendable, Hashable {
    /// JSON Schema 2020-12, as OpenAPI 3.1 uses it: `$id`, `$anchor`, `$dynamicRef`, `unevaluated*`, vocabularies.
    case jsonSchema2020_12
    /// OpenAPI 3.0's Schema Object (draft 4 based): `nullable`, boolean `exclusiveMaximum`/`exclusiveMinimum`, a
    /// `$ref` that hides its siblings, no `$id`/`$anchor`/`$defs`.
    case openAPI30
    /// The canonical form of a Swift model's ``Schema`` (``Schema/canonicalJSON``, as `specs/` holds it): 2020-12,
    /// and what a model says that JSON Schema cannot, as the app's `JSONDecoder` reads it: `x-pairs` (a dictionary
    /// written as an array of alternating keys and values), `x-understudy-rules` (``ObjectRule``), an object's
    /// `readOnly`/`writeOnly` lists of property names, `propertyNames` as the key type a decoder needs, integers that
    /// fit 64 bits, and the formats of ``StringFormat``, asserted (the decoder refuses what does not match).
    /// `additionalProperties: true` allows members without evaluating them, so undeclared ones stay notes; `oneOf`'s
    /// alternatives are tried in turn (a decoder's first fit), and `anyOf: [X, {"type": "null"}]` is an optional X.
    case understudy
}

/// The 2020-12 vocabularies a schema's metaschema turns on (`$vocabulary`); keywords of the others are ignored.
struct Vocabularies: OptionSet, Sendable, Hashable {
    let rawValue: UInt8

    static let core = Vocabularies(rawValue: 1 << 0)
    static let applicator = Vocabularies(rawValue: 1 << 1)
    static let unevaluated = Vocabularies(rawValue: 1 << 2)
    static let validation = Vocabularies(rawValue: 1 << 3)
    static let metaData = Vocabularies(rawValue: 1 << 4)
    static let formatAnnotation = Vocabularies(rawValue: 1 << 5)
    /// Formats are assertions, whatever the validator's configuration says.
    static let formatAssertion = Vocabularies(rawValue: 1 << 6)
    static let content = Vocabularies(rawValue: 1 << 7)

    /// What a schema without a `$schema` naming a known metaschema gets: everything but format assertion.
    static let standard: Vocabularies = [
        .core, .applicator, .unevaluated, .validation, .metaData, .formatAnnotation, .content,
    ]

    /// The vocabularies a metaschema's `$vocabulary` object lists (required or optional: those we know we apply).
    init(declaration: [String: JSONValue]) {
        var vocabularies: Vocabularies = [.core]
        let prefix = "https://json-schema.org/draft/2020-12/vocab/"
        for key in declaration.keys where key.hasPrefix(prefix) {
            switch key.dropFirst(prefix.count) {
            case "core": vocabularies.insert(.core)
            case "applicator": vocabularies.insert(.applicator)
            case "unevaluated": vocabularies.insert(.unevaluated)
            case "validation": vocabularies.insert(.validation)
            case "meta-data": vocabularies.insert(.metaData)
            case "format-annotation": vocabularies.insert(.formatAnnotation)
            case "format-assertion": vocabularies.insert(.formatAssertion)
            case "content": vocabularies.insert(.content)
            default: break
            }
        }
        self = vocabularies
    }

    init(rawValue: UInt8) {
        self.rawValue = rawValue
    }
}
