import Foundation
import Testing
import UnderstudyCore
import UnderstudySpecs

@testable import UnderstudyMock

/// Slots, bad input, concurrency, persistence, reset and fixtures.
extension Intra42MockTests {
    @Test func slotsAreCutIntoQuartersAndReadsReflectWrites() async throws {
        let harness = try await Intra42Harness.make()
        let token = try await harness.token()
        let id = harness.defaultUser.id
        let before = try #require(await harness.send("GET", "/v2/me/slots", token: token).json?.arrayValue)
        #expect(before.count == 10)
        #expect(before.filter { $0["scale_team"] != .null }.count == 1)

        let created = await harness.send(
            "POST", "/v2/slots", json: slot(user: id, "2025-11-25T09:00:00.000Z", "2025-11-25T10:00:00Z"), token: token)
        #expect(created.status == 201)
        expectConforms(created.response.body, "POST /v2/slots", in: spec)
        let slots = try #require(created.json?.arrayValue)
        #expect(
            slots.map { $0["begin_at"] } == [
                "2025-11-25T09:00:00.000Z", "2025-11-25T09:15:00.000Z", "2025-11-25T09:30:00.000Z",
                "2025-11-25T09:45:00.000Z",
            ])
        #expect(
            slots.map { $0["end_at"] } == [
                "2025-11-25T09:15:00.000Z", "2025-11-25T09:30:00.000Z", "2025-11-25T09:45:00.000Z",
                "2025-11-25T10:00:00.000Z",
            ])
        #expect(
            slots.allSatisfy {
                $0["scale_team"] == .null && $0["user"]?["login"] == "cmartin" && $0["user"]?["id"] == .integer(id)
            })
        let ids = slots.compactMap { $0["id"]?.numberValue?.intValue }
        #expect(Set(ids).count == 4)

        let after = try #require(await harness.send("GET", "/v2/me/slots", token: token).json?.arrayValue)
        #expect(after.count == 14)
        #expect(after.suffix(4).map { $0["id"] } == slots.map { $0["id"] })
        let day = try #require(
            await harness.send(
                "GET", "/v2/me/slots?range[begin_at]=2025-11-25T00:00:00.000Z,2025-11-25T23:59:59.000Z", token: token
            ).json)
        #expect(day == created.json)

        #expect(await harness.send("DELETE", "/v2/slots/\(ids[1])", token: token).status == 204)
        let remaining = try #require(await harness.send("GET", "/v2/me/slots", token: token).json?.arrayValue)
        #expect(remaining.count == 13)
        #expect(!remaining.contains { $0["id"] == .integer(ids[1]) })
        let again = await harness.send("DELETE", "/v2/slots/\(ids[1])", token: token)
        #expect(again.status == 404)
        #expect(again.json == ["error": "Not Found", "message": .string("slot \(ids[1]) does not exist")])
        expectConforms(again.response.body, "DELETE /v2/slots/{id}", in: spec, status: 404)
        // The freed quarter can be opened again.
        let refill = await harness.send(
            "POST", "/v2/slots", json: slot(user: id, "2025-11-25T09:15:00Z", "2025-11-25T09:30:00Z"), token: token)
        #expect(refill.status == 201)
    }

    /// A slot may open on February 29 of a leap year, so a range may name that day; in 2031 it does not exist.
    @Test func aLeapDayIsASlotDayAndARangeBound() async throws {
        let harness = try await Intra42Harness.make()
        let token = try await harness.token()
        let created = await harness.send(
            "POST", "/v2/slots",
            json: slot(user: harness.defaultUser.id, "2032-02-29T09:00:00.000Z", "2032-02-29T09:15:00Z"), token: token)
        #expect(created.status == 201)
        let day = await harness.send(
            "GET", "/v2/me/slots?range[begin_at]=2032-02-29T00:00:00.000Z,2032-02-29T23:59:59.000Z", token: token)
        #expect(day.status == 200)
        #expect(day.json == created.json)
        let noDay = await harness.send(
            "GET", "/v2/me/slots?range[begin_at]=2031-02-29T00:00:00.000Z,2031-03-01T00:00:00.000Z", token: token)
        #expect(noDay.status == 400)
        expectConforms(noDay.response.body, "GET /v2/me/slots", in: spec, status: 400)
    }

    @Test func slotRulesAre422NamingEveryProblem() async throws {
        let harness = try await Intra42Harness.make()
        let token = try await harness.token()
        let id = harness.defaultUser.id
        let quarterHour = #"T[0-9]{2}:(00|15|30|45):00(\.0+)?([Zz]|[+-][0-9]{2}:(00|15|30|45))$"#
        let cases: [(String, String, [String])] = [
            (
                "2025-11-25T10:00:00Z", "2025-11-25T09:00:00Z",
                [
                    #"slot.end_at: expected a value after begin_at (string "2025-11-25T10:00:00Z"), found string "2025-11-25T09:00:00Z""#
                ]
            ),
            (
                "2025-11-25T10:00:00Z", "2025-11-25T10:00:00Z",
                [
                    #"slot.end_at: expected a value after begin_at (string "2025-11-25T10:00:00Z"), found string "2025-11-25T10:00:00Z""#
                ]
            ),
            (
                "2025-11-25T10:07:00Z", "2025-11-25T10:30:30Z",
                [
                    #"slot.begin_at: expected a string matching \#(quarterHour), found "2025-11-25T10:07:00Z""#,
                    #"slot.end_at: expected a string matching \#(quarterHour), found "2025-11-25T10:30:30Z""#,
                ]
            ),
            (
                "2025-11-18T10:30:00Z", "2025-11-18T11:00:00Z",
                [
                    "slot.begin_at: must be at least 30 minutes from now (2025-11-18T10:50:00.000Z or later), "
                        + "found 2025-11-18T10:30:00Z"
                ]
            ),
            (
                "2025-11-17T10:00:00Z", "2025-11-17T09:00:00Z",
                // The descriptor's rule refuses it before the clock's rule is looked at.
                [
                    #"slot.end_at: expected a value after begin_at (string "2025-11-17T10:00:00Z"), found string "2025-11-17T09:00:00Z""#
                ]
            ),
            (
                "2025-11-25T00:00:00Z", "2025-11-26T00:15:00Z",
                ["slot.end_at: one request opens at most 24 hours of slots, found 1455 minutes"]
            ),
        ]
        for (begin, end, messages) in cases {
            let reply = await harness.send("POST", "/v2/slots", json: slot(user: id, begin, end), token: token)
            #expect(reply.status == 422, "\(begin) \(end)")
            #expect(
                reply.json == ["error": "Unprocessable Entity", "message": .string(messages.joined(separator: "; "))])
            expectConforms(reply.response.body, "POST /v2/slots", in: spec, status: 422)
        }
        // Tomorrow 09:00–10:00 is seeded: any overlap is refused, touching is fine.
        let overlap = await harness.send(
            "POST", "/v2/slots", json: slot(user: id, "2025-11-19T09:45:00Z", "2025-11-19T10:30:00Z"), token: token)
        #expect(overlap.status == 422)
        #expect(
            overlap.json?["message"]?.stringValue?.hasPrefix(
                "slot: 2025-11-19T09:45:00Z–2025-11-19T10:30:00Z overlaps 1 of your slots") == true)
        let touching = await harness.send(
            "POST", "/v2/slots", json: slot(user: id, "2025-11-19T10:00:00Z", "2025-11-19T10:30:00Z"), token: token)
        #expect(touching.status == 201)
        #expect(await harness.send("GET", "/v2/me/slots", token: token).json?.arrayValue?.count == 12)
    }

    @Test func slotsOfOtherUsers() async throws {
        let harness = try await Intra42Harness.make()
        let token = try await harness.token()
        let other = try await harness.token("hdubois")
        let otherID = try #require(await harness.send("GET", "/v2/me", token: other).json?["id"]?.numberValue?.intValue)
        let forOther = await harness.send(
            "POST", "/v2/slots", json: slot(user: otherID, "2025-11-25T09:00:00Z", "2025-11-25T09:15:00Z"), token: token
        )
        #expect(forOther.status == 403)
        #expect(
            forOther.json?["message"]?.stringValue?.hasPrefix("slot.user_id: \(otherID) is not the current user")
                == true)
        expectConforms(forOther.response.body, "POST /v2/slots", in: spec, status: 403)

        let theirs = try #require(await harness.send("GET", "/v2/me/slots", token: other).json?.arrayValue)
        #expect(theirs.count == 4)
        let free = try #require(theirs.first { $0["scale_team"] == .null }?["id"]?.numberValue?.intValue)
        let refused = await harness.send("DELETE", "/v2/slots/\(free)", token: token)
        #expect(refused.status == 403)
        #expect(
            refused.json?["message"]
                == .string("slot \(free) belongs to another user; you can only delete your own"))
        expectConforms(refused.response.body, "DELETE /v2/slots/{id}", in: spec, status: 403)
        #expect(await harness.send("GET", "/v2/me/slots", token: other).json?.arrayValue?.count == 4)

        let mine = try #require(await harness.send("GET", "/v2/me/slots", token: token).json?.arrayValue)
        let booked = try #require(mine.first { $0["scale_team"] != .null }?["id"]?.numberValue?.intValue)
        let bookedReply = await harness.send("DELETE", "/v2/slots/\(booked)", token: token)
        #expect(bookedReply.status == 403)
        #expect(
            bookedReply.json?["message"]
                == .string("slot \(booked) is booked by an evaluation and can no longer be deleted"))
        #expect(await harness.send("DELETE", "/v2/slots/0", token: token).status == 400)
        #expect(await harness.send("DELETE", "/v2/slots/abc", token: token).status == 400)
        #expect(await harness.send("DELETE", "/v2/slots/12", token: token).status == 404)
    }

    @Test func badBodiesAre400NamingTheField() async throws {
        let harness = try await Intra42Harness.make()
        let token = try await harness.token()
        let id = harness.defaultUser.id
        let cases: [(JSONValue, String)] = [
            (
                ["slot": ["user_id": "abc", "begin_at": "2025-11-25T09:00:00Z", "end_at": "2025-11-25T09:15:00Z"]],
                "slot.user_id:"
            ),
            (["slot": ["user_id": .integer(id), "end_at": "2025-11-25T09:15:00Z"]], "slot.begin_at:"),
            (
                ["slot": ["user_id": .integer(id), "begin_at": "tomorrow", "end_at": "2025-11-25T09:15:00Z"]],
                "slot.begin_at:"
            ),
            (
                ["slot": ["user_id": .integer(id), "begin_at": 1_763_000_000, "end_at": "2025-11-25T09:15:00Z"]],
                "slot.begin_at:"
            ),
            (["user_id": .integer(id), "begin_at": "2025-11-25T09:00:00Z", "end_at": "2025-11-25T09:15:00Z"], "slot:"),
            (["slot": []], "slot:"),
            ([], "body:"),
        ]
        for (body, field) in cases {
            let reply = await harness.send("POST", "/v2/slots", json: body, token: token)
            #expect(reply.status == 400, "\(body)")
            #expect(
                reply.json?["message"]?.stringValue?.hasPrefix(field) == true,
                "\(body): \(reply.json?["message"] ?? .null)")
            expectConforms(reply.response.body, "POST /v2/slots", in: spec, status: 400)
        }
        let raw: [([UInt8], String)] = [
            (Array(#"{"slot": {"user_id": 1,"#.utf8), "the body is not valid JSON"),
            ([0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x3A, 0x31, 0x7D], "the body is not valid JSON"),
            (
                Array((String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)).utf8),
                "the body is not valid JSON"
            ),
            ([], "the request body is required"),
        ]
        for (bytes, message) in raw {
            let reply = await harness.send("POST", "/v2/slots", bytes: bytes, token: token)
            #expect(reply.status == 400)
            #expect(
                reply.json?["message"]?.stringValue?.hasPrefix(message) == true, "\(reply.json?["message"] ?? .null)")
            expectConforms(reply.response.body, "POST /v2/slots", in: spec, status: 400)
        }
        let method = await harness.send("PUT", "/v2/slots/1", token: token)
        #expect(method.status == 405)
        expectConforms(method.response.body, "DELETE /v2/slots/{id}", in: spec, status: 405)
        #expect(await harness.send("GET", "/v2/me/slots", token: token).json?.arrayValue?.count == 10)
    }

    @Test func concurrentCreatesLoseNothing() async throws {
        let harness = try await Intra42Harness.make()
        let token = try await harness.token()
        let id = harness.defaultUser.id
        let start = try #require(Intra42Time.parse("2025-11-26T00:00:00Z"))
        let statuses = await withTaskGroup(of: Int.self) { group in
            for index in 0..<50 {
                let begin = Intra42Time.format(start.addingTimeInterval(Double(index) * 900))
                let end = Intra42Time.format(start.addingTimeInterval(Double(index + 1) * 900))
                group.addTask {
                    await harness.send("POST", "/v2/slots", json: slot(user: id, begin, end), token: token).status
                }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 201, count: 50))
        let all = await harness.send("GET", "/v2/me/slots?per_page=100", token: token)
        #expect(all.response.header("X-Total") == "60")
        #expect(Set(all.json?.arrayValue?.compactMap { $0["id"] } ?? []).count == 60)
        // A page is cut from the list's kept order, and its headers describe the whole list.
        let listed = all.json?.arrayValue?.compactMap { $0["id"] } ?? []
        let second = await harness.send("GET", "/v2/me/slots?page[size]=7&page[number]=2", token: token)
        #expect(second.json?.arrayValue?.compactMap { $0["id"] } == Array(listed.dropFirst(7).prefix(7)))
        #expect(second.response.header("X-Total") == "60" && second.response.header("X-Page") == "2")
        let link = second.response.header("Link") ?? ""
        #expect(["first", "prev", "next", "last"].allSatisfy { link.contains("rel=\"\($0)\"") }, "\(link)")
        let past = await harness.send("GET", "/v2/me/slots?page[size]=7&page[number]=10", token: token)
        #expect(past.json == [] && past.response.header("X-Total") == "60")
        // The same quarter asked twice at once is opened once.
        let twice = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    await harness.send(
                        "POST", "/v2/slots", json: slot(user: id, "2025-11-27T08:00:00Z", "2025-11-27T08:15:00Z"),
                        token: token
                    ).status
                }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(twice.sorted() == [201, 422])
    }

    @Test func stateSurvivesARestartAndResetRestoresTheSeed() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("intra42-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("state.json")
        let clock = MockClock(start: .intra42Start)
        // Each mock is released before the next opens the file: a running mock locks it.
        let token: String
        let created: [JSONValue]
        do {
            let first = try await Intra42Harness.make(clock: clock, stateFile: file)
            token = try await first.token()
            let id = first.defaultUser.id
            let reply = await first.send(
                "POST", "/v2/slots", json: slot(user: id, "2025-11-25T09:00:00Z", "2025-11-25T09:30:00Z"), token: token)
            #expect(reply.status == 201)
            created = reply.json?.arrayValue ?? []
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("state-intra42.json").path))
        }
        do {
            let second = try await Intra42Harness.make(clock: clock, stateFile: file)
            let slots = await second.send("GET", "/v2/me/slots", token: token)
            #expect(slots.status == 200)
            #expect(slots.json?.arrayValue?.count == 12)
            #expect(Array(slots.json?.arrayValue?.suffix(2) ?? []) == created)
            let nextToken = try await second.token()
            #expect(nextToken != token)

            try await second.mock.reset()
            #expect(await second.send("GET", "/v2/me/slots", token: token).json?.arrayValue?.count == 10)
            // Tokens outlive a reset; the seeded code works again.
            #expect(await second.send("GET", "/v2/me", token: nextToken).status == 200)
            let exchanged = await second.send(
                "POST", "/oauth/token",
                json: second.tokenRequest(
                    "authorization_code", ["code": .string(second.code), "redirect_uri": "myapp42://oauth/callback"]))
            #expect(exchanged.status == 200)
        }
        let third = try await Intra42Harness.make(clock: clock, stateFile: file)
        #expect(await third.send("GET", "/v2/me/slots", token: token).json?.arrayValue?.count == 10)
        let admin = await third.send("POST", "/__understudy/reset")
        #expect(admin.json == ["reset": true])
    }

    @Test func theSeedIsDeterministic() async throws {
        let one = try await Intra42Harness.make()
        let two = try await Intra42Harness.make()
        #expect(one.mock.application.clientID == two.mock.application.clientID)
        #expect(one.mock.application.clientID.hasPrefix("u-s4t2ud-"))
        #expect(one.code == two.code)
        let (tokenOne, tokenTwo) = (try await one.token(), try await two.token())
        #expect(tokenOne == tokenTwo)
        for target in [
            "/v2/me", "/v2/users/cmartin/projects_users?per_page=100", "/v2/campus/9/events?per_page=100",
            "/v2/me/slots",
        ] {
            #expect(
                await one.send("GET", target, token: tokenOne).response.body
                    == (await two.send("GET", target, token: tokenTwo)).response.body)
        }
        let other = try await Intra42Harness.make(seed: 7)
        #expect(other.mock.application.clientID != one.mock.application.clientID)
        #expect(other.code != one.code)
    }

    @Test func fixtureFilesReplaceTheirPartOfTheSeed() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "intra42-fixtures-\(UUID().uuidString)")
        let apiFolder = folder.appendingPathComponent("intra42")
        try FileManager.default.createDirectory(at: apiFolder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let seeded = try await Intra42Harness.make()
        let seededToken = try await seeded.token()
        var me = try #require(await seeded.send("GET", "/v2/me", token: seededToken).json?.objectValue)
        me["login"] = "jdoe"
        me["id"] = 98_765
        me["displayname"] = "Jane Doe"
        me["campus"] = [
            [
                "id": 31, "name": "Mulhouse", "time_zone": "Europe/Paris", "city": "Mulhouse", "country": "France",
                "website": "https://www.42mulhouse.fr", "language": ["name": "Français", "identifier": "fr"],
            ]
        ]
        let events: JSONValue = [
            [
                "id": 5, "name": "Forum", "description": "Forum des associations", "location": "Hall",
                "kind": "association",
                "max_people": .null, "nbr_subscribers": 3, "begin_at": "2025-12-01T10:00:00.000Z",
                "end_at": "2025-12-01T12:00:00.000Z",
                "campus_ids": [31], "cursus_ids": [21],
            ]
        ]
        for fixture in [
            EndpointFixture(endpoint: "GET /v2/me", request: nil, responses: [200: .object(me)]),
            EndpointFixture(endpoint: "GET /v2/campus/{id}/events", request: nil, responses: [200: events]),
        ] {
            try Data(fixture.jsonValue.serializedBytes()).write(to: apiFolder.appendingPathComponent(fixture.fileName))
        }
        let harness = try await Intra42Harness.make(fixtures: folder)
        #expect(harness.defaultUser.login == "jdoe")
        #expect(harness.defaultUser.id == 98_765)
        let token = try await harness.token()
        let profile = await harness.send("GET", "/v2/me", token: token)
        #expect(profile.json?["displayname"] == "Jane Doe")
        expectConforms(profile.response.body, "GET /v2/me", in: spec)
        // The profile's campus now exists, the default user's projects and sessions follow the new id.
        let campus = await harness.send("GET", "/v2/campus/31", token: token)
        #expect(campus.status == 200)
        expectConforms(campus.response.body, "GET /v2/campus/{id}", in: spec)
        #expect(await harness.send("GET", "/v2/campus/31/events", token: token).json?[0]?["name"] == "Forum")
        let projects = await harness.send("GET", "/v2/users/jdoe/projects_users", token: token)
        #expect(
            projects.response.header("X-Total")
                == (await seeded.send("GET", "/v2/users/cmartin/projects_users", token: seededToken)).response.header(
                    "X-Total"))
        #expect(await harness.send("GET", "/v2/users/cmartin", token: token).status == 404)
        #expect(await harness.send("GET", "/v2/me/slots", token: token).json?[0]?["user"]?["login"] == "jdoe")
    }

    @Test func startupNotesNameTheCredentials() async throws {
        let harness = try await Intra42Harness.make()
        let notes = await harness.mock.startupNotes()
        let text = notes.joined(separator: "\n")
        #expect(text.contains(harness.mock.application.clientID))
        #expect(text.contains(harness.mock.application.clientSecret))
        #expect(text.contains(harness.code))
        #expect(text.contains("myapp42://oauth/callback"))
        let token = try #require(notes.last?.split(separator: " ").last.map(String.init))
        #expect(await harness.send("GET", "/v2/me", token: token).json?["login"] == "cmartin")
        let unknown = await harness.send("POST", "/__understudy/token", json: ["user": "nobody"])
        #expect(unknown.status == 404)
        let byLogin = await harness.send("POST", "/__understudy/token", json: ["user": "sleroy"])
        #expect(byLogin.json?["login"] == "sleroy")
    }
}
