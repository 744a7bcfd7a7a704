import Foundation
import UnderstudyCore
import UnderstudySpecs

/// How activities turn into XP, levels, streaks, badges and challenge progress.
///
/// The guides show what the app reads (summary, badges, challenges, notifications) and that completing an
/// activity "updates the challenges", but not the backend's rules; these are the mock's, chosen to be simple
/// to predict in a test:
/// - creating an activity: +10 XP to the creator;
/// - completing one: every participant gets +50 XP, +1 XP per 10 minutes and +5 XP per whole km;
/// - level `L` needs `100 × L` XP to reach `L + 1` (level 1 → 2 at 100 XP, 2 → 3 at 300 XP in total, ...);
/// - the streak counts consecutive UTC days with a completed activity;
/// - daily / weekly / monthly challenges count completed activities, distance ones kilometres, duration ones
///   minutes; reaching the target awards the challenge's XP once;
/// - a badge unlocks when its category's measure reaches its target (see ``badgeCatalog``).
enum ApinestRules {
    static let creationXp = 10
    static let completionXp = 50

    /// The XP a participant gets for a completed activity.
    static func completionXp(durationMinutes: Int?, distanceKm: Double?) -> Int {
        completionXp + (durationMinutes ?? 0) / 10 + Int((distanceKm ?? 0).rounded(.down)) * 5
    }

    /// The level of a total XP, the XP gained inside that level, and the XP the level needs in all.
    static func level(forXp totalXp: Int) -> (level: Int, currentLevelXp: Int, xpForNextLevel: Int) {
        var level = 1
        var rest = max(0, totalXp)
        while rest >= 100 * level {
            rest -= 100 * level
            level += 1
        }
        return (level, rest, 100 * level)
    }

    /// A badge of the catalog: `key` makes its id, `target` applies to the measure of its category.
    struct BadgeTemplate: Sendable {
        let key: String
        let name: String
        let description: String
        let rarity: Apinest.Badge.BadgeRarity
        let category: Apinest.Badge.BadgeCategory
        let target: Int
    }

    /// The badges every user can earn.
    static let badgeCatalog: [BadgeTemplate] = [
        BadgeTemplate(
            key: "first-host", name: "First Host", description: "Create your first activity.", rarity: .common,
            category: .creation, target: 1),
        BadgeTemplate(
            key: "organizer", name: "Organizer", description: "Create 5 activities.", rarity: .rare,
            category: .creation, target: 5),
        BadgeTemplate(
            key: "finisher", name: "Finisher", description: "Complete your first activity.", rarity: .common,
            category: .completion, target: 1),
        BadgeTemplate(
            key: "dedicated", name: "Dedicated", description: "Complete 10 activities.", rarity: .epic,
            category: .completion, target: 10),
        BadgeTemplate(
            key: "ten-k-club", name: "10K Club", description: "Cover 10 km in completed activities.",
            rarity: .uncommon, category: .distance, target: 10),
        BadgeTemplate(
            key: "ultra", name: "Ultra", description: "Cover 100 km in completed activities.", rarity: .legendary,
            category: .distance, target: 100),
        BadgeTemplate(
            key: "hour-of-power", name: "Hour of Power", description: "Spend 60 minutes in completed activities.",
            rarity: .common, category: .duration, target: 60),
        BadgeTemplate(
            key: "on-fire", name: "On Fire", description: "Complete activities 3 days in a row.",
            rarity: .uncommon, category: .streak, target: 3),
        BadgeTemplate(
            key: "all-rounder", name: "All-Rounder", description: "Complete activities in 3 different sports.",
            rarity: .rare, category: .sport, target: 3),
    ]

    /// A challenge every user takes: it runs for `days` and restarts when it expires.
    struct ChallengeTemplate: Sendable {
        let key: String
        let name: String
        let description: String
        let type: Apinest.Challenge.ChallengeType
        let xpReward: Int
        let target: Int
        let days: Int
    }

    /// The challenges every user has.
    static let challengeCatalog: [ChallengeTemplate] = [
        ChallengeTemplate(
            key: "daily-mover", name: "Daily Mover", description: "Complete an activity today.", type: .daily,
            xpReward: 20, target: 1, days: 1),
        ChallengeTemplate(
            key: "weekly-warrior", name: "Weekly Warrior", description: "Complete 3 activities this week.",
            type: .weekly, xpReward: 100, target: 3, days: 7),
        ChallengeTemplate(
            key: "monthly-regular", name: "Monthly Regular", description: "Complete 12 activities this month.",
            type: .monthly, xpReward: 300, target: 12, days: 30),
        ChallengeTemplate(
            key: "go-the-distance", name: "Go the Distance", description: "Cover 20 km in two weeks.",
            type: .distance, xpReward: 150, target: 20, days: 14),
        ChallengeTemplate(
            key: "time-on-feet", name: "Time on Feet", description: "Spend 300 minutes in activities in two weeks.",
            type: .duration, xpReward: 120, target: 300, days: 14),
    ]

    /// A user's measure for a badge category.
    static func measure(_ category: Apinest.Badge.BadgeCategory, of progress: ApinestProgress) -> Int {
        switch category {
        case .creation: progress.activitiesCreated
        case .completion: progress.activitiesCompleted
        case .distance: Int(progress.totalDistanceKm.rounded(.down))
        case .duration: progress.totalMinutes
        case .streak: progress.bestStreak
        case .sport: progress.sports.count
        }
    }
}

extension ApinestChallengeRecord {
    /// The challenge as it stands at `now`: an expired one has restarted for as many periods as have passed,
    /// with no progress. Pure, so reads can show the restarted challenge before a write stores it.
    func rolled(at now: Date) -> ApinestChallengeRecord {
        guard expiresAt <= now else { return self }
        let period = max(60, expiresAt.timeIntervalSince(startedAt))
        let periods = ((now.timeIntervalSince(expiresAt)) / period).rounded(.down) + 1
        var challenge = self
        challenge.startedAt = startedAt.addingTimeInterval(periods * period)
        challenge.expiresAt = challenge.startedAt.addingTimeInterval(period)
        challenge.currentProgress = 0
        challenge.completedAt = nil
        return challenge
    }

    /// Whole days left, rounded up (`0` on the last day's end).
    func daysLeft(at now: Date) -> Int {
        max(0, Int((expiresAt.timeIntervalSince(now) / 86_400).rounded(.up)))
    }
}

extension ApinestState {
    /// Adds a user record (and a fresh start with the catalog's challenges) for a caller not seen before: a
    /// token signed elsewhere with the mock's secret for an ObjectId that is not a seeded user.
    mutating func ensureUser(_ id: String, now: Date, seed: UInt64) {
        if user(id) == nil {
            let suffix = String(id.suffix(6))
            users.append(ApinestUser(id: id, name: "User \(suffix)", email: "user-\(suffix)@example.com"))
        }
        if progress[key: id] == nil {
            var fresh = ApinestProgress.fresh(for: id)
            let start = ApinestTime.startOfDay(now)
            fresh.challenges = ApinestRules.challengeCatalog.map { template in
                ApinestChallengeRecord(
                    id: ApinestObjectID.derived("challenge \(id) \(template.key)", seed: seed), name: template.name,
                    description: template.description, challengeType: template.type, xpReward: template.xpReward,
                    currentProgress: 0, target: template.target, startedAt: start,
                    expiresAt: start.addingTimeInterval(Double(template.days) * 86_400))
            }
            progress.append(fresh)
        }
    }

    /// Credits the creator of a new activity.
    mutating func recordCreation(of activity: ApinestActivityRecord, now: Date, seed: UInt64) {
        let userID = activity.creatorID
        ensureUser(userID, now: now, seed: seed)
        progress[key: userID]?.activitiesCreated += 1
        award(
            ApinestRules.creationXp, to: userID, now: now, title: "+\(ApinestRules.creationXp) XP",
            message: "You created \(activity.title).",
            metadata: ["activityId": .string(activity.id), "reason": "activity_created"])
        unlockBadges(for: userID, now: now)
    }

    /// Credits one participant of a completed activity: counters, streak, challenges, XP, badges.
    mutating func recordCompletion(
        of activity: ApinestActivityRecord, for userID: String, now: Date, seed: UInt64
    ) {
        ensureUser(userID, now: now, seed: seed)
        guard var state = progress[key: userID] else { return }
        let minutes = max(0, activity.durationMinutes ?? 0)
        let distance = max(0, activity.distanceKm ?? 0)
        state.activitiesCompleted += 1
        state.totalMinutes += minutes
        state.totalDistanceKm += distance
        if !state.sports.contains(activity.sportType) { state.sports.append(activity.sportType) }

        let today = ApinestTime.day(now)
        let previousStreak = state.currentStreak
        switch state.lastActiveDay.flatMap({ ApinestTime.daysBetween($0, today) }) {
        case 0?: break
        case 1?: state.currentStreak += 1
        default: state.currentStreak = 1
        }
        state.lastActiveDay = today
        state.bestStreak = max(state.bestStreak, state.currentStreak)
        progress[key: userID] = state
        if state.currentStreak > previousStreak && state.currentStreak > 1 {
            notify(
                userID, type: .streakUpdated, title: "\(state.currentStreak)-day streak",
                message: "You have completed activities \(state.currentStreak) days in a row.",
                metadata: ["currentStreak": .integer(state.currentStreak), "bestStreak": .integer(state.bestStreak)],
                now: now)
        }

        let xp = ApinestRules.completionXp(durationMinutes: activity.durationMinutes, distanceKm: activity.distanceKm)
        award(
            xp, to: userID, now: now, title: "+\(xp) XP", message: "You completed \(activity.title).",
            metadata: ["activityId": .string(activity.id), "reason": "activity_completed"])
        advanceChallenges(for: userID, minutes: minutes, distanceKm: distance, now: now)
        unlockBadges(for: userID, now: now)
    }

    /// Adds XP with an `xp_earned` notification, and a `level_up` one when a level is crossed.
    private mutating func award(
        _ xp: Int, to userID: String, now: Date, title: String, message: String, metadata: [String: JSONValue]
    ) {
        guard xp > 0, let before = progress[key: userID]?.totalXp else { return }
        progress[key: userID]?.totalXp += xp
        var details = metadata
        details["xp"] = .integer(xp)
        notify(userID, type: .xpEarned, title: title, message: message, metadata: details, now: now)
        let oldLevel = ApinestRules.level(forXp: before).level
        let newLevel = ApinestRules.level(forXp: before + xp).level
        if newLevel > oldLevel {
            notify(
                userID, type: .levelUp, title: "Level \(newLevel)", message: "You reached level \(newLevel)!",
                metadata: ["level": .integer(newLevel), "totalXp": .integer(before + xp)], now: now)
        }
    }

    /// Moves the user's challenges forward; a challenge that reaches its target awards its XP once.
    private mutating func advanceChallenges(for userID: String, minutes: Int, distanceKm: Double, now: Date) {
        guard var challenges = progress[key: userID]?.challenges else { return }
        var rewards: [ApinestChallengeRecord] = []
        for index in challenges.indices {
            var challenge = challenges[index].rolled(at: now)
            guard challenge.completedAt == nil else {
                challenges[index] = challenge
                continue
            }
            let step =
                switch challenge.challengeType {
                case .distance: Int(distanceKm.rounded(.down))
                case .duration: minutes
                case .daily, .weekly, .monthly: 1
                }
            challenge.currentProgress = min(challenge.target, challenge.currentProgress + step)
            if challenge.currentProgress >= challenge.target {
                challenge.completedAt = now
                rewards.append(challenge)
            }
            challenges[index] = challenge
        }
        progress[key: userID]?.challenges = challenges
        for challenge in rewards {
            notify(
                userID, type: .challengeCompleted, title: "Challenge completed: \(challenge.name)",
                message: "\(challenge.description) +\(challenge.xpReward) XP.",
                metadata: [
                    "challengeId": .string(challenge.id), "challengeType": .string(challenge.challengeType.rawValue),
                    "xpReward": .integer(challenge.xpReward),
                ],
                now: now)
            award(
                challenge.xpReward, to: userID, now: now, title: "+\(challenge.xpReward) XP",
                message: "Reward for \(challenge.name).",
                metadata: ["challengeId": .string(challenge.id), "reason": "challenge_completed"])
        }
    }

    /// Unlocks every badge whose target the user's measures reach, with a `badge_unlocked` notification.
    private mutating func unlockBadges(for userID: String, now: Date) {
        guard let state = progress[key: userID] else { return }
        for badge in badges where state.earnedBadges[badge.id] == nil {
            guard ApinestRules.measure(badge.category, of: state) >= badge.target else { continue }
            progress[key: userID]?.earnedBadges[badge.id] = now
            notify(
                userID, type: .badgeUnlocked, title: "Badge unlocked: \(badge.name)", message: badge.description,
                metadata: [
                    "badgeId": .string(badge.id), "badgeName": .string(badge.name),
                    "rarity": .string(badge.rarity.rawValue),
                    "category": .string(badge.category.rawValue),
                ],
                now: now)
        }
    }

    /// Adds an unread notification for a user.
    mutating func notify(
        _ userID: String, type: Apinest.AchievementNotification.NotificationType, title: String, message: String,
        metadata: [String: JSONValue]?, now: Date
    ) {
        guard progress[key: userID] != nil else { return }
        addNotification(
            id: newObjectID(at: now), for: userID, type: type, title: title, message: message, metadata: metadata,
            at: now)
    }
}
