import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The VideGreniers app's client: sign-in (with a refresh when the access token has expired), events, favorites.
public actor VideGreniersClient {
    public struct Event: Decodable, Sendable, Identifiable {
        public let id: UUID
        public let title: String
        public let startDate: String
    }

    struct Envelope<Payload: Decodable & Sendable>: Decodable, Sendable {
        let success: Bool
        let data: Payload?
    }
    struct Session: Codable, Sendable {
        let accessToken: String
        let refreshToken: String
    }
    struct Favorite: Decodable, Sendable {
        let event: Event
    }

    private let api: APIClient
    private var session: Session?

    public init(baseURL: URL, session: URLSession) {
        api = APIClient(baseURL: baseURL, session: session)
    }

    public func signIn(email: String, password: String) async throws {
        let answer = try await api.send(
            "POST", "api/auth/login", body: ["email": email, "password": password], as: Envelope<Session>.self)
        session = answer.data
    }

    /// One page of published events, soonest first.
    public func events(page: Int = 1) async throws -> [Event] {
        let query = [URLQueryItem(name: "page", value: "\(page)"), URLQueryItem(name: "pageSize", value: "20")]
        return try await api.send("GET", "api/events", query: query, as: Envelope<[Event]>.self).data ?? []
    }

    public func addFavorite(_ event: UUID) async throws {
        _ = try await signedIn { token in
            try await self.api.send("POST", "api/favorites/\(event.uuidString.lowercased())", token: token, as: Nothing.self)
        }
    }

    /// The favorites that start within a week.
    public func upcomingFavorites() async throws -> [Event] {
        try await signedIn { token in
            try await self.api.send("GET", "api/favorites/upcoming", token: token, as: Envelope<[Favorite]>.self)
        }.data?.map(\.event) ?? []
    }

    /// Sends with the access token; when it has expired (401), exchanges the refresh token once and sends again.
    private func signedIn<Answer: Sendable>(_ send: @Sendable (String) async throws -> Answer) async throws -> Answer {
        guard let current = session else { throw APIError(status: 401, body: "not signed in") }
        do {
            return try await send(current.accessToken)
        } catch let error as APIError where error.status == 401 {
            let renewed = try await api.send("POST", "api/auth/refresh", body: current, as: Envelope<Session>.self)
            guard let fresh = renewed.data else { throw error }
            session = fresh
            return try await send(fresh.accessToken)
        }
    }
}
