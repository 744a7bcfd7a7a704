import Foundation

extension VideGreniers {
    /// The body of `GET /health`, the only response without the ``ApiResponse`` envelope.
    ///
    /// Written from the document's JSON example (it gives no Swift model).
    public struct HealthResponse: Codable, Sendable, Hashable {
        public let status: String
        public let checks: [String: String]
    }
}
