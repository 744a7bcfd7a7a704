import Foundation
import UnderstudyCore

/// The response bodies, built from the state exactly as the guides' models decode them. Optional members
/// without a value are left out (MongoDB documents omit unset fields); achievements dates have whole seconds,
/// as the app's `.iso8601` decoder needs.
extension ApinestState {
    func json(_ activity: ApinestActivityRecord) -> JSONValue {
        var members: [String: JSONValue] = [
            "_id": .string(activity.id), "sportType": .string(activity.sportType), "title": .string(activity.title),
            "location": .string(activity.location), "date": .string(activity.date), "time": .string(activity.time),
            "participants": .integer(activity.participants),
            "participantIds": .array(activity.participantIds.map { .string($0) }), "level": .string(activity.level),
            "visibility": .string(activity.visibility), "isCompleted": .bool(activity.isCompleted),
            "creator": creatorJSON(activity.creatorID), "createdAt": .string(activity.createdAt),
            "updatedAt": .string(activity.updatedAt),
        ]
        if let description = activity.description { members["description"] = .string(description) }
        if let latitude = activity.latitude { members["latitude"] = .double(latitude) }
        if let longitude = activity.longitude { members["longitude"] = .double(longitude) }
        return .object(members)
    }

    private func creatorJSON(_ id: String) -> JSONValue {
        let user = user(id) ?? ApinestUser(id: id, name: "Unknown user", email: "unknown@example.com")
        var members: [String: JSONValue] = [
            "_id": .string(user.id), "name": .string(user.name), "email": .string(user.email),
        ]
        if let picture = user.profileImageUrl { members["profileImageUrl"] = .string(picture) }
        return .object(members)
    }

    func summaryJSON(_ progress: ApinestProgress) -> JSONValue {
        let level = ApinestRules.level(forXp: progress.totalXp)
        let percentage = (Double(level.currentLevelXp) / Double(level.xpForNextLevel) * 10_000).rounded() / 100
        return [
            "level": [
                "currentLevel": .integer(level.level), "totalXp": .integer(progress.totalXp),
                "xpForNextLevel": .integer(level.xpForNextLevel), "currentLevelXp": .integer(level.currentLevelXp),
                "progressPercentage": .double(percentage),
            ],
            "stats": [
                "totalBadges": .integer(earnedCount(progress)), "currentStreak": .integer(progress.currentStreak),
                "bestStreak": .integer(progress.bestStreak),
            ],
        ]
    }

    /// Earned badges (oldest first) and every other badge with the user's progress towards it.
    func badgesJSON(_ progress: ApinestProgress, userID: String, seed: UInt64) -> JSONValue {
        let earned = badges.compactMap { badge in progress.earnedBadges[badge.id].map { (badge, $0) } }
            .sorted { ($0.1, $0.0.id) < ($1.1, $1.0.id) }
            .map { badgeJSON($0.0, earnedAt: $0.1) }
        let inProgress = badges.filter { progress.earnedBadges[$0.id] == nil }.map { badge -> JSONValue in
            let current = min(ApinestRules.measure(badge.category, of: progress), badge.target)
            let percentage = (Double(current) / Double(max(1, badge.target)) * 10_000).rounded() / 100
            return [
                "_id": .string(ApinestObjectID.derived("badge progress \(userID) \(badge.id)", seed: seed)),
                "badge": badgeJSON(badge, earnedAt: nil), "currentProgress": .integer(current),
                "target": .integer(badge.target), "percentage": .double(percentage),
            ]
        }
        return ["earnedBadges": .array(earned), "inProgress": .array(inProgress)]
    }

    private func badgeJSON(_ badge: ApinestBadgeRecord, earnedAt: Date?) -> JSONValue {
        var members: [String: JSONValue] = [
            "_id": .string(badge.id), "name": .string(badge.name), "description": .string(badge.description),
            "rarity": .string(badge.rarity), "category": .string(badge.category),
        ]
        if let icon = badge.iconUrl { members["iconUrl"] = .string(icon) }
        if let earnedAt { members["earnedAt"] = .string(ApinestTime.seconds(earnedAt)) }
        return .object(members)
    }

    /// The challenges as they stand at `now` (expired ones shown restarted), in catalog order.
    func challengesJSON(_ progress: ApinestProgress, now: Date) -> JSONValue {
        let challenges = progress.challenges.map { stored -> JSONValue in
            let challenge = stored.rolled(at: now)
            return [
                "_id": .string(challenge.id), "name": .string(challenge.name),
                "description": .string(challenge.description), "challengeType": .string(challenge.challengeType),
                "xpReward": .integer(challenge.xpReward), "currentProgress": .integer(challenge.currentProgress),
                "target": .integer(challenge.target), "daysLeft": .integer(challenge.daysLeft(at: now)),
                "expiresAt": .string(ApinestTime.seconds(challenge.expiresAt)),
            ]
        }
        return ["activeChallenges": .array(challenges)]
    }

    /// Users by XP (then name, then id), ranked from 1.
    func ranking() -> [(user: ApinestUser, progress: ApinestProgress)] {
        users.map { ($0, progress[key: $0.id] ?? .fresh) }
            .sorted { lhs, rhs in
                if lhs.1.totalXp != rhs.1.totalXp { return lhs.1.totalXp > rhs.1.totalXp }
                if lhs.0.name != rhs.0.name { return lhs.0.name < rhs.0.name }
                return lhs.0.id < rhs.0.id
            }
    }

    func leaderboardEntryJSON(rank: Int, user: ApinestUser, progress: ApinestProgress, seed: UInt64) -> JSONValue {
        var userInfo: [String: JSONValue] = [
            "_id": .string(user.id), "name": .string(user.name), "email": .string(user.email),
        ]
        if let picture = user.profileImageUrl { userInfo["profileImageUrl"] = .string(picture) }
        return [
            "_id": .string(ApinestObjectID.derived("leaderboard \(user.id)", seed: seed)), "user": .object(userInfo),
            "rank": .integer(rank), "totalXp": .integer(progress.totalXp),
            "currentLevel": .integer(ApinestRules.level(forXp: progress.totalXp).level),
            "totalBadges": .integer(earnedCount(progress)),
        ]
    }

    func notificationJSON(_ notification: ApinestNotificationRecord) -> JSONValue {
        var members: [String: JSONValue] = [
            "_id": .string(notification.id), "type": .string(notification.type), "title": .string(notification.title),
            "message": .string(notification.message), "isRead": .bool(notification.isRead),
            "createdAt": .string(ApinestTime.seconds(notification.createdAt)),
        ]
        if let metadata = notification.metadata { members["metadata"] = .object(metadata) }
        return .object(members)
    }

    /// Badges of the catalog the user holds (a state file may list ids of badges no longer in the catalog).
    private func earnedCount(_ progress: ApinestProgress) -> Int {
        badges.filter { progress.earnedBadges[$0.id] != nil }.count
    }

    /// `{total, page, totalPages, limit}` of the achievements lists.
    static func pagination(total: Int, page: Int, limit: Int) -> JSONValue {
        [
            "total": .integer(total), "page": .integer(page),
            "totalPages": .integer(total == 0 ? 0 : (total - 1) / limit + 1),
            "limit": .integer(limit),
        ]
    }
}
