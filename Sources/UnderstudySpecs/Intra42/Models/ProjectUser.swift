import UnderstudyCore

extension Intra42 {
    /// A user's attempt at a project (`GET /v2/users/{login}/projects_users`): mark, state and teams.
    ///
    /// Not in the document: written from the fields the app decodes (ENDPOINTS.md). `isValidated` is
    /// optional, as a project not marked yet has no validation (see the `validated-optionality` ambiguity).
    public struct ProjectUser: Codable, Sendable, Hashable {
        public let finalMark: Int?
        /// `in_progress`, `finished`, ...: the app groups projects as active or finished with it.
        public let status: String
        public let isValidated: Bool?
        public let occurrence: Int
        public let cursusIds: [Int]
        public let createdAt: String
        public let markedAt: String?
        public let closedAt: String?
        public let project: Project
        public let currentTeamId: Int?
        public let teams: [Team]

        enum CodingKeys: String, CodingKey {
            case finalMark = "final_mark"
            case status
            case isValidated = "validated?"
            case occurrence
            case cursusIds = "cursus_ids"
            case createdAt = "created_at"
            case markedAt = "marked_at"
            case closedAt = "closed_at"
            case project
            case currentTeamId = "current_team_id"
            case teams
        }

        /// The project attempted.
        public struct Project: Codable, Sendable, Hashable {
            public let name: String
            public let slug: String
        }

        /// A team of the attempt; the app links its repository when there is one.
        public struct Team: Codable, Sendable, Hashable {
            public let id: Int
            public let status: String
            public let repoUrl: String?

            enum CodingKeys: String, CodingKey {
                case id
                case status
                case repoUrl = "repo_url"
            }
        }
    }
}

extension Intra42.ProjectUser: SchemaRefining {
    public static func refineSchema(_ schema: inout ObjectSchema) {
        Intra42.setTimestampFormat(&schema, "created_at", "marked_at", "closed_at")
    }
}
