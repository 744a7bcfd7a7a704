extension APISpec {
    /// The version of the canonical spec format written by ``canonicalJSON``.
    public static let canonicalFormatVersion = 1

    /// The spec as canonical JSON: keys sorted, endpoints sorted by path then method, schemas in a
    /// JSON-Schema-like form. The same descriptors always give the same bytes; this is the baseline
    /// committed under `specs/` that `understudy diff` compares against.
    public var canonicalJSON: JSONValue {
        var object: [String: JSONValue] = [
            "formatVersion": .integer(Self.canonicalFormatVersion),
            "api": .string(id),
            "title": .string(title),
            "document": .string(document),
            "auth": .string(auth.description),
            "wire": wire.canonicalJSON,
            "app": app.canonicalJSON,
            "errorEnvelope": errorEnvelope.model.canonicalJSON,
            "optionalKeys": .string(optionalKeys.rawValue),
            "definitions": .object(definitions.mapValues(\.canonicalJSON)),
        ]
        let sorted = endpoints.sorted { ($0.path.template, $0.method) < ($1.path.template, $1.method) }
        object["endpoints"] = .array(sorted.map(\.canonicalJSON))
        object["ambiguities"] = .array(
            ambiguities.sorted { $0.id < $1.id }.map { ambiguity in
                var entry: [String: JSONValue] = [
                    "id": .string(ambiguity.id), "summary": .string(ambiguity.summary),
                    "resolution": .string(ambiguity.resolution),
                ]
                if let endpoint = ambiguity.endpoint { entry["endpoint"] = .string(endpoint) }
                if ambiguity.kind != .choice { entry["kind"] = .string(ambiguity.kind.rawValue) }
                return .object(entry)
            })
        if !assumptions.isEmpty { object["assumptions"] = .array(assumptions.map(\.canonicalJSON)) }
        if !webhooks.isEmpty { object["webhooks"] = .array(webhooks.map(\.canonicalJSON)) }
        return .object(object)
    }
}

extension Assumption {
    /// `{"ambiguity": "error-statuses", "status": 404}` or `{"ambiguity": …, "parameter": "sortBy", "values": […]}`.
    public var canonicalJSON: JSONValue {
        switch subject {
        case .status(let status): ["ambiguity": .string(ambiguity), "status": .integer(status.rawValue)]
        case .values(let parameter, let values):
            [
                "ambiguity": .string(ambiguity), "parameter": .string(parameter),
                "values": .array(values.map(JSONValue.string)),
            ]
        }
    }

    /// Reads the ``canonicalJSON`` form; `nil` for anything else.
    public init?(canonical json: JSONValue) {
        guard let ambiguity = json["ambiguity"]?.stringValue else { return nil }
        if let status = json["status"]?.numberValue?.intValue {
            self.init(.status(HTTPStatus(rawValue: status)), ambiguity: ambiguity)
        } else if let parameter = json["parameter"]?.stringValue, let values = json["values"]?.arrayValue {
            self.init(.values(parameter: parameter, values.compactMap(\.stringValue)), ambiguity: ambiguity)
        } else {
            return nil
        }
    }
}

extension AnyEndpoint {
    var canonicalJSON: JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(id),
            "method": .string(method.rawValue),
            "path": .string(path.template),
            "auth": .string(auth.description),
            "success": .integer(success.rawValue),
            "errors": .array(errors.sorted().map { .integer($0.rawValue) }),
            "body": .string(body.rawValue),
            "pagination": .string(pagination.description),
            "summary": .string(summary),
            "parameters": .array(parameters.map(\.canonicalJSON)),
        ]
        switch availability {
        case .available: object["availability"] = "available"
        case .announced(let note): object["availability"] = .string("announced: \(note)")
        }
        if let request { object["request"] = request.canonicalJSON }
        if let response { object["response"] = response.canonicalJSON }
        if !rules.isEmpty { object[RequestRule.extensionName] = .array(rules.map(\.json)) }
        if let resource { object["resource"] = resource.json }
        if let owner { object["owner"] = owner.json }
        if !order.isEmpty { object["order"] = .array(order.map { .string($0.description) }) }
        if let effect { object["effect"] = effect.json }
        if !callbacks.isEmpty { object["callbacks"] = .array(callbacks.map(\.canonicalJSON)) }
        return .object(object)
    }
}

extension Parameter {
    var canonicalJSON: JSONValue {
        var object: [String: JSONValue] = [
            "name": .string(name), "in": .string(location.rawValue), "required": .bool(required),
            "schema": schema.canonicalJSON,
        ]
        if let defaultValue { object["default"] = defaultValue }
        if let summary { object["summary"] = .string(summary) }
        if let meaning { object["meaning"] = .string(meaning.description) }
        if !enforced { object["enforced"] = false }
        if deprecated { object["deprecated"] = true }
        return .object(object)
    }
}

extension ModelReference {
    var canonicalJSON: JSONValue {
        ["model": .string(name), "schema": schema.canonicalJSON]
    }
}

extension Schema {
    /// A JSON-Schema-like rendering: `type`, `properties`, `required`, `format`, `enum`, `$ref`;
    /// `null` allowed is `anyOf: [X, {"type": "null"}]`; a key/value pair array is `x-pairs`.
    public var canonicalJSON: JSONValue { canonical(ordered: false) }

    /// ``canonicalJSON``; `ordered` adds each object's property names in declaration order as `x-order`, which the
    /// schema engine reports findings in (``SchemaDialect/understudy``), as a decoder and a server meet them.
    func canonical(ordered: Bool) -> JSONValue {
        switch self {
        case .any:
            return .object([:])
        case .boolean:
            return ["type": "boolean"]
        case .integer(let constraints):
            var object: [String: JSONValue] = ["type": "integer"]
            if let minimum = constraints.minimum { object["minimum"] = .integer(minimum) }
            if let maximum = constraints.maximum { object["maximum"] = .integer(maximum) }
            if let values = constraints.values { object["enum"] = .array(values.map { .integer($0) }) }
            return .object(object)
        case .number(let constraints), .decimal(let constraints):
            var object: [String: JSONValue] = ["type": "number"]
            if case .decimal = self { object["format"] = "decimal" }
            if let minimum = constraints.minimum { object["minimum"] = .number(Self.number(minimum)) }
            if let maximum = constraints.maximum { object["maximum"] = .number(Self.number(maximum)) }
            if let minimum = constraints.exclusiveMinimum { object["exclusiveMinimum"] = .number(Self.number(minimum)) }
            return .object(object)
        case .string(let constraints):
            var object: [String: JSONValue] = ["type": "string"]
            if let format = constraints.format { object["format"] = .string(format.description) }
            if let values = constraints.values { object["enum"] = .array(values.map { .string($0) }) }
            if let minimum = constraints.minLength { object["minLength"] = .integer(minimum) }
            if let maximum = constraints.maxLength { object["maxLength"] = .integer(maximum) }
            if let pattern = constraints.pattern { object["pattern"] = .string(pattern) }
            if let examples = constraints.examples { object["examples"] = .array(examples.map { .string($0) }) }
            return .object(object)
        case .array(let array):
            var object: [String: JSONValue] = ["type": "array", "items": array.items.canonical(ordered: ordered)]
            if let minimum = array.minItems { object["minItems"] = .integer(minimum) }
            if let maximum = array.maxItems { object["maxItems"] = .integer(maximum) }
            return .object(object)
        case .object(let schema):
            let additional: JSONValue =
                switch schema.additionalProperties {
                case .allowed: true
                case .forbidden: false
                case .typed(let values): values.canonical(ordered: ordered)
                }
            var object: [String: JSONValue] = [
                "type": "object",
                "properties": .object(
                    Dictionary(
                        uniqueKeysWithValues: schema.properties.map {
                            ($0.name, $0.schema.canonical(ordered: ordered))
                        })),
                "required": .array(schema.properties.filter(\.required).map { .string($0.name) }),
                "additionalProperties": additional,
            ]
            if !schema.rules.isEmpty { object[ObjectRule.extensionName] = .array(schema.rules.map(\.json)) }
            if ordered { object["x-order"] = .array(schema.properties.map { .string($0.name) }) }
            // Which properties only answers carry, and which only requests (absent when none: the built-in models').
            for (key, access) in [("readOnly", PropertyAccess.readOnly), ("writeOnly", .writeOnly)] {
                let names = schema.properties.filter { $0.access == access }.map { JSONValue.string($0.name) }
                if !names.isEmpty { object[key] = .array(names) }
            }
            return .object(object)
        case .map(let map):
            return [
                "type": "object", "propertyNames": map.keys.canonical(ordered: ordered),
                "additionalProperties": map.values.canonical(ordered: ordered),
            ]
        case .pairs(let key, let value):
            return [
                "type": "array",
                "x-pairs": ["key": key.canonical(ordered: ordered), "value": value.canonical(ordered: ordered)],
            ]
        case .oneOf(let alternatives):
            return ["oneOf": .array(alternatives.map { $0.canonical(ordered: ordered) })]
        case .nullable(let wrapped):
            return ["anyOf": [wrapped.canonical(ordered: ordered), ["type": "null"]]]
        case .ref(let name):
            return ["$ref": .string("#/definitions/\(name)")]
        }
    }

    private static func number(_ value: Double) -> JSONNumber {
        value.rounded() == value && abs(value) < 1e15 ? JSONNumber(Int(value)) : JSONNumber(value)
    }
}

extension DecoderSettings {
    /// `{"dates": "iso8601", "keys": "useDefaultKeys"}`.
    public var canonicalJSON: JSONValue {
        ["dates": .string(dates.description), "keys": .string(keys.description)]
    }

    /// Reads ``canonicalJSON``; what is missing or unknown is a plain `JSONDecoder()`'s.
    public init(canonical: JSONValue?) {
        self.init(
            dates: canonical?["dates"]?.stringValue.flatMap(DateStrategy.init(name:)) ?? .deferredToDate,
            keys: canonical?["keys"]?.stringValue.flatMap(KeyStrategy.init(name:)) ?? .useDefaultKeys)
    }
}

extension AppContract {
    /// `{"dates": ..., "keys": ..., "sampleClient": {...}}`, the sample client only when there is one.
    public var canonicalJSON: JSONValue {
        guard case .object(var object) = decoder.canonicalJSON else { return decoder.canonicalJSON }
        if let sampleClient { object["sampleClient"] = sampleClient.canonicalJSON }
        return .object(object)
    }

    /// Reads ``canonicalJSON``.
    public init(canonical: JSONValue?) {
        self.init(
            decoder: DecoderSettings(canonical: canonical),
            sampleClient: canonical?["sampleClient"].map { DecoderSettings(canonical: $0) })
    }
}
