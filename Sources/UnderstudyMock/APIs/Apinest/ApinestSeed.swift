import Foundation
import UnderstudyCore
import UnderstudySpecs

/// Builds the initial apinest state from the fixtures and makes it coherent.
///
/// - Users: five fixed people with ObjectIds derived from the seed; the first is the default user.
/// - Activities: the `GET /activities` fixture (topped up to four rows with generated ones), each given a
///   seeded creator who is also its first participant, other seeded users as participants (never more than
///   `participants`), an ObjectId (a fixture's own is kept when valid and unique), `public` or `friends`
///   visibility and ISO 8601 timestamps. The first activity belongs to the default user, is public and not
///   completed; the second belongs to another user, is public, not completed and has a free place: so every flow
///   (join, leave, complete) works on the seed.
/// - Achievements: counters follow the seeded activities (created, completed with a seeded duration and
///   distance) plus a seeded earlier history of activities not in the list, so levels and ranks differ; XP,
///   badges, streaks (never longer than the completions) and challenge progress (never more than the history
///   allows) follow from those counters by the rules of later writes; notifications tell that story, and the
///   `GET /achievements/notifications` fixture's rows go to the default user.
struct ApinestSeed {
    let source: FixtureSource
    let seed: UInt64
    let now: Date

    static let people: [(name: String, email: String, picture: Bool)] = [
        ("Alex Martin", "alex.martin@example.com", true),
        ("Camille Dubois", "camille.dubois@example.com", true),
        ("Hugo Leroy", "hugo.leroy@example.com", false),
        ("Léa Moreau", "lea.moreau@example.com", true),
        ("Noah Bernard", "noah.bernard@example.com", true),
    ]

    /// Sports of the users' earlier history (the fitness app's creation form offers these).
    static let sports = ["Football", "Basketball", "Running", "Cycling"]

    /// The number of activities the seed has at least.
    static let minimumActivities = 4

    func make() -> ApinestState {
        var random = SeededRandom(seed: seed).derived("apinest seed")
        let users = Self.people.enumerated().map { index, person in
            let id = ApinestObjectID.derived("user \(index)", seed: seed)
            let first = person.name.split(separator: " ")[0].lowercased().replacingOccurrences(of: "é", with: "e")
            return ApinestUser(
                id: id, name: person.name, email: person.email,
                profileImageUrl: person.picture ? "https://cdn.example.com/avatars/\(first).jpg" : nil)
        }
        let badges = ApinestRules.badgeCatalog.map { template in
            ApinestBadgeRecord(
                id: ApinestObjectID.derived("badge \(template.key)", seed: seed), name: template.name,
                description: template.description, iconUrl: "https://cdn.example.com/badges/\(template.key).png",
                rarity: template.rarity, category: template.category, target: template.target)
        }
        var state = ApinestState(users: users, badges: badges, idBase: random.next() >> 16)
        state.activities = StateTable(activities(users: users, state: &state, random: &random))
        for user in users {
            state.progress.append(progress(of: user, in: &state, random: &random))
        }
        if let first = users.first { addFixtureNotifications(to: first.id, state: &state) }
        return state
    }

    // MARK: Activities

    private func activities(
        users: [ApinestUser], state: inout ApinestState, random: inout SeededRandom
    ) -> [ApinestActivityRecord] {
        var rows = source.body("GET /activities", in: Fitness.spec).arrayValue ?? []
        if rows.count < Self.minimumActivities, let schema = Fitness.spec.endpoint("GET /activities/{id}")?.response {
            var generator = source.generator(for: Fitness.spec, purpose: "extra activities")
            while rows.count < Self.minimumActivities { rows.append(generator.value(for: schema.schema)) }
        }
        var used: Set<String> = []
        var records: [ApinestActivityRecord] = []
        for (index, row) in rows.enumerated() {
            let creator = users[index % users.count]
            let created = now.addingTimeInterval(-Double(rows.count - index) * 86_400)
            var id = row["_id"]?.stringValue ?? ""
            if !ApinestObjectID.isValid(id) || used.contains(id) { id = state.newObjectID(at: created) }
            used.insert(id)

            var participants = row["participants"]?.numberValue?.intValue ?? 10
            if participants < 1 { participants = 10 }
            let others = users.filter { $0.id != creator.id }
            let extra = min(index % 3, participants - 1, others.count)
            let participantIDs = [creator.id] + (0..<extra).map { others[(index + $0) % others.count].id }

            var visibility = row["visibility"]?.stringValue ?? "public"
            if !["public", "friends"].contains(visibility) { visibility = "public" }
            let start = now.addingTimeInterval(Double(index + 1) * 86_400)
            // A fixture's timestamps are kept when they are in the past and in order.
            let createdAt = instant(row["createdAt"]).flatMap { $0 <= now ? $0 : nil } ?? created
            let updatedAt = instant(row["updatedAt"]).flatMap { $0 >= createdAt && $0 <= now ? $0 : nil } ?? createdAt
            var record = ApinestActivityRecord(
                id: id, sportType: text(row["sportType"], default: "Running"),
                title: text(row["title"], default: "Activity \(index + 1)"),
                description: row["description"]?.stringValue, location: text(row["location"], default: "Paris"),
                latitude: row["latitude"]?.numberValue?.doubleValue,
                longitude: row["longitude"]?.numberValue?.doubleValue,
                date: dateTime(row["date"], default: ApinestTime.day(start) + "T00:00:00.000Z"),
                time: dateTime(row["time"], default: ApinestTime.milliseconds(start)),
                participants: participants, participantIds: participantIDs,
                level: text(row["level"], default: "Intermediate"), visibility: visibility,
                isCompleted: row["isCompleted"]?.boolValue ?? false, creatorID: creator.id,
                createdAt: ApinestTime.milliseconds(createdAt), updatedAt: ApinestTime.milliseconds(updatedAt))
            if index == 0 {
                record.visibility = "public"
                record.isCompleted = false
            }
            // Another user's open public activity with a free place: the default user can join it, and leave.
            if index == 1 {
                record.visibility = "public"
                record.isCompleted = false
                record.participants = max(record.participants, record.participantIds.count + 1)
            }
            if record.isCompleted {
                record.durationMinutes = 30 + random.int(in: 0...6) * 10
                record.distanceKm = Double(random.int(in: 20...120)) / 10
            }
            records.append(record)
        }
        return records
    }

    private func text(_ value: JSONValue?, default fallback: String) -> String {
        guard let text = value?.stringValue, !text.isEmpty else { return fallback }
        return text
    }

    private func instant(_ value: JSONValue?) -> Date? {
        value?.stringValue.flatMap(ApinestTime.parse)
    }

    /// A fixture's date-time when it is one, else the fallback (the list example's rows may be partial).
    private func dateTime(_ value: JSONValue?, default fallback: String) -> String {
        guard let text = value?.stringValue, text.count > 10, ApinestTime.parse(text) != nil else { return fallback }
        return text
    }

    // MARK: Achievements

    /// A user's achievements, whose story their notifications tell.
    private func progress(of user: ApinestUser, in state: inout ApinestState, random: inout SeededRandom)
        -> ApinestProgress
    {
        var progress = ApinestProgress.fresh(for: user.id)
        for activity in state.activities {
            if activity.creatorID == user.id { progress.activitiesCreated += 1 }
            guard activity.isCompleted, activity.participantIds.contains(user.id) else { continue }
            progress.activitiesCompleted += 1
            progress.totalMinutes += activity.durationMinutes ?? 0
            progress.totalDistanceKm += activity.distanceKm ?? 0
            if !progress.sports.contains(activity.sportType) { progress.sports.append(activity.sportType) }
            progress.totalXp += ApinestRules.completionXp(
                durationMinutes: activity.durationMinutes, distanceKm: activity.distanceKm)
        }
        // Earlier history the seeded activities do not show (so levels and ranks differ between users), counted
        // by the same rules as later writes. The default user always has some, so every screen has content.
        let least = user.id == state.users.first?.id ? 3 : 0
        for _ in 0..<random.int(in: 0...3) { progress.activitiesCreated += 1 }
        for _ in 0..<random.int(in: least...8) {
            let minutes = 30 + random.int(in: 0...6) * 10
            let distance = Double(random.int(in: 20...120)) / 10
            let sport = random.pick(Self.sports)
            progress.activitiesCompleted += 1
            progress.totalMinutes += minutes
            progress.totalDistanceKm += distance
            if !progress.sports.contains(sport) { progress.sports.append(sport) }
            progress.totalXp += ApinestRules.completionXp(durationMinutes: minutes, distanceKm: distance)
        }
        progress.totalXp += progress.activitiesCreated * ApinestRules.creationXp
        progress.bestStreak = random.int(in: 0...min(5, progress.activitiesCompleted))
        progress.currentStreak = random.int(in: 0...progress.bestStreak)
        if progress.currentStreak > 0 {
            progress.lastActiveDay = ApinestTime.day(now.addingTimeInterval(-86_400))
        }

        var events:
            [(
                type: Apinest.AchievementNotification.NotificationType, title: String, message: String,
                metadata: [String: JSONValue], read: Bool
            )] = []
        for (offset, badge) in state.badges.enumerated()
        where ApinestRules.measure(badge.category, of: progress) >= badge.target {
            progress.earnedBadges[badge.id] = now.addingTimeInterval(-Double(offset + 2) * 86_400)
            events.append(
                (
                    .badgeUnlocked, "Badge unlocked: \(badge.name)", badge.description,
                    [
                        "badgeId": .string(badge.id), "badgeName": .string(badge.name),
                        "rarity": .string(badge.rarity.rawValue),
                    ],
                    true
                ))
        }
        let level = ApinestRules.level(forXp: progress.totalXp).level
        if level > 1 {
            events.append(
                (.levelUp, "Level \(level)", "You reached level \(level)!", ["level": .integer(level)], true))
        }
        if progress.currentStreak > 1 {
            events.append(
                (
                    .streakUpdated, "\(progress.currentStreak)-day streak",
                    "You have completed activities \(progress.currentStreak) days in a row.",
                    ["currentStreak": .integer(progress.currentStreak)], false
                ))
        }
        let friend = state.users.first { $0.id != user.id } ?? user
        events.append(
            (
                .likeReceived, "\(friend.name) liked your activity", "\(friend.name) liked your latest activity.",
                ["fromUserId": .string(friend.id), "fromUserName": .string(friend.name)], false
            ))
        events.append(
            (
                .matchMade, "New sports buddy", "You and \(friend.name) like the same sports.",
                ["userId": .string(friend.id), "sports": .array(progress.sports.map { .string($0) })], false
            ))
        for (index, event) in events.enumerated() {
            state.addNotification(
                id: ApinestObjectID.derived("notification \(user.id) \(index)", seed: seed), for: user.id,
                type: event.type, title: event.title, message: event.message, metadata: event.metadata,
                isRead: event.read, at: now.addingTimeInterval(-Double(events.count - index) * 3_600))
        }

        let start = ApinestTime.startOfDay(now)
        progress.challenges = ApinestRules.challengeCatalog.map { template in
            let elapsed = template.days > 1 ? random.int(in: 0...(template.days - 1)) : 0
            let began = start.addingTimeInterval(-Double(elapsed) * 86_400)
            return ApinestChallengeRecord(
                id: ApinestObjectID.derived("challenge \(user.id) \(template.key)", seed: seed), name: template.name,
                description: template.description, challengeType: template.type, xpReward: template.xpReward,
                currentProgress: seededProgress(template, progress: progress, random: &random), target: template.target,
                startedAt: began, expiresAt: began.addingTimeInterval(Double(template.days) * 86_400))
        }
        return progress
    }

    /// Progress a challenge may have from the user's history, short of its target (today's is zero: the
    /// streak's last day is yesterday).
    private func seededProgress(
        _ template: ApinestRules.ChallengeTemplate, progress: ApinestProgress, random: inout SeededRandom
    ) -> Int {
        let available =
            switch template.type {
            case .daily: 0
            case .distance: Int(progress.totalDistanceKm.rounded(.down))
            case .duration: progress.totalMinutes
            case .weekly, .monthly: progress.activitiesCompleted
            }
        return random.int(in: 0...max(0, min(available, template.target - 1)))
    }

    /// The notifications fixture's rows, made coherent, for the default user.
    private func addFixtureNotifications(to userID: String, state: inout ApinestState) {
        let rows =
            source.body("GET /achievements/notifications", in: Achievements.spec)["notifications"]?.arrayValue ?? []
        for (index, row) in rows.enumerated() {
            let created = now.addingTimeInterval(-Double(rows.count - index) * 600)
            let type =
                row["type"]?.stringValue.flatMap(Apinest.AchievementNotification.NotificationType.init) ?? .xpEarned
            var metadata = row["metadata"]?.objectValue
            if let members = metadata, members.values.contains(where: Self.containsNull) { metadata = nil }
            state.addNotification(
                id: ApinestObjectID.derived("fixture notification \(index)", seed: seed), for: userID, type: type,
                title: text(row["title"], default: "Notification"),
                message: text(row["message"], default: "Something happened."), metadata: metadata,
                isRead: row["isRead"]?.boolValue ?? false,
                at: row["createdAt"]?.stringValue.flatMap(ApinestTime.parse) ?? created)
        }
    }

    /// `AnyCodable` rejects `null` at any depth, which would drop the whole `metadata`.
    static func containsNull(_ value: JSONValue) -> Bool {
        switch value {
        case .null: true
        case .array(let elements): elements.contains(where: containsNull)
        case .object(let members): members.values.contains(where: containsNull)
        default: false
        }
    }
}
