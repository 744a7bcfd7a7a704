/// One response an OpenAPI document declares for an operation: its status (or `default`), the media type
/// and model of its body, its named examples and its headers.
///
/// Built-in specs say this with ``AnyEndpoint/success``, ``AnyEndpoint/errors`` and the error envelope;
/// ``AnyEndpoint/documentedResponses(in:)`` gives both kinds of spec the same shape.
///
/// ```swift
/// let notFound = endpoint.documentedResponses(in: spec).first { $0.status == 404 }
/// notFound?.examples.first?.value      // {"code": 404, "message": "no such pet"}
/// ```
public struct DocumentedResponse: Sendable {
    /// The status, `nil` for the document's `default` response.
    public var status: Int?
    /// The body's media type (`application/json`, `text/plain`), `nil` when the response has no body.
    public var mediaType: String?
    /// Every media type the document gives the body (`application/json`, `application/xml`), sorted; empty when
    /// the response has no body.
    public var mediaTypes: [String] = []
    /// The model of a JSON (or YAML) body; `nil` for no body or one in another media type (answered, never validated).
    public var model: ModelReference?
    /// Named examples in document order; a lone `example` is named `default`. Non-JSON examples are strings.
    public var examples: [NamedExample]
    /// The response headers the document declares, with the schema of their values.
    public var headers: [Parameter]

    public init(
        status: Int?, mediaType: String?, model: ModelReference?, examples: [NamedExample] = [],
        headers: [Parameter] = []
    ) {
        self.status = status
        self.mediaType = mediaType
        self.model = model
        self.examples = examples
        self.headers = headers
        mediaTypes = mediaType.map { [$0] } ?? []
    }

    /// Whether the body is JSON (`application/json`, `application/problem+json`).
    public var isJSON: Bool {
        mediaType.map { Self.isJSON($0.lowercased()) } ?? false
    }

    /// Whether a lower-cased media type is JSON: `application/json` and the `+json` types
    /// (`application/problem+json`, `application/merge-patch+json`).
    public static func isJSON(_ mediaType: String) -> Bool {
        mediaType == "application/json" || mediaType.hasSuffix("+json")
    }

    /// Whether the body is a tree its model describes: JSON, or YAML (Gotify's plugin configuration), which a mock
    /// writes as JSON text, a YAML 1.2 document.
    public var isStructured: Bool {
        isJSON || mediaType.map { Self.isYAML($0.lowercased()) } ?? false
    }

    /// Whether a lower-cased media type is YAML: `application/yaml` (RFC 9512), the `x-yaml` and `text/` forms in
    /// use before it, and the `+yaml` types.
    public static func isYAML(_ mediaType: String) -> Bool {
        ["application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml"].contains(mediaType)
            || mediaType.hasSuffix("+yaml")
    }
}

/// An example value with the name the document gives it.
public struct NamedExample: Sendable, Hashable {
    public var name: String
    public var value: JSONValue

    public init(_ name: String, _ value: JSONValue) {
        self.name = name
        self.value = value
    }
}

/// A credential an OpenAPI security scheme asks for.
public enum SecurityScheme: Sendable, Hashable, CustomStringConvertible {
    /// `Authorization: Bearer <token>`; `format` is the document's `bearerFormat` (`JWT`), if any.
    case bearer(format: String?)
    /// `Authorization: Basic <base64(user:password)>`.
    case basic
    /// A key in a header, a query parameter or a cookie, under `name`.
    case apiKey(name: String, location: APIKeyLocation)

    /// Where an API key is sent.
    public enum APIKeyLocation: String, Sendable, Hashable {
        case header, query, cookie
    }

    public var description: String {
        switch self {
        case .bearer(let format): format.map { "bearer(\($0))" } ?? "bearer"
        case .basic: "basic"
        case .apiKey(let name, let location): "apiKey(\(location.rawValue) \(name))"
        }
    }

    /// Whether this is a bearer token the document says is a JWT.
    public var isJWTBearer: Bool {
        if case .bearer(let format?) = self { return format.lowercased() == "jwt" }
        return false
    }
}

extension AnyEndpoint {
    /// Every response the endpoint may answer, in status order (`default` last): the document's own list for
    /// an imported spec; for a built-in one, the success status with its model and examples, then each error
    /// status with the API's error envelope.
    public func documentedResponses(in spec: APISpec) -> [DocumentedResponse] {
        if !responses.isEmpty { return responses }
        var all: [DocumentedResponse] = []
        func examples(_ status: Int) -> [NamedExample] {
            guard let text = self.examples.responses[status], let value = try? JSONValue(parsing: Array(text.utf8))
            else { return [] }
            return [NamedExample("default", value)]
        }
        all.append(
            DocumentedResponse(
                status: success.rawValue, mediaType: response == nil ? nil : "application/json", model: response,
                examples: examples(success.rawValue)))
        for status in errors {
            all.append(
                DocumentedResponse(
                    status: status.rawValue, mediaType: "application/json", model: spec.errorEnvelope.model,
                    examples: examples(status.rawValue)))
        }
        return all
    }

    /// The response documented for `status`, else the `default` one (imported specs only).
    public func documentedResponse(for status: Int) -> DocumentedResponse? {
        responses.first { $0.status == status } ?? responses.first { $0.status == nil }
    }

    /// Whether the endpoint may answer `status`: always for a built-in spec (its envelope serves every status);
    /// for an imported one, where it documents that status or `default`.
    public func documents(_ status: HTTPStatus) -> Bool {
        responses.isEmpty || documentedResponse(for: status.rawValue) != nil
    }

    /// The statuses that are a success: ``success``, and every other 2xx an imported document gives the operation
    /// (`200` it existed, beside `201` it was made).
    public var successes: Set<HTTPStatus> {
        Set([success] + responses.compactMap(\.status).filter { (200..<300).contains($0) }.map { HTTPStatus(rawValue: $0) })
    }

    /// Whether the endpoint documents a success: a 2xx or a `default`; always for a built-in spec. An imported
    /// operation that documents only errors (`400: Invalid pet value`) says nothing of what it answers otherwise.
    public var documentsSuccess: Bool {
        responses.isEmpty || responses.contains { ($0.status ?? 200) < 300 }
    }

    /// What a valid request to the endpoint may answer: its success (with `206` where it pages by `Range`); with a
    /// path value made up rather than found in the server's answers, any 4xx it documents too (404 through a
    /// `default`); every documented status where it documents no success. `nil` stands for that last case.
    public func expectedStatuses(guessedPath: Bool = false) -> Set<HTTPStatus>? {
        guard documentsSuccess else { return nil }
        var statuses = pagination == .range ? successes.union([.partialContent]) : successes
        if guessedPath {
            statuses.formUnion(errors.filter { (400..<500).contains($0.rawValue) })
            if documents(.notFound) { statuses.insert(.notFound) }
        }
        return statuses
    }
}
