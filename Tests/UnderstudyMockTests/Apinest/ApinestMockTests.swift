import Foundation
import Testing
import UnderstudyCore
import UnderstudyMock
import UnderstudySpecs

struct ApinestMockTests {
    /// 2025-11-15T14:30:00Z: the clock every test runs on, so XP, streaks and days left are predictable.
    static let instant = Date(timeIntervalSince1970: 1_763_217_000)

    static func configuration(seed: UInt64 = 1, stateFile: URL? = nil, fixtures: URL? = nil) -> MockConfiguration {
        MockConfiguration(seed: seed, stateFile: stateFile, fixturesDirectory: fixtures, now: { instant })
    }

    private func engine(_ configuration: MockConfiguration = configuration()) async throws -> (MockEngine, ApinestMock)
    {
        let mock = try await ApinestMock(configuration: configuration)
        return (MockEngine(behaviour: mock, configuration: configuration), mock)
    }

    /// A token for a seeded user (the default one when `user` is nil), from the mock itself.
    private func token(_ mock: ApinestMock, _ user: String? = nil) async throws -> String {
        try #require(try await mock.issueToken(for: user)["accessToken"]?.stringValue)
    }

    /// A token signed elsewhere with `secret` on a clock of its own.
    private func foreignToken(
        subject: String, secret: String = MockConfiguration.defaultJWTSecret, issuedAt: Date = instant,
        lifetime: TimeInterval = 900
    ) async throws -> String {
        try await TokenService(secret: secret, now: { issuedAt }).sign(subject: subject, lifetime: lifetime)
    }

    private func users(_ engine: MockEngine, token: String) async throws -> [String] {
        let board = await engine.send("GET", "/achievements/leaderboard?limit=100", token: token)
        return try #require(board.json?["leaderboard"]?.arrayValue).compactMap { $0["user"]?["_id"]?.stringValue }
    }

    /// Tokens for the seeded users other than the default one.
    private func otherTokens(_ engine: MockEngine, _ mock: ApinestMock) async throws -> [String] {
        let defaultUser = try #require(try await mock.issueToken(for: nil)["user"]?.stringValue)
        let ids = try await users(engine, token: try await token(mock)).filter { $0 != defaultUser }
        var tokens: [String] = []
        for id in ids { tokens.append(try await token(mock, id)) }
        return tokens
    }

    private static let newActivity: JSONValue = [
        "sportType": "Football", "title": "Weekend Football Match",
        "description": "Join us for a friendly football match!", "location": "Central Park, New York",
        "latitude": 40.785091, "longitude": -73.968285, "date": "2025-11-15", "time": "2025-11-15T14:30:00Z",
        "participants": 10, "level": "Intermediate", "visibility": "public",
    ]

    private static func activity(participants: Int = 10, visibility: String = "public") -> JSONValue {
        guard case .object(var members) = newActivity else { return newActivity }
        members["participants"] = .integer(participants)
        members["visibility"] = .string(visibility)
        return .object(members)
    }

    // MARK: Seed

    @Test func seedIsCoherent() async throws {
        let (engine, mock) = try await engine()
        let token = try await token(mock)
        let defaultUser = try #require(try await mock.issueToken(for: nil)["user"]?.stringValue)
        let users = try await users(engine, token: token)
        #expect(users.count == 5)
        let list = await engine.send("GET", "/activities", token: token)
        let activities = try #require(list.json?.arrayValue)
        #expect(activities.count >= 4)
        for activity in activities {
            let creator = try #require(activity["creator"]?["_id"]?.stringValue)
            let participantValues = try #require(activity["participantIds"]?.arrayValue)
            let participants = participantValues.compactMap(\.stringValue)
            #expect(users.contains(creator))
            #expect(participants.first == creator)
            #expect(Set(participants).isSubset(of: Set(users)))
            #expect(participants.count <= activity["participants"]?.numberValue?.intValue ?? 0)
            #expect(["public", "friends"].contains(activity["visibility"]?.stringValue ?? ""))
        }
        // The default user owns an open public activity, so every flow works on the seed.
        #expect(
            activities.contains {
                $0["creator"]?["_id"]?.stringValue == defaultUser && $0["isCompleted"] == false
                    && $0["visibility"] == "public"
            })
        let badges = await engine.send("GET", "/achievements/badges", token: token)
        let earned = try #require(badges.json?["earnedBadges"]?.arrayValue)
        let inProgress = try #require(badges.json?["inProgress"]?.arrayValue)
        #expect(earned.count + inProgress.count == 9)
        let summary = await engine.send("GET", "/achievements/summary", token: token)
        #expect(summary.json?["stats"]?["totalBadges"]?.numberValue?.intValue == earned.count)
        let notifications = await engine.send("GET", "/achievements/notifications?limit=100", token: token)
        let rows = try #require(notifications.json?["notifications"]?.arrayValue)
        #expect(rows.contains { $0["type"] == "badge_unlocked" && $0["metadata"]?["badgeId"] != nil })
        #expect(rows.contains { $0["isRead"] == false })
    }

    @Test func sameSeedAndClockGiveTheSameBytes() async throws {
        let (first, firstMock) = try await engine()
        let (second, _) = try await engine()
        let token = try await token(firstMock)
        for target in [
            "/activities", "/achievements/badges", "/achievements/leaderboard", "/achievements/notifications",
        ] {
            #expect(
                await first.send("GET", target, token: token).response.body
                    == second.send("GET", target, token: token).response.body)
        }
        let (other, _) = try await engine(Self.configuration(seed: 2))
        #expect(await first.send("GET", "/activities").response.body != other.send("GET", "/activities").response.body)
    }

    @Test func fixturesFolderSeedsTheActivities() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "apinest-fixtures-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("fitness"), withIntermediateDirectories: true)
        // The guide's list example: placeholder ids, no timestamps; the mock must make it coherent.
        let rows: JSONValue = .array(
            (1...5).map { index in
                [
                    "_id": "...", "sportType": "Football", "title": .string("Match \(index)"),
                    "location": "Central Park, New York", "date": "2025-11-15T00:00:00.000Z",
                    "time": "2025-11-15T14:30:00.000Z", "participants": 10, "participantIds": ["..."],
                    "level": "Intermediate", "visibility": "friends", "isCompleted": false,
                    "creator": ["_id": "...", "name": "John Doe", "profileImageUrl": "..."],
                ]
            })
        let fixture = EndpointFixture(endpoint: "GET /activities", request: nil, responses: [200: rows])
        try Data(fixture.jsonValue.serializedBytes()).write(
            to: folder.appendingPathComponent("fitness/\(fixture.fileName)"))
        let (engine, mock) = try await engine(Self.configuration(fixtures: folder))
        let list = await engine.send("GET", "/activities", token: try await token(mock))
        #expect(
            list.json?.arrayValue?.compactMap { $0["title"]?.stringValue }.sorted() == (1...5).map { "Match \($0)" })
        expectConforms(list.response.body, "GET /activities", in: Fitness.spec)
        // The first row was made public so an anonymous listing shows something, the second so the default user
        // has another user's activity to join.
        #expect(await engine.send("GET", "/activities").json?.arrayValue?.count == 2)
    }

    // MARK: End-to-end flows over loopback

    @Test func createJoinCompleteChangesAchievementsOverLoopback() async throws {
        try await LiveMock.with(.apinest, configuration: Self.configuration()) { mock in
            let alex = try #require(try await mock.token()["accessToken"]?.stringValue)
            let alexID = try #require(try await mock.token()["user"]?.stringValue)
            let users = try #require(
                try await mock.send("GET", "/achievements/leaderboard", token: alex).json?["leaderboard"]?.arrayValue)
            let camilleID = try #require(users.compactMap { $0["user"]?["_id"]?.stringValue }.first { $0 != alexID })
            let camille = try #require(try await mock.token(for: camilleID)["accessToken"]?.stringValue)

            let summaryBefore = try await mock.send("GET", "/achievements/summary", token: alex)
            let xpBefore = try #require(summaryBefore.json?["level"]?["totalXp"]?.numberValue?.intValue)
            let camilleXpBefore = try #require(
                try await mock.send("GET", "/achievements/summary", token: camille).json?["level"]?["totalXp"]?
                    .numberValue?.intValue)
            let challengesBefore = try await mock.send("GET", "/achievements/challenges", token: alex)

            // Create: 201, the caller is creator and only participant, timestamps as the guide shows them.
            let created = try await mock.send("POST", "/activities", json: Self.newActivity, token: alex)
            #expect(created.status == 201)
            expectConforms(created.bytes, "POST /activities", in: Fitness.spec)
            let activity = try #require(created.json)
            let id = try #require(activity["_id"]?.stringValue)
            #expect(activity["creator"]?["_id"]?.stringValue == alexID)
            #expect(activity["participantIds"] == [.string(alexID)])
            #expect(activity["isCompleted"] == false)
            #expect(activity["date"] == "2025-11-15T00:00:00.000Z")
            #expect(activity["time"] == "2025-11-15T14:30:00.000Z")
            #expect(activity["createdAt"] == "2025-11-15T14:30:00.000Z")
            #expect(activity["updatedAt"] == "2025-11-15T14:30:00.000Z")

            // Reads reflect the write: listed first, fetched, visible anonymously (public).
            #expect(try await mock.send("GET", "/activities", token: camille).json?[0]?["_id"]?.stringValue == id)
            #expect(try await mock.send("GET", "/activities/\(id)").json == activity)

            // Join.
            let joined = try await mock.send("POST", "/activities/\(id)/join", token: camille)
            #expect(joined.status == 200)
            expectConforms(joined.bytes, "POST /activities/{id}/join", in: Fitness.spec)
            #expect(joined.json?["activity"]?["participantIds"] == [.string(alexID), .string(camilleID)])
            #expect(
                try await mock.send("GET", "/activities/\(id)").json?["participantIds"]?.arrayValue?.count == 2)

            // Complete.
            let completed = try await mock.send(
                "POST", "/activities/\(id)/complete", json: ["durationMinutes": 45, "distanceKm": 5.5], token: alex)
            #expect(completed.status == 200)
            #expect(completed.json == ["message": "Activity marked as complete"])
            #expect(try await mock.send("GET", "/activities/\(id)").json?["isCompleted"] == true)

            // Achievements changed for both participants: 10 XP for creating, 50 + 45/10 + 5 × 5 for completing.
            let summary = try await mock.send("GET", "/achievements/summary", token: alex)
            expectConforms(summary.bytes, "GET /achievements/summary", in: Achievements.spec)
            let xp = try #require(summary.json?["level"]?["totalXp"]?.numberValue?.intValue)
            #expect(xp >= xpBefore + 10 + 79)
            let notifications = try await mock.send(
                "GET", "/achievements/notifications?unreadOnly=true&limit=50", token: alex)
            expectConforms(notifications.bytes, "GET /achievements/notifications", in: Achievements.spec)
            let rows = try #require(notifications.json?["notifications"]?.arrayValue)
            let earned = rows.filter { $0["type"] == "xp_earned" && $0["createdAt"] == "2025-11-15T14:30:00Z" }
            // Every XP point is explained by a notification, and the activity's two are there.
            #expect(earned.compactMap { $0["metadata"]?["xp"]?.numberValue?.intValue }.reduce(0, +) == xp - xpBefore)
            #expect(earned.contains { $0["metadata"]?["activityId"]?.stringValue == id && $0["metadata"]?["xp"] == 79 })
            #expect(earned.contains { $0["metadata"]?["activityId"]?.stringValue == id && $0["metadata"]?["xp"] == 10 })
            // The daily challenge (1 activity) is done and rewarded; distance and duration moved.
            #expect(
                rows.contains { $0["type"] == "challenge_completed" && $0["metadata"]?["challengeType"] == "daily" })
            let challenges = try await mock.send("GET", "/achievements/challenges", token: alex)
            expectConforms(challenges.bytes, "GET /achievements/challenges", in: Achievements.spec)
            func progress(_ reply: LiveMock.Reply, _ type: String) -> Int? {
                reply.json?["activeChallenges"]?.arrayValue?.first { $0["challengeType"]?.stringValue == type }?[
                    "currentProgress"]?.numberValue?.intValue
            }
            #expect(progress(challenges, "daily") == 1)
            let distanceBefore = try #require(progress(challengesBefore, "distance"))
            #expect(progress(challenges, "distance") == min(20, distanceBefore + 5))
            let durationBefore = try #require(progress(challengesBefore, "duration"))
            #expect(progress(challenges, "duration") == min(300, durationBefore + 45))

            let camilleXp = try #require(
                try await mock.send("GET", "/achievements/summary", token: camille).json?["level"]?["totalXp"]?
                    .numberValue?.intValue)
            #expect(camilleXp >= camilleXpBefore + 79)
            // The leaderboard follows.
            let board = try await mock.send("GET", "/achievements/leaderboard", token: alex)
            let row = board.json?["leaderboard"]?.arrayValue?.first { $0["user"]?["_id"]?.stringValue == alexID }
            #expect(row?["totalXp"]?.numberValue?.intValue == xp)
        }
    }

    @Test func firstActivitiesUnlockBadgesAndLevelsForANewUser() async throws {
        let (engine, _) = try await engine()
        let newcomer = "6650f0a1b2c3d4e5f6a7b8c9"
        let token = try await foreignToken(subject: newcomer)
        let fresh = await engine.send("GET", "/achievements/summary", token: token)
        // A NestJS server's `JSON.stringify` writes a whole double without a fraction (`0`, `18`), as does the
        // mock's `JSONEncoder`; the app's `Double` decodes both.
        #expect(
            fresh.json == [
                "level": [
                    "currentLevel": 1, "totalXp": 0, "xpForNextLevel": 100, "currentLevelXp": 0,
                    "progressPercentage": 0,
                ],
                "stats": ["totalBadges": 0, "currentStreak": 0, "bestStreak": 0],
            ])
        let created = await engine.send("POST", "/activities", json: Self.activity(visibility: "friends"), token: token)
        #expect(created.status == 201)
        #expect(created.json?["creator"]?["name"] == "User a7b8c9")
        let id = try #require(created.json?["_id"]?.stringValue)
        let complete = await engine.send(
            "POST", "/activities/\(id)/complete", json: ["durationMinutes": 60, "distanceKm": 10.0], token: token)
        #expect(complete.status == 200)
        // 10 (create) + 50 + 6 + 50 (complete) + 20 (daily) = 136 XP: level 2 with 36 of 200.
        let summary = await engine.send("GET", "/achievements/summary", token: token)
        #expect(summary.json?["level"]?["currentLevel"] == 2)
        #expect(summary.json?["level"]?["totalXp"] == 136)
        #expect(summary.json?["level"]?["currentLevelXp"] == 36)
        #expect(summary.json?["level"]?["xpForNextLevel"] == 200)
        #expect(summary.json?["level"]?["progressPercentage"] == 18)
        #expect(summary.json?["stats"] == ["totalBadges": 4, "currentStreak": 1, "bestStreak": 1])
        let badges = await engine.send("GET", "/achievements/badges", token: token)
        #expect(
            badges.json?["earnedBadges"]?.arrayValue?.compactMap { $0["name"]?.stringValue }.sorted()
                == ["10K Club", "Finisher", "First Host", "Hour of Power"])
        #expect(badges.json?["earnedBadges"]?[0]?["earnedAt"] == "2025-11-15T14:30:00Z")
        let notifications = await engine.send("GET", "/achievements/notifications?limit=50", token: token)
        let types = notifications.json?["notifications"]?.arrayValue?.compactMap { $0["type"]?.stringValue } ?? []
        #expect(types.filter { $0 == "badge_unlocked" }.count == 4)
        #expect(types.filter { $0 == "level_up" }.count == 1)
        #expect(types.filter { $0 == "challenge_completed" }.count == 1)
        #expect(types.filter { $0 == "xp_earned" }.count == 3)
        // The newcomer joined the leaderboard.
        #expect(try await users(engine, token: token).contains(newcomer))
    }

    // MARK: Activities

    @Test func anonymousCallersSeeOnlyPublicActivities() async throws {
        let (engine, mock) = try await engine()
        let token = try await token(mock)
        let friends = await engine.send("POST", "/activities", json: Self.activity(visibility: "friends"), token: token)
        let friendsID = try #require(friends.json?["_id"]?.stringValue)

        let anonymous = try #require(await engine.send("GET", "/activities").json?.arrayValue)
        #expect(!anonymous.isEmpty)
        #expect(anonymous.allSatisfy { $0["visibility"] == "public" })
        #expect(await engine.send("GET", "/activities?visibility=public").json?.arrayValue == anonymous)
        let refused = await engine.send("GET", "/activities?visibility=friends")
        #expect(refused.status == 401)
        #expect(
            refused.json == [
                "message": "friends activities need authentication: send Authorization: Bearer <token>",
                "statusCode": 401,
            ])
        let signedIn = try #require(
            await engine.send("GET", "/activities?visibility=friends", token: token).json?.arrayValue)
        #expect(signedIn.allSatisfy { $0["visibility"] == "friends" })
        #expect(signedIn.contains { $0["_id"]?.stringValue == friendsID })
        let all = try #require(await engine.send("GET", "/activities", token: token).json?.arrayValue)
        #expect(all.count == anonymous.count + signedIn.count)

        // A friends activity does not exist for an anonymous caller.
        let hidden = await engine.send("GET", "/activities/\(friendsID)")
        #expect(hidden.status == 404)
        #expect(hidden.json == ["message": .string("Activity \(friendsID) not found"), "statusCode": 404])
        #expect(await engine.send("GET", "/activities/\(friendsID)", token: token).status == 200)

        let bad = await engine.send("GET", "/activities?visibility=private")
        #expect(bad.status == 400)
        #expect(bad.json?["message"]?.stringValue?.hasPrefix("query parameter visibility:") == true)
    }

    /// The list concatenates each activity's JSON, kept until the activity changes: its bytes are those of every
    /// activity's detail, also after a join changed one it had kept and creates added others.
    @Test func theListShowsEachActivityAsItsDetailDoesAfterChanges() async throws {
        let (engine, mock) = try await engine()
        let alex = try await token(mock)
        func expectListIsTheDetails() async throws -> [JSONValue] {
            let list = await engine.send("GET", "/activities", token: alex)
            let rows = try #require(list.json?.arrayValue)
            var details: [[UInt8]] = []
            for row in rows {
                let id = try #require(row["_id"]?.stringValue)
                details.append(await engine.send("GET", "/activities/\(id)", token: alex).response.body)
            }
            let expected = "[" + details.map { String(decoding: $0, as: UTF8.self) }.joined(separator: ",") + "]"
            #expect(String(decoding: list.response.body, as: UTF8.self) == expected)
            return rows
        }
        let created = await engine.send("POST", "/activities", json: Self.activity(), token: alex)
        let first = try #require(created.json?["_id"]?.stringValue)
        let seeded = try await expectListIsTheDetails()
        let other = try #require(try await otherTokens(engine, mock).first)
        #expect(await engine.send("POST", "/activities/\(first)/join", token: other).status == 200)
        for _ in 0..<2 { _ = await engine.send("POST", "/activities", json: Self.activity(), token: alex) }
        let changed = try await expectListIsTheDetails()
        #expect(changed.count == seeded.count + 2)
        let joined = try #require(changed.first { $0["_id"]?.stringValue == first })
        #expect(joined["participantIds"]?.arrayValue?.count == 2)
    }

    @Test func activityDetailErrors() async throws {
        let (engine, _) = try await engine()
        let unknown = await engine.send("GET", "/activities/65a1b2c3d4e5f6a7b8c9d0e1")
        #expect(unknown.status == 404)
        #expect(unknown.json == ["message": "Activity 65a1b2c3d4e5f6a7b8c9d0e1 not found", "statusCode": 404])
        expectConforms(unknown.response.body, "GET /activities/{id}", in: Fitness.spec, status: 404)
        let malformed = await engine.send("GET", "/activities/65a1b2c3d4e5f6g7h8i9j0k1")
        #expect(malformed.status == 400)
        #expect(malformed.json?["message"]?.stringValue?.hasPrefix("path parameter id:") == true)
    }

    @Test func joinRules() async throws {
        let (engine, mock) = try await engine()
        let alex = try await token(mock)
        let created = await engine.send("POST", "/activities", json: Self.activity(participants: 2), token: alex)
        let id = try #require(created.json?["_id"]?.stringValue)
        let others = try await otherTokens(engine, mock)

        let own = await engine.send("POST", "/activities/\(id)/join", token: alex)
        #expect(own.status == 400)
        #expect(own.json == ["message": .string("You have already joined activity \(id)"), "statusCode": 400])
        let joined = await engine.send("POST", "/activities/\(id)/join", token: others[0])
        #expect(joined.status == 200)
        #expect(joined.json?["message"] == "Successfully joined the activity")
        #expect(await engine.send("POST", "/activities/\(id)/join", token: others[0]).status == 400)
        let full = await engine.send("POST", "/activities/\(id)/join", token: others[1])
        #expect(full.status == 400)
        #expect(full.json?["message"] == .string("Activity \(id) is full (2/2)"))

        #expect(await engine.send("POST", "/activities/\(id)/complete", token: alex).status == 200)
        let late = await engine.send("POST", "/activities/\(id)/join", token: others[2])
        #expect(late.json == ["message": .string("Activity \(id) is already completed"), "statusCode": 400])

        let missing = await engine.send("POST", "/activities/65a1b2c3d4e5f6a7b8c9d0e1/join", token: alex)
        #expect(missing.status == 404)
        #expect(missing.json?["message"] == "Activity 65a1b2c3d4e5f6a7b8c9d0e1 not found")
        #expect(await engine.send("POST", "/activities/\(id)/join").status == 401)
    }

    @Test func leaveRules() async throws {
        let (engine, mock) = try await engine()
        let alex = try await token(mock)
        let camille = try await otherTokens(engine, mock)[0]
        let id = try #require(
            await engine.send("POST", "/activities", json: Self.newActivity, token: alex).json?["_id"]?.stringValue)

        let creator = await engine.send("POST", "/activities/\(id)/leave", token: alex)
        #expect(
            creator.json == [
                "message": .string("The creator cannot leave their own activity \(id)"), "statusCode": 400,
            ])
        let outsider = await engine.send("POST", "/activities/\(id)/leave", token: camille)
        #expect(
            outsider.json == ["message": .string("You are not a participant of activity \(id)"), "statusCode": 400])
        #expect(await engine.send("POST", "/activities/\(id)/join", token: camille).status == 200)
        let left = await engine.send("POST", "/activities/\(id)/leave", token: camille)
        #expect(left.status == 200)
        #expect(left.json == ["message": "Successfully left the activity"])
        expectConforms(left.response.body, "POST /activities/{id}/leave", in: Fitness.spec)
        #expect(await engine.send("GET", "/activities/\(id)").json?["participantIds"]?.arrayValue?.count == 1)
        #expect(await engine.send("POST", "/activities/65a1b2c3d4e5f6a7b8c9d0e1/leave", token: camille).status == 404)
    }

    @Test func completeRules() async throws {
        let (engine, mock) = try await engine()
        let alex = try await token(mock)
        let camille = try await otherTokens(engine, mock)[0]
        let id = try #require(
            await engine.send("POST", "/activities", json: Self.newActivity, token: alex).json?["_id"]?.stringValue)
        #expect(await engine.send("POST", "/activities/\(id)/join", token: camille).status == 200)

        let forbidden = await engine.send("POST", "/activities/\(id)/complete", token: camille)
        #expect(forbidden.status == 403)
        #expect(
            forbidden.json == [
                "message": .string("Only the creator of activity \(id) can complete it"), "statusCode": 403,
            ])
        expectConforms(forbidden.response.body, "POST /activities/{id}/complete", in: Fitness.spec, status: 403)

        let negative = await engine.send(
            "POST", "/activities/\(id)/complete", json: ["durationMinutes": -5], token: alex)
        // The descriptor's rule (CompleteActivityRequest), enforced by the engine before the overlay runs.
        #expect(negative.json == ["message": "durationMinutes: expected at least 0, found -5", "statusCode": 400])
        let wrongType = await engine.send(
            "POST", "/activities/\(id)/complete", json: ["distanceKm": "far"], token: alex)
        #expect(wrongType.status == 400)
        #expect(wrongType.json?["message"]?.stringValue?.hasPrefix("distanceKm:") == true)
        #expect(await engine.send("GET", "/activities/\(id)").json?["isCompleted"] == false)

        // The body is optional.
        let done = await engine.send("POST", "/activities/\(id)/complete", token: alex)
        #expect(done.status == 200)
        expectConforms(done.response.body, "POST /activities/{id}/complete", in: Fitness.spec)
        let again = await engine.send("POST", "/activities/\(id)/complete", json: [:], token: alex)
        #expect(again.json == ["message": .string("Activity \(id) is already completed"), "statusCode": 400])
        #expect(await engine.send("POST", "/activities/65a1b2c3d4e5f6a7b8c9d0e1/complete", token: alex).status == 404)
    }

    @Test func createValidationNamesTheField() async throws {
        let (engine, mock) = try await engine()
        let token = try await token(mock)
        let before = await engine.send("GET", "/activities", token: token).json?.arrayValue?.count
        func with(_ key: String, _ value: JSONValue?) -> JSONValue {
            guard case .object(var members) = Self.newActivity else { return Self.newActivity }
            members[key] = value
            return .object(members)
        }
        let cases: [(JSONValue, String)] = [
            (with("title", nil), "title:"),
            (with("participants", "ten"), "participants:"),
            (with("participants", 0), "participants: expected at least 1, found 0"),
            (with("date", "15/11/2025"), "date:"),
            (with("time", "tomorrow"), "time:"),
            (with("visibility", "private"), "visibility:"),
            // class-validator's `@IsNotEmpty()` refuses "" (and, like it, the descriptor lets "   " through).
            (with("title", ""), "title: expected at least 1 character, found 0"),
            (with("latitude", 123.0), "latitude: expected at most 90, found 123.0"),
            (.array([]), "body:"),
        ]
        for (body, prefix) in cases {
            let reply = await engine.send("POST", "/activities", json: body, token: token)
            #expect(reply.status == 400, "\(prefix)")
            #expect(reply.json?["statusCode"] == 400)
            #expect(reply.json?["message"]?.stringValue?.hasPrefix(prefix) == true, "\(String(describing: reply.json))")
            expectConforms(reply.response.body, "POST /activities", in: Fitness.spec, status: 400)
        }
        #expect(await engine.send("GET", "/activities", token: token).json?.arrayValue?.count == before)
    }

    // MARK: Auth

    @Test func refusedCredentialsAnswer401InTheEnvelope() async throws {
        let (engine, mock) = try await engine()
        let defaultUser = try #require(try await mock.issueToken(for: nil)["user"]?.stringValue)
        let expired = try await foreignToken(subject: defaultUser, issuedAt: Self.instant.addingTimeInterval(-3_600))
        let wronglySigned = try await foreignToken(
            subject: defaultUser, secret: "another-secret-that-is-long-enough-0123")
        let notAnObjectID = try await foreignToken(subject: "42")
        let cases: [(headers: [String: String], message: String)] = [
            ([:], "authentication required: send Authorization: Bearer <token>"),
            (["Authorization": "Basic YWxleDpzZWNyZXQ="], "the Authorization header must be \"Bearer <token>\""),
            (["Authorization": "Bearer not.a.jwt"], "invalid token: the token is malformed"),
            (["Authorization": "Bearer \(expired)"], "invalid token: the token has expired"),
            (["Authorization": "Bearer \(wronglySigned)"], "invalid token: the token signature is invalid"),
            (
                ["Authorization": "Bearer \(notAnObjectID)"],
                "invalid token: its subject (sub) must be a user's ObjectId (24 hexadecimal digits), not \"42\""
            ),
        ]
        let routes = [
            ("POST", "/activities"), ("POST", "/activities/65a1b2c3d4e5f6a7b8c9d0e1/join"),
            ("GET", "/achievements/summary"), ("GET", "/achievements/leaderboard"),
            ("POST", "/achievements/notifications/read-all"),
        ]
        for (method, path) in routes {
            for (headers, message) in cases {
                let reply = await engine.send(method, path, headers: headers)
                #expect(reply.status == 401, "\(method) \(path) \(message)")
                #expect(reply.json == ["message": .string(message), "statusCode": 401], "\(method) \(path)")
            }
        }
        // On optional-auth endpoints a bad token is refused too, never silently treated as anonymous.
        #expect(await engine.send("GET", "/activities", headers: ["Authorization": "Bearer \(expired)"]).status == 401)
        // A token signed elsewhere with the configured secret is accepted.
        let foreign = try await foreignToken(subject: defaultUser)
        #expect(await engine.send("GET", "/achievements/summary", token: foreign).status == 200)
    }

    @Test func tokenRouteAndStartupNotes() async throws {
        let (engine, mock) = try await engine()
        let issued = await engine.send("POST", "/__understudy/token", json: [:])
        #expect(issued.status == 200)
        let user = try #require(issued.json?["user"]?.stringValue)
        #expect(issued.json?["expiresIn"] == 900)
        #expect(issued.json?["email"] == "alex.martin@example.com")
        let byEmail = await engine.send("POST", "/__understudy/token", json: ["user": "alex.martin@example.com"])
        #expect(byEmail.json?["user"]?.stringValue == user)
        let unknown = await engine.send("POST", "/__understudy/token", json: ["user": "nobody"])
        #expect(unknown.status == 404)
        #expect(
            unknown.json?["message"]?.stringValue?.hasPrefix("no seeded user nobody; seeded users: \(user)") == true)

        let notes = await mock.startupNotes()
        #expect(notes.contains { $0.contains(user) && $0.contains("(default)") })
        let line = try #require(notes.first { $0.hasPrefix("token for Alex Martin") })
        let token = try #require(line.components(separatedBy: "Bearer ").last)
        #expect(await engine.send("GET", "/achievements/summary", token: token).status == 200)
    }

    // MARK: Achievements

    @Test func leaderboardPages() async throws {
        let (engine, mock) = try await engine()
        let token = try await token(mock)
        let user = try #require(try await mock.issueToken(for: nil)["user"]?.stringValue)
        let all = await engine.send("GET", "/achievements/leaderboard", token: token)
        expectConforms(all.response.body, "GET /achievements/leaderboard", in: Achievements.spec)
        let rows = try #require(all.json?["leaderboard"]?.arrayValue)
        #expect(rows.compactMap { $0["rank"]?.numberValue?.intValue } == [1, 2, 3, 4, 5])
        let xps = rows.compactMap { $0["totalXp"]?.numberValue?.intValue }
        #expect(xps == xps.sorted(by: >))
        #expect(all.json?["pagination"] == ["total": 5, "page": 1, "totalPages": 1, "limit": 20])
        let rank = try #require(rows.firstIndex { $0["user"]?["_id"]?.stringValue == user }) + 1
        #expect(all.json?["userRank"] == .integer(rank))

        let second = await engine.send("GET", "/achievements/leaderboard?page=2&limit=2", token: token)
        #expect(second.json?["leaderboard"]?.arrayValue == Array(rows[2..<4]))
        #expect(second.json?["pagination"] == ["total": 5, "page": 2, "totalPages": 3, "limit": 2])
        let last = await engine.send("GET", "/achievements/leaderboard?page=3&limit=2", token: token)
        #expect(last.json?["leaderboard"]?.arrayValue == [rows[4]])
        let past = await engine.send("GET", "/achievements/leaderboard?page=9&limit=2", token: token)
        #expect(past.json?["leaderboard"] == .array([]))
        #expect(past.json?["userRank"] == .integer(rank))
        let huge = await engine.send(
            "GET", "/achievements/leaderboard?page=9223372036854775807&limit=9223372036854775807", token: token)
        #expect(huge.status == 200)
        #expect(huge.json?["leaderboard"] == .array([]))

        for query in ["limit=0", "page=0", "page=abc", "limit=2.5"] {
            let reply = await engine.send("GET", "/achievements/leaderboard?\(query)", token: token)
            #expect(reply.status == 400, "\(query)")
            let name = String(query.prefix { $0 != "=" })
            #expect(reply.json?["message"]?.stringValue?.hasPrefix("query parameter \(name):") == true, "\(query)")
        }
    }

    @Test func notificationsPageFilterAndRead() async throws {
        let (engine, mock) = try await engine()
        let alex = try await token(mock)
        let camille = try await otherTokens(engine, mock)[0]
        let all = await engine.send("GET", "/achievements/notifications?limit=100", token: alex)
        expectConforms(all.response.body, "GET /achievements/notifications", in: Achievements.spec)
        let rows = try #require(all.json?["notifications"]?.arrayValue)
        let total = rows.count
        #expect(total >= 3)
        let dates = rows.compactMap { $0["createdAt"]?.stringValue }
        #expect(dates == dates.sorted(by: >))
        let unread = rows.filter { $0["isRead"] == false }
        #expect(!unread.isEmpty)

        let page = await engine.send("GET", "/achievements/notifications?page=2&limit=2", token: alex)
        #expect(page.json?["notifications"]?.arrayValue == Array(rows[2..<min(4, total)]))
        #expect(
            page.json?["pagination"]
                == ["total": .integer(total), "page": 2, "totalPages": .integer((total + 1) / 2), "limit": 2])
        let onlyUnread = await engine.send("GET", "/achievements/notifications?unreadOnly=true&limit=100", token: alex)
        #expect(onlyUnread.json?["notifications"]?.arrayValue == unread)
        #expect(onlyUnread.json?["pagination"]?["total"] == .integer(unread.count))
        #expect(await engine.send("GET", "/achievements/notifications?unreadOnly=yes", token: alex).status == 400)

        let first = try #require(unread.first?["_id"]?.stringValue)
        // Someone else's notification does not exist for the caller.
        let foreign = await engine.send("POST", "/achievements/notifications/\(first)/read", token: camille)
        #expect(foreign.json == ["message": .string("notification \(first) does not exist"), "statusCode": 404])
        let read = await engine.send("POST", "/achievements/notifications/\(first)/read", token: alex)
        #expect(read.status == 200)
        #expect(read.json == ["success": true])
        expectConforms(read.response.body, "POST /achievements/notifications/{id}/read", in: Achievements.spec)
        let after = await engine.send("GET", "/achievements/notifications?unreadOnly=true&limit=100", token: alex)
        #expect(after.json?["pagination"]?["total"] == .integer(unread.count - 1))
        #expect(
            await engine.send("POST", "/achievements/notifications/65a1b2c3d4e5f6a7b8c9d0e1/read", token: alex).status
                == 404)
        #expect(await engine.send("POST", "/achievements/notifications/nope/read", token: alex).status == 400)

        let readAll = await engine.send("POST", "/achievements/notifications/read-all", token: alex)
        #expect(readAll.json == ["success": true])
        expectConforms(readAll.response.body, "POST /achievements/notifications/read-all", in: Achievements.spec)
        #expect(
            await engine.send("GET", "/achievements/notifications?unreadOnly=true", token: alex).json?["notifications"]
                == .array([]))
        #expect(
            await engine.send("GET", "/achievements/notifications?limit=100", token: alex).json?["pagination"]?["total"]
                == .integer(total))
        // Only the caller's were marked.
        let camilleUnread = await engine.send("GET", "/achievements/notifications?unreadOnly=true", token: camille)
        #expect(camilleUnread.json?["pagination"]?["total"]?.numberValue?.intValue ?? 0 > 0)
    }

    @Test func everyEndpointSuccessConforms() async throws {
        let (engine, mock) = try await engine()
        let alex = try await token(mock)
        let camille = try await otherTokens(engine, mock)[0]
        let created = await engine.send("POST", "/activities", json: Self.newActivity, token: alex)
        let id = try #require(created.json?["_id"]?.stringValue)
        let notification = try #require(
            await engine.send("GET", "/achievements/notifications", token: alex).json?["notifications"]?[0]?["_id"]?
                .stringValue)
        let calls: [(String, String, String, JSONValue?, String, APISpec)] = [
            ("POST", "/activities", "POST /activities", Self.newActivity, alex, Fitness.spec),
            ("GET", "/activities", "GET /activities", nil, alex, Fitness.spec),
            ("GET", "/activities/\(id)", "GET /activities/{id}", nil, alex, Fitness.spec),
            ("POST", "/activities/\(id)/join", "POST /activities/{id}/join", nil, camille, Fitness.spec),
            ("POST", "/activities/\(id)/leave", "POST /activities/{id}/leave", nil, camille, Fitness.spec),
            (
                "POST", "/activities/\(id)/complete", "POST /activities/{id}/complete", ["durationMinutes": 30], alex,
                Fitness.spec
            ),
            ("GET", "/achievements/summary", "GET /achievements/summary", nil, alex, Achievements.spec),
            ("GET", "/achievements/badges", "GET /achievements/badges", nil, alex, Achievements.spec),
            ("GET", "/achievements/challenges", "GET /achievements/challenges", nil, alex, Achievements.spec),
            ("GET", "/achievements/leaderboard", "GET /achievements/leaderboard", nil, alex, Achievements.spec),
            ("GET", "/achievements/notifications", "GET /achievements/notifications", nil, alex, Achievements.spec),
            (
                "POST", "/achievements/notifications/\(notification)/read",
                "POST /achievements/notifications/{id}/read",
                nil, alex, Achievements.spec
            ),
            (
                "POST", "/achievements/notifications/read-all", "POST /achievements/notifications/read-all", nil, alex,
                Achievements.spec
            ),
        ]
        #expect(calls.count == Fitness.spec.endpoints.count + Achievements.spec.endpoints.count)
        for (method, target, endpointID, body, token, spec) in calls {
            let reply = await engine.send(method, target, json: body, token: token)
            let success = spec.endpoint(endpointID)?.success.rawValue
            #expect(reply.status == success, "\(endpointID): \(String(decoding: reply.response.body, as: UTF8.self))")
            expectConforms(reply.response.body, endpointID, in: spec)
        }
        // Every seeded user's reads conform too (their state differs: badges, streaks, challenges).
        for user in try await users(engine, token: alex) {
            let token = try await token(mock, user)
            for endpointID in ["GET /achievements/summary", "GET /achievements/badges", "GET /achievements/challenges"]
            {
                let path = String(endpointID.dropFirst(4))
                expectConforms(
                    await engine.send("GET", path, token: token).response.body, endpointID, in: Achievements.spec)
            }
        }
        let anonymous = await engine.send("GET", "/activities")
        expectConforms(anonymous.response.body, "GET /activities", in: Fitness.spec)
    }

    // MARK: Bad input

    @Test func badInputOfEveryKind() async throws {
        let (engine, mock) = try await engine()
        let token = try await token(mock)
        let cases: [([UInt8], String)] = [
            (Array(#"{"title": "#.utf8), "the body is not valid JSON:"),
            (Array(#"{"title": "ab"#.utf8) + [0xFF] + Array(#"c"}"#.utf8), "the body is not valid JSON: invalid UTF-8"),
            (
                Array((String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)).utf8),
                "the body is not valid JSON: nesting deeper than"
            ),
            ([], "the request body is required"),
            (Array("null".utf8), "body:"),
        ]
        for (bytes, prefix) in cases {
            let reply = await engine.send("POST", "/activities", bytes: bytes, token: token)
            #expect(reply.status == 400, "\(prefix)")
            #expect(reply.json?["statusCode"] == 400)
            #expect(reply.json?["message"]?.stringValue?.hasPrefix(prefix) == true, "\(String(describing: reply.json))")
        }
        let deep = await engine.send(
            "POST", "/activities/65a1b2c3d4e5f6a7b8c9d0e1/complete",
            bytes: Array(
                (String(repeating: #"{"a":"#, count: 2_000) + "1" + String(repeating: "}", count: 2_000)).utf8),
            token: token)
        #expect(deep.status == 400)

        let unknown = await engine.send("GET", "/activities/65a1b2c3d4e5f6a7b8c9d0e1/participants")
        #expect(unknown.status == 404)
        #expect(
            unknown.json == [
                "message": "no route for GET /activities/65a1b2c3d4e5f6a7b8c9d0e1/participants", "statusCode": 404,
            ])
        let wrongMethod = await engine.send("DELETE", "/activities")
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.json?["statusCode"] == 405)
    }

    @Test func twoMegabyteBodyIsRefusedOverLoopback() async throws {
        try await LiveMock.with(.apinest, configuration: Self.configuration()) { mock in
            let token = try #require(try await mock.token()["accessToken"]?.stringValue)
            let padding = String(repeating: "x", count: 2 << 20)
            let reply = try await mock.send(
                "POST", "/activities", bytes: Array(#"{"title": "\#(padding)"}"#.utf8), token: token)
            #expect(reply.status == 413)
            #expect(reply.json?["statusCode"] == 413)
            let missing = try await mock.send("GET", "/nope")
            #expect(missing.status == 404)
            #expect(missing.json == ["message": "no route for GET /nope", "statusCode": 404])
        }
    }

    // MARK: Concurrency, persistence, reset

    @Test func concurrentWritesLoseNothingOverLoopback() async throws {
        try await LiveMock.with(.apinest, configuration: Self.configuration()) { mock in
            let token = try #require(try await mock.token()["accessToken"]?.stringValue)
            let before = try #require(try await mock.send("GET", "/activities", token: token).json?.arrayValue?.count)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<50 {
                    group.addTask {
                        var body = Self.newActivity
                        if case .object(var members) = body {
                            members["title"] = .string("Concurrent \(index)")
                            body = .object(members)
                        }
                        return try await mock.send("POST", "/activities", json: body, token: token).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 201, count: 50))
            let list = try #require(try await mock.send("GET", "/activities", token: token).json?.arrayValue)
            #expect(list.count == before + 50)
            #expect(Set(list.compactMap { $0["_id"]?.stringValue }).count == list.count)
            #expect(
                Set(list.compactMap { $0["title"]?.stringValue }.filter { $0.hasPrefix("Concurrent ") }).count == 50)

            // 20 new users race for the 9 free places of a 10-place activity: exactly 9 get in.
            let id = try #require(
                try await mock.send("POST", "/activities", json: Self.activity(participants: 10), token: token).json?[
                    "_id"]?.stringValue)
            let joins = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        let user = "6650f0a1b2c3d4e5f6a7" + String(format: "%04x", index)
                        let token = try await self.foreignToken(subject: user)
                        return try await mock.send("POST", "/activities/\(id)/join", token: token).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(joins.filter { $0 == 200 }.count == 9)
            #expect(joins.filter { $0 == 400 }.count == 11)
            let activity = try await mock.send("GET", "/activities/\(id)")
            #expect(activity.json?["participantIds"]?.arrayValue?.count == 10)
        }
    }

    @Test func stateSurvivesARestartOnTheSameFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apinest-state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let configuration = Self.configuration(stateFile: folder.appendingPathComponent("state.json"))

        // The first mock is released before the second opens the file: a running mock locks it.
        let token: String
        let id: String
        let summary: JSONValue?
        do {
            let (engine, mock) = try await engine(configuration)
            token = try await self.token(mock)
            id = try #require(
                await engine.send("POST", "/activities", json: Self.newActivity, token: token).json?["_id"]?.stringValue
            )
            #expect(
                await engine.send("POST", "/activities/\(id)/complete", json: ["distanceKm": 3.0], token: token).status
                    == 200)
            #expect(await engine.send("POST", "/achievements/notifications/read-all", token: token).status == 200)
            summary = await engine.send("GET", "/achievements/summary", token: token).json
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("state-apinest.json").path))
        }

        let (restarted, _) = try await self.engine(configuration)
        let activity = await restarted.send("GET", "/activities/\(id)", token: token)
        #expect(activity.status == 200)
        #expect(activity.json?["isCompleted"] == true)
        #expect(await restarted.send("GET", "/achievements/summary", token: token).json == summary)
        #expect(
            await restarted.send("GET", "/achievements/notifications?unreadOnly=true", token: token).json?[
                "notifications"] == .array([]))
        // A new id after the restart does not collide with the ones handed out before it.
        let next = await restarted.send("POST", "/activities", json: Self.newActivity, token: token)
        #expect(next.json?["_id"]?.stringValue != id)
    }

    @Test func resetRestoresTheSeed() async throws {
        let (engine, mock) = try await engine()
        let token = try await token(mock)
        let seeded = await engine.send("GET", "/activities", token: token).response.body
        let summary = await engine.send("GET", "/achievements/summary", token: token).response.body
        let id = try #require(
            await engine.send("POST", "/activities", json: Self.newActivity, token: token).json?["_id"]?.stringValue)
        #expect(await engine.send("POST", "/activities/\(id)/complete", token: token).status == 200)
        #expect(await engine.send("GET", "/achievements/summary", token: token).response.body != summary)

        let reset = await engine.send("POST", "/__understudy/reset")
        #expect(reset.json == ["reset": true])
        #expect(await engine.send("GET", "/activities", token: token).response.body == seeded)
        #expect(await engine.send("GET", "/achievements/summary", token: token).response.body == summary)
        #expect(await engine.send("GET", "/activities/\(id)", token: token).status == 404)
    }
}
