import Foundation
import UnderstudyCore

/// One request an app sent to a mock: what it sent, the endpoint it reached, what the mock answered, and what the
/// request broke of the contract.
public struct JournalEntry: Sendable {
    public let method: String
    public let path: String
    /// The query string, without `?`.
    public let query: String
    public let headers: [String: String]
    public let body: [UInt8]
    /// The endpoint reached (`POST /api/events`), `nil` for a route the contract does not have.
    public let endpoint: String?
    /// The status the mock answered.
    public let status: Int
    /// Every error-level finding on the request: a missing required member, a value of the wrong type, a parameter
    /// out of its range, a route the contract does not have. Empty for a request that keeps the contract.
    public let violations: [Diagnostic]

    /// The body decoded as `Model`, with the decoder of `spec`'s wire (its date and key strategies).
    /// - Throws: the decoder's error when the body is not a `Model`.
    public func body<Model: Decodable>(as model: Model.Type, in spec: APISpec) throws -> Model {
        try spec.wire.makeDecoder().decode(Model.self, from: Data(body))
    }

    /// The body as JSON, `nil` when it is empty or not JSON.
    public var json: JSONValue? { try? JSONParser().parse(body) }
}

/// Every request a mock answered, in the order it answered them, each with the contract's verdict
/// (``JournalEntry/violations``).
///
/// ```swift
/// #expect(stub.journal.calls(to: VideGreniers.createEvent).count == 1)
/// #expect(stub.journal.violations.isEmpty)
/// ```
public final class RequestJournal: Sendable {
    private let state = Locked<[JournalEntry]>([])

    public init() {}

    /// Every entry so far.
    public var entries: [JournalEntry] { state.withLock { $0 } }

    /// The entries of one endpoint, by id (`POST /api/events`).
    public func calls(to endpoint: String) -> [JournalEntry] {
        state.withLock { $0.filter { $0.endpoint == endpoint } }
    }

    /// The entries of one endpoint.
    public func calls<Request, Response>(to endpoint: Endpoint<Request, Response>) -> [JournalEntry] {
        calls(to: endpoint.id)
    }

    /// Every violation of the contract the requests so far made.
    public var violations: [Diagnostic] { state.withLock { $0.flatMap(\.violations) } }

    /// Forgets every entry.
    public func clear() { state.withLock { $0.removeAll() } }

    /// Records a request and the mock's answer, judged by `engine`'s contract.
    package func record(_ raw: RawRequest, answered response: MockResponse, by engine: MockEngine) {
        let (endpoint, violations) = engine.verdict(on: raw)
        let entry = JournalEntry(
            method: raw.method, path: raw.path, query: raw.query, headers: raw.headers, body: raw.body,
            endpoint: endpoint?.id, status: response.status, violations: violations)
        state.withLock { $0.append(entry) }
    }
}
