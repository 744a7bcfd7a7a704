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
        let operation: RowPolicy.Operation
        switch request.method {
        case .get: operation = .select
        case .post: operation = .insert
        case .patch: operation = .update
        case .delete: operation = .delete
        default:
            throw PostgrestErrors.make(
                .init(rawValue: 405), code: "PGRST117", "Unsupported HTTP method: \(request.method.rawValue)")
        }
        let answer: PostgrestAnswer
        if operation == .select {
            answer = try service.read(postgrest, caller: caller, tables: store.read { $0.tables })
        } else {
            // Read and checked before the store is locked: a malformed write touches no state.
            let write = try service.write(postgrest, operation, now: now)
            answer = try await store.write { try service.apply(write, caller: caller, to: &$0) }
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
