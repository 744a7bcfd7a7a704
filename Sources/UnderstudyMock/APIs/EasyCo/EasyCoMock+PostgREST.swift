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

extension EasyCoMock {
    /// `/rest/v1/<table>`: PostgREST's answer over the state's tables. A write runs in the store, which keeps it or,
    /// when the service throws, undoes it, as PostgreSQL rolls the transaction back.
    func table(_ table: String, _ request: MockRequest) async throws -> MockResponse {
        let caller = Self.caller(of: request.principal)
        let now = configuration.now()
        let postgrest = PostgrestRequest(
            table: table, query: request.query, body: request.json, isRead: request.method == .get,
            isHead: request.isHead, header: request.header)
        let answer: PostgrestAnswer
        switch request.method {
        case .get:
            answer = try service.read(postgrest, caller: caller, tables: store.read { $0.tables })
        case .post:
            answer = try await store.write { try service.insert(postgrest, caller: caller, now: now, into: &$0) }
        case .patch:
            answer = try await store.write { try service.update(postgrest, caller: caller, now: now, in: &$0) }
        case .delete:
            answer = try await store.write { try service.delete(postgrest, caller: caller, from: &$0) }
        default:
            throw PostgrestErrors.make(
                .init(rawValue: 405), code: "PGRST117", "Unsupported HTTP method: \(request.method.rawValue)")
        }
        return MockResponse(status: answer.status, headers: answer.headers, body: answer.body)
    }
}

extension EasyCoState: PostgrestRows {
    mutating func countInsertion() -> Int {
        insertions += 1
        return insertions
    }

    func hasUser(_ id: String) -> Bool {
        users.contains { $0.id == id }
    }
}

/// Each table is a part of EasyCo's state: its journal is what a write changed, persisted and undone by the store.
extension PostgrestTable: StatePart {}
