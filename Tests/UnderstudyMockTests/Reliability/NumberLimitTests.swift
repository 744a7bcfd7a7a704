import Foundation
import Testing
import UnderstudyCore
import UnderstudySpecs

@testable import UnderstudyMock

/// Numbers from requests and admin calls at the edge of `Int`: each is answered in the API's own envelope,
/// never with an arithmetic trap that takes the whole process down.
struct NumberLimitTests {
    static let huge = "9223372036854775807"

    @Test func absurdFaultLatenciesAreRefusedNotTrapped() throws {
        for text in [
            "*: latency=1e300s", "*: latency=\(Self.huge)ms", "*: latency=3601s", "*: latency=nans", "*: latency=-1ms",
        ] {
            let setting = String(text.dropFirst(3))
            #expect(throws: FaultRuleError("fault \"\(setting)\": latency must be between 0 and 3600s (1 hour)")) {
                try FaultRule(parsing: text)
            }
        }
        #expect(try FaultRule(parsing: "*: latency=3600s").latencyMilliseconds == 3_600_000)
        #expect(try FaultRule(parsing: "*: latency=1.5s").description == "*: latency=1500ms")
    }

    @Test func adminFaultsWithAbsurdLatencyAnswer400() async throws {
        let harness = try await VideGreniersHarness.make()
        let reply = await harness.send("PUT", "/__understudy/faults", json: ["rules": ["*: latency=1e300s"]])
        #expect(reply.status == 400)
        #expect(reply.json == ["error": "fault \"latency=1e300s\": latency must be between 0 and 3600s (1 hour)"])
        #expect(harness.engine.faultRules.isEmpty)
    }

    @Test func manyLongFaultRulesDoNotOverflowTheirSum() async throws {
        var rule = try FaultRule(parsing: "*: latency=1ms")
        rule.latencyMilliseconds = .max
        let harness = try await VideGreniersHarness.make()
        harness.engine.setFaults([rule, rule, try FaultRule(parsing: "GET /health: latency=0ms")])
        // The request itself sleeps an hour; the verdict is that computing its delay does not trap.
        let task = Task { await harness.send("GET", "/health").status }
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()
        _ = await task.value
    }

    @Test(arguments: ["/api/events", "/api/favorites", "/api/notifications", "/api/user-activities"])
    func videGreniersPagesBeyondInt32AreRefused(_ path: String) async throws {
        let harness = try await VideGreniersHarness.make()
        let token = try await harness.token()
        let reply = await harness.send("GET", "\(path)?page=\(Self.huge)", token: token)
        #expect(reply.status == 400, "\(path)")
        #expect(reply.json?["success"] == false)
        // The descriptor states ASP.NET's `int` binding as the parameter's maximum, so check and the export see it too.
        #expect(
            reply.json?["errors"] == [.string("query parameter page: expected at most 2147483647, found \(Self.huge)")])
        let last = await harness.send("GET", "\(path)?page=2147483647&pageSize=100", token: token)
        #expect(last.status == 200, "\(path)")
        #expect(last.json?["data"] == [])
        #expect(last.json?["pagination"]?["page"] == 2_147_483_647)
    }

    @Test func postgrestHugeLimitsOffsetsAndRangesAnswerWithoutTrapping() async throws {
        let session = try await EasyCoMockTests().session()
        let all = try await session.all("/rest/v1/properties")
        #expect(try await session.all("/rest/v1/properties?offset=\(Self.huge)") == [])
        #expect(try await session.all("/rest/v1/properties?limit=\(Self.huge)") == all)
        #expect(try await session.all("/rest/v1/properties?offset=\(Self.huge)&limit=\(Self.huge)") == [])
        #expect(try await session.all("/rest/v1/properties?offset=1&limit=\(Self.huge)") == Array(all.dropFirst()))
        let ranged = await session.send(
            "GET", "/rest/v1/properties", token: session.service, headers: ["Range": "0-\(Self.huge)"])
        #expect(ranged.status == 200)
        #expect(ranged.json?.arrayValue == all)
        #expect(ranged.response.header("Content-Range") == "0-\(all.count - 1)/*")
        let open = await session.send(
            "GET", "/rest/v1/properties", token: session.service, headers: ["Range": "\(Self.huge)-"])
        #expect(open.json == [])
        #expect(open.response.header("Content-Range") == "*/*")
        for target in ["/rest/v1/properties?limit=99999999999999999999", "/rest/v1/properties?offset=-1"] {
            let reply = await session.send("GET", target, token: session.service)
            #expect(reply.status == 400, "\(target)")
            #expect(reply.json?["code"] == "PGRST100", "\(target)")
        }
    }

    @Test func postgrestOffsetPastACountedTotalIs416WithContentRange() async throws {
        let session = try await EasyCoMockTests().session()
        let total = try await session.all("/rest/v1/properties").count
        let reply = await session.send(
            "GET", "/rest/v1/properties?offset=\(Self.huge)", token: session.service, headers: ["Prefer": "count=exact"]
        )
        #expect(reply.status == 416)
        #expect(reply.response.header("Content-Range") == "*/\(total)")
        #expect(
            reply.json == [
                "code": "PGRST103", "message": "Requested range not satisfiable",
                "details": .string("An offset of \(Self.huge) was requested, but there are only \(total) rows."),
                "hint": nil,
            ])
    }

    @Test func intra42AndApinestPagesAtIntMaxAreEmpty() async throws {
        let intra = try await Intra42Harness.make()
        let intraToken = try await intra.token()
        let base = "/v2/users/cmartin/projects_users"
        for target in ["\(base)?page[number]=\(Self.huge)&page[size]=100", "\(base)?page=\(Self.huge)"] {
            let reply = await intra.send("GET", target, token: intraToken)
            #expect(reply.status == 200, "\(target)")
            #expect(reply.json == [], "\(target)")
            #expect(reply.response.header("X-Page") == Self.huge, "\(target)")
        }
        let apinest = try await MockAPI.apinest.makeBehaviour(configuration: MockConfiguration())
        let engine = MockEngine(behaviour: apinest)
        let token = await engine.send("POST", "/__understudy/token", json: [:]).json?["accessToken"]?.stringValue
        for path in ["/achievements/leaderboard", "/achievements/notifications"] {
            let reply = await engine.send("GET", "\(path)?page=\(Self.huge)&limit=\(Self.huge)", token: token)
            #expect(reply.status == 200, "\(path)")
        }
    }

    @Test func integersBeyondInt64AreNamedOutOfRangeInBodiesAndQueries() async throws {
        let beyond = "99999999999999999999"
        let harness = try await VideGreniersHarness.make()
        let query = await harness.send("GET", "/api/events?page=\(beyond)")
        #expect(query.status == 400)
        #expect(
            query.json?["errors"] == [.string("query parameter page: \(beyond) is out of range for a 64-bit integer")])

        let apinest = MockEngine(behaviour: try await MockAPI.apinest.makeBehaviour(configuration: MockConfiguration()))
        let token = await apinest.send("POST", "/__understudy/token", json: [:]).json?["accessToken"]?.stringValue
        let body: JSONValue = [
            "sportType": "Football", "title": "Weekend Football Match", "description": "Friendly",
            "location": "Central Park", "latitude": 40.78, "longitude": -73.96, "date": "2025-11-15",
            "time": "2025-11-15T14:30:00Z", "participants": .number(JSONNumber(uncheckedLiteral: beyond)),
            "level": "Intermediate", "visibility": "public",
        ]
        let reply = await apinest.send("POST", "/activities", json: body, token: token)
        #expect(reply.status == 400)
        let text = String(decoding: reply.response.body, as: UTF8.self)
        #expect(text.contains("participants: \(beyond) is out of range for a 64-bit integer"), "\(text)")
        #expect(!text.contains("not valid JSON"), "\(text)")
    }
}
