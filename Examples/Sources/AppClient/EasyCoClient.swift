import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The EasyCo app's client of its Supabase project: Supabase Auth's password sign-in, then PostgREST tables.
public actor EasyCoClient {
    public struct Property: Decodable, Sendable, Identifiable {
        public let id: UUID
        public let title: String
    }

    struct Session: Decodable, Sendable {
        struct User: Decodable, Sendable {
            let id: UUID
        }
        let accessToken: String
        let user: User

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case user
        }
    }
    struct FavoriteRow: Codable, Sendable {
        let userID: UUID
        let propertyID: UUID

        enum CodingKeys: String, CodingKey {
            case userID = "user_id"
            case propertyID = "property_id"
        }
    }

    private let api: APIClient
    private var session: Session?

    /// `anonKey`: the project's public API key, which every request carries.
    public init(baseURL: URL, session: URLSession, anonKey: String) {
        api = APIClient(baseURL: baseURL, session: session, headers: ["apikey": anonKey])
    }

    public func signIn(email: String, password: String) async throws {
        session = try await api.send(
            "POST", "auth/v1/token", query: [URLQueryItem(name: "grant_type", value: "password")],
            body: ["email": email, "password": password])
    }

    /// The published listings, newest first.
    public func publishedProperties() async throws -> [Property] {
        let query = [
            URLQueryItem(name: "select", value: "id,title"), URLQueryItem(name: "status", value: "eq.published"),
            URLQueryItem(name: "order", value: "created_at.desc"),
        ]
        return try await api.send("GET", "rest/v1/properties", query: query, token: session?.accessToken)
    }

    public func addFavorite(_ property: UUID) async throws {
        guard let session else { throw APIError(status: 401, body: "not signed in") }
        // PostgREST answers the inserted rows only when asked to.
        let inserted: [FavoriteRow] = try await api.send(
            "POST", "rest/v1/favorites", body: FavoriteRow(userID: session.user.id, propertyID: property),
            token: session.accessToken, headers: ["Prefer": "return=representation"])
        guard inserted.count == 1 else { throw APIError(status: 201, body: "\(inserted.count) rows inserted") }
    }

    public func favoriteProperties() async throws -> [UUID] {
        guard let session else { throw APIError(status: 401, body: "not signed in") }
        let query = [
            URLQueryItem(name: "select", value: "user_id,property_id"),
            URLQueryItem(name: "user_id", value: "eq.\(session.user.id.uuidString.lowercased())"),
        ]
        let rows: [FavoriteRow] = try await api.send("GET", "rest/v1/favorites", query: query, token: session.accessToken)
        return rows.map(\.propertyID)
    }
}
