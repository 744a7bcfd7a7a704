import Foundation
import OpenAPIKit
import UnderstudyCore

/// Component keys for model names: OpenAPI allows only `[A-Za-z0-9._-]` in a key, and the models have
/// names such as `VideGreniers.ApiResponse<[String: Bool]>`.
struct ComponentNames {
    private(set) var keys: [String: String] = [:]

    init(_ names: some Sequence<String>) {
        var used: Set<String> = []
        for name in names.sorted() {
            let base = Self.sanitized(name)
            var key = base
            var suffix = 2
            while used.contains(key) {
                key = "\(base)_\(suffix)"
                suffix += 1
            }
            used.insert(key)
            keys[name] = key
        }
    }

    func key(_ name: String) -> String { keys[name] ?? Self.sanitized(name) }

    static func sanitized(_ name: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        var key = String(name.map { allowed.contains($0) ? $0 : "_" })
        while key.contains("__") { key = key.replacingOccurrences(of: "__", with: "_") }
        while key.hasSuffix("_") { key.removeLast() }
        return key.isEmpty ? "_" : key
    }
}

extension Schema {
    /// The schema as an OpenAPI 3.1 (JSON Schema 2020-12) schema; references point at `components/schemas`.
    func openAPISchema(_ names: ComponentNames) -> JSONSchema {
        switch self {
        case .any:
            return .fragment()
        case .boolean:
            return .boolean()
        case .integer(let constraints):
            // Swift's `Int`: values beyond 64 bits do not decode (and a mock refuses them).
            return .integer(
                format: .int64,
                maximum: constraints.maximum.map { ($0, exclusive: false) },
                minimum: constraints.minimum.map { ($0, exclusive: false) },
                allowedValues: constraints.values?.map { AnyCodable($0) })
        case .number(let constraints), .decimal(let constraints):
            let isDecimal = if case .decimal = self { true } else { false }
            let minimum =
                constraints.minimum.map { ($0, exclusive: false) }
                ?? constraints.exclusiveMinimum.map { ($0, exclusive: true) }
            return .number(
                format: isDecimal ? .other("decimal") : .generic,
                maximum: constraints.maximum.map { ($0, exclusive: false) }, minimum: minimum)
        case .string(let constraints):
            return .string(
                format: constraints.format.map { JSONTypeFormat.StringFormat(rawValue: $0.description) } ?? .generic,
                minLength: constraints.minLength, maxLength: constraints.maxLength,
                pattern: constraints.pattern ?? constraints.format?.pattern,
                allowedValues: constraints.values?.map { AnyCodable($0) },
                examples: constraints.examples?.map { AnyCodable($0) } ?? [])
        case .array(let array):
            return .array(minItems: array.minItems, maxItems: array.maxItems, items: array.items.openAPISchema(names))
        case .object(let object):
            var properties = OrderedDictionary<String, JSONSchema>()
            for property in object.properties {
                let schema = property.schema.openAPISchema(names)
                properties[property.name] = property.required ? schema : schema.optionalSchemaObject()
            }
            let additional: Either<Bool, JSONSchema>? =
                switch object.additionalProperties {
                case .allowed: nil
                case .forbidden: .a(false)
                case .typed(let values): .b(values.openAPISchema(names))
                }
            let schema = JSONSchema.object(properties: properties, additionalProperties: additional)
            guard !object.rules.isEmpty else { return schema }
            return schema.with(vendorExtensions: [ObjectRule.extensionName: object.rules.map(\.json).anyCodable])
        case .map(let map):
            let schema = JSONSchema.object(additionalProperties: .b(map.values.openAPISchema(names)))
            guard map.keys != .string() else { return schema }
            return schema.with(vendorExtensions: [
                OpenAPIExtension.propertyNames: map.keys.openAPISchema(names).anyCodable
            ])
        case .pairs(let key, let value):
            return .array(
                description: "A flat array alternating keys and values: [key, value, key, value, ...]",
                items: .any(of: [key.openAPISchema(names), value.openAPISchema(names)])
            ).with(vendorExtensions: [OpenAPIExtension.pairs: true])
        case .oneOf(let alternatives):
            return .one(of: alternatives.map { $0.openAPISchema(names) })
        case .nullable(let wrapped):
            let schema = wrapped.openAPISchema(names)
            // `type: [T, "null"]` reads best, but an `enum` without null would still reject null.
            switch schema.value {
            case .boolean, .integer, .number, .string, .array, .object:
                if schema.allowedValues == nil { return schema.nullableSchemaObject() }
            default: break
            }
            // `{"enum": [null]}` rather than `{"type": "null"}`: the same values, and the form swift-openapi-generator
            // keeps (it skips a `null` type, and with it the property), as openapi-python-client and OpenAPIKit do.
            return .any(of: [schema, .fragment(.init(allowedValues: [AnyCodable(String?.none)]))])
        case .ref(let name):
            return .reference(.component(named: names.key(name)))
        }
    }
}

extension Encodable {
    /// The value as OpenAPIKit's `AnyCodable` (examples, defaults, extensions hold plain JSON).
    var anyCodable: AnyCodable {
        (try? JSONDecoder().decode(AnyCodable.self, from: JSONEncoder().encode(self))) ?? AnyCodable(String?.none)
    }
}
