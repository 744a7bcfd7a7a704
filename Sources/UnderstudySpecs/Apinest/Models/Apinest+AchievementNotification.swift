import Foundation
import UnderstudyCore

extension Apinest {
    /// A notification about badges, levels, challenges and social events, as the achievements guide declares it.
    ///
    /// The document's `metadata: [String: Any]?` is `[String: JSONValue]?` here (``AnyCodable`` stores
    /// ``JSONValue``); the custom `init(from:)` is the document's, `try?` on `metadata` included: a `metadata`
    /// that is not an object, or that holds a `null` anywhere, silently decodes as `nil`.
    public struct AchievementNotification: Codable, Sendable, Hashable, Identifiable {
        public let id: String
        public let type: NotificationType
        public let title: String
        public let message: String
        public let metadata: [String: JSONValue]?
        public let isRead: Bool
        public let createdAt: Date

        public init(
            id: String, type: NotificationType, title: String, message: String, metadata: [String: JSONValue]?,
            isRead: Bool, createdAt: Date
        ) {
            self.id = id
            self.type = type
            self.title = title
            self.message = message
            self.metadata = metadata
            self.isRead = isRead
            self.createdAt = createdAt
        }

        enum CodingKeys: String, CodingKey {
            case id = "_id"
            case type
            case title
            case message
            case metadata
            case isRead
            case createdAt
        }

        /// What a notification is about.
        public enum NotificationType: String, Codable, Sendable, CaseIterable {
            case badgeUnlocked = "badge_unlocked"
            case levelUp = "level_up"
            case challengeCompleted = "challenge_completed"
            case xpEarned = "xp_earned"
            case streakUpdated = "streak_updated"
            case likeReceived = "like_received"
            case matchMade = "match_made"
        }

        // Custom decoder pour gérer metadata comme Dictionary
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            type = try container.decode(NotificationType.self, forKey: .type)
            title = try container.decode(String.self, forKey: .title)
            message = try container.decode(String.self, forKey: .message)
            isRead = try container.decode(Bool.self, forKey: .isRead)
            createdAt = try container.decode(Date.self, forKey: .createdAt)

            // Metadata peut être n'importe quel JSON object
            if let metadataData = try? container.decode([String: AnyCodable].self, forKey: .metadata) {
                metadata = metadataData.mapValues { $0.value }
            } else {
                metadata = nil
            }
        }
    }

    /// One page of notifications, as the achievements guide declares it.
    public struct NotificationsResponse: Codable, Sendable, Hashable {
        public let notifications: [AchievementNotification]
        public let pagination: PaginationInfo

        public init(notifications: [AchievementNotification], pagination: PaginationInfo) {
            self.notifications = notifications
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

extension Apinest.AchievementNotification: SchemaRefining {
    public static func refineSchema(_ schema: inout ObjectSchema) {
        schema.setFormat(.objectId, of: "_id")
        // Decoded with `try?`: absent, null or undecodable all give `nil`.
        schema.makeOptional("metadata")
    }
}
