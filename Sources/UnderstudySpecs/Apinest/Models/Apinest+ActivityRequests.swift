import UnderstudyCore

extension Apinest {
    /// The body of `POST /activities`, as the fitness guide declares it.
    ///
    /// The app writes `date` with a `yyyy-MM-dd` formatter and `time` with `ISO8601DateFormatter`
    /// (`.withInternetDateTime`).
    public struct CreateActivityRequest: Codable, Sendable, Hashable {
        public let sportType: String
        public let title: String
        public let description: String?
        public let location: String
        public let latitude: Double?
        public let longitude: Double?
        public let date: String
        public let time: String
        public let participants: Int
        public let level: String
        public let visibility: String
    }

    /// The optional body of `POST /activities/{id}/complete`, as the fitness guide declares it.
    public struct CompleteActivityRequest: Codable, Sendable, Hashable {
        public let durationMinutes: Int?
        public let distanceKm: Double?
    }
}

extension Apinest.CreateActivityRequest: SchemaRefining {
    public static func refineSchema(_ schema: inout ObjectSchema) {
        // "date : Format ISO 8601 date seulement (YYYY-MM-DD)", "time : Format ISO 8601 datetime complet".
        schema.setFormat(.date, of: "date")
        schema.setFormat(.dateTime, of: "time")
        Apinest.allow(Apinest.visibilities, for: "visibility", in: &schema)
        // The backend's rules (see the `activity-request-rules` ambiguity): class-validator's `@IsNotEmpty()`,
        // `@Min(1)` and coordinate ranges.
        for name in ["sportType", "title", "location", "level"] { schema.refine(name) { $0 = .string(minLength: 1) } }
        Apinest.suggestSportAndLevel(in: &schema)
        schema.refine("participants") { $0 = .integer(minimum: 1) }
        schema.refine("latitude") { $0 = .number(minimum: -90, maximum: 90) }
        schema.refine("longitude") { $0 = .number(minimum: -180, maximum: 180) }
    }
}

extension Apinest.CompleteActivityRequest: SchemaRefining {
    public static func refineSchema(_ schema: inout ObjectSchema) {
        // At most a day, at most 1,000 km (see the `activity-request-rules` ambiguity).
        schema.refine("durationMinutes") { $0 = .integer(minimum: 0, maximum: 1_440) }
        schema.refine("distanceKm") { $0 = .number(minimum: 0, maximum: 1_000) }
    }
}
