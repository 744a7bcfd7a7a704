import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The fitness app's client of the apinest backend: activities and the achievements they earn.
public struct ApinestClient: Sendable {
    public struct Activity: Decodable, Sendable, Identifiable {
        public let id: String
        public let title: String
        public let participantIds: [String]
        public let isCompleted: Bool

        enum CodingKeys: String, CodingKey {
            case id = "_id"
            case title, participantIds, isCompleted
        }
    }

    public struct NewActivity: Encodable, Sendable {
        public var sportType = "Running"
        public var title: String
        public var location = "Parc de la Tête d'Or, Lyon"
        public var date: String
        public var time: String
        public var participants = 8
        public var level = "Beginner"
        public var visibility = "public"

        public init(title: String, date: String, time: String) {
            self.title = title
            self.date = date
            self.time = time
        }
    }

    public struct Summary: Decodable, Sendable {
        public struct Level: Decodable, Sendable {
            public let currentLevel: Int
            public let totalXp: Int
        }
        public let level: Level
    }

    struct Joined: Decodable {
        let activity: Activity
    }

    private let api: APIClient
    private let token: String

    /// The backend has no sign-in of its own: the app holds a token issued elsewhere.
    public init(baseURL: URL, session: URLSession, token: String) {
        api = APIClient(baseURL: baseURL, session: session)
        self.token = token
    }

    public func activities() async throws -> [Activity] {
        try await api.send("GET", "activities", token: token)
    }

    public func create(_ activity: NewActivity) async throws -> Activity {
        try await api.send("POST", "activities", body: activity, token: token)
    }

    public func join(_ id: String) async throws -> Activity {
        try await api.send("POST", "activities/\(id)/join", token: token, as: Joined.self).activity
    }

    public func complete(_ id: String, minutes: Int) async throws {
        _ = try await api.send("POST", "activities/\(id)/complete", body: ["durationMinutes": minutes], token: token, as: Nothing.self)
    }

    public func summary() async throws -> Summary {
        try await api.send("GET", "achievements/summary", token: token)
    }
}
