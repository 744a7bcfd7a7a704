import UnderstudyCore

extension Intra42 {
    /// A coalition a user belongs to (`GET /v2/users/{login}/coalitions`).
    ///
    /// Not in the document: written from the fields the app decodes (ENDPOINTS.md).
    public struct Coalition: Codable, Sendable, Hashable {
        public let id: Int
        public let name: String
        public let slug: String
        /// The coalition colour, `#RRGGBB`; the app tints its accent colour with it.
        public let color: String
        public let imageUrl: String
        public let score: Int?

        enum CodingKeys: String, CodingKey {
            case id
            case name
            case slug
            case color
            case imageUrl = "image_url"
            case score
        }
    }

    /// A user's score and rank in a coalition (`GET /v2/users/{login}/coalitions_users`).
    ///
    /// Not in the document: written from the fields the app decodes (ENDPOINTS.md).
    public struct CoalitionUser: Codable, Sendable, Hashable {
        public let coalitionId: Int
        public let score: Int?
        public let rank: Int?

        public init(coalitionId: Int, score: Int?, rank: Int?) {
            self.coalitionId = coalitionId
            self.score = score
            self.rank = rank
        }

        enum CodingKeys: String, CodingKey {
            case coalitionId = "coalition_id"
            case score
            case rank
        }
    }
}
