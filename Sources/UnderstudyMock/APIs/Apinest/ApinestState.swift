import Foundation
import UnderstudyCore
import UnderstudySpecs

/// Everything the apinest mock remembers: users, activities and each user's achievements.
///
/// Persisted row by row by ``StateStore``; every record is a plain `Codable` value.
struct ApinestState: StoredState {
    var users: StateTable<ApinestUser>
    var activities: StateTable<ApinestActivityRecord>
    /// Achievements by user id; a user without a row has a fresh start (see ``ApinestProgress/fresh``).
    var progress: StateTable<ApinestProgress>
    /// The resources the generic engine serves: every user's notifications, as the achievements API shows them.
    var resources = ResourceState(
        spec: Achievements.spec, graph: ResourceGraph(spec: Achievements.spec), resources: [ApinestState.notifications])
    /// The badges every user can earn, with the rule that unlocks each.
    var badges: StateTable<ApinestBadgeRecord>
    /// The base of the ObjectIds this state hands out: `sequence` goes up with every new id.
    var ids: StateValue<ApinestIDs>

    init(users: [ApinestUser], badges: [ApinestBadgeRecord], idBase: UInt64) {
        self.users = StateTable(users)
        activities = StateTable()
        progress = StateTable()
        self.badges = StateTable(badges)
        ids = StateValue(ApinestIDs(base: idBase, sequence: 0))
    }

    mutating func visit(_ visitor: inout StateVisitor) {
        visitor.visit("users", &users)
        visitor.visit("activities", &activities)
        visitor.visit("progress", &progress)
        resources.visit(&visitor)
        visitor.visit("badges", &badges)
        visitor.visit("ids", &ids)
    }

    /// The id for a new record created at `date`: a MongoDB-like ObjectId (4-byte timestamp, then 8 bytes that
    /// increase with every id, so ids created later sort after earlier ones).
    mutating func newObjectID(at date: Date) -> String {
        ids.value.sequence += 1
        return ApinestObjectID.make(timestamp: date, counter: ids.value.base &+ ids.value.sequence)
    }

    /// The user with this id, if any.
    func user(_ id: String) -> ApinestUser? { users[key: id] }

    /// The resource of the achievements notifications.
    static let notifications = "notifications"

    /// Adds an unread notification for a user, as `GET /achievements/notifications` shows it.
    mutating func addNotification(
        id: String, for userID: String, type: Apinest.AchievementNotification.NotificationType, title: String,
        message: String, metadata: [String: JSONValue]?, isRead: Bool = false, at date: Date
    ) {
        var item: JSONValue = [
            "_id": .string(id), "type": .string(type.rawValue), "title": .string(title), "message": .string(message),
            "isRead": .bool(isRead), "createdAt": .string(date.formatted(.iso8601)),
        ]
        if let metadata { item[pointer: "/metadata"] = .object(metadata) }
        resources.tables[Self.notifications]?.append(ResourceRow(parent: [:], id: id, item: item, owner: userID))
    }
}

/// The counter the ObjectIds of new records are made from.
struct ApinestIDs: Codable, Sendable, Hashable {
    var base: UInt64
    var sequence: UInt64
}

/// A user of the backend. The documents show users only embedded (activity creator, leaderboard entry).
struct ApinestUser: StateRow, Hashable {
    var id: String
    var key: String { id }
    var name: String
    var email: String
    var profileImageUrl: String?
}

/// An activity as stored: the fields of `Activity` (dates kept as the strings the API sends).
struct ApinestActivityRecord: StateRow, Hashable {
    var id: String
    var key: String { id }
    var sportType: String
    var title: String
    var description: String?
    var location: String
    var latitude: Double?
    var longitude: Double?
    var date: String
    var time: String
    var participants: Int
    var participantIds: [String]
    var level: String
    var visibility: String
    var isCompleted: Bool
    var creatorID: String
    var createdAt: String
    var updatedAt: String
    /// What `complete` recorded, for the state file's reader (not part of the `Activity` model).
    var durationMinutes: Int?
    var distanceKm: Double?

    /// `Activity.isFull` of the fitness guide.
    var isFull: Bool { participantIds.count >= participants }
}

/// A badge of the catalog and what unlocks it.
struct ApinestBadgeRecord: StateRow, Hashable {
    var id: String
    var key: String { id }
    var name: String
    var description: String
    var iconUrl: String?
    var rarity: Apinest.Badge.BadgeRarity
    /// It also names the measure the target applies to.
    var category: Apinest.Badge.BadgeCategory
    /// The amount of the category's measure that unlocks the badge (activities, km, minutes, days, sports).
    var target: Int
}

/// One user's achievements: counters, XP, streaks, earned badges and challenges (notifications are the resource
/// engine's rows, so a write does not copy a user's whole history).
struct ApinestProgress: StateRow, Hashable {
    var userID: String
    var key: String { userID }
    var totalXp: Int
    var activitiesCreated: Int
    var activitiesCompleted: Int
    var totalMinutes: Int
    var totalDistanceKm: Double
    /// Sport types of completed activities (the `sport` badges count distinct ones).
    var sports: [String]
    var currentStreak: Int
    var bestStreak: Int
    /// The UTC day (`yyyy-MM-dd`) of the last completed activity, which the streak counts from.
    var lastActiveDay: String?
    /// Badge id → when it was earned.
    var earnedBadges: [String: Date]
    var challenges: [ApinestChallengeRecord]

    /// The state of a user the mock has not seen act yet (a token signed elsewhere for an unknown user).
    static let fresh = fresh(for: "")

    /// A fresh start for a user.
    static func fresh(for userID: String) -> ApinestProgress {
        ApinestProgress(
            userID: userID, totalXp: 0, activitiesCreated: 0, activitiesCompleted: 0, totalMinutes: 0,
            totalDistanceKm: 0, sports: [], currentStreak: 0, bestStreak: 0, lastActiveDay: nil, earnedBadges: [:],
            challenges: [])
    }
}

/// A challenge a user has taken, with its progress.
struct ApinestChallengeRecord: Codable, Sendable, Hashable {
    var id: String
    var name: String
    var description: String
    /// daily / weekly / monthly count completed activities, distance counts kilometres, duration minutes.
    var challengeType: Apinest.Challenge.ChallengeType
    var xpReward: Int
    var currentProgress: Int
    var target: Int
    var startedAt: Date
    var expiresAt: Date
    /// Set when the target was reached and the XP awarded (so it is awarded once).
    var completedAt: Date?
}
