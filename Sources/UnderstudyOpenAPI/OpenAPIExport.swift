import Foundation
import OpenAPIKit
import UnderstudyCore
import Yams

/// Writes an ``APISpec`` as an OpenAPI 3.1 document: operations, parameters, request and response
/// schemas, every documented error status, security schemes, pagination headers and examples from the
/// spec's fixtures (seed 1).
///
/// What OpenAPI cannot say (decoder settings, roles, pagination styles, announced endpoints, model
/// names) travels in `x-understudy-*` extensions, so that ``OpenAPIImport`` reads the same spec back.
///
/// ```swift
/// let json = try OpenAPIExport.json(Intra42.spec)   // sorted keys, stable bytes
/// ```
public enum OpenAPIExport {
    /// The OpenAPI version written.
    public static let version = OpenAPI.Document.Version.v3_1_0

    /// The spec as an OpenAPIKit document.
    public static func document(_ spec: APISpec) -> OpenAPI.Document {
        var names = Set(spec.definitions.keys)
        names.insert(spec.errorEnvelope.model.name)
        let componentNames = ComponentNames(names)
        let fixtures = Dictionary(uniqueKeysWithValues: spec.fixtures(seed: 1).map { ($0.endpoint, $0) })

        var paths = OrderedDictionary<OpenAPI.Path, Either<OpenAPI.Reference<OpenAPI.PathItem>, OpenAPI.PathItem>>()
        let sorted = spec.endpoints.sorted { ($0.path.template, $0.method) < ($1.path.template, $1.method) }
        for endpoint in sorted {
            let path = OpenAPI.Path(rawValue: endpoint.path.template)
            var item = paths[path]?.b ?? OpenAPI.PathItem()
            item.set(
                operation: operation(endpoint, spec: spec, names: componentNames, fixture: fixtures[endpoint.id]),
                for: OpenAPI.HttpMethod(rawValue: endpoint.method.rawValue)!)
            paths[path] = .b(item)
        }

        var schemas = OpenAPI.ComponentDictionary<JSONSchema>()
        for name in spec.definitions.keys.sorted() {
            var schema = spec.definitions[name]!.openAPISchema(componentNames)
            if componentNames.key(name) != name {
                schema = schema.with(
                    vendorExtensions: schema.vendorExtensions.merging([OpenAPIExtension.model: AnyCodable(name)]) { $1 }
                )
            }
            schemas[OpenAPI.ComponentKey(rawValue: componentNames.key(name))!] = schema
        }

        return OpenAPI.Document(
            openAPIVersion: version,
            info: info(spec),
            servers: [],
            paths: paths,
            components: OpenAPI.Components(schemas: schemas, securitySchemes: securitySchemes(spec.auth)),
            security: [])
    }

    /// The document as pretty JSON with sorted keys: the same spec always gives the same bytes.
    /// - Throws: what `JSONEncoder` throws (nothing for the compiled-in specs).
    public static func json(_ spec: APISpec) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(try widelySupported(spec)), as: UTF8.self) + "\n"
    }

    /// The document in the forms every tool reads, where OpenAPI 3.1 offers two: a one-value `enum` rather than
    /// `const` (which OpenAPIKit writes for one allowed value, and which client generators refuse in a header).
    static func widelySupported(_ spec: APISpec) throws -> JSONValue {
        func rewrite(_ value: JSONValue) -> JSONValue {
            switch value {
            case .object(var members):
                if let constant = members["const"], members["enum"] == nil {
                    members["const"] = nil
                    members["enum"] = [constant]
                }
                return .object(members.mapValues(rewrite))
            case .array(let elements): return .array(elements.map(rewrite))
            default: return value
            }
        }
        return rewrite(try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(document(spec))))
    }

    /// The document as YAML with sorted keys.
    /// - Throws: what Yams' encoder throws.
    public static func yaml(_ spec: APISpec) throws -> String {
        let encoder = YAMLEncoder()
        encoder.options.sortKeys = true
        return try encoder.encode(widelySupported(spec))
    }

    private static func info(_ spec: APISpec) -> OpenAPI.Document.Info {
        // The canonical spec already renders the decoder settings and the ambiguities.
        let canonical = spec.canonicalJSON
        var extensions: [String: AnyCodable] = [:]
        if let assumptions = canonical["assumptions"] { extensions[OpenAPIExtension.assumptions] = assumptions.anyCodable }
        return OpenAPI.Document.Info(
            title: spec.title,
            description: "The \(spec.title) API as its server sends it (the wire contract), described by \(spec.document).",
            version: "\(APISpec.canonicalFormatVersion)",
            vendorExtensions: extensions.merging([
                OpenAPIExtension.api: AnyCodable(spec.id),
                OpenAPIExtension.document: AnyCodable(spec.document),
                OpenAPIExtension.wire: (canonical["wire"] ?? [:]).anyCodable,
                OpenAPIExtension.app: (canonical["app"] ?? [:]).anyCodable,
                OpenAPIExtension.optionalKeys: AnyCodable(spec.optionalKeys.rawValue),
                OpenAPIExtension.errorModel: AnyCodable(spec.errorEnvelope.model.name),
                OpenAPIExtension.ambiguities: (canonical["ambiguities"] ?? []).anyCodable,
            ]) { $1 })
    }

    /// The security scheme names an API's requirements use.
    static func securityNames(_ auth: AuthScheme) -> [String] {
        switch auth {
        case .bearerJWT: ["bearerAuth"]
        case .supabase: ["apikey", "bearerAuth"]
        case .oauth2: ["oauth2"]
        }
    }

    private static func securitySchemes(_ auth: AuthScheme)
        -> OpenAPI.ComponentReferenceDictionary<OpenAPI.SecurityScheme>
    {
        let bearer = OpenAPI.SecurityScheme.http(
            scheme: "bearer", bearerFormat: "JWT", description: "Authorization: Bearer <JWT>")
        switch auth {
        case .bearerJWT:
            return ["bearerAuth": .b(bearer)]
        case .supabase:
            return [
                "apikey": .b(.apiKey(name: "apikey", location: .header, description: "The project's anon key")),
                "bearerAuth": .b(bearer),
            ]
        case .oauth2(let tokenPath):
            // The path comes from an imported document: one no URL reads is percent-encoded, never trapped on.
            guard
                let tokenURL = URL(string: tokenPath)
                    ?? tokenPath.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed).flatMap(URL.init(string:))
            else { return ["bearerAuth": .b(bearer)] }
            let flows = OpenAPI.OAuthFlows(
                clientCredentials: .init(tokenUrl: tokenURL, scopes: ["public": "Read public data"]))
            return ["oauth2": .b(.oauth2(flows: flows, description: "OAuth 2 bearer tokens from \(tokenPath)"))]
        }
    }

    private static func security(_ auth: Auth, scheme: AuthScheme) -> [OpenAPI.SecurityRequirement] {
        var requirement = OpenAPI.SecurityRequirement()
        for name in securityNames(scheme) {
            requirement[.component(named: name)] = []
        }
        switch auth {
        case .none: return []
        case .optional: return [[:], requirement]
        case .required, .role: return [requirement]
        }
    }

    private static func operation(
        _ endpoint: AnyEndpoint, spec: APISpec, names: ComponentNames, fixture: EndpointFixture?
    ) -> OpenAPI.Operation {
        var extensions: [String: AnyCodable] = [:]
        if case .role(let role) = endpoint.auth { extensions[OpenAPIExtension.role] = AnyCodable(role) }
        if endpoint.pagination != .none {
            extensions[OpenAPIExtension.pagination] = AnyCodable(endpoint.pagination.description)
        }
        if case .announced(let note) = endpoint.availability {
            extensions[OpenAPIExtension.availability] = AnyCodable("announced: \(note)")
        }
        if !endpoint.rules.isEmpty {
            extensions[RequestRule.extensionName] = JSONValue.array(endpoint.rules.map(\.json)).anyCodable
        }
        if let resource = endpoint.resource { extensions[ResourceDeclaration.extensionName] = resource.json.anyCodable }
        if let owner = endpoint.owner { extensions[Ownership.extensionName] = owner.json.anyCodable }
        if !endpoint.order.isEmpty {
            extensions[SortKey.extensionName] = JSONValue.array(endpoint.order.map { .string($0.description) }).anyCodable
        }
        if let effect = endpoint.effect { extensions[ActionEffect.extensionName] = effect.json.anyCodable }

        var requestBody: OpenAPI.Request?
        if let request = endpoint.request {
            requestBody = OpenAPI.Request(
                content: [.json: .b(content(request, names: names, example: fixture?.request))],
                required: endpoint.body == .required)
        }

        var responses = OpenAPI.Response.Map()
        let success = endpoint.success.rawValue
        responses[.status(code: success)] = .b(
            OpenAPI.Response(
                description: HTTPStatus.reason(endpoint.success),
                headers: paginationHeaders(endpoint.pagination),
                content: endpoint.response.map {
                    [.json: .b(content($0, names: names, example: fixture?.responses[success]))]
                }
                    ?? [:]))
        for status in endpoint.errors.sorted() {
            let example = fixture?.responses[status.rawValue]
            responses[.status(code: status.rawValue)] = .b(
                OpenAPI.Response(
                    description: HTTPStatus.reason(status),
                    content: [.json: .b(content(spec.errorEnvelope.model, names: names, example: example))]))
        }

        return OpenAPI.Operation(
            summary: endpoint.summary,
            operationId: operationID(endpoint),
            parameters: endpoint.parameters.map { .b(parameter($0, names: names)) },
            requestBody: requestBody,
            responses: responses,
            security: security(endpoint.auth, scheme: spec.auth),
            vendorExtensions: extensions)
    }

    /// `get_api_events_id` for `GET /api/events/{id}`: unique, and stable while the endpoint is.
    static func operationID(_ endpoint: AnyEndpoint) -> String {
        let words = endpoint.path.template.split { !$0.isLetter && !$0.isNumber }
        return ([endpoint.method.rawValue.lowercased()] + words.map(String.init)).joined(separator: "_")
    }

    private static func content(_ model: ModelReference, names: ComponentNames, example: JSONValue?) -> OpenAPI.Content
    {
        OpenAPI.Content(
            schema: model.schema.openAPISchema(names), example: example?.anyCodable,
            vendorExtensions: [OpenAPIExtension.model: AnyCodable(model.name)])
    }

    private static func parameter(_ parameter: Parameter, names: ComponentNames) -> OpenAPI.Parameter {
        var schema = parameter.schema.openAPISchema(names)
        if let defaultValue = parameter.defaultValue { schema = schema.with(defaultValue: defaultValue.anyCodable) }
        let context: OpenAPI.Parameter.Context =
            switch parameter.location {
            case .path: .path(schema: schema)
            case .query: .query(required: parameter.required, schema: schema)
            case .header: .header(required: parameter.required, schema: schema)
            }
        var extensions: [String: AnyCodable] = [:]
        if let meaning = parameter.meaning { extensions[OpenAPIExtension.meaning] = AnyCodable(meaning.description) }
        if !parameter.enforced { extensions[OpenAPIExtension.enforced] = AnyCodable(false) }
        return OpenAPI.Parameter(
            name: parameter.name, context: context, description: parameter.summary, deprecated: parameter.deprecated,
            vendorExtensions: extensions)
    }

    private static func paginationHeaders(_ pagination: Pagination) -> OpenAPI.Header.Map? {
        func header(_ description: String, _ schema: JSONSchema) -> Either<
            OpenAPI.Reference<OpenAPI.Header>, OpenAPI.Header
        > {
            .b(OpenAPI.Header(schema: schema, description: description))
        }
        switch pagination {
        case .none, .pageInBody:
            return nil
        case .linkHeader:
            return [
                "Link": header("RFC 8288 links to the first, previous, next and last pages", .string),
                "X-Page": header("The current page number", .integer(minimum: (1, exclusive: false))),
                "X-Per-Page": header("The page size", .integer(minimum: (1, exclusive: false))),
                "X-Total": header("The number of items over all pages", .integer(minimum: (0, exclusive: false))),
            ]
        case .range:
            return ["Content-Range": header("The rows returned and the total, such as 0-19/42 or */0", .string)]
        }
    }
}
