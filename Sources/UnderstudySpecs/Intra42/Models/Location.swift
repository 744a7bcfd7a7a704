import UnderstudyCore

extension Intra42 {
    /// A session at a workstation (`GET /v2/users/{login}/locations`, `GET /v2/campus/{id}/locations`).
    ///
    /// Not in the document: written from the fields the app decodes (ENDPOINTS.md).
    public struct Location: Codable, Sendable, Hashable {
        public let id: Int
        public let beginAt: String
        /// `nil` while the user is still logged in.
        public let endAt: String?
        public let host: String
        public let campusId: Int
        public let primary: Bool

        enum CodingKeys: String, CodingKey {
            case id
            case beginAt = "begin_at"
            case endAt = "end_at"
            case host
            case campusId = "campus_id"
            case primary
        }
    }

    /// The log time of a user per day (`GET /v2/users/{login}/locations_stats`): an object whose keys are
    /// days (`"2025-11-14"`) and whose values are durations (`"05:42:17.512345"`).
    ///
    /// The app decodes `[String: String]`; this wrapper decodes exactly the same JSON and only exists to
    /// state the formats of the keys and values.
    public struct LocationsStats: Codable, Sendable, Hashable, SchemaProviding {
        /// Log time by day, `YYYY-MM-DD` → `HH:MM:SS.ffffff`.
        public let days: [String: String]

        public init(days: [String: String]) {
            self.days = days
        }

        public init(from decoder: any Decoder) throws {
            days = try decoder.singleValueContainer().decode([String: String].self)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(days)
        }

        /// Keys are dates; values follow the time-of-day syntax, which fits a duration of at most a day.
        public static var jsonSchema: Schema {
            .map(MapSchema(keys: .string(format: .date), values: .string(format: .time)))
        }

        public static var schemaPlaceholder: LocationsStats { LocationsStats(days: [:]) }
    }
}

extension Intra42.Location: SchemaRefining {
    public static func refineSchema(_ schema: inout ObjectSchema) {
        Intra42.setTimestampFormat(&schema, "begin_at", "end_at")
    }
}
