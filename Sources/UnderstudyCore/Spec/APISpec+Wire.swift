import Foundation

extension APISpec {
    /// `model` as this API's server writes it, so a mock builds its answers from the spec's own models:
    /// - encoded with ``wire`` (dates, keys), keys sorted;
    /// - every optional key of the model's schema present, `null` when empty, when the server always sends
    ///   them (``optionalKeys`` is `.alwaysPresent`); left out otherwise;
    /// - UUIDs lower-case, as servers write them (Foundation alone writes them upper-case).
    ///
    /// ```swift
    /// let body = try VideGreniers.spec.wireJSON(event)   // {"id": "3f2a…", "state": null, ...}
    /// ```
    public func wireJSON<Model: Encodable>(_ model: Model) throws -> JSONValue {
        let value = try JSONValue(parsing: wire.makeEncoder().encode(model))
        // A bare list (`[CoalitionUser]`) is not a definition of its own: each element is shaped as its model.
        if let models = model as? [any Encodable], case .array(let elements) = value {
            return .array(zip(elements, models).map { shaped($0, as: schema(of: type(of: $1))) })
        }
        return shaped(value, as: schema(of: Model.self))
    }

    /// ``wireJSON(_:)`` serialized. A model the shaping would not change (no UUID, no optional key to write as
    /// `null`) is written straight from the encoder, without the parse and the walk.
    public func wireBytes<Model: Encodable>(_ model: Model) throws -> [UInt8] {
        let models = model as? [any Encodable]
        var seen: Set<String> = []
        let schema = models.map { $0.first.map { self.schema(of: type(of: $0)) } ?? .any } ?? schema(of: Model.self)
        guard needsShaping(schema, seen: &seen) else { return Array(try wire.makeEncoder().encode(model)) }
        return try wireJSON(model).serializedBytes()
    }

    private func schema(of model: Any.Type) -> Schema {
        definitions[SchemaInference.name(of: model)] ?? .any
    }

    /// Whether ``shaped(_:as:)`` can change a value of `schema`.
    private func needsShaping(_ schema: Schema, seen: inout Set<String>) -> Bool {
        switch schema {
        case .ref(let name):
            guard seen.insert(name).inserted, let definition = definitions[name] else { return false }
            return needsShaping(definition, seen: &seen)
        case .nullable(let inner): return needsShaping(inner, seen: &seen)
        case .string(let constraints): return constraints.format == .uuid
        case .array(let array): return needsShaping(array.items, seen: &seen)
        case .map(let map): return needsShaping(map.values, seen: &seen)
        case .object(let object):
            return object.properties.contains { property in
                (optionalKeys == .alwaysPresent && !property.required && property.access != .writeOnly)
                    || needsShaping(property.schema, seen: &seen)
            }
        default: return false
        }
    }

    private func shaped(_ value: JSONValue, as schema: Schema) -> JSONValue {
        switch (schema, value) {
        case (.ref(let name), _): return definitions[name].map { shaped(value, as: $0) } ?? value
        case (.nullable(let inner), _): return value == .null ? value : shaped(value, as: inner)
        case (.string(let constraints), .string(let text)) where constraints.format == .uuid:
            return .string(text.lowercased())
        case (.array(let array), .array(let elements)):
            return .array(elements.map { shaped($0, as: array.items) })
        case (.map(let map), .object(let members)):
            return .object(members.mapValues { shaped($0, as: map.values) })
        case (.object(let object), .object(var members)):
            for property in object.properties {
                if let member = members[property.name] {
                    members[property.name] = shaped(member, as: property.schema)
                } else if optionalKeys == .alwaysPresent && !property.required && property.access != .writeOnly {
                    members[property.name] = .null
                }
            }
            return .object(members)
        default: return value
        }
    }
}
