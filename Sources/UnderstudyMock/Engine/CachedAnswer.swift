import Foundation
import UnderstudyCore

/// A finished GET answer the engine keeps for the exact request, until the state changes or the credential it
/// was computed for expires.
///
/// A server keeps its own encoding of the answer with it (``wire(_:)``), so a cached answer is sent again
/// without building anything but what changes between sends (the `Date` header).
package final class CachedAnswer: Sendable {
    package let response: MockResponse
    /// When the credential the answer was computed for expires; `nil` for an anonymous request.
    package let validUntil: Date?
    /// The query an answer that writes it back (a `Link` header's URLs keep every parameter) was computed for:
    /// only that query is answered with it. `nil` for an answer that names no query.
    let echoedQuery: String?
    private let encoded = Locked<(any Sendable)?>(nil)

    package init(_ response: MockResponse, validUntil: Date?, query: String = "") {
        self.response = response
        self.validUntil = validUntil
        echoedQuery = response.headers.contains { $0.name.lowercased() == "link" } ? query : nil
    }

    /// Whether the answer is the one for a request with this raw query (whose kept parameters made its key).
    func answers(query: String) -> Bool { echoedQuery.map { $0 == query } ?? true }

    /// The answer as a server writes it, made by `encode` the first time it is asked for and kept.
    package func wire<Wire: Sendable>(_ encode: (MockResponse) -> Wire) -> Wire {
        encoded.withLock { encoded in
            if let wire = encoded as? Wire { return wire }
            let wire = encode(response)
            encoded = wire
            return wire
        }
    }

    /// What the answer costs in a cache: the body twice (as bytes and as the server's buffer), headers and
    /// bookkeeping.
    var bytes: Int {
        2 * response.body.count + 256 + response.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
    }
}
