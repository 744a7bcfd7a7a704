import Foundation
import UnderstudyCore

extension Apinest {
    /// A badge a user earns, as the achievements guide declares it.
    public struct Badge: Codable, Sendable, Hashable, Identifiable {
        public let id: String
        public let name: String
        public let description: String
        public let iconUrl: String?
        public let rarity: BadgeRarity
        public let category: BadgeCategory
        public let earnedAt: Date?

        public init(
            id: String, name: String, description: String, iconUrl: String?, rarity: BadgeRarity,
            category: BadgeCategory, earnedAt: Date?
        ) {
            self.id = id
            self.name = name
            self.description = description
            self.iconUrl = iconUrl
            self.rarity = rarity
            self.category = category
            self.earnedAt = earnedAt
        }

        enum CodingKeys: String, CodingKey {
            case id = "_id"
            case name
            case description
            case iconUrl
            case rarity
            case category
            case earnedAt
        }

        /// How rare a badge is.
        public enum BadgeRarity: String, Codable, Sendable, CaseIterable {
            case common = "common"
            case uncommon = "uncommon"
            case rare = "rare"
            case epic = "epic"
            case legendary = "legendary"

            public var color: String {
                switch self {
                case .common: return "green"
                case .uncommon: return "blue"
                case .rare: return "purple"
                case .epic: return "orange"
                case .legendary: return "gold"
                }
            }
        }

        /// What a badge rewards.
        public enum BadgeCategory: String, Codable, Sendable, CaseIterable {
            case creation = "creation"
            case completion = "completion"
            case distance = "distance"
            case duration = "duration"
            case streak = "streak"
            case sport = "sport"
        }
    }

    /// A badge not earned yet and the user's progress towards it, as the achievements guide declares it.
    public struct BadgeProgress: Codable, Sendable, Hashable, Identifiable {
        public let id: String
        public let badge: Badge
        public let currentProgress: Int
        public let target: Int
        public let percentage: Double

        public init(id: String, badge: Badge, currentProgress: Int, target: Int, percentage: Double) {
            self.id = id
            self.badge = badge
            self.currentProgress = currentProgress
            self.target = target
            self.percentage = percentage
        }

        enum CodingKeys: String, CodingKey {
            case id = "_id"
            case badge
            case currentProgress
            case target
            case percentage
        }
    }

    /// The answer to `GET /achievements/badges`, as the achievements guide declares it.
    public struct BadgesResponse: Codable, Sendable, Hashable {
        public let earnedBadges: [Badge]
        public let inProgress: [BadgeProgress]

        public init(earnedBadges: [Badge], inProgress: [BadgeProgress]) {
            self.earnedBadges = earnedBadges
            self.inProgress = inProgress
        }
    }
}

extension Apinest.Badge: SchemaRefining {
    public static func refineSchema(_ schema: inout ObjectSchema) {
        schema.setFormat(.objectId, of: "_id")
    }
}

extension Apinest.BadgeProgress: SchemaRefining {
    public static func refineSchema(_ schema: inout ObjectSchema) {
        schema.setFormat(.objectId, of: "_id")
    }
}
