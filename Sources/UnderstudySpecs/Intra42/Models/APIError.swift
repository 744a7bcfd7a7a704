import UnderstudyCore

extension Intra42 {
    /// The error body of the 42 API, `{"error": "...", "message": "..."}`.
    ///
    /// Not in the document (the app handles errors by status: 401 refresh, 429 Retry-After, 5xx backoff):
    /// written from ENDPOINTS.md.
    public struct APIError: Codable, Sendable, Hashable {
        /// A short name of the error, such as `Not authorized`.
        public let error: String
        public let message: String
        /// RFC 6749's member, which Doorkeeper (the API's OAuth server) sends with its `error` code.
        public let errorDescription: String?

        enum CodingKeys: String, CodingKey {
            case error, message
            case errorDescription = "error_description"
        }

        /// The body for a status: the reason phrase as `error`, the messages joined as `message`.
        public static func body(_ status: HTTPStatus, _ messages: [String]) -> JSONValue {
            [
                "error": .string(HTTPStatus.reason(status)),
                "message": .string(messages.isEmpty ? HTTPStatus.reason(status) : messages.joined(separator: "; ")),
            ]
        }
    }
}
