import UnderstudyCore

extension Intra42 {
    /// An evaluation slot of the current user (`GET /v2/me/slots`, `POST /v2/slots`).
    ///
    /// Not in the document: written from the fields the app decodes (ENDPOINTS.md). `scale_team` (the
    /// booked evaluation, `null` while free) and `user` are free JSON the app does not map further.
    public struct Slot: Codable, Sendable, Hashable {
        public let id: Int
        public let beginAt: String
        public let endAt: String
        public let scaleTeam: JSONValue?
        public let user: JSONValue

        public init(id: Int, beginAt: String, endAt: String, scaleTeam: JSONValue?, user: JSONValue) {
            self.id = id
            self.beginAt = beginAt
            self.endAt = endAt
            self.scaleTeam = scaleTeam
            self.user = user
        }

        enum CodingKeys: String, CodingKey {
            case id
            case beginAt = "begin_at"
            case endAt = "end_at"
            case scaleTeam = "scale_team"
            case user
        }
    }

    /// The body of `POST /v2/slots`: `{"slot": {"user_id", "begin_at", "end_at"}}`.
    ///
    /// Not in the document: written from the body ENDPOINTS.md gives. The app creates slots in 15-minute
    /// segments; the times are ISO 8601 (the server reads them with or without fractional seconds).
    public struct NewSlotRequest: Codable, Sendable, Hashable {
        public let slot: Fields

        public init(slot: Fields) {
            self.slot = slot
        }

        /// The slot to open.
        public struct Fields: Codable, Sendable, Hashable {
            public let userId: Int
            public let beginAt: String
            public let endAt: String

            public init(userId: Int, beginAt: String, endAt: String) {
                self.userId = userId
                self.beginAt = beginAt
                self.endAt = endAt
            }

            enum CodingKeys: String, CodingKey {
                case userId = "user_id"
                case beginAt = "begin_at"
                case endAt = "end_at"
            }
        }
    }
}

extension Intra42.Slot: SchemaRefining {
    public static func refineSchema(_ schema: inout ObjectSchema) {
        Intra42.setTimestampFormat(&schema, "begin_at", "end_at")
    }
}

extension Intra42.NewSlotRequest.Fields: SchemaRefining {
    /// Date-times on a quarter hour (the app's 15-minute segments), the end after the beginning.
    public static func refineSchema(_ schema: inout ObjectSchema) {
        for name in ["begin_at", "end_at"] {
            schema.refine(name) { $0 = .string(format: .dateTime, pattern: quarterHour) }
        }
        schema.rules = [.after("end_at", "begin_at")]
    }

    /// `:00`, `:15`, `:30` or `:45`, with no seconds, in an offset that keeps quarter hours.
    static let quarterHour = #"T[0-9]{2}:(00|15|30|45):00(\.0+)?([Zz]|[+-][0-9]{2}:(00|15|30|45))$"#
}
