import Foundation
import UnderstudyCore

extension Apinest {
    /// A sports activity that users create, join and complete, as the fitness guide declares it.
    ///
    /// `date`, `time`, `createdAt` and `updatedAt` are `String`s in the document: the app parses them itself
    /// (``activityDate``, ``activityTime``), with or without fractional seconds.
    public struct Activity: Codable, Sendable, Hashable, Identifiable {
        public let id: String
        public let sportType: String
        public let title: String
        public let description: String?
        public let location: String
        public let latitude: Double?
        public let longitude: Double?
        public let date: String
        public let time: String
        public let participants: Int
        public let participantIds: [String]
        public let level: String
        public let visibility: String
        public let isCompleted: Bool
        public let creator: ActivityCreator
        public let createdAt: String
        public let updatedAt: String

        public init(
            id: String, sportType: String, title: String, description: String?, location: String, latitude: Double?,
            longitude: Double?, date: String, time: String, participants: Int, participantIds: [String], level: String,
            visibility: String, isCompleted: Bool, creator: ActivityCreator, createdAt: String, updatedAt: String
        ) {
            self.id = id
            self.sportType = sportType
            self.title = title
            self.description = description
            self.location = location
            self.latitude = latitude
            self.longitude = longitude
            self.date = date
            self.time = time
            self.participants = participants
            self.participantIds = participantIds
            self.level = level
            self.visibility = visibility
            self.isCompleted = isCompleted
            self.creator = creator
            self.createdAt = createdAt
            self.updatedAt = updatedAt
        }

        enum CodingKeys: String, CodingKey {
            case id = "_id"
            case sportType
            case title
            case description
            case location
            case latitude
            case longitude
            case date
            case time
            case participants
            case participantIds
            case level
            case visibility
            case isCompleted
            case creator
            case createdAt
            case updatedAt
        }

        // Computed properties for easier use
        public var activityDate: Date? {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return formatter.date(from: date) ?? ISO8601DateFormatter().date(from: date)
        }

        public var activityTime: Date? {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return formatter.date(from: time) ?? ISO8601DateFormatter().date(from: time)
        }

        public var formattedDate: String {
            guard let date = activityDate else { return date }
            let formatter = DateFormatter()
            formatter.dateStyle = .medium
            formatter.timeStyle = .none
            return formatter.string(from: date)
        }

        public var formattedTime: String {
            guard let time = activityTime else { return time }
            let formatter = DateFormatter()
            formatter.dateStyle = .none
            formatter.timeStyle = .short
            return formatter.string(from: time)
        }

        public var isFull: Bool {
            participantIds.count >= participants
        }

        public var spotsRemaining: Int {
            max(0, participants - participantIds.count)
        }
    }

    /// The user who created an activity, embedded in it, as the fitness guide declares it.
    public struct ActivityCreator: Codable, Sendable, Hashable {
        public let id: String
        public let name: String
        public let email: String?
        public let profileImageUrl: String?

        public init(id: String, name: String, email: String?, profileImageUrl: String?) {
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

    /// The guide's wrapper for the activity list, as the fitness guide declares it.
    ///
    /// Its `init(from:)` reads a bare JSON array, so it describes the same body as `[Activity]`, which is what
    /// the service really decodes (``Fitness/activities`` uses `[Activity]`). Its synthesized `encode(to:)`
    /// would write `{"activities": [...]}` instead: the type only round-trips through decoding.
    public struct ActivitiesResponse: Codable, Sendable, Hashable {
        public let activities: [Activity]

        enum CodingKeys: String, CodingKey {
            case activities
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            activities = try container.decode([Activity].self)
        }
    }
}

extension Apinest.Activity: SchemaRefining {
    public static func refineSchema(_ schema: inout ObjectSchema) {
        // apinest is MongoDB: ids are ObjectIds although the examples use placeholders (`object-id-format`).
        schema.setFormat(.objectId, of: "_id")
        schema.setFormat(.objectId, of: "participantIds")
        // The response examples and the app's parsing agree on full date-times (`activity-date-format`).
        schema.setFormat(.dateTime, of: "date")
        schema.setFormat(.dateTime, of: "time")
        Apinest.allow(Apinest.visibilities, for: "visibility", in: &schema)
        Apinest.suggestSportAndLevel(in: &schema)
    }
}

extension Apinest.ActivityCreator: SchemaRefining {
    public static func refineSchema(_ schema: inout ObjectSchema) {
        schema.setFormat(.objectId, of: "_id")
        schema.setFormat(.email, of: "email")
    }
}
