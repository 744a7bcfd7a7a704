import Foundation

/// The fixtures of one endpoint: a request body (when it takes one) and a response body for its
/// success status and for each documented error status.
///
/// A document's example is used verbatim when it validates against the schema and decodes into the
/// model with the app's decoder; otherwise the body is generated from the schema (the reason is kept in
/// ``generatedBecause``). Every fixture therefore validates and decodes.
public struct EndpointFixture: Sendable, Hashable {
    /// `METHOD /path`.
    public var endpoint: String
    public var request: JSONValue?
    /// Response bodies keyed by status; `.null` stands for "no body" (204).
    public var responses: [Int: JSONValue]
    /// For each body that had a document example but could not use it: why (status 0 is the request).
    public var generatedBecause: [Int: String]
    /// The path parameters of the request that got the answers, for a recording (`{"tenant": "default_tenant"}`):
    /// where a replay puts the items of a nested list. Empty for generated fixtures.
    public var path: [String: String] = [:]

    public init(endpoint: String, request: JSONValue?, responses: [Int: JSONValue], generatedBecause: [Int: String] = [:]) {
        self.endpoint = endpoint
        self.request = request
        self.responses = responses
        self.generatedBecause = generatedBecause
    }

    /// The fixture as a JSON document (`{"endpoint", "request", "responses": {"200": ...}}`).
    public var jsonValue: JSONValue {
        var object: [String: JSONValue] = [
            "endpoint": .string(endpoint),
            "responses": .object(Dictionary(uniqueKeysWithValues: responses.map { (String($0.key), $0.value) })),
        ]
        if let request { object["request"] = request }
        if !path.isEmpty { object["path"] = .object(path.mapValues(JSONValue.string)) }
        return .object(object)
    }

    /// Reads a fixture written by ``jsonValue``.
    /// - Throws: ``FixtureError`` when a member is missing or has the wrong type.
    public init(json: JSONValue) throws(FixtureError) {
        guard let endpoint = json["endpoint"]?.stringValue else { throw .missing("endpoint") }
        guard let responses = json["responses"]?.objectValue else { throw .missing("responses") }
        var bodies: [Int: JSONValue] = [:]
        for (key, value) in responses {
            guard let status = Int(key), (100...599).contains(status) else { throw .badStatus(key) }
            bodies[status] = value
        }
        self.init(endpoint: endpoint, request: json["request"], responses: bodies)
        for (name, value) in json["path"]?.objectValue ?? [:] {
            guard let text = value.stringValue else { throw .missing("path.\(name) as a string") }
            path[name] = text
        }
    }

    /// A file name for the endpoint: `GET /api/events/{id}` → `GET_api_events_{id}.json`.
    public var fileName: String {
        let path = endpoint.split(separator: " ", maxSplits: 1).map(String.init)
        let method = path.first ?? "GET"
        let rest = (path.count > 1 ? path[1] : "").split(separator: "/").joined(separator: "_")
        return "\(method)_\(rest).json"
    }
}

/// Why a fixture file could not be read.
public struct FixtureError: Error, Sendable, Hashable, CustomStringConvertible {
    public let description: String

    public init(description: String) {
        self.description = description
    }

    static func missing(_ member: String) -> FixtureError {
        FixtureError(description: "fixture has no \"\(member)\" member")
    }

    static func badStatus(_ key: String) -> FixtureError {
        FixtureError(description: "fixture response key \"\(key)\" is not an HTTP status between 100 and 599")
    }
}

extension APISpec {
    /// Fixtures for every endpoint, deterministic for a seed (each endpoint has its own derived stream,
    /// so editing one endpoint does not change the others).
    public func fixtures(seed: UInt64) -> [EndpointFixture] {
        endpoints.map { fixture(for: $0, seed: seed) }
    }

    /// The fixture of one endpoint.
    public func fixture(for endpoint: AnyEndpoint, seed: UInt64) -> EndpointFixture {
        var random = SeededRandom(seed: seed).derived(id + " " + endpoint.id)
        var generator = FixtureGenerator(seed: random.next(), spec: self, optionalKeys: optionalKeys)
        var responses: [Int: JSONValue] = [:]
        var reasons: [Int: String] = [:]

        var request: JSONValue?
        if let model = endpoint.request {
            generator.direction = .request
            switch exampleUse(endpoint.examples.request, model: model, direction: .request) {
            case .verbatim(let example): request = example
            case .rejected(let reason):
                reasons[0] = reason
                request = generator.value(for: model)
            case .absent: request = generator.value(for: model)
            }
            generator.direction = .response
        }

        if let model = endpoint.response {
            let status = endpoint.success.rawValue
            switch exampleUse(endpoint.examples.responses[status], model: model) {
            case .verbatim(let example): responses[status] = example
            case .rejected(let reason):
                reasons[status] = reason
                responses[status] = generator.answer(for: model)
            case .absent: responses[status] = generator.answer(for: model)
            }
        } else {
            responses[endpoint.success.rawValue] = .null
        }

        let validator = Validator(spec: self)
        for status in endpoint.errors {
            // The status's own documented schema where the document gives one (as the mock answers), else the envelope.
            let documented = endpoint.documentedResponse(for: status.rawValue)?.model
            let messages = [HTTPStatus.reason(status)]
            let generated =
                documented.map {
                    ErrorBody.make($0, validator: validator, settings: wire, status: status, messages: messages)
                } ?? errorEnvelope.make(status, messages)
            switch exampleUse(endpoint.examples.responses[status.rawValue], model: documented ?? errorEnvelope.model) {
            case .verbatim(let example): responses[status.rawValue] = example
            case .rejected(let reason):
                reasons[status.rawValue] = reason
                responses[status.rawValue] = generated
            case .absent: responses[status.rawValue] = generated
            }
        }
        return EndpointFixture(endpoint: endpoint.id, request: request, responses: responses, generatedBecause: reasons)
    }

    /// Whether a document example can serve verbatim: it must validate and decode.
    private func exampleUse(
        _ text: String?, model: ModelReference, direction: MessageDirection = .response
    ) -> ExampleUse {
        guard let text else { return .absent }
        let bytes = Array(text.utf8)
        let findings = BodyCheck.findings(bytes, model: model, spec: self, direction: direction).filter { $0.severity == .error }
        if let first = findings.first { return .rejected(first.summary) }
        guard let value = try? JSONParser().parse(bytes) else { return .absent }
        return .verbatim(value)
    }
}

private enum ExampleUse {
    case verbatim(JSONValue)
    case rejected(String)
    case absent
}

extension HTTPStatus {
    /// The standard reason phrase, used as the message of generated error fixtures.
    public static func reason(_ status: HTTPStatus) -> String {
        switch status.rawValue {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 206: "Partial Content"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 409: "Conflict"
        case 413: "Payload Too Large"
        case 415: "Unsupported Media Type"
        case 416: "Range Not Satisfiable"
        case 422: "Unprocessable Entity"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        default: "HTTP \(status.rawValue)"
        }
    }
}
