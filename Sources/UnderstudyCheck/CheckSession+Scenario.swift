import Foundation
import UnderstudyCore

/// The checker's side of a spec's ``WriteScenario`` (`check --allow-writes`): each call is sent with the run's
/// credentials and judged like a read (``CheckSession/perform(_:_:expecting:)``).
extension CheckSession: ScenarioSession {
    var now: Date { options.now() }
    var seed: UInt64 { options.seed }

    @discardableResult
    func call(
        _ id: String, path: [String: String], query: [(String, String)], headers: [String: String], body: JSONValue?,
        authenticated: Bool
    ) async -> JSONValue? {
        guard let endpoint = spec.endpoint(id), canCall(endpoint) else { return nil }
        let fields = HeaderFields(headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) })
        let request = request(endpoint, path: path, query: query, headers: fields, body: body, authenticated: authenticated)
        let expected: Set<HTTPStatus> = endpoint.pagination == .range ? [endpoint.success, .partialContent] : [endpoint.success]
        let (exchange, parsed) = await perform(endpoint, request, expecting: expected)
        guard let response = exchange.response, (200..<300).contains(response.status) else { return nil }
        return parsed ?? [:]
    }

    func skip(_ id: String, because reason: String) {
        if let endpoint = spec.endpoint(id) { skip(endpoint, because: reason) }
    }

    func note(_ id: String, _ message: String) {
        add([Diagnostic(.note, rule: .checkSkipped, endpoint: id, message: message)])
    }
}
