import Foundation
import UnderstudyCore
import UnderstudySpecs

/// The fitness endpoints (`/activities`).
///
/// Decisions the guide leaves open (see the spec's ambiguities):
/// - there is no friend graph, so `friends` activities are visible to every signed-in user; without a token the
///   list shows only public activities, `?visibility=friends` answers 401, and a `friends` activity's detail
///   answers 404 (as if it did not exist, the only error the endpoint documents);
/// - lists are newest first;
/// - joining a full or completed activity, joining twice, leaving an activity one is not in, leaving a
///   completed one, and completing twice answer 400; the creator cannot leave (400): they own the activity and
///   stay its first participant; only the creator may complete (403).
extension ApinestMock {
    func createActivity(_ request: MockRequest) async throws -> MockResponse {
        let userID = try caller(request)
        let body = try request.body(as: Apinest.CreateActivityRequest.self, in: Fitness.spec)
        // The descriptor's rules were checked by the engine; `time` is an RFC 3339 date-time.
        guard let time = ApinestTime.parse(body.time) else {
            throw MockError(.badRequest, "time: must be an ISO 8601 date-time")
        }

        let date = now()
        let created = try await store.write { state in
            state.ensureUser(userID, now: date, seed: seed)
            let stamp = ApinestTime.milliseconds(date)
            let activity = ApinestActivityRecord(
                id: state.newObjectID(at: date), sportType: body.sportType, title: body.title,
                description: body.description, location: body.location, latitude: body.latitude,
                longitude: body.longitude, date: body.date + "T00:00:00.000Z", time: ApinestTime.milliseconds(time),
                participants: body.participants, participantIds: [userID], level: body.level,
                visibility: body.visibility, isCompleted: false, creatorID: userID, createdAt: stamp, updatedAt: stamp)
            state.activities.append(activity)
            state.recordCreation(of: activity, now: date, seed: seed)
            return state.model(activity)
        }
        return try .json(encoding: created, as: Fitness.spec, status: 201)
    }

    func listActivities(_ request: MockRequest) throws -> MockResponse {
        let visibility = request.query["visibility"]
        let signedIn = request.principal != nil
        if !signedIn && visibility == "friends" {
            throw MockError(
                .unauthorized, "friends activities need authentication: send Authorization: Bearer <token>")
        }
        let list = store.read { state in
            let activities = state.activities
            var list: [EncodedRows<String>.Listed<Apinest.Activity>] = []
            for position in activities.indices.reversed() {
                let shown = activities[position].visibility
                guard (signedIn || shown == "public") && (visibility.map { shown == $0 } ?? true) else { continue }
                // An activity's JSON shows its creator's name, e-mail and picture.
                let stamp = EncodedRows<String>.Stamp(
                    row: activities.revision(at: position),
                    shown: state.users.revision(of: activities[position].creatorID) ?? 0)
                list.append(
                    encodedActivities.row(activities[position].id, stamp: stamp) { state.model(activities[position]) })
            }
            return list
        }
        return try encodedActivities.array(list, as: Fitness.spec)
    }

    func activity(_ request: MockRequest) throws -> MockResponse {
        let id = request.pathParameters["id"] ?? ""
        let signedIn = request.principal != nil
        let found = store.read { state -> Apinest.Activity? in
            guard let activity = state.activities[key: id],
                signedIn || activity.visibility == "public"
            else { return nil }
            return state.model(activity)
        }
        guard let found else { throw Self.activityNotFound(id) }
        return try .json(encoding: found, as: Fitness.spec)
    }

    func joinActivity(_ request: MockRequest) async throws -> MockResponse {
        let userID = try caller(request)
        let id = request.pathParameters["id"] ?? ""
        let date = now()
        let joined = try await store.write { state in
            guard let index = state.activities.position(of: id) else {
                throw Self.activityNotFound(id)
            }
            let activity = state.activities[index]
            if activity.isCompleted { throw MockError(.badRequest, "Activity \(id) is already completed") }
            if activity.participantIds.contains(userID) {
                throw MockError(.badRequest, "You have already joined activity \(id)")
            }
            if activity.isFull {
                throw MockError(
                    .badRequest, "Activity \(id) is full (\(activity.participantIds.count)/\(activity.participants))")
            }
            state.ensureUser(userID, now: date, seed: seed)
            state.activities[index].participantIds.append(userID)
            state.activities[index].updatedAt = ApinestTime.milliseconds(date)
            return state.model(state.activities[index])
        }
        return try .json(
            encoding: Apinest.ActivityJoinResponse(message: "Successfully joined the activity", activity: joined),
            as: Fitness.spec)
    }

    func leaveActivity(_ request: MockRequest) async throws -> MockResponse {
        let userID = try caller(request)
        let id = request.pathParameters["id"] ?? ""
        let date = now()
        try await store.write { state in
            guard let index = state.activities.position(of: id) else {
                throw Self.activityNotFound(id)
            }
            let activity = state.activities[index]
            if activity.creatorID == userID {
                throw MockError(.badRequest, "The creator cannot leave their own activity \(id)")
            }
            if !activity.participantIds.contains(userID) {
                throw MockError(.badRequest, "You are not a participant of activity \(id)")
            }
            if activity.isCompleted { throw MockError(.badRequest, "Activity \(id) is already completed") }
            state.activities[index].participantIds.removeAll { $0 == userID }
            state.activities[index].updatedAt = ApinestTime.milliseconds(date)
        }
        return try .json(
            encoding: Apinest.ActivityLeaveResponse(message: "Successfully left the activity"), as: Fitness.spec)
    }

    func completeActivity(_ request: MockRequest) async throws -> MockResponse {
        let userID = try caller(request)
        let id = request.pathParameters["id"] ?? ""
        let body =
            request.json == nil ? nil : try request.body(as: Apinest.CompleteActivityRequest.self, in: Fitness.spec)

        let date = now()
        try await store.write { state in
            guard let index = state.activities.position(of: id) else {
                throw Self.activityNotFound(id)
            }
            let activity = state.activities[index]
            if activity.creatorID != userID {
                throw MockError(.forbidden, "Only the creator of activity \(id) can complete it")
            }
            if activity.isCompleted { throw MockError(.badRequest, "Activity \(id) is already completed") }
            state.activities[index].isCompleted = true
            state.activities[index].durationMinutes = body?.durationMinutes
            state.activities[index].distanceKm = body?.distanceKm
            state.activities[index].updatedAt = ApinestTime.milliseconds(date)
            let completed = state.activities[index]
            for participant in completed.participantIds {
                state.recordCompletion(of: completed, for: participant, now: date, seed: seed)
            }
        }
        return try .json(
            encoding: Apinest.ActivityCompleteResponse(message: "Activity marked as complete"), as: Fitness.spec)
    }

    static func activityNotFound(_ id: String) -> MockError {
        MockError(.notFound, "Activity \(id) not found")
    }
}
