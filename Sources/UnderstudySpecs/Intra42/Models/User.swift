import Foundation
import UnderstudyCore

extension Intra42 {
    /// A user as `GET /v2/users/{login}` and `GET /v2/me` return it: the "raw decodable" the app maps into
    /// its `UserProfile`.
    ///
    /// Not in the document, which only mentions "Raw Decodables pour mapping/normalisation (dates ISO...)":
    /// written from the fields the app decodes (ENDPOINTS.md), with explicit snake_case `CodingKeys`.
    /// Timestamps stay ISO 8601 `String`s that the app maps itself.
    ///
    /// ```swift
    /// let me = try JSONDecoder().decode(Intra42.User.self, from: data)
    /// ```
    public struct User: Codable, Sendable, Hashable {
        /// Not in ENDPOINTS.md's field list: the app needs it as the `user_id` of the slots it creates.
        public let id: Int
        public let login: String
        public let displayname: String
        public let wallet: Int
        public let correctionPoint: Int
        public let image: Image
        public let email: String?
        public let phone: String?
        public let poolMonth: String?
        public let poolYear: String?
        public let kind: String?
        /// The host the user is logged in at, or `nil`.
        public let location: String?
        public let isActive: Bool
        public let campus: [UserCampus]
        public let achievements: [Achievement]
        public let titles: [Title]
        public let titlesUsers: [TitleUser]
        public let cursusUsers: [CursusUser]

        enum CodingKeys: String, CodingKey {
            case id
            case login
            case displayname
            case wallet
            case correctionPoint = "correction_point"
            case image
            case email
            case phone
            case poolMonth = "pool_month"
            case poolYear = "pool_year"
            case kind
            case location
            case isActive = "active?"
            case campus
            case achievements
            case titles
            case titlesUsers = "titles_users"
            case cursusUsers = "cursus_users"
        }
    }

    /// A user's picture; the app loads `link`.
    public struct Image: Codable, Sendable, Hashable {
        public let link: String
    }

    /// A campus as embedded in a user.
    public struct UserCampus: Codable, Sendable, Hashable {
        public let id: Int
        public let name: String
        public let timeZone: String
        public let city: String
        public let country: String
        public let website: String
        public let language: Language

        enum CodingKeys: String, CodingKey {
            case id
            case name
            case timeZone = "time_zone"
            case city
            case country
            case website
            case language
        }

        /// The campus language, as the profile shows it.
        public struct Language: Codable, Sendable, Hashable {
            public let name: String
            public let identifier: String
        }
    }

    /// An achievement of a user.
    public struct Achievement: Codable, Sendable, Hashable {
        public let id: Int
        public let name: String
        public let description: String
        /// A path to the achievement's picture.
        public let image: String
        public let nbrOfSuccess: Int?

        enum CodingKeys: String, CodingKey {
            case id
            case name
            case description
            case image
            case nbrOfSuccess = "nbr_of_success"
        }
    }

    /// A title a user may display before their login.
    public struct Title: Codable, Sendable, Hashable {
        public let id: Int
        public let name: String
    }

    /// Which of a user's titles is selected.
    public struct TitleUser: Codable, Sendable, Hashable {
        public let selected: Bool
        public let titleId: Int

        enum CodingKeys: String, CodingKey {
            case selected
            case titleId = "title_id"
        }
    }

    /// A user's enrolment in a cursus, with level and skills.
    public struct CursusUser: Codable, Sendable, Hashable {
        public let cursusId: Int
        public let grade: String?
        public let level: Double
        public let beginAt: String?
        public let endAt: String?
        public let cursus: Cursus
        public let skills: [Skill]

        enum CodingKeys: String, CodingKey {
            case cursusId = "cursus_id"
            case grade
            case level
            case beginAt = "begin_at"
            case endAt = "end_at"
            case cursus
            case skills
        }

        /// The cursus itself; the app shows its name.
        public struct Cursus: Codable, Sendable, Hashable {
            public let name: String
        }
    }

    /// A skill with the level reached in it.
    public struct Skill: Codable, Sendable, Hashable {
        public let id: Int
        public let name: String
        public let level: Double
    }
}

extension Intra42.CursusUser: SchemaRefining {
    public static func refineSchema(_ schema: inout ObjectSchema) {
        Intra42.setTimestampFormat(&schema, "begin_at", "end_at")
    }
}
