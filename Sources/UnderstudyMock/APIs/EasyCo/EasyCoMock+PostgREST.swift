import UnderstudyCore
import UnderstudyPostgREST

extension MockError {
    /// PostgREST's own error answer, sent as it is.
    init(_ error: PostgrestError) {
        self.init(error.status, error.message, body: error.body, headers: error.headers)
    }
}

extension EasyCoMock {
    /// Runs `body`, turning PostgREST's errors into the engine's, which answers them as they are.
    func answeringPostgrestErrors<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as PostgrestError {
            throw MockError(error)
        }
    }
}

extension PostgrestNegotiation {
    /// What `request` negotiates: `Accept`, and the schema (`Accept-Profile` on reads, which HEAD is routed as,
    /// `Content-Profile` on writes).
    init(_ request: MockRequest) throws(PostgrestError) {
        try self.init(
            accept: request.header("accept"),
            profile: request.header(request.method == .get ? "accept-profile" : "content-profile"))
    }

    /// An answer with the rows a write returns (``check(rows:)`` has passed).
    func response(_ rows: [JSONValue], status: Int, headers: [(name: String, value: String)]) -> MockResponse {
        MockResponse(status: status, headers: self.headers + headers, body: body(of: rows))
    }
}
