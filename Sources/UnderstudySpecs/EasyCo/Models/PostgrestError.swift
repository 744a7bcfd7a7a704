import UnderstudyCore

extension EasyCo {
    /// The error body PostgREST answers with, `{code, message, details, hint}`.
    ///
    /// Not in the document (its app falls back to mock data on any error): written from PostgREST's
    /// reference documentation, where `details` and `hint` are `null` when there is nothing to add.
    public struct PostgrestError: Codable, Sendable, Hashable {
        /// A PostgreSQL SQLSTATE (`23505`) or a PostgREST code (`PGRST116`).
        public let code: String
        public let message: String
        public let details: String?
        public let hint: String?

        /// The code PostgREST most plausibly sends with an HTTP status (see POSTGREST.md's mapping).
        ///
        /// A missing table is `42P01` (which POSTGREST.md maps to 404) rather than the newer `PGRST205`.
        public static func code(for status: HTTPStatus) -> String {
            switch status.rawValue {
            case 400: "PGRST100"
            case 401: "PGRST301"
            case 403: "42501"
            case 404: "42P01"
            case 405: "PGRST117"
            case 406: "PGRST116"
            case 409: "23505"
            case 415: "PGRST107"
            case 416: "PGRST103"
            case 503: "PGRST000"
            default: status.rawValue >= 500 ? "XX000" : "PGRST100"
            }
        }

        /// The body for a status: the first message is `message`, the others are joined into `details`.
        public static func body(_ status: HTTPStatus, _ messages: [String]) -> JSONValue {
            [
                "code": .string(code(for: status)),
                "message": .string(messages.first ?? HTTPStatus.reason(status)),
                "details": messages.count > 1 ? .string(messages.dropFirst().joined(separator: "; ")) : nil,
                "hint": nil,
            ]
        }
    }
}
