import Foundation
import UnderstudyCore

/// Upgrades a Swagger 2.0 document to the OpenAPI 3.0 document that says the same, which the importer then reads as
/// any other: the mapping the OpenAPI 3.0 specification and `swagger2openapi` follow.
///
/// - `host`, `basePath` and `schemes` become `servers` (without `schemes`, a scheme-relative `//host/v2`, which the
///   importer resolves as a reference; without `host`, the path alone);
/// - `definitions`, `parameters`, `responses` and `securityDefinitions` move under `components` (`basic` is an `http`
///   scheme, the OAuth 2 flows `implicit`, `password`, `application` and `accessCode` are `implicit`, `password`,
///   `clientCredentials` and `authorizationCode`), and every `$ref` follows them;
/// - a `body` parameter is the request body, `formData` parameters the properties of a form body (multipart when one
///   is a `file`), each in the media types the operation `consumes` (the document's, else JSON);
/// - a parameter's `type`, `format`, `items`, `enum`, bounds and `default` are its `schema`, its `collectionFormat` a
///   `style` and `explode` (`csv` by default: `a,b`; `multi`: `a&a`), its `x-example` (go-swagger's, springfox's)
///   its example;
/// - a response's `schema` is its content in the media types the operation `produces`, `examples` their examples,
///   its headers' types their schemas;
/// - in schemas, `x-nullable` is `nullable`, a `file` a binary string, and a discriminator (a property name in 2.0)
///   maps each model that `allOf`s the base by its name, as 2.0 defines its values.
///
/// What 3.0 cannot say (a `tsv` array, an operation's own `schemes`) is kept as near as it can be and returned as a
/// note.
enum Swagger2Conversion {
    /// Whether the document declares `swagger: "2.0"` (YAML may give it as the number 2.0).
    static func isSwagger2(_ document: JSONValue) -> Bool {
        version(of: document) == "2.0"
    }

    /// The `swagger` version a document declares, if it declares one.
    static func version(of document: JSONValue) -> String? {
        switch document["swagger"] {
        case .string(let text): text
        case .number(let number): number.literal.contains(".") ? number.literal : number.literal + ".0"
        default: nil
        }
    }

    /// The OpenAPI 3.0.3 document, and what could not be carried over exactly.
    static func upgrade(_ document: JSONValue) -> (document: JSONValue, notes: [String]) {
        var converter = Converter(document)
        return (converter.document(), converter.notes)
    }

    private struct Converter {
        let source: JSONValue
        var notes: [String] = []
        let consumes: [String]
        let produces: [String]
        /// The document's `definitions`, to find the models that `allOf` a discriminated base.
        let definitions: [String: JSONValue]

        init(_ source: JSONValue) {
            self.source = source
            consumes = Self.strings(source["consumes"]) ?? ["application/json"]
            produces = Self.strings(source["produces"]) ?? ["application/json"]
            definitions = source["definitions"]?.objectValue ?? [:]
        }

        /// A list of strings (`consumes`, `produces`, `schemes`), `nil` when absent or empty.
        static func strings(_ value: JSONValue?) -> [String]? {
            let strings = value?.arrayValue?.compactMap(\.stringValue) ?? []
            return strings.isEmpty ? nil : strings
        }

        mutating func document() -> JSONValue {
            var result: [String: JSONValue] = ["openapi": "3.0.3"]
            for (key, value) in source.objectValue ?? [:] {
                switch key {
                case "info", "tags", "externalDocs", "security": result[key] = value
                case _ where key.hasPrefix("x-"): result[key] = value
                default: continue
                }
            }
            result["info"] = result["info"] ?? ["title": "api", "version": "1"]
            result["servers"] = .array(servers())
            var components: [String: JSONValue] = [:]
            if !definitions.isEmpty {
                components["schemas"] = .object(definitions.mapValues { schema($0) })
            }
            var parameters: [String: JSONValue] = [:]
            var bodies: [String: JSONValue] = [:]
            for (name, parameter) in source["parameters"]?.objectValue ?? [:] {
                switch parameter["in"]?.stringValue {
                case "body": bodies[name] = requestBody(body: parameter, consumes: consumes)
                // Form fields are properties of an operation's form body: they are inlined where used.
                case "formData": continue
                default: parameters[name] = self.parameter(parameter)
                }
            }
            if !parameters.isEmpty { components["parameters"] = .object(parameters) }
            if !bodies.isEmpty { components["requestBodies"] = .object(bodies) }
            if let responses = source["responses"]?.objectValue, !responses.isEmpty {
                components["responses"] = .object(responses.mapValues { response($0, produces: produces) })
            }
            if let schemes = source["securityDefinitions"]?.objectValue, !schemes.isEmpty {
                components["securitySchemes"] = .object(schemes.mapValues(securityScheme))
            }
            if !components.isEmpty { result["components"] = .object(components) }
            var paths: [String: JSONValue] = [:]
            for (path, item) in source["paths"]?.objectValue ?? [:] {
                paths[path] = pathItem(item, path: path)
            }
            result["paths"] = .object(paths)
            return .object(result)
        }

        // MARK: Servers and security

        /// `schemes` × `host` + `basePath`.
        func servers() -> [JSONValue] {
            let basePath = source["basePath"]?.stringValue ?? ""
            guard let host = source["host"]?.stringValue, !host.isEmpty else {
                return basePath.isEmpty ? [] : [["url": .string(basePath)]]
            }
            let schemes = Self.strings(source["schemes"]) ?? []
            guard !schemes.isEmpty else { return [["url": .string("//\(host)\(basePath)")]] }
            return schemes.map { ["url": .string("\($0)://\(host)\(basePath)")] }
        }

        func securityScheme(_ scheme: JSONValue) -> JSONValue {
            var result: [String: JSONValue] = [:]
            if let description = scheme["description"] { result["description"] = description }
            switch scheme["type"]?.stringValue {
            case "basic":
                result["type"] = "http"
                result["scheme"] = "basic"
            case "oauth2":
                result["type"] = "oauth2"
                let names = [
                    "implicit": "implicit", "password": "password", "application": "clientCredentials",
                    "accessCode": "authorizationCode",
                ]
                var flow: [String: JSONValue] = ["scopes": scheme["scopes"] ?? [:]]
                for key in ["authorizationUrl", "tokenUrl"] { flow[key] = scheme[key] }
                let name = scheme["flow"]?.stringValue.flatMap { names[$0] } ?? "implicit"
                result["flows"] = .object([name: .object(flow)])
            default:
                for (key, value) in scheme.objectValue ?? [:] where key != "description" { result[key] = value }
            }
            return .object(result)
        }

        // MARK: Operations

        mutating func pathItem(_ item: JSONValue, path: String) -> JSONValue {
            guard case .object(let members) = item else { return item }
            let shared = members["parameters"]?.arrayValue ?? []
            var result: [String: JSONValue] = [:]
            for (key, value) in members {
                switch key {
                case "get", "put", "post", "delete", "options", "head", "patch":
                    result[key] = operation(value, shared: shared, name: "\(key.uppercased()) \(path)")
                // Given to each operation, where a body or form field among them becomes its request body.
                case "parameters": continue
                case "$ref": result[key] = .string(Self.reference(value.stringValue ?? ""))
                default: result[key] = value
                }
            }
            return .object(result)
        }

        /// A parameter, followed through its `$ref` into the document's `parameters`.
        func resolved(_ parameter: JSONValue) -> JSONValue {
            guard let reference = parameter["$ref"]?.stringValue, reference.hasPrefix("#/parameters/") else {
                return parameter
            }
            let name = String(reference.dropFirst("#/parameters/".count))
            return source["parameters"]?[Self.unescaped(name)] ?? parameter
        }

        mutating func operation(_ operation: JSONValue, shared: [JSONValue], name: String) -> JSONValue {
            guard case .object(let members) = operation else { return operation }
            let consumes = Self.strings(members["consumes"]) ?? consumes
            let produces = Self.strings(members["produces"]) ?? produces
            var result: [String: JSONValue] = [:]
            for (key, value) in members {
                switch key {
                case "consumes", "produces", "parameters": continue
                case "schemes":
                    notes.append("\(name): its own schemes \(value) are not kept (OpenAPI 3.0 has no such field)")
                case "responses":
                    result[key] = .object((value.objectValue ?? [:]).mapValues { response($0, produces: produces) })
                default: result[key] = value
                }
            }
            // The operation's parameter replaces the path item's one of the same name and location.
            var parameters: [JSONValue] = []
            for raw in shared + (members["parameters"]?.arrayValue ?? []) {
                let parameter = resolved(raw)
                parameters.removeAll {
                    resolved($0)["name"] == parameter["name"] && resolved($0)["in"] == parameter["in"]
                }
                parameters.append(raw)
            }
            var form: [JSONValue] = []
            var plain: [JSONValue] = []
            for raw in parameters {
                let parameter = resolved(raw)
                switch parameter["in"]?.stringValue {
                case "body":
                    // A body among the document's parameters is one of its request bodies.
                    if let reference = raw["$ref"]?.stringValue, reference.hasPrefix("#/parameters/") {
                        let name = reference.dropFirst("#/parameters/".count)
                        result["requestBody"] = ["$ref": .string("#/components/requestBodies/\(name)")]
                    } else {
                        result["requestBody"] = requestBody(body: parameter, consumes: consumes)
                    }
                case "formData": form.append(parameter)
                default: plain.append(self.parameter(raw))
                }
            }
            if !form.isEmpty { result["requestBody"] = requestBody(form: form, consumes: consumes) }
            if !plain.isEmpty { result["parameters"] = .array(plain) }
            if result["responses"] == nil { result["responses"] = ["default": ["description": ""]] }
            return .object(result)
        }

        /// A `body` parameter as a request body.
        func requestBody(body: JSONValue, consumes: [String]) -> JSONValue {
            let types = consumes.filter { !Self.isForm($0) }
            let schema = schema(body["schema"] ?? [:])
            var result: [String: JSONValue] = [
                "content": .object(
                    Dictionary(
                        (types.isEmpty ? ["application/json"] : types).map { ($0, ["schema": schema]) },
                        uniquingKeysWith: { first, _ in first }))
            ]
            if body["required"] == .bool(true) { result["required"] = true }
            if let description = body["description"] { result["description"] = description }
            return .object(result)
        }

        /// `formData` parameters as the properties of a form body.
        func requestBody(form: [JSONValue], consumes: [String]) -> JSONValue {
            var properties: [String: JSONValue] = [:]
            var required: [JSONValue] = []
            var hasFile = false
            for field in form {
                guard let name = field["name"]?.stringValue else { continue }
                var schema = parameterSchema(field)
                if var members = schema.objectValue, let description = field["description"] {
                    members["description"] = description
                    schema = .object(members)
                }
                properties[name] = schema
                if field["required"] == .bool(true) { required.append(.string(name)) }
                hasFile = hasFile || field["type"] == "file"
            }
            var object: [String: JSONValue] = ["type": "object", "properties": .object(properties)]
            if !required.isEmpty { object["required"] = .array(required) }
            var types = consumes.filter(Self.isForm)
            if types.isEmpty { types = [hasFile ? "multipart/form-data" : "application/x-www-form-urlencoded"] }
            var result: [String: JSONValue] = [
                "content": .object(
                    Dictionary(types.map { ($0, ["schema": .object(object)]) }, uniquingKeysWith: { a, _ in a }))
            ]
            if !required.isEmpty { result["required"] = true }
            return .object(result)
        }

        static func isForm(_ mediaType: String) -> Bool {
            mediaType.hasPrefix("multipart/form-data") || mediaType.hasPrefix("application/x-www-form-urlencoded")
        }

        /// A path, query or header parameter: its type keywords make its schema, its `collectionFormat` its style.
        mutating func parameter(_ parameter: JSONValue) -> JSONValue {
            guard case .object(let members) = parameter else { return parameter }
            if let reference = members["$ref"]?.stringValue { return ["$ref": .string(Self.reference(reference))] }
            var result: [String: JSONValue] = [:]
            for key in ["name", "in", "description", "required", "allowEmptyValue", "deprecated"] {
                result[key] = members[key]
            }
            for (key, value) in members where key.hasPrefix("x-") { result[key] = value }
            // 2.0 has no parameter example: go-swagger and springfox write `x-example`.
            if let example = members["x-example"] { result["example"] = example }
            result["schema"] = parameterSchema(parameter)
            if members["type"] == "array" {
                let location = members["in"]?.stringValue ?? "query"
                let format = members["collectionFormat"]?.stringValue ?? "csv"
                switch (format, location) {
                case ("multi", _):
                    result["style"] = "form"
                    result["explode"] = true
                case ("ssv", "query"): result["style"] = "spaceDelimited"
                case ("pipes", "query"): result["style"] = "pipeDelimited"
                default:
                    if format != "csv" {
                        notes.append(
                            "parameter \(members["name"]?.stringValue ?? "?"): collectionFormat \(format) in the "
                                + "\(location) has no OpenAPI 3.0 style; read as csv (a,b)")
                    }
                    result["style"] = location == "query" || location == "cookie" ? "form" : "simple"
                }
                if result["explode"] == nil { result["explode"] = false }
            }
            return .object(result)
        }

        /// The schema a 2.0 parameter spells with its own keywords (`type`, `items`, `enum`, …).
        func parameterSchema(_ parameter: JSONValue) -> JSONValue {
            var schema: [String: JSONValue] = [:]
            for (key, value) in parameter.objectValue ?? [:] {
                switch key {
                case "name", "in", "description", "required", "allowEmptyValue", "collectionFormat", "deprecated":
                    continue
                case "items": schema[key] = parameterSchema(value)
                case _ where key.hasPrefix("x-"): continue
                default: schema[key] = value
                }
            }
            return self.schema(.object(schema))
        }

        /// A response: its schema in each produced media type, with the example given for it.
        func response(_ response: JSONValue, produces: [String]) -> JSONValue {
            guard case .object(let members) = response else { return response }
            if let reference = members["$ref"]?.stringValue { return ["$ref": .string(Self.reference(reference))] }
            var result: [String: JSONValue] = ["description": members["description"] ?? ""]
            for (key, value) in members where key.hasPrefix("x-") { result[key] = value }
            if let headers = members["headers"]?.objectValue {
                result["headers"] = .object(
                    headers.mapValues { header in
                        var converted: [String: JSONValue] = ["schema": parameterSchema(header)]
                        if let description = header["description"] { converted["description"] = description }
                        return .object(converted)
                    })
            }
            let examples = members["examples"]?.objectValue ?? [:]
            if let body = members["schema"] {
                var content: [String: JSONValue] = [:]
                let isFile = body["type"] == "file"
                for type in isFile && produces == ["application/json"] ? ["application/octet-stream"] : produces {
                    var media: [String: JSONValue] = ["schema": schema(body)]
                    if let example = examples[type] { media["example"] = example }
                    content[type] = .object(media)
                }
                result["content"] = .object(content)
            }
            return .object(result)
        }

        // MARK: Schemas

        /// A schema with 2.0's own keywords said in 3.0.
        func schema(_ schema: JSONValue) -> JSONValue {
            guard case .object(let members) = schema else { return schema }
            var result: [String: JSONValue] = [:]
            for (key, value) in members {
                switch key {
                case "$ref": result[key] = .string(Self.reference(value.stringValue ?? ""))
                case "x-nullable": if value == .bool(true) { result["nullable"] = true }
                case "type" where value == "file":
                    result["type"] = "string"
                    result["format"] = "binary"
                case "items", "additionalProperties", "not": result[key] = self.schema(value)
                case "allOf", "anyOf", "oneOf": result[key] = .array((value.arrayValue ?? []).map(self.schema))
                case "properties": result[key] = .object((value.objectValue ?? [:]).mapValues(self.schema))
                case "discriminator":
                    guard let property = value.stringValue else {
                        result[key] = value
                        continue
                    }
                    result[key] = discriminator(property, base: schema)
                default: result[key] = value
                }
            }
            return .object(result)
        }

        /// A 2.0 discriminator (a property whose value is a model's name), with the models that `allOf` the base.
        func discriminator(_ property: String, base: JSONValue) -> JSONValue {
            guard let name = definitions.first(where: { $0.value == base })?.key else {
                return ["propertyName": .string(property)]
            }
            let target = "#/definitions/\(Self.escaped(name))"
            var mapping: [String: JSONValue] = [:]
            for (model, definition) in definitions
            where definition["allOf"]?.arrayValue?.contains(where: { $0["$ref"]?.stringValue == target }) == true {
                mapping[model] = .string("#/components/schemas/\(Self.escaped(model))")
            }
            return mapping.isEmpty
                ? ["propertyName": .string(property)]
                : ["propertyName": .string(property), "mapping": .object(mapping)]
        }

        /// A reference into the 2.0 document's sections, into the 3.0 document's components.
        static func reference(_ reference: String) -> String {
            let moved = [
                "#/definitions/": "#/components/schemas/", "#/parameters/": "#/components/parameters/",
                "#/responses/": "#/components/responses/",
            ]
            for (old, new) in moved where reference.hasPrefix(old) {
                return new + reference.dropFirst(old.count)
            }
            return reference
        }

        /// A JSON pointer token (RFC 6901).
        static func escaped(_ token: String) -> String {
            token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
        }

        static func unescaped(_ token: String) -> String {
            token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }
}
