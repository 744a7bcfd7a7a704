import UnderstudyCore

extension Apinest {
    /// One row of the XP leaderboard, as the achievements guide declares it.
    public struct LeaderboardEntry: Codable, Sendable, Hashable, Identifiable {
        public let id: String
        public let user: UserInfo
        public let rank: Int
        public let totalXp: Int
        public let currentLevel: Int
        public let totalBadges: Int

        public init(id: String, user: UserInfo, rank: Int, totalXp: Int, currentLevel: Int, totalBadges: Int) {
            self.id = id
            self.user = user
            self.rank = rank
            self.totalXp = totalXp
            self.currentLevel = currentLevel
            self.totalBadges = totalBadges
        }

        enum CodingKeys: String, CodingKey {
            case id = "_id"
            case user
            case rank
            case totalXp
            case currentLevel
            case totalBadges
        }

        /// The ranked user.
        public struct UserInfo: Codable, Sendable, Hashable {
            public let id: String
            public let name: String
            public let email: String
            public let profileImageUrl: String?

            public init(id: String, name: String, email: String, profileImageUrl: String?) {
                self.id = id
                self.name = name
                self.email = email
                self.profileImageUrl = profileImageUrl
            }

            enum CodingKeys: String, CodingKey {
                case id = "_id"
                case name
                case email
                case profileImageUrl
            }
        }
    }

    /// One page of the leaderboard and the caller's rank, as the achievements guide declares it.
    public struct LeaderboardResponse: Codable, Sendable, Hashable {
        public let leaderboard: [LeaderboardEntry]
        public let userRank: Int?
        public let pagination: PaginationInfo

        public init(leaderboard: [LeaderboardEntry], userRank: Int?, pagination: PaginationInfo) {
            self.leaderboard = leaderboard
            self.userRank = userRank
            self.pagination = pagination
        }

        /// The page's position in the whole list.
        public struct PaginationInfo: Codable, Sendable, Hashable {
            public let total: Int
            public let page: Int
            public let totalPages: Int
            public let limit: Int

            public init(total: Int, page: Int, totalPages: Int, limit: Int) {
                self.total = total
                self.page = page
                self.totalPages = totalPages
                self.limit = limit
            }
        }
    }
}

extension Apinest.LeaderboardEntry: SchemaRefining {
    public static func refineSchema(_ schema: inout ObjectSchema) {
        schema.setFormat(.objectId, of: "_id")
    }
}

extension Apinest.LeaderboardEntry.UserInfo: SchemaRefining {
    public static func refineSchema(_ schema: inout ObjectSchema) {
        schema.setFormat(.objectId, of: "_id")
        schema.setFormat(.email, of: "email")
    }
}
