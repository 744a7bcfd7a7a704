import Foundation
import JWTKit
import UnderstudyCore
import UnderstudySpecs

extension VideGreniersMock {
    // MARK: Notifications

    /// Sends a notification to `userId`, or to every user when it is `null`; answers the copy of the
    /// recipient (the caller's own copy for a broadcast).
    func createNotification(_ request: MockRequest, now: Double) async throws -> MockResponse {
        let caller = try caller(request)
        let command = try request.body(as: VideGreniers.CreateNotificationCommand.self, in: VideGreniers.spec)
        let data = try await store.write { state in
            var problems: [String] = []
            if let userId = command.userId, state.user(userId) == nil {
                problems.append("userId: no user has the id \(userId.uuidString.lowercased())")
            }
            if let eventId = command.eventId, state.event(eventId) == nil {
                problems.append("eventId: no event has the id \(eventId.uuidString.lowercased())")
            }
            if !problems.isEmpty { throw MockError(.badRequest, messages: problems) }
            let recipients = command.userId.map { [$0] } ?? state.users.map(\.id)
            let event = command.eventId.flatMap { state.event($0) }
            var answer: VideGreniers.NotificationDto?
            for recipient in recipients {
                let notification = try state.notify(
                    recipient, title: command.title, message: command.message, type: command.type, at: now,
                    event: event, actionUrl: command.actionUrl, actionText: command.actionText, imageUrl: command.imageUrl)
                if answer == nil || recipient == caller { answer = notification }
            }
            return answer
        }
        return try VideGreniersAnswers.ok(data, now: now, status: 201)
    }

    // MARK: User

    func profile(_ request: MockRequest, now: Double) throws -> MockResponse {
        let caller = try caller(request)
        let data = try store.read { state in
            VideGreniersAnswers.user(try Self.existingUser(caller, in: state), in: state)
        }
        return try VideGreniersAnswers.ok(data, now: now)
    }

    func updateProfile(_ request: MockRequest, now: Double) async throws -> MockResponse {
        let caller = try caller(request)
        let body = try request.body(as: VideGreniers.UpdateProfileRequest.self, in: VideGreniers.spec)
        let firstName = body.firstName.trimmingCharacters(in: .whitespacesAndNewlines)
        let lastName = body.lastName.trimmingCharacters(in: .whitespacesAndNewlines)
        let data = try await store.write { state in
            guard let index = state.users.position(of: caller) else {
                throw MockError(.unauthorized, "user \(caller) does not exist")
            }
            state.users[index].firstName = firstName
            state.users[index].lastName = lastName
            if let phone = body.phone { state.users[index].phoneNumber = phone.isEmpty ? nil : phone }
            if let bio = body.bio { state.users[index].bio = bio }
            if let avatarUrl = body.avatarUrl { state.users[index].avatarUrl = avatarUrl }
            if let language = body.preferredLanguage { state.users[index].preferredLanguage = language }
            if let value = body.emailNotifications { state.users[index].emailNotifications = value }
            if let value = body.pushNotifications { state.users[index].pushNotifications = value }
            if let value = body.smsNotifications { state.users[index].smsNotifications = value }
            state.users[index].modifiedOnUtc = now
            try state.record(.profileUpdated, user: caller, at: now)
            return VideGreniersAnswers.user(state.users[index], in: state)
        }
        return try VideGreniersAnswers.ok(data, now: now)
    }

    func accountStatistics(_ request: MockRequest, now: Double) throws -> MockResponse {
        let caller = try caller(request)
        let data = try store.read { state in
            let user = try Self.existingUser(caller, in: state)
            let notifications = state.items(of: State.notifications, ownedBy: caller)
            return VideGreniers.UserStatsDto(
                totalFavorites: state.favorites.count { $0.userId == caller },
                totalEventsCreated: state.events.count { $0.organizerId == caller },
                totalNotifications: notifications.count,
                unreadNotifications: notifications.count { ($0.item["readOnUtc"] ?? .null) == .null },
                accountCreatedDate: VideGreniersAnswers.date(user.createdOnUtc),
                lastLoginDate: VideGreniersAnswers.date(user.lastLoginDate),
                daysActive: max(0, Int((now - user.createdOnUtc) / 86_400)))
        }
        return try VideGreniersAnswers.ok(data, now: now)
    }

    /// Deletes the caller with their favorites, notifications, activity log, refresh tokens and drafts;
    /// their published events stay, without an organiser account. Their tokens are refused afterwards.
    func deleteAccount(_ request: MockRequest, now: Double) async throws -> MockResponse {
        let caller = try caller(request)
        let claims = try? await tokens.verify(request.principal?.token ?? "")
        try await store.write { state in
            guard state.user(caller) != nil else { throw MockError(.unauthorized, "user \(caller) does not exist") }
            state.users.removeAll { $0.id == caller }
            let drafts = Set(state.events.filter { $0.organizerId == caller && $0.status == .draft }.map(\.id))
            state.events.removeAll { drafts.contains($0.id) }
            for index in state.events.indices where state.events[index].organizerId == caller {
                state.events[index].organizerId = nil
            }
            state.favorites.removeAll { $0.userId == caller || drafts.contains($0.eventId) }
            state.removeItems(of: State.notifications, ownedBy: caller)
            state.removeItems(of: State.activities, ownedBy: caller)
            state.refreshTokens.removeAll { $0.userId == caller }
            if let claims, let jti = claims.jti?.value {
                state.revokedAccessTokens.append(
                    RevokedToken(jti: jti, expiresAt: claims.exp.value.timeIntervalSinceReferenceDate))
            }
            state.prune(now: now)
        }
        return try VideGreniersAnswers.done("Account deleted", now: now)
    }

    static func existingUser(_ id: UUID, in state: State) throws -> User {
        guard let user = state.user(id) else { throw MockError(.unauthorized, "user \(id) does not exist") }
        return user
    }

    // MARK: User activities

    /// Counts over `startDate`...`endDate` (default: the last 30 days; a period that starts later than now
    /// ends when it starts). `activityCounts` is the object the document shows, keyed by the activity type's number
    /// (`{"0": 45, "7": 8}`). An end before the start is the endpoint's declared rule, refused before this runs.
    func activityStatistics(_ request: MockRequest, now: Double) throws -> MockResponse {
        let caller = try caller(request)
        let from = try Self.queryDate(request, "startDate")
        let end = try Self.queryDate(request, "endDate") ?? max(now, from ?? now)
        let start = from ?? end - 30 * 86_400
        let data = store.read { state in
            let activities = state.items(of: State.activities, ownedBy: caller).compactMap { row in
                Self.loggedActivity(row.item).flatMap { (start...end).contains($0.at) ? $0 : nil }
            }
            var counts: [VideGreniers.UserActivityType: Int] = [:]
            for activity in activities { counts[activity.type, default: 0] += 1 }
            var terms: [String: Int] = [:]
            for term in activities.compactMap(\.searchTerm) where !term.isEmpty { terms[term, default: 0] += 1 }
            let topTerms = terms.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(5)
            return VideGreniers.UserActivityStatisticsDto(
                totalActivities: activities.count, activityCounts: counts, eventsViewed: counts[.eventViewed] ?? 0,
                eventsFavorited: counts[.eventFavorited] ?? 0, eventsCreated: counts[.eventCreated] ?? 0,
                searchesPerformed: counts[.eventSearched] ?? 0, topSearchTerms: topTerms.map(\.key),
                lastActivityDate: VideGreniersAnswers.date(activities.map(\.at).max()),
                periodStart: VideGreniersAnswers.date(start), periodEnd: VideGreniersAnswers.date(end))
        }
        return try VideGreniersAnswers.ok(data, now: now)
    }

    /// What the statistics read of a logged activity: its type, search term and instant.
    static func loggedActivity(_ item: JSONValue) -> (type: VideGreniers.UserActivityType, searchTerm: String?, at: Double)? {
        guard let type = item["activityType"]?.numberValue?.intValue.flatMap(VideGreniers.UserActivityType.init),
            let at = item["createdOnUtc"]?.stringValue.flatMap({ Date(iso8601: $0) })
        else { return nil }
        return (type, item["searchTerm"]?.stringValue, at.timeIntervalSinceReferenceDate)
    }
}
