import Foundation
import UnderstudyCore
import UnderstudySpecs

/// The response bodies as the guides' own models, built from the state and encoded with the specs' wire
/// settings (``MockResponse/json(encoding:as:status:headers:)``). Optional members without a value are left
/// out, as MongoDB documents omit unset fields; achievements dates have whole seconds, as the app's `.iso8601`
/// decoder needs.
extension ApinestState {
    func model(_ activity: ApinestActivityRecord) -> Apinest.Activity {
        let creator =
            user(activity.creatorID)
            ?? ApinestUser(id: activity.creatorID, name: "Unknown user", email: "unknown@example.com")
        return Apinest.Activity(
            id: activity.id, sportType: activity.sportType, title: activity.title, description: activity.description,
            location: activity.location, latitude: activity.latitude, longitude: activity.longitude,
            date: activity.date, time: activity.time, participants: activity.participants,
            participantIds: activity.participantIds, level: activity.level, visibility: activity.visibility,
            isCompleted: activity.isCompleted,
            creator: Apinest.ActivityCreator(
                id: creator.id, name: creator.name, email: creator.email, profileImageUrl: creator.profileImageUrl),
            createdAt: activity.createdAt, updatedAt: activity.updatedAt)
    }

    func summary(_ progress: ApinestProgress) -> Apinest.AchievementSummary {
        let level = ApinestRules.level(forXp: progress.totalXp)
        return Apinest.AchievementSummary(
            level: .init(
                currentLevel: level.level, totalXp: progress.totalXp, xpForNextLevel: level.xpForNextLevel,
                currentLevelXp: level.currentLevelXp,
                progressPercentage: Self.percentage(level.currentLevelXp, of: level.xpForNextLevel)),
            stats: .init(
                totalBadges: earnedCount(progress), currentStreak: progress.currentStreak,
                bestStreak: progress.bestStreak))
    }

    /// Earned badges (oldest first) and every other badge with the user's progress towards it.
    func badges(_ progress: ApinestProgress, userID: String, seed: UInt64) -> Apinest.BadgesResponse {
        let earned = badges.compactMap { badge in progress.earnedBadges[badge.id].map { (badge, $0) } }
            .sorted { ($0.1, $0.0.id) < ($1.1, $1.0.id) }
            .map { model($0.0, earnedAt: $0.1) }
        let inProgress = badges.filter { progress.earnedBadges[$0.id] == nil }.map { badge in
            let current = min(ApinestRules.measure(badge.category, of: progress), badge.target)
            return Apinest.BadgeProgress(
                id: ApinestObjectID.derived("badge progress \(userID) \(badge.id)", seed: seed),
                badge: model(badge, earnedAt: nil), currentProgress: current, target: badge.target,
                percentage: Self.percentage(current, of: badge.target))
        }
        return Apinest.BadgesResponse(earnedBadges: earned, inProgress: inProgress)
    }

    private func model(_ badge: ApinestBadgeRecord, earnedAt: Date?) -> Apinest.Badge {
        Apinest.Badge(
            id: badge.id, name: badge.name, description: badge.description, iconUrl: badge.iconUrl,
            rarity: badge.rarity, category: badge.category, earnedAt: earnedAt.map(ApinestTime.wholeSeconds))
    }

    /// The challenges as they stand at `now` (expired ones shown restarted), in catalog order.
    func challenges(_ progress: ApinestProgress, now: Date) -> Apinest.ChallengesResponse {
        Apinest.ChallengesResponse(
            activeChallenges: progress.challenges.map { stored in
                let challenge = stored.rolled(at: now)
                return Apinest.Challenge(
                    id: challenge.id, name: challenge.name, description: challenge.description,
                    challengeType: challenge.challengeType, xpReward: challenge.xpReward,
                    currentProgress: challenge.currentProgress, target: challenge.target,
                    daysLeft: challenge.daysLeft(at: now), expiresAt: ApinestTime.wholeSeconds(challenge.expiresAt))
            })
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

    func leaderboardEntry(rank: Int, user: ApinestUser, progress: ApinestProgress, seed: UInt64)
        -> Apinest.LeaderboardEntry
    {
        Apinest.LeaderboardEntry(
            id: ApinestObjectID.derived("leaderboard \(user.id)", seed: seed),
            user: .init(id: user.id, name: user.name, email: user.email, profileImageUrl: user.profileImageUrl),
            rank: rank, totalXp: progress.totalXp, currentLevel: ApinestRules.level(forXp: progress.totalXp).level,
            totalBadges: earnedCount(progress))
    }

    /// Badges of the catalog the user holds (a state file may list ids of badges no longer in the catalog).
    private func earnedCount(_ progress: ApinestProgress) -> Int {
        badges.filter { progress.earnedBadges[$0.id] != nil }.count
    }

    /// `part` of `whole` in percent, with two decimals.
    private static func percentage(_ part: Int, of whole: Int) -> Double {
        (Double(part) / Double(max(1, whole)) * 10_000).rounded() / 100
    }

    /// The pagination of the achievements lists (`totalPages` is 0 for an empty list).
    static func pagination(total: Int, page: Int, limit: Int) -> (total: Int, page: Int, totalPages: Int, limit: Int) {
        (total, page, total == 0 ? 0 : (total - 1) / limit + 1, limit)
    }
}
