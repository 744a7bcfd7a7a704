import UnderstudyCore

/// What a mock answers: a status, headers and a body.
public struct MockResponse: Sendable {
    public var status: Int
    /// Headers in order; names as they should be written.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// Close the connection after part of the body (an injected fault).
    public var dropConnection = false

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON response, serialized canonically (sorted keys), with `Content-Type: application/json`.
    public static func json(_ value: JSONValue, status: Int = 200, headers: [(name: String, value: String)] = [])
        -> MockResponse
    {
        json(bytes: value.serializedBytes(), status: status, headers: headers)
    }

    /// JSON already encoded, with `Content-Type: application/json`.
    package static func json(bytes: [UInt8], status: Int = 200, headers: [(name: String, value: String)] = [])
        -> MockResponse
    {
        MockResponse(
            status: status, headers: [("Content-Type", "application/json; charset=utf-8")] + headers, body: bytes)
    }

    /// A spec model as the API's server writes it (``APISpec/wireJSON(_:)``), so the app's decoder reads the
    /// same value back.
    public static func json(
        encoding model: some Encodable, as spec: APISpec, status: Int = 200,
        headers: [(name: String, value: String)] = []
    ) throws -> MockResponse {
        json(bytes: try spec.wireBytes(model), status: status, headers: headers)
    }

    /// A response without a body (`204 No Content` by default).
    public static func empty(status: Int = 204, headers: [(name: String, value: String)] = []) -> MockResponse {
        MockResponse(status: status, headers: headers)
    }

    /// The answer to HEAD: the same status and headers, with the `Content-Length` the body would have had.
    func withoutBody() -> MockResponse {
        var response = MockResponse(status: status, headers: headers)
        if header("content-length") == nil { response.headers.append(("Content-Length", String(body.count))) }
        return response
    }

    /// The first value of a header, by case-insensitive name.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// An error a behaviour throws to answer with the API's error envelope.
///
/// ```swift
/// throw MockError(.notFound, "activity 65a1… does not exist")
/// ```
public struct MockError: Error, Sendable {
    public var status: HTTPStatus
    public var messages: [String]
    /// A complete body replacing the envelope (PostgREST codes, OAuth errors).
    public var body: JSONValue?
    public var headers: [(name: String, value: String)]

    public init(
        _ status: HTTPStatus, _ messages: String..., body: JSONValue? = nil,
        headers: [(name: String, value: String)] = []
    ) {
        self.status = status
        self.messages = messages
        self.body = body
        self.headers = headers
    }

    public init(
        _ status: HTTPStatus, messages: [String], body: JSONValue? = nil, headers: [(name: String, value: String)] = []
    ) {
        self.status = status
        self.messages = messages
        self.body = body
        self.headers = headers
    }
}
