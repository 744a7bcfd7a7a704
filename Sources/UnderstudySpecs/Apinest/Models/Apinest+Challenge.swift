import Foundation
import UnderstudyCore

extension Apinest {
    /// A time-limited goal that rewards XP, as the achievements guide declares it.
    public struct Challenge: Codable, Sendable, Hashable, Identifiable {
        public let id: String
        public let name: String
        public let description: String
        public let challengeType: ChallengeType
        public let xpReward: Int
        public let currentProgress: Int
        public let target: Int
        public let daysLeft: Int
        public let expiresAt: Date

        public init(
            id: String, name: String, description: String, challengeType: ChallengeType, xpReward: Int,
            currentProgress: Int, target: Int, daysLeft: Int, expiresAt: Date
        ) {
            self.id = id
            self.name = name
            self.description = description
            self.challengeType = challengeType
            self.xpReward = xpReward
            self.currentProgress = currentProgress
            self.target = target
            self.daysLeft = daysLeft
            self.expiresAt = expiresAt
        }

        enum CodingKeys: String, CodingKey {
            case id = "_id"
            case name
            case description
            case challengeType
            case xpReward
            case currentProgress
            case target
            case daysLeft
            case expiresAt
        }

        /// The period or measure of a challenge.
        public enum ChallengeType: String, Codable, Sendable, CaseIterable {
            case daily = "daily"
            case weekly = "weekly"
            case monthly = "monthly"
            case distance = "distance"
            case duration = "duration"
        }

        public var isCompleted: Bool {
            currentProgress >= target
        }

        public var progressPercentage: Double {
            guard target > 0 else { return 0 }
            return min(Double(currentProgress) / Double(target), 1.0) * 100
        }
    }

    /// The answer to `GET /achievements/challenges`, as the achievements guide declares it.
    public struct ChallengesResponse: Codable, Sendable, Hashable {
        public let activeChallenges: [Challenge]

        public init(activeChallenges: [Challenge]) {
            self.activeChallenges = activeChallenges
        }
    }
}

extension Apinest.Challenge: SchemaRefining {
    public static func refineSchema(_ schema: inout ObjectSchema) {
        schema.setFormat(.objectId, of: "_id")
    }
}
