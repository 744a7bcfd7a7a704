import Foundation
import UnderstudyCore

/// Serves every endpoint of any ``APISpec`` from its descriptors alone, with no state: the documented success
/// status with a body from the endpoint's examples (else one generated from its model), errors in the API's
/// envelope (for an imported document, in the media type and schema the operation documents for the status), the
/// pagination and response headers the descriptor declares, and security as declared. An operation that documents
/// no success answers the first status it documents.
///
/// Answers can be chosen as with Prism, in a `Prefer` header: `code=404` answers the documented 404 (else the
/// `default` response; 500 when there is neither), `example=dog` the response's example of that name (500 when it
/// has none), `dynamic=true` a body generated from the schema even where an example exists. Generated bodies are
/// deterministic for a seed. Routing and request validation are the ``MockEngine``'s, as for every behaviour.
///
/// ```swift
/// let spec = try OpenAPIImport.spec(bytes, source: "petstore.yaml")
/// let server = try await MockServer.start(FixtureMock(spec: spec))
/// ```
package struct FixtureMock: ReadsFixtures {
    package let name: String
    package let specs: [APISpec]
    package let validationStatus: HTTPStatus
    private let seed: UInt64
    let now: @Sendable () -> Date
    /// The fixtures folder's files (`understudy record`'s recordings, `understudy generate`'s files): an answer
    /// recorded for an endpoint's status is the answer, before the document's examples.
    package let fixtures: FixtureSource?
    /// Answers read the parameters the document declares (and a `Link` header writes every one back, which
    /// ``CachedAnswer`` sees).
    package var ignoresUndeclaredQuery: Bool { true }

    /// Creates the mock of `spec`.
    /// - Parameter configuration: the seed of generated bodies and the clock that judges a JWT's `exp`.
    package init(spec: APISpec, configuration: MockConfiguration = MockConfiguration()) {
        self.init(spec: spec, configuration: configuration, recorded: nil)
    }

    /// Creates the mock of `spec`, answering from the fixtures folder of `configuration` where it has a file.
    /// - Throws: ``FixtureError`` or a file error naming a fixture file that cannot be read.
    package init(spec: APISpec, replaying configuration: MockConfiguration) throws {
        let source =
            try configuration.fixturesDirectory.map {
                try FixtureSource(seed: configuration.seed, folder: $0, specs: [spec])
            }
        self.init(spec: spec, configuration: configuration, recorded: source)
    }

    init(spec: APISpec, configuration: MockConfiguration, recorded: FixtureSource?) {
        fixtures = recorded
        name = spec.id
        specs = [spec]
        seed = configuration.seed
        now = configuration.now
        // Invalid input is refused with the status the document uses for it (Prism prefers 422, then 400).
        let statuses = Set(spec.endpoints.flatMap(\.errors))
        validationStatus =
            statuses.contains(.unprocessableEntity) && !statuses.contains(.badRequest)
            ? .unprocessableEntity : .badRequest
    }

    package var stateVersion: UInt64 { 0 }

    package func reset() async throws {}

    /// The user of the ready credential, and of every credential that names no other: the owner of the seeded
    /// items of resources whose operations act on the caller's own.
    package static let readySubject = "understudy"

    /// A bearer token any endpoint of this mock accepts (it has the shape of a JWT, for documents that say so).
    package static let readyToken = FixtureMock.jwt(["sub": .string(readySubject)])

    package func issueToken(for user: String?) async throws -> JSONValue {
        ["token": .string(Self.readyToken), "note": "any well-formed credential is accepted"]
    }

    package func startupNotes() async -> [String] {
        let spec = specs[0]
        var notes = [
            "\(spec.endpoints.count) operations of \(spec.title), answered from the document's examples and schemas"
        ]
        let schemes = Set(spec.endpoints.flatMap { $0.security.flatMap { $0 } })
        if !schemes.isEmpty {
            notes.append("credentials: " + schemes.map(Self.hint).sorted().joined(separator: "; "))
        }
        notes.append("choose an answer with Prefer: code=404, example=NAME or dynamic=true")
        return notes
    }

    private static func hint(_ scheme: SecurityScheme) -> String {
        switch scheme {
        case .bearer: "Authorization: Bearer \(readyToken)"
        case .basic: "Authorization: Basic (any user:password)"
        case .apiKey(let name, .header): "\(name): (any non-empty key) header"
        case .apiKey(let name, .query): "?\(name)=(any non-empty key)"
        case .apiKey(let name, .cookie): "Cookie: \(name)=(any non-empty key)"
        }
    }

    /// JSON and forms (multipart ones too) are validated; any other media type is taken as it comes.
    package func unreadableBody(mediaType: String) -> UnreadableBody? {
        MediaType.isJSON(mediaType) || [MediaType.form, MediaType.multipart].contains(mediaType) ? nil : .unvalidated
    }

    // MARK: Answers

    package func handle(_ request: MockRequest, endpoint: AnyEndpoint, spec: APISpec) async throws -> MockResponse? {
        try answer(request, endpoint: endpoint, spec: spec)
    }

    /// The descriptor's answer to a request: the one every endpoint of every mock falls back to.
    /// - Parameter state: the success body a stateful behaviour computed (``ResourceMock``), sent in place of an
    ///   example or a generated body, with the documented status, headers and paging.
    /// - Parameter total: where `state` is a list already paged in the `Link` header style, the length of the whole
    ///   list, which the headers describe.
    func answer(
        _ request: MockRequest, endpoint: AnyEndpoint, spec: APISpec, state: JSONValue? = nil, listed total: Int? = nil
    ) throws -> MockResponse {
        let preference = Preference(request.header("prefer"))
        let responses = endpoint.documentedResponses(in: spec)
        var status = preference.code ?? endpoint.success.rawValue
        guard
            let response = responses.first(where: { $0.status == status })
                ?? responses.first(where: { $0.status == nil })
                // An operation that documents no success (only `400: Invalid input`) answers what it documents.
                ?? (preference.code == nil ? responses.first : nil)
        else {
            let documented = responses.compactMap(\.status).map(String.init).joined(separator: ", ")
            throw MockError(
                .internalServerError,
                "Prefer: code=\(status): \(endpoint.id) documents no \(status) response and no default (it documents \(documented))"
            )
        }
        status = response.status ?? status
        var random = SeededRandom(seed: seed).derived("\(spec.id) \(endpoint.id) \(status)")
        guard let mediaType = response.mediaType else {
            return .empty(status: status, headers: declaredHeaders(response, spec: spec, random: &random, taken: []))
        }
        let recorded = fixtures.flatMap { $0.recorded(endpoint.id, status: status, in: spec) }
        var body =
            if let state, status == endpoint.success.rawValue, response.isStructured {
                Body.json(state)
            } else {
                try self.body(
                    response, status: status, preference: preference, spec: spec, imported: !endpoint.responses.isEmpty,
                    recorded: recorded, random: &random)
            }
        // A made-up list answers what the request asks of it; a recorded or chosen one is the server's own.
        if state == nil, recorded == nil, preference.example == nil, status == endpoint.success.rawValue,
            case .json(let value) = body, let schema = response.model?.schema
        {
            body = .json(
                ListCriteria(endpoint: endpoint).shaped(
                    value, schema: schema, spec: spec, query: request.query, now: now()))
        }
        var headers: [(name: String, value: String)] = [("Content-Type", mediaType)]
        let bytes: [UInt8]
        switch body {
        case .json(.array(let rows)) where status == endpoint.success.rawValue && endpoint.pagination == .linkHeader:
            // A state's list may come as its page already, from a list of `total` items.
            let paging = LinkHeaderPage(request.query)
            let path = spec.basePath + request.path
            let page =
                if let total { (rows: rows, headers: paging.headers(total: total, for: request, path: path)) }
                else { paging.paging(rows, for: request, path: path) }
            headers += page.headers
            bytes = JSONValue.array(page.rows).serializedBytes()
        case .json(let value):
            if status == endpoint.success.rawValue, endpoint.pagination == .range {
                let count = value.arrayValue?.count ?? 0
                headers.append(("Content-Range", count == 0 ? "*/0" : "0-\(count - 1)/\(count)"))
            }
            bytes = value.serializedBytes()
        case .bytes(let raw): bytes = raw
        }
        // A single page has no `Link` (api-pagination leaves it out): the declared header gets no made-up value.
        var taken = Set(headers.map { $0.name.lowercased() })
        if status == endpoint.success.rawValue, endpoint.pagination == .linkHeader { taken.insert("link") }
        headers += declaredHeaders(response, spec: spec, random: &random, taken: taken)
        return MockResponse(status: status, headers: headers, body: bytes)
    }

    /// An error in the response the endpoint documents for its status (else `default`): its media type, and a
    /// body made from its schema with the status and the messages; the API's envelope where it documents no body.
    package func errorResponse(_ error: MockError, spec: APISpec, endpoint: AnyEndpoint) -> MockResponse {
        guard let documented = endpoint.documentedResponse(for: error.status.rawValue),
            let mediaType = documented.mediaType
        else { return errorResponse(error, spec: spec) }
        let headers = [("Content-Type", mediaType)] + error.headers
        guard documented.isStructured else {
            let text = error.messages.joined(separator: "; ")
            return MockResponse(status: error.status.rawValue, headers: headers, body: Array(text.utf8))
        }
        let body =
            error.body
            ?? documented.model.map {
                ErrorBody.make(
                    $0, validator: Validator(spec: spec), settings: spec.wire, status: error.status,
                    messages: error.messages)
            } ?? spec.errorEnvelope.make(error.status, error.messages)
        return MockResponse(status: error.status.rawValue, headers: headers, body: body.serializedBytes())
    }

    private enum Body {
        case json(JSONValue)
        case bytes([UInt8])
    }

    /// The named example asked for; else the recorded answer, or the first example that validates (unless
    /// `dynamic=true`); else a body generated from the model.
    private func body(
        _ response: DocumentedResponse, status: Int, preference: Preference, spec: APISpec, imported: Bool,
        recorded: JSONValue?, random: inout SeededRandom
    ) throws -> Body {
        if let name = preference.example {
            guard let example = response.examples.first(where: { $0.name == name }) else {
                let names = response.examples.map(\.name).joined(separator: ", ")
                throw MockError(
                    .internalServerError,
                    "Prefer: example=\(name): the \(status) response has no example of that name"
                        + (names.isEmpty ? "" : " (it has \(names))"))
            }
            return Self.body(example.value, json: response.isStructured)
        }
        if let recorded, !preference.dynamic {
            // Recorded answers are JSON as the server sent it, whatever media type the document gives.
            return response.isStructured ? .json(recorded) : .bytes(recorded.serializedBytes())
        }
        if !preference.dynamic {
            // An example that breaks its own schema is not served as is (lint reports it): generated instead.
            let example = response.examples.first { example in
                guard response.isStructured, let model = response.model else { return true }
                return !model.findings(example.value, in: spec, direction: .response).contains { $0.severity == .error }
            }
            if let example { return Self.body(example.value, json: response.isStructured) }
        }
        guard response.isStructured else {
            return .bytes(Array((response.mediaType?.hasPrefix("text/") == true ? "understudy" : "").utf8))
        }
        guard let model = response.model else { return .json(.object([:])) }
        if status >= 400 {
            let message = HTTPStatus.reason(HTTPStatus(rawValue: status))
            // Built-in specs build their envelope themselves; an imported one is filled from its schema.
            return .json(
                imported
                    ? ErrorBody.make(
                        model, validator: Validator(spec: spec), settings: spec.wire,
                        status: HTTPStatus(rawValue: status), messages: [message])
                    : spec.errorEnvelope.make(HTTPStatus(rawValue: status), [message]))
        }
        var generator = FixtureGenerator(seed: random.next(), spec: spec, optionalKeys: spec.optionalKeys)
        return .json(generator.answer(for: model))
    }

    private static func body(_ value: JSONValue, json: Bool) -> Body {
        if !json, case .string(let text) = value { return .bytes(Array(text.utf8)) }
        return .json(value)
    }

    /// The headers the document declares for a response, each with a value generated from its schema.
    private func declaredHeaders(
        _ response: DocumentedResponse, spec: APISpec, random: inout SeededRandom, taken: Set<String>
    ) -> [(name: String, value: String)] {
        var generator = FixtureGenerator(seed: random.next(), spec: spec)
        return response.headers.filter {
            !taken.contains($0.name.lowercased()) && $0.name.lowercased() != "content-type"
        }
        .map { header in
            switch generator.value(for: header) {
            case .string(let text): (header.name, text)
            case .number(let number): (header.name, number.literal)
            case .bool(let bool): (header.name, String(bool))
            case let value: (header.name, value.serialized())
            }
        }
    }
}

/// What a `Prefer` header asks of a fixture answer, as Prism reads it: `code=404, example=dog, dynamic=true`.
struct Preference {
    var code: Int?
    var example: String?
    var dynamic = false

    init(_ header: String?) {
        guard let header else { return }
        for part in header.split(whereSeparator: { $0 == "," || $0 == ";" || $0 == " " }) {
            let pair = part.split(separator: "=", maxSplits: 1).map { String($0).trimmingSpaces }
            guard pair.count == 2 else { continue }
            let value =
                pair[1].hasPrefix("\"") && pair[1].hasSuffix("\"") && pair[1].count >= 2
                ? String(pair[1].dropFirst().dropLast()) : pair[1]
            switch pair[0].lowercased() {
            case "code": code = Int(value).flatMap { (100...599).contains($0) ? $0 : nil }
            case "example": example = value
            case "dynamic": dynamic = value.lowercased() == "true"
            default: break
            }
        }
    }
}
