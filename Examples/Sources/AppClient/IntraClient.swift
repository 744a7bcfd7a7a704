import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The 42 app's client of the Intra API v2: the signed-in student and their evaluation slots.
public struct IntraClient: Sendable {
    public struct User: Decodable, Sendable, Identifiable {
        public let id: Int
        public let login: String
    }

    public struct Slot: Decodable, Sendable, Identifiable {
        public let id: Int
        public let beginAt: String

        enum CodingKeys: String, CodingKey {
            case id
            case beginAt = "begin_at"
        }
    }

    struct NewSlot: Encodable {
        struct Fields: Encodable {
            let user_id: Int
            let begin_at: String
            let end_at: String
        }
        let slot: Fields
    }

    private let api: APIClient
    private let token: String

    /// `token`: the access token of the OAuth sign-in the app ran in a browser.
    public init(baseURL: URL, session: URLSession, token: String) {
        api = APIClient(baseURL: baseURL, session: session)
        self.token = token
    }

    public func me() async throws -> User {
        try await api.send("GET", "v2/me", token: token)
    }

    public func slots() async throws -> [Slot] {
        try await api.send("GET", "v2/me/slots", token: token)
    }

    /// Opens evaluation slots from `begin` to `end` (quarter hours); the API answers the slots it made.
    public func openSlot(for user: Int, from begin: Date, to end: Date) async throws -> [Slot] {
        let slot = NewSlot.Fields(user_id: user, begin_at: Self.format(begin), end_at: Self.format(end))
        return try await api.send("POST", "v2/slots", body: NewSlot(slot: slot), token: token)
    }

    static func format(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
