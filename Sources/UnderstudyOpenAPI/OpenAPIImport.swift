import Foundation
import UnderstudyCore

/// Reads an OpenAPI 3.0 or 3.1 document, or a Swagger 2.0 one (JSON or YAML), into an ``APISpec``, whose
/// ``APISpec/canonicalJSON`` is what ``SpecDiff`` compares.
///
/// A document written by ``OpenAPIExport`` reads back to the spec it came from (its `x-understudy-*`
/// extensions carry what OpenAPI cannot say). Other documents are read best effort: the lowest 2xx
/// status is the success, every 4xx/5xx status an error, the first error schema the error envelope;
/// `allOf` merges object properties, schemas Understudy cannot describe become "any value".
///
/// ```swift
/// let spec = try OpenAPIImport.spec(Array(data), source: "petstore.yaml")
/// let changes = SpecDiff.compare(old: baseline, new: spec.canonicalJSON)
/// ```
public enum OpenAPIImport {
    /// Whether a JSON document is an OpenAPI document (it has a top-level `openapi` version, or `swagger: "2.0"`).
    public static func isOpenAPI(_ document: JSONValue) -> Bool {
        document["openapi"]?.stringValue != nil || Swagger2Conversion.isSwagger2(document)
    }

    /// Parses JSON or YAML bytes (JSON keeps number literals exactly).
    /// - Throws: ``OpenAPIImportError`` when the bytes are neither.
    public static func parse(_ bytes: [UInt8], source: String) throws -> JSONValue {
        try OpenAPIDocumentReader.parse(bytes, source: source)
    }

    /// Reads JSON or YAML bytes as an OpenAPI document.
    /// - Parameters:
    ///   - bytes: the document.
    ///   - source: the file name, for messages.
    ///   - fallbackID: the API id when the document has no `x-understudy-api` (defaults to its title).
    /// - Throws: ``OpenAPIImportError`` when the bytes are not an OpenAPI 3.0 / 3.1 document.
    public static func spec(_ bytes: [UInt8], source: String, fallbackID: String? = nil) throws -> APISpec {
        try spec(document: OpenAPIDocumentReader.parse(bytes, source: source), source: source, fallbackID: fallbackID)
    }

    /// Reads a parsed OpenAPI document.
    /// - Throws: ``OpenAPIImportError`` when it is not an OpenAPI 3.0 / 3.1 document.
    public static func spec(document: JSONValue, source: String, fallbackID: String? = nil) throws -> APISpec {
        try read(document: document, source: source, fallbackID: fallbackID, structure: .skip).spec
    }

    /// Reads JSON or YAML bytes as an OpenAPI document, and says what in it OpenAPIKit refuses: a document with an
    /// invalid keyword (`items` given as an array, a 3.1 `exclusiveMinimum` in a 3.0 document, a malformed URL) is
    /// read all the same, the keyword ignored where Understudy cannot make sense of it.
    /// - Returns: the spec, and the problems found, each with where it is (empty for a valid document).
    /// - Throws: ``OpenAPIImportError`` when the bytes are not an OpenAPI 3.0 / 3.1 document.
    public static func read(_ bytes: [UInt8], source: String, fallbackID: String? = nil) throws
        -> (spec: APISpec, problems: [String])
    {
        try read(document: OpenAPIDocumentReader.parse(bytes, source: source), source: source, fallbackID: fallbackID)
    }

    /// ``read(_:source:fallbackID:)``, without waiting for OpenAPIKit's check of the document's structure: what it
    /// refuses is handed to `structureProblems` when the check ends, maybe after this returns (a mock serves
    /// meanwhile). The other problems are returned.
    public static func read(
        _ bytes: [UInt8], source: String, fallbackID: String? = nil,
        structureProblems: @escaping @Sendable ([String]) -> Void
    ) throws -> (spec: APISpec, problems: [String]) {
        try read(
            document: OpenAPIDocumentReader.parse(bytes, source: source), source: source, fallbackID: fallbackID,
            structure: .deliver(structureProblems))
    }

    /// What becomes of OpenAPIKit's check of a document's structure.
    private enum StructureHandling {
        case wait
        case skip
        case deliver(@Sendable ([String]) -> Void)
    }

    /// A Swagger 2.0 document is read as the OpenAPI 3.0 document it upgrades to (``Swagger2Conversion``); what the
    /// upgrade cannot carry over exactly is among the problems.
    /// OpenAPIKit's check runs beside the import (what it refuses is only a problem, never a reason to refuse the
    /// document), and is waited for, left out, or handed on as `structure` says.
    private static func read(
        document: JSONValue, source: String, fallbackID: String?, structure handling: StructureHandling = .wait
    ) throws -> (spec: APISpec, problems: [String]) {
        var document = document
        var notes: [String] = []
        if Swagger2Conversion.isSwagger2(document) {
            (document, notes) = Swagger2Conversion.upgrade(document)
            notes = notes.map { "Swagger 2.0: \($0)" }
        } else if document["openapi"] == nil, let version = Swagger2Conversion.version(of: document) {
            throw OpenAPIImportError.unsupportedVersion(source, "Swagger \(version)")
        }
        try OpenAPIDocumentReader.checkVersion(document, source: source)
        var structure: StructureCheck?
        switch handling {
        case .wait: structure = OpenAPIDocumentReader.startCheck(document, source: source, then: nil)
        case .skip: break
        case .deliver(let deliver): _ = OpenAPIDocumentReader.startCheck(document, source: source, then: deliver)
        }
        var problems: [String] = []
        if let version = document["openapi"]?.stringValue, !version.hasPrefix("3.0"),
            let place = Self.firstNullable(in: document)
        {
            problems.append(
                "\(place): `nullable` is OpenAPI 3.0's, no keyword of \(version) (JSON Schema 2020-12), so `null` is "
                    + "refused there; write `type: [string, \"null\"]` (or `anyOf` with `{type: \"null\"}`) to admit it")
        }
        let spec = DocumentImport(document, source: source).spec(fallbackID: fallbackID)
        return (spec, notes + (structure?.problems ?? []) + problems)
    }
}

extension OpenAPIImport {
    /// Where the first schema that says `nullable: true` is, as a JSON pointer.
    static func firstNullable(in document: JSONValue) -> JSONPointer? {
        var pending: [(JSONValue, [String])] = [(document, [])]
        while let (value, tokens) = pending.popLast() {
            switch value {
            case .object(let members):
                if members["nullable"] == .bool(true), members["type"] != nil { return JSONPointer(tokens: tokens) }
                // Pushed last-first, so members are met in name order (a parsed document keeps none) and elements in order.
                for (name, member) in members.sorted(by: { $0.key > $1.key }) { pending.append((member, tokens + [name])) }
            case .array(let elements):
                for (index, element) in elements.enumerated().reversed() {
                    pending.append((element, tokens + [String(index)]))
                }
            default: continue
            }
        }
        return nil
    }
}

/// One document being read.
private struct DocumentImport {
    let document: JSONValue
    /// Component key → model name (`x-understudy-model` when the key could not spell it).
    let modelNames: [String: String]
    /// The components whose `allOf` is being merged, innermost last: a part that refers back to one of them
    /// (`A: allOf [A, {...}]`) adds nothing to it.
    private let merging = Merging()

    private final class Merging {
        var components: [String] = []
        /// The references outside `components/schemas` being inlined, innermost last: one met again inside itself
        /// (a tree through `#/$defs/node`) is any value here.
        var inlined: [String] = []
    }

    /// `operationId` → `METHOD /path`, for links that name their target by id.
    let operationIDs: [String: String]
    /// The document's schemas compiled as JSON Schema reads them, which bodies are judged by: the 2020-12 dialect
    /// for OpenAPI 3.1, OpenAPI 3.0's otherwise (a Swagger 2.0 document is read as the 3.0 one it upgrades to).
    let schemas: SchemaRegistry?
    /// The URI the registry knows the document by: the base of its relative references.
    let documentURI: String
    /// Whether the document's schemas are OpenAPI 3.0's dialect (3.0, and Swagger 2.0 read as 3.0), not 2020-12.
    let isOpenAPI30: Bool

    init(_ document: JSONValue, source: String) {
        self.document = document
        documentURI = URL(fileURLWithPath: source).absoluteString
        isOpenAPI30 = document["openapi"]?.stringValue?.hasPrefix("3.0") != false
        let dialect: SchemaDialect = isOpenAPI30 ? .openAPI30 : .jsonSchema2020_12
        let remotes = SchemaRemotes.fromEnvironment
        schemas = try? remotes.resolving(
            remotes.metaschemas(of: document, in: SchemaRegistry(dialect: dialect)).adding(
                document: document, uri: documentURI, schemaRoots: Self.schemaPointers(in: document)))
        var names: [String: String] = [:]
        for (key, schema) in document["components"]?["schemas"]?.objectValue ?? [:] {
            names[key] = schema[OpenAPIExtension.model]?.stringValue ?? key
        }
        modelNames = names
        var ids: [String: String] = [:]
        for (path, item) in document["paths"]?.objectValue ?? [:] {
            for method in HTTPMethod.allCases {
                if let id = item[method.rawValue.lowercased()]?["operationId"]?.stringValue {
                    ids[id] = "\(method.rawValue) \(path)"
                }
            }
        }
        operationIDs = ids
    }

    func spec(fallbackID: String?) -> APISpec {
        let info = document["info"] ?? [:]
        let title = info["title"]?.stringValue ?? fallbackID ?? "api"
        let id = info[OpenAPIExtension.api]?.stringValue ?? fallbackID ?? Self.slug(title)
        let auth = authScheme()

        var definitions: SchemaDefinitions = [:]
        for (key, schema) in document["components"]?["schemas"]?.objectValue ?? [:] {
            definitions[modelNames[key] ?? key] = self.schema(schema)
        }
        pinDiscriminators(in: &definitions)

        var endpoints: [AnyEndpoint] = []
        var envelope: ModelReference?
        for (path, item) in (document["paths"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
            let (item, place) = located(item, at: JSONPointer(tokens: ["paths", path]))
            for method in HTTPMethod.allCases {
                guard let operation = item[method.rawValue.lowercased()] else { continue }
                let (endpoint, error) = self.endpoint(
                    method, path, operation, shared: item["parameters"]?.arrayValue ?? [],
                    at: JSONPointer(tokens: place.tokens + [method.rawValue.lowercased()]))
                endpoints.append(endpoint)
                if envelope == nil { envelope = error }
            }
        }
        let errorModel = info[OpenAPIExtension.errorModel]?.stringValue
        let envelopeSchema = envelope?.schema ?? errorModel.map { .ref($0) } ?? .any
        var envelopeModel = ModelReference(name: errorModel ?? envelope?.name ?? "Error", schema: envelopeSchema)
        if errorModel == nil { envelopeModel.documentSchema = envelope?.documentSchema }
        // One validator for every error body, so the models' schemas are compiled once, not per answer.
        let validator = Validator(definitions: definitions)
        let errorEnvelope = ErrorEnvelope(model: envelopeModel) { [validator, envelopeModel] status, messages in
            // The document's own error schema, with the status and the message where it has room for them.
            guard envelopeSchema != .any else {
                return ["status": .integer(status.rawValue), "message": .string(messages.first ?? "")]
            }
            return ErrorBody.make(envelopeModel, validator: validator, status: status, messages: messages)
        }
        let wire = DecoderSettings(canonical: info[OpenAPIExtension.wire] ?? info[OpenAPIExtension.legacyDecoder])
        var spec = APISpec(
            id: id, title: title, document: info[OpenAPIExtension.document]?.stringValue ?? "",
            auth: auth, wire: wire,
            app: info[OpenAPIExtension.app].map { AppContract(canonical: $0) } ?? AppContract(decoder: wire),
            errorEnvelope: errorEnvelope, endpoints: endpoints, ambiguities: ambiguities(info),
            optionalKeys: info[OpenAPIExtension.optionalKeys]?.stringValue.flatMap(OptionalKeyStyle.init(rawValue:))
                ?? .sometimesAbsent,
            definitions: definitions)
        spec.basePath = basePath()
        spec.webhooks = calls(document["webhooks"], at: JSONPointer(tokens: ["webhooks"]), named: nil)
        // A document's 404 says an operation may answer it, not that an unknown id does: `check` expects it of an
        // unknown id with a warning. Understudy's own exports say what they mean.
        guard info[OpenAPIExtension.api] == nil else {
            return spec.assuming(
                info[OpenAPIExtension.assumptions]?.arrayValue?.compactMap { Assumption(canonical: $0) } ?? [])
        }
        return spec.assuming([Assumption(.status(.notFound), ambiguity: "unknown-id-status")])
    }

    /// The path of `servers[0].url` (`https://api.example.com/v1` → `/v1`), server variables at their defaults;
    /// empty for none.
    private func basePath() -> String {
        guard let server = document["servers"]?[0], var url = server["url"]?.stringValue else { return "" }
        for (name, variable) in server["variables"]?.objectValue ?? [:] {
            url = url.replacingOccurrences(of: "{\(name)}", with: variable["default"]?.stringValue ?? "")
        }
        // A reference (RFC 3986 §4.1): `https://host/v1`, a network-path `//host/v2`, or a path `/v1`, `v1`.
        let authority =
            url.range(of: "://")?.upperBound ?? (url.hasPrefix("//") ? url.index(url.startIndex, offsetBy: 2) : nil)
        if let authority {
            let rest = url[authority...]
            url = rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? ""
        }
        // A variable the server does not declare has no value: its segment is left out.
        url = url.split(separator: "/", omittingEmptySubsequences: false)
            .filter { !($0.hasPrefix("{") && $0.hasSuffix("}")) }.joined(separator: "/")
        let path = url.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
            .split(separator: "/").joined(separator: "/")
        return path.isEmpty ? "" : "/" + path
    }

    // MARK: - Operations

    /// The endpoint, and the model of its first error response (the API's error envelope).
    /// - Parameter place: where the operation is in the document.
    /// The calls a map of path items describes: `webhooks` (each named by its key), or one callback's runtime
    /// expressions (each named `name`). The API makes them, so they have no path parameters and no callbacks of
    /// their own.
    private func calls(_ items: JSONValue?, at place: JSONPointer, named name: String?) -> [OutgoingCall] {
        var calls: [OutgoingCall] = []
        for (key, raw) in items?.objectValue ?? [:] {
            let (item, itemPlace) = located(raw, at: place.appending(key))
            for method in HTTPMethod.allCases {
                guard let operation = item[method.rawValue.lowercased()] else { continue }
                let (endpoint, _) = self.endpoint(
                    method, key, operation, shared: item["parameters"]?.arrayValue ?? [],
                    at: itemPlace.appending(method.rawValue.lowercased()), outgoing: true)
                calls.append(OutgoingCall(name: name ?? key, operation: endpoint))
            }
        }
        return calls.sorted { $0.id < $1.id }
    }

    private func endpoint(
        _ method: HTTPMethod, _ path: String, _ operation: JSONValue, shared: [JSONValue], at place: JSONPointer,
        outgoing: Bool = false
    ) -> (AnyEndpoint, ModelReference?) {
        let operationID = operation["operationId"]?.stringValue ?? "\(method.rawValue) \(path)"
        var parameters: [Parameter] = []
        // Each parameter where it is written (the path item's, then the operation's), references followed.
        let item = JSONPointer(tokens: place.tokens.dropLast() + ["parameters"])
        let written =
            shared.enumerated().map { (item.appending(String($0)), $1) }
            + (operation["parameters"]?.arrayValue ?? []).enumerated().map {
                (place.appending("parameters").appending(String($0)), $1)
            }
        for (pointer, raw) in written {
            guard let parameter = parameter(located(raw, at: pointer)) else { continue }
            // An operation's parameter overrides the path item's one with the same name and location.
            parameters.removeAll { $0.name == parameter.name && $0.location == parameter.location }
            parameters.append(parameter)
        }
        // A path parameter the document forgot to describe is still a required string.
        let declared = Set(parameters.filter { $0.location == .path }.map(\.name))
        if !outgoing {
            parameters += PathTemplate(path).parameterNames.filter { !declared.contains($0) }.map { Parameter.path($0) }
        }

        var request: ModelReference?
        var body = BodyRequirement.none
        if let (requestBody, bodyPlace) = operation["requestBody"].map({
            located($0, at: JSONPointer(tokens: place.tokens + ["requestBody"]))
        }) {
            // A body only in other media types (XML, files) has no model: it is taken as it comes, never validated.
            request = model(
                requestBody["content"], at: JSONPointer(tokens: bodyPlace.tokens + ["content"]),
                fallback: "\(operationID) request")
            body = requestBody["required"] == .bool(true) ? .required : .optional
        }

        var documented: [DocumentedResponse] = []
        for (key, value) in operation["responses"]?.objectValue ?? [:] {
            guard let status = Self.status(key) else { continue }
            let (value, responsePlace) = located(value, at: JSONPointer(tokens: place.tokens + ["responses", key]))
            documented.append(
                response(value, at: responsePlace, status: status, fallback: "\(operationID) \(key) response"))
        }
        documented.sort { ($0.status ?? 1000) < ($1.status ?? 1000) }
        var success = documented.first { ($0.status ?? 0) >= 200 && ($0.status ?? 0) < 300 }
        // No 2xx and no error but `default`: it is what the operation answers (`default: successful operation`).
        if success == nil, !documented.contains(where: { ($0.status ?? 0) >= 400 }),
            let index = documented.firstIndex(where: { $0.status == nil })
        {
            documented[index].status = 200
            success = documented[index]
        }
        let errors = documented.compactMap(\.status).filter { $0 >= 400 }
        let envelope =
            documented.lazy.filter { ($0.status ?? 400) >= 400 && $0.status != success?.status }.compactMap(\.model)
            .first

        var examples = Examples()
        for response in documented {
            guard let status = response.status, response.isJSON,
                let first = response.examples.first
            else { continue }
            examples.responses[status] = first.value.serialized()
        }
        if let first = operation["requestBody"].map(resolve)?["content"].flatMap(jsonMedia)?.1,
            let example = self.examples(first).first
        {
            examples.request = example.value.serialized()
        }

        var endpoint = AnyEndpoint(
            method: method, path: PathTemplate(path), parameters: parameters,
            auth: auth(operation), success: HTTPStatus(rawValue: success?.status ?? 200),
            errors: errors.map { HTTPStatus(rawValue: $0) }, body: body,
            pagination: pagination(operation, headers: success?.headers.map(\.name) ?? []),
            summary: operation["summary"]?.stringValue ?? operation["description"]?.stringValue ?? "",
            availability: availability(operation), request: request, response: success?.model,
            rules: (operation[RequestRule.extensionName]?.arrayValue ?? []).compactMap(RequestRule.init(json:)),
            examples: examples)
        endpoint.responses = documented
        endpoint.security = security(operation)
        endpoint.resource = operation[ResourceDeclaration.extensionName].flatMap(ResourceDeclaration.init(json:))
        endpoint.owner = operation[Ownership.extensionName].flatMap(Ownership.init(json:))
        endpoint.order = (operation[SortKey.extensionName]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(SortKey.init) }
        endpoint.effect = operation[ActionEffect.extensionName].flatMap(ActionEffect.init(json:))
        endpoint.links = links(operation)
        endpoint.requestMediaTypes = (operation["requestBody"].map(resolve)?["content"]?.objectValue ?? [:]).keys
            .sorted()
        if !outgoing {
            for (name, raw) in operation["callbacks"]?.objectValue ?? [:] {
                let (callback, callbackPlace) = located(raw, at: place.appending("callbacks").appending(name))
                endpoint.callbacks += calls(callback, at: callbackPlace, named: name)
            }
            endpoint.callbacks.sort { $0.id < $1.id }
        }
        return (endpoint, envelope)
    }

    /// The links of the success answers whose path parameters come from the answer's body
    /// (`{operationId: getPet, parameters: {petId: $response.body#/id}}`) or the request's path
    /// (`$request.path.userId`); a target is named by `operationId` or by an
    /// `operationRef` into this document (`#/paths/~1pets~1{petId}/get`).
    private func links(_ operation: JSONValue) -> [ResponseLink] {
        var found: [ResponseLink] = []
        for (key, response) in (operation["responses"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard let status = Self.status(key), (200..<300).contains(status ?? 200) else { continue }
            for (_, raw) in (resolve(response)["links"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
                let link = resolve(raw)
                guard
                    let target = link["operationId"]?.stringValue.flatMap({ operationIDs[$0] })
                        ?? link["operationRef"]?.stringValue.flatMap(operation(reference:))
                else { continue }
                // A parameter may be named with its location (`path.id`).
                var values: [String: LinkValue] = [:]
                for (name, expression) in link["parameters"]?.objectValue ?? [:] {
                    let parameter = name.split(separator: ".").last.map(String.init) ?? name
                    values[parameter] = LinkValue(expression)
                }
                if !values.isEmpty { found.append(ResponseLink(target: target, values: values)) }
            }
        }
        return found
    }

    /// `GET /pets/{petId}` for `#/paths/~1pets~1{petId}/get`.
    private func operation(reference: String) -> String? {
        guard reference.hasPrefix("#/paths/") else { return nil }
        let tokens = JSONPointer(String((reference.removingPercentEncoding ?? reference).dropFirst())).tokens
        guard tokens.count == 3, let method = HTTPMethod(rawValue: tokens[2].uppercased()) else { return nil }
        return "\(method.rawValue) \(tokens[1])"
    }

    /// `200`, `default` (`nil`), or a range such as `2XX` read as its first status.
    private static func status(_ key: String) -> Int?? {
        if key == "default" { return .some(nil) }
        if let status = Int(key), (100...599).contains(status) { return status }
        if key.count == 3, key.uppercased().hasSuffix("XX"), let digit = Int(key.prefix(1)), (1...5).contains(digit) {
            return digit * 100
        }
        return nil
    }

    /// One response object: its body (JSON with a model, or another media type), examples and headers.
    private func response(_ json: JSONValue, at place: JSONPointer, status: Int?, fallback: String)
        -> DocumentedResponse
    {
        var headers: [Parameter] = []
        for (name, header) in (json["headers"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
            let (header, headerPlace) = located(header, at: place.appending("headers").appending(name))
            var parameter = Parameter(
                name, in: .header, parameterSchema(header["schema"] ?? [:]), required: header["required"] == .bool(true))
            parameter.documentSchema = compiled(at: headerPlace.appending("schema"))
            headers.append(parameter)
        }
        guard let content = json["content"]?.objectValue, !content.isEmpty else {
            return DocumentedResponse(status: status, mediaType: nil, model: nil, headers: headers)
        }
        var response: DocumentedResponse
        if let (mediaType, media) = jsonMedia(json["content"]!) {
            response = DocumentedResponse(
                status: status, mediaType: mediaType,
                model: model(json["content"], at: JSONPointer(tokens: place.tokens + ["content"]), fallback: fallback),
                examples: examples(media), headers: headers)
        } else {
            let mediaType = content.keys.sorted()[0]
            response = DocumentedResponse(
                status: status, mediaType: mediaType, model: nil, examples: examples(content[mediaType] ?? [:]),
                headers: headers)
        }
        response.mediaTypes = content.keys.sorted()
        return response
    }

    /// A media type object's examples by name: `examples` (each resolved, its `value`), else `example` as
    /// `default`, sorted by name (a parsed document keeps no order).
    private func examples(_ media: JSONValue) -> [NamedExample] {
        if let named = media["examples"]?.objectValue, !named.isEmpty {
            return named.keys.sorted().compactMap { name in
                resolve(named[name]!)["value"].map { NamedExample(name, $0) }
            }
        }
        return media["example"].map { [NamedExample("default", $0)] } ?? []
    }

    /// The JSON media type of a content map (`application/json` first, then any `+json` or `json` type).
    /// The JSON media type of a content map (`application/json` first), else a YAML one: the bodies a model describes.
    private func jsonMedia(_ content: JSONValue) -> (String, JSONValue)? {
        guard let content = content.objectValue else { return nil }
        let keys = content.keys.sorted()
        guard
            let key = keys.first(where: { $0 == "application/json" }) ?? keys.first(where: { $0.contains("json") })
                ?? keys.first(where: { DocumentedResponse.isYAML($0.lowercased()) })
                // Any media type (springdoc writes `*/*` for its JSON).
                ?? keys.first(where: { $0 == "*/*" || $0 == "application/*" })
        else { return nil }
        return (key, content[key]!)
    }

    /// What an operation's `security` (or the document's) asks for: alternatives of credentials.
    private func security(_ operation: JSONValue) -> [[SecurityScheme]] {
        let requirements = (operation["security"] ?? document["security"])?.arrayValue ?? []
        let schemes = document["components"]?["securitySchemes"]?.objectValue ?? [:]
        return requirements.compactMap { requirement in
            let names = (requirement.objectValue ?? [:]).keys.sorted()
            let credentials = names.compactMap { name -> SecurityScheme? in
                guard let scheme = schemes[name].map(resolve) else { return nil }
                switch (scheme["type"]?.stringValue, scheme["scheme"]?.stringValue?.lowercased()) {
                case ("http", "basic"): return .basic
                case ("http", _), ("oauth2", _), ("openIdConnect", _):
                    return .bearer(format: scheme["bearerFormat"]?.stringValue)
                case ("apiKey", _):
                    guard let key = scheme["name"]?.stringValue,
                        let location = scheme["in"]?.stringValue.flatMap(SecurityScheme.APIKeyLocation.init)
                    else { return nil }
                    return .apiKey(name: key, location: location)
                default: return nil
                }
            }
            // A requirement naming only unknown schemes cannot be met: leave it out rather than let anyone in.
            return credentials.isEmpty && !names.isEmpty ? nil : credentials
        }
    }

    /// A parameter object and where it is.
    private func parameter(_ located: (JSONValue, JSONPointer)) -> Parameter? {
        let (json, place) = located
        guard let name = json["name"]?.stringValue,
            let location = json["in"]?.stringValue.flatMap(Parameter.Location.init)
        else { return nil }
        let schemaJSON = resolve(json["schema"] ?? [:])
        var parameter = Parameter(
            name, in: location, parameterSchema(schemaJSON),
            required: location == .path || json["required"] == .bool(true), summary: json["description"]?.stringValue)
        parameter.documentSchema = compiled(at: place.appending("schema"))
        parameter.defaultValue = schemaJSON["default"]
        parameter.deprecated = json["deprecated"] == .bool(true)
        parameter.explode =
            json["explode"].map { $0 == .bool(true) } ?? (json["style"]?.stringValue ?? "form" == "form")
        parameter.example =
            json["example"] ?? json["examples"]?.objectValue.flatMap { examples in
                examples.keys.sorted().lazy.compactMap { self.resolve(examples[$0]!)["value"] }.first
            } ?? schemaJSON["example"] ?? schemaJSON["examples"]?.arrayValue?.first
        parameter.meaning = json[OpenAPIExtension.meaning]?.stringValue.flatMap(QueryMeaning.init)
        parameter.enforced = json[OpenAPIExtension.enforced] != .bool(false)
        return parameter
    }

    /// A parameter's or header's schema with references inlined (its text is read by the schema's type: a
    /// `$ref` to an integer is still an integer), array items included.
    private func parameterSchema(_ json: JSONValue) -> Schema {
        var json = resolve(json)
        if let items = json["items"], case .object(var object) = json {
            object["items"] = resolve(items)
            json = .object(object)
        }
        return schema(json)
    }

    /// The JSON (or form) body of a content map: its schema and model name, and the document's schema compiled;
    /// `nil` when it has neither.
    /// - Parameter place: where the content map is in the document.
    private func model(_ content: JSONValue?, at place: JSONPointer, fallback: String) -> ModelReference? {
        guard let content,
            let (key, media) = jsonMedia(content)
                ?? content["application/x-www-form-urlencoded"].map({ ("application/x-www-form-urlencoded", $0) })
                ?? content["multipart/form-data"].map({ ("multipart/form-data", $0) }),
            let schemaJSON = media["schema"]
        else { return nil }
        let schema = schema(schemaJSON)
        let name: String
        if let model = media[OpenAPIExtension.model]?.stringValue {
            name = model
        } else if case .ref(let model) = schema {
            name = model
        } else {
            name = fallback
        }
        var model = ModelReference(name: name, schema: schema)
        model.documentSchema = compiled(at: JSONPointer(tokens: place.tokens + [key, "schema"]))
        return model
    }

    /// The document's schema at `pointer`, compiled; `nil` where there is none.
    private func compiled(at pointer: JSONPointer) -> CompiledSchema? {
        schemas?.schema(inDocument: documentURI, at: pointer)
    }

    private func auth(_ operation: JSONValue) -> Auth {
        let requirements = (operation["security"] ?? document["security"])?.arrayValue ?? []
        guard !requirements.isEmpty else { return .none }
        if requirements.contains(where: { $0.objectValue?.isEmpty == true }) { return .optional }
        if let role = operation[OpenAPIExtension.role]?.stringValue { return .role(role) }
        return .required
    }

    private func authScheme() -> AuthScheme {
        let schemes = (document["components"]?["securitySchemes"]?.objectValue ?? [:]).values.map(resolve)
        if let oauth = schemes.first(where: { $0["type"]?.stringValue == "oauth2" }) {
            let flows = oauth["flows"]?.objectValue ?? [:]
            let tokenURL = flows.keys.sorted().lazy.compactMap { flows[$0]?["tokenUrl"]?.stringValue }.first
            return .oauth2(tokenPath: tokenURL ?? "/oauth/token")
        }
        // Supabase's gateway reads an `apikey` header; a key of that name in the query is any API's key.
        let hasAPIKey = schemes.contains {
            $0["type"]?.stringValue == "apiKey" && $0["name"]?.stringValue?.lowercased() == "apikey"
                && $0["in"]?.stringValue != "query"
        }
        return hasAPIKey ? .supabase : .bearerJWT
    }

    private func pagination(_ operation: JSONValue, headers: [String]) -> Pagination {
        if let text = operation[OpenAPIExtension.pagination]?.stringValue, let pagination = Self.pagination(text) {
            return pagination
        }
        let names = Set(headers.map { $0.lowercased() })
        if names.contains("link") || names.contains("x-total") { return .linkHeader }
        if names.contains("content-range") { return .range }
        return .none
    }

    static func pagination(_ text: String) -> Pagination? {
        switch text {
        case "none": return Pagination.none
        case "link-header": return .linkHeader
        case "range": return .range
        default:
            guard text.hasPrefix("page-in-body("), text.hasSuffix(")") else { return nil }
            let parts = text.dropFirst("page-in-body(".count).dropLast().split(separator: ",", maxSplits: 2)
            guard parts.count == 3 else { return nil }
            return .pageInBody(
                pageParameter: String(parts[0]), sizeParameter: String(parts[1]),
                metadataPointer: JSONPointer(String(parts[2])))
        }
    }

    private func availability(_ operation: JSONValue) -> Availability {
        guard let text = operation[OpenAPIExtension.availability]?.stringValue, text.hasPrefix("announced: ") else {
            return .available
        }
        return .announced(String(text.dropFirst("announced: ".count)))
    }

    private func ambiguities(_ info: JSONValue) -> [Ambiguity] {
        (info[OpenAPIExtension.ambiguities]?.arrayValue ?? []).compactMap { entry in
            guard let id = entry["id"]?.stringValue else { return nil }
            return Ambiguity(
                id: id, endpoint: entry["endpoint"]?.stringValue, summary: entry["summary"]?.stringValue ?? "",
                resolution: entry["resolution"]?.stringValue ?? "",
                kind: entry["kind"]?.stringValue.flatMap(Ambiguity.Kind.init(rawValue:)) ?? .choice)
        }
    }

    static func slug(_ title: String) -> String {
        let words = title.lowercased().split { !$0.isLetter && !$0.isNumber }
        return words.isEmpty ? "api" : words.joined(separator: "-")
    }

    /// Follows a local `$ref` (`#/components/responses/NotFound`) to what it points at.
    private func resolve(_ value: JSONValue) -> JSONValue {
        located(value, at: .root).0
    }

    /// A value and where it is, local references followed (`#/components/requestBodies/Pet`): the place the schemas
    /// inside it are compiled at.
    private func located(_ value: JSONValue, at pointer: JSONPointer) -> (JSONValue, JSONPointer) {
        var (current, place) = (value, pointer)
        var seen: Set<String> = []
        while let reference = current["$ref"]?.stringValue, reference.hasPrefix("#/"), seen.insert(reference).inserted {
            let target = JSONPointer(String((reference.removingPercentEncoding ?? reference).dropFirst()))
            guard let found = document[pointer: target] else { break }
            (current, place) = (found, target)
        }
        return (current, place)
    }

    /// Where schemas sit in an OpenAPI document: each component schema, and the `schema` of every parameter, header
    /// and media type, in the components and in the operations.
    static func schemaPointers(in document: JSONValue) -> [JSONPointer] {
        var pointers: [JSONPointer] = []
        func add(_ tokens: [String]) {
            if document[pointer: JSONPointer(tokens: tokens)] != nil { pointers.append(JSONPointer(tokens: tokens)) }
        }
        func parameters(_ tokens: [String]) {
            for index in (document[pointer: JSONPointer(tokens: tokens)]?.arrayValue ?? []).indices {
                add(tokens + [String(index), "schema"])
            }
        }
        func headers(_ tokens: [String]) {
            for name in (document[pointer: JSONPointer(tokens: tokens)]?.objectValue ?? [:]).keys {
                add(tokens + [name, "schema"])
            }
        }
        func content(_ tokens: [String]) {
            for media in (document[pointer: JSONPointer(tokens: tokens)]?.objectValue ?? [:]).keys {
                add(tokens + [media, "schema"])
            }
        }
        func responses(_ tokens: [String]) {
            for status in (document[pointer: JSONPointer(tokens: tokens)]?.objectValue ?? [:]).keys {
                content(tokens + [status, "content"])
                headers(tokens + [status, "headers"])
            }
        }
        let components = document["components"]
        for name in (components?["schemas"]?.objectValue ?? [:]).keys { add(["components", "schemas", name]) }
        for name in (components?["parameters"]?.objectValue ?? [:]).keys { add(["components", "parameters", name, "schema"]) }
        headers(["components", "headers"])
        for name in (components?["requestBodies"]?.objectValue ?? [:]).keys {
            content(["components", "requestBodies", name, "content"])
        }
        responses(["components", "responses"])
        // The path items of the API's operations, of its webhooks and of the callbacks of both, where they are
        // written or referred to.
        func items(_ tokens: [String], callbacks: Bool) {
            for key in (document[pointer: JSONPointer(tokens: tokens)]?.objectValue ?? [:]).keys {
                let item = tokens + [key]
                parameters(item + ["parameters"])
                for method in HTTPMethod.allCases.map({ $0.rawValue.lowercased() })
                where document[pointer: JSONPointer(tokens: item + [method])] != nil {
                    parameters(item + [method, "parameters"])
                    content(item + [method, "requestBody", "content"])
                    responses(item + [method, "responses"])
                    guard callbacks else { continue }
                    for name in (document[pointer: JSONPointer(tokens: item + [method, "callbacks"])]?.objectValue ?? [:]).keys {
                        items(item + [method, "callbacks", name], callbacks: false)
                    }
                }
            }
        }
        items(["paths"], callbacks: true)
        items(["webhooks"], callbacks: true)
        items(["components", "pathItems"], callbacks: true)
        for name in (components?["callbacks"]?.objectValue ?? [:]).keys { items(["components", "callbacks", name], callbacks: false) }
        return pointers
    }

    // MARK: - Schemas

    /// A JSON Schema (OpenAPI 3.0 or 3.1 dialect) as an Understudy schema.
    func schema(_ json: JSONValue) -> Schema {
        guard case .object(let object) = json else { return .any }
        if let reference = object["$ref"]?.stringValue {
            let prefix = "#/components/schemas/"
            guard reference.hasPrefix(prefix) else {
                // A reference this reading cannot follow (into an `$id` resource, to an anchor, another document, or
                // itself) is any value here; the document's own schema (``ModelReference/documentSchema``) judges
                // the bodies.
                let target = resolve(json)
                guard target["$ref"] == nil, !merging.inlined.contains(reference) else { return .any }
                merging.inlined.append(reference)
                defer { merging.inlined.removeLast() }
                return schema(target)
            }
            let key = String(reference.dropFirst(prefix.count))
            return .ref(modelNames[key] ?? key)
        }
        // `nullable` is OpenAPI 3.0's; in 3.1 (JSON Schema 2020-12) it is no keyword, and `null` is refused.
        var nullable = isOpenAPI30 && object["nullable"] == .bool(true)
        var types =
            object["type"]?.arrayValue?.compactMap(\.stringValue) ?? object["type"]?.stringValue.map { [$0] } ?? []
        if types.contains("null") {
            nullable = true
            types.removeAll { $0 == "null" }
        }
        var values = object["enum"]?.arrayValue ?? object["const"].map { [$0] }
        if values?.contains(.null) == true {
            nullable = true
            values?.removeAll { $0 == .null }
        }
        let wrap = { (schema: Schema) in nullable ? Schema.nullable(schema) : schema }

        for keyword in ["anyOf", "oneOf"] {
            guard let alternatives = object[keyword]?.arrayValue else { continue }
            let nonNull = alternatives.filter { !Self.isNull($0) }
            if nonNull.count < alternatives.count { nullable = true }
            return wrap(nonNull.count == 1 ? schema(nonNull[0]) : .oneOf(nonNull.map(schema)))
        }
        if let parts = object["allOf"]?.arrayValue {
            // `additionalProperties: false` beside `allOf` allows only the properties declared beside it too: the
            // parts' do not count (JSON Schema's reading, Schemathesis's, and so a server's validator's).
            if object["additionalProperties"] == .bool(false) {
                return wrap(objectSchema(object))
            }
            return wrap(merged(parts))
        }
        if types.isEmpty && (object["properties"] != nil || object["additionalProperties"] != nil) {
            types = ["object"]
        }
        if types.isEmpty { return .any }
        if types.count > 1 {
            return wrap(.oneOf(types.map { schema(.object(object.merging(["type": .string($0)]) { $1 })) }))
        }
        switch types[0] {
        case "boolean":
            return wrap(.boolean)
        case "integer":
            return wrap(
                .integer(
                    IntegerConstraints(
                        minimum: Self.bound(object, "minimum", exclusive: "exclusiveMinimum").map {
                            Self.integer($0.rounded(.up))
                        },
                        maximum: Self.bound(object, "maximum", exclusive: "exclusiveMaximum").map {
                            Self.integer($0.rounded(.down))
                        },
                        values: values?.compactMap(\.numberValue?.intValue))))
        case "number":
            var constraints = NumberConstraints(
                minimum: object["minimum"]?.numberValue?.doubleValue,
                maximum: object["maximum"]?.numberValue?.doubleValue)
            if let exclusive = object["exclusiveMinimum"]?.numberValue?.doubleValue {
                constraints.exclusiveMinimum = exclusive
            } else if object["exclusiveMinimum"] == .bool(true) {
                constraints.exclusiveMinimum = constraints.minimum
                constraints.minimum = nil
            }
            return wrap(object["format"]?.stringValue == "decimal" ? .decimal(constraints) : .number(constraints))
        case "string":
            let format = object["format"]?.stringValue.flatMap(StringFormat.init(name:))
            // The pattern an export adds for tools that do not know the format says nothing more than the format.
            let pattern = object["pattern"]?.stringValue.flatMap { $0 == format?.pattern ? nil : $0 }
            return wrap(
                .string(
                    StringConstraints(
                        format: format, values: values?.compactMap(\.stringValue),
                        minLength: object["minLength"]?.numberValue?.intValue,
                        maxLength: object["maxLength"]?.numberValue?.intValue, pattern: pattern,
                        examples: examples(object["examples"]))))
        case "array":
            if object[OpenAPIExtension.pairs] != nil, let pair = object["items"]?["anyOf"]?.arrayValue, pair.count == 2
            {
                return wrap(.pairs(key: schema(pair[0]), value: schema(pair[1])))
            }
            return wrap(
                .array(
                    ArraySchema(
                        items: object["items"].map(schema) ?? .any, minItems: object["minItems"]?.numberValue?.intValue,
                        maxItems: object["maxItems"]?.numberValue?.intValue)))
        case "object":
            return wrap(objectSchema(object))
        default:
            return .any
        }
    }

    /// A string schema's `examples`, when it lists strings.
    private func examples(_ value: JSONValue?) -> [String]? {
        let strings = value?.arrayValue?.compactMap(\.stringValue) ?? []
        return strings.isEmpty ? nil : strings
    }

    /// A discriminator's values pinned on the models they name: a `Cat` of `oneOf: [Cat, Dog]` mapped by
    /// `petType: {cat: Cat}` has `petType` "cat", and a base model that maps its subtypes has one of their values;
    /// generated bodies then carry a value the mapping knows, and a body with another one is refused.
    private func pinDiscriminators(in definitions: inout SchemaDefinitions) {
        var pinned: [String: [String: [String]]] = [:]
        var pending: [JSONValue] = [document]
        while let value = pending.popLast() {
            switch value {
            case .array(let elements): pending += elements
            case .object(let members):
                pending += members.values
                guard let discriminator = members["discriminator"],
                    let property = discriminator["propertyName"]?.stringValue
                else { continue }
                var mapping = (discriminator["mapping"]?.objectValue ?? [:]).compactMap { value, target in
                    target.stringValue.map { (value, modelName(reference: $0)) }
                }
                // Without a mapping, each alternative is named by its model's name.
                if mapping.isEmpty {
                    let alternatives = (members["oneOf"] ?? members["anyOf"])?.arrayValue ?? []
                    mapping = alternatives.compactMap { $0["$ref"]?.stringValue.map(modelName(reference:)) }.map {
                        ($0, $0)
                    }
                }
                for (value, model) in mapping { pinned[model, default: [:]][property, default: []].append(value) }
                // A base model that maps its subtypes (they `allOf` it) holds one of their values.
                if let name = componentName(of: members) {
                    pinned[name, default: [:]][property, default: []] += mapping.map(\.0)
                }
            default: continue
            }
        }
        let unpinned = definitions
        for (model, properties) in pinned {
            // A subtype that adds nothing to its base (`allOf: [Base]`) is the base's object, pinned on its own.
            var definition = definitions[model]
            var followed: Set<String> = []
            while case .ref(let name)? = definition, followed.insert(name).inserted { definition = unpinned[name] }
            guard case .object(var object)? = definition else { continue }
            for (name, values) in properties {
                guard case .string(var constraints)? = object[name]?.schema, constraints.values == nil else { continue }
                constraints.values = Array(Set(values)).sorted()
                object[name]?.schema = .string(constraints)
            }
            definitions[model] = .object(object)
        }
    }

    /// The model a `$ref` names (`#/components/schemas/Cat` → `Cat`, its `x-understudy-model` name if any).
    private func modelName(reference: String) -> String {
        let key = String(reference.split(separator: "/").last ?? Substring(reference))
        return modelNames[key] ?? key
    }

    /// The model whose component schema is exactly `members`, when it is one.
    private func componentName(of members: [String: JSONValue]) -> String? {
        guard let schemas = document["components"]?["schemas"]?.objectValue else { return nil }
        return schemas.first { $0.value.objectValue == members }.map { modelNames[$0.key] ?? $0.key }
    }

    private func objectSchema(_ object: [String: JSONValue]) -> Schema {
        let properties = object["properties"]?.objectValue ?? [:]
        let additional = object["additionalProperties"]
        if properties.isEmpty, let values = additional, values.objectValue != nil {
            let keys = object[OpenAPIExtension.propertyNames] ?? object["propertyNames"]
            return .map(MapSchema(keys: keys.map(schema) ?? .string(), values: schema(values)))
        }
        let required = (object["required"]?.arrayValue ?? []).compactMap(\.stringValue)
        // Required properties in the order the document lists them, then the others by name. A required name the
        // object does not describe (`required: [name]` beside `Name`) must still be there, as any value: JSON
        // Schema's reading, and Schemathesis's.
        var listed: Set<String> = []
        let names =
            required.filter { listed.insert($0).inserted } + properties.keys.filter { !listed.contains($0) }.sorted()
        return .object(
            ObjectSchema(
                properties: names.map { name in
                    var property = Property(
                        name, properties[name].map(schema) ?? .any, required: required.contains(name))
                    if properties[name]?["readOnly"] == .bool(true) { property.access = .readOnly }
                    if properties[name]?["writeOnly"] == .bool(true) { property.access = .writeOnly }
                    property.defaultValue = properties[name]?["default"]
                    return property
                },
                additionalProperties: additional == .bool(false)
                    ? .forbidden : additional?.objectValue?.isEmpty == false ? .typed(schema(additional!)) : .allowed,
                rules: (object[ObjectRule.extensionName]?.arrayValue ?? []).compactMap(ObjectRule.init(json:))))
    }

    /// `allOf`: the properties of every object part together, a part's `required` applying to the others'
    /// properties too; parts that only describe (`description`, `nullable`) add nothing; a part that is not an
    /// object makes the whole "any value".
    private func merged(_ parts: [JSONValue]) -> Schema {
        if parts.count == 1 { return schema(parts[0]) }
        var properties: [Property] = []
        var required: Set<String> = []
        for part in parts {
            required.formUnion((resolve(part)["required"]?.arrayValue ?? []).compactMap(\.stringValue))
            var current = schema(part)
            var seen: Set<String> = []
            while case .ref(let name) = current, seen.insert(name).inserted {
                let key = modelNames.first { $0.value == name }?.key ?? name
                guard !merging.components.contains(key) else {
                    current = .any
                    break
                }
                merging.components.append(key)
                defer { merging.components.removeLast() }
                current = schema(document["components"]?["schemas"]?[key] ?? [:])
            }
            switch current {
            case .object(let object): properties = Self.merged(properties, object.properties)
            case .any: continue
            default: return .any
            }
        }
        return .object(
            ObjectSchema(
                properties: properties.map { property in
                    var property = property
                    if required.contains(property.name) { property.required = true }
                    return property
                }))
    }

    /// Two parts' properties together; one both describe (`data: array of object`, then `data: array of Station`)
    /// is both descriptions combined.
    private static func merged(_ first: [Property], _ second: [Property]) -> [Property] {
        var properties = first
        for property in second {
            guard let index = properties.firstIndex(where: { $0.name == property.name }) else {
                properties.append(property)
                continue
            }
            properties[index].schema = combined(properties[index].schema, property.schema)
            properties[index].required = properties[index].required || property.required
        }
        return properties
    }

    /// What two `allOf` parts say of one value: both objects' properties, both arrays' items combined; otherwise
    /// the later part, which refines the earlier one (a wrapper's `items: {type: object}` by a model).
    private static func combined(_ first: Schema, _ second: Schema) -> Schema {
        switch (first, second) {
        case (.any, _): return second
        case (_, .any): return first
        case (.object(let earlier), .object(let later)):
            return .object(
                ObjectSchema(
                    properties: merged(earlier.properties, later.properties),
                    additionalProperties: later.additionalProperties))
        case (.array(let earlier), .array(let later)):
            return .array(
                ArraySchema(
                    items: combined(earlier.items, later.items), minItems: later.minItems ?? earlier.minItems,
                    maxItems: later.maxItems ?? earlier.maxItems))
        default: return second
        }
    }

    private static func isNull(_ schema: JSONValue) -> Bool {
        schema["type"] == "null" || schema["enum"] == [.null] || schema["const"] == .null
    }

    /// A bound, with OpenAPI 3.1's numeric `exclusiveMinimum` or 3.0's boolean one.
    /// A bound read as a `Double` (OpenAPIKit reads every number so), as an `Int`: `9223372036854775807` reads as
    /// 2^63, one past `Int.max`, so bounds beyond 64 bits are clamped rather than trapping.
    private static func integer(_ value: Double) -> Int {
        if value >= 0x1p63 { return .max }
        if value < -0x1p63 { return .min }
        return Int(value)
    }

    private static func bound(_ object: [String: JSONValue], _ inclusive: String, exclusive: String) -> Double? {
        let step = inclusive == "minimum" ? 1.0 : -1.0
        if let value = object[exclusive]?.numberValue?.doubleValue { return value + step }
        guard let value = object[inclusive]?.numberValue?.doubleValue else { return nil }
        return object[exclusive] == .bool(true) ? value + step : value
    }
}
