import UnderstudyCore

extension Intra42 {
    /// A campus (`GET /v2/campus/{id}`), shown on the home screen's campus card.
    ///
    /// Not in the document: written from the fields the app decodes (ENDPOINTS.md).
    public struct Campus: Codable, Sendable, Hashable {
        public let id: Int
        public let name: String
        public let timeZone: String
        public let language: Language
        public let usersCount: Int
        public let country: String
        public let address: String
        public let zip: String
        public let city: String
        public let website: String
        public let facebook: String?
        public let twitter: String?
        public let active: Bool
        public let emailExtension: String?

        enum CodingKeys: String, CodingKey {
            case id
            case name
            case timeZone = "time_zone"
            case language
            case usersCount = "users_count"
            case country
            case address
            case zip
            case city
            case website
            case facebook
            case twitter
            case active
            case emailExtension = "email_extension"
        }

        /// The campus language.
        public struct Language: Codable, Sendable, Hashable {
            public let id: Int
            public let name: String
            public let identifier: String
        }
    }

    /// A campus event (`GET /v2/campus/{id}/events`), listed among the upcoming events of the home screen.
    ///
    /// Not in the document: written from the fields the app decodes (ENDPOINTS.md).
    public struct Event: Codable, Sendable, Hashable {
        public let id: Int
        public let name: String
        public let description: String
        public let location: String
        public let kind: String
        public let maxPeople: Int?
        public let nbrSubscribers: Int
        public let beginAt: String
        public let endAt: String
        public let campusIds: [Int]
        public let cursusIds: [Int]

        enum CodingKeys: String, CodingKey {
            case id
            case name
            case description
            case location
            case kind
            case maxPeople = "max_people"
            case nbrSubscribers = "nbr_subscribers"
            case beginAt = "begin_at"
            case endAt = "end_at"
            case campusIds = "campus_ids"
            case cursusIds = "cursus_ids"
        }
    }
}

extension Intra42.Event: SchemaRefining {
    public static func refineSchema(_ schema: inout ObjectSchema) {
        Intra42.setTimestampFormat(&schema, "begin_at", "end_at")
    }
}
