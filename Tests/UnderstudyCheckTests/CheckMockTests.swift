import Foundation
import Testing
import UnderstudyCore
import UnderstudyMockServer
import UnderstudyPostgREST
import UnderstudySpecs
import UnderstudyTesting

@testable import UnderstudyCheck
@testable import UnderstudyMock

/// `check` against the real mock servers over loopback: a server that honours the contract gets no error
/// and no warning, for the reads and for the write scenarios, and the scenarios leave no trace.
struct CheckMockTests {
    /// Far above any real answer time: the suite runs these next to CPU-heavy tests on two cores, and the
    /// verdict under test is conformance, not speed.
    static let patient = HTTPTransport.Options(timeout: .seconds(300))

    /// A check of one of the mocks. They are this test's, so by default the run also sends the writes that change
    /// what it did not make (`--destructive`), and every endpoint is reached; `destructive: false` is the default
    /// of `understudy check`.
    static func check(
        _ spec: APISpec, _ server: MockServer, credentials: Credentials, writes: Bool = true, destructive: Bool = true
    ) async -> CheckReport {
        var options = CheckOptions(
            baseURL: server.baseURL.absoluteString, credentials: credentials, allowWrites: writes, transport: patient)
        options.destructive = destructive
        return await Checker(spec: spec, options: options).run()
    }

    /// The findings above notes, as lines, for a readable failure.
    /// Warnings and errors about the server; `lint.*` findings are about the document and hold for any server.
    static func problems(_ report: CheckReport) -> [String] {
        report.sortedFindings.filter { $0.severity > .note && !$0.rule.rawValue.hasPrefix("lint.") }.map {
            "\($0.severity) \($0.rule) \($0.endpoint ?? "-") \($0.pointer.displayString): \($0.message) \($0.context)"
        }
    }

    @Test(arguments: ["fitness", "achievements"])
    func apinestIsClean(api: String) async throws {
        let spec = try #require(Specs.named(api)?.first)
        try await withMockServer(.apinest) { server in
            // The seeded open activity belongs to the default user; another user can join and leave it.
            let token = try await server.token(for: "camille.dubois@example.com")
            let report = await Self.check(spec, server, credentials: Credentials(token: token))
            #expect(Self.problems(report) == [])
            let checked = report.endpoints.filter { $0.skipped == nil }.map(\.endpoint)
            #expect(Set(checked) == Set(spec.endpoints.map(\.id)))
        }
    }

    /// The checker knows no API by name: it explores every spec's resources, and leaves the endpoints a spec's flow
    /// covers to that flow, run after the exploring.
    @Test func theExplorerLeavesAFlowsEndpointsToIt() async throws {
        try await withMockServer(.apinest) { server in
            let credentials = Credentials(token: try await server.token())
            let body = try JSONDecoder().decode(
                Apinest.CompleteActivityRequest.self, from: Data(#"{"durationMinutes": 30, "distanceKm": 5}"#.utf8))
            let own = WriteScenario { session in
                session.skip(Fitness.joinActivity, because: "not in this scenario")
                let listed = await session.call(Fitness.activities)?.arrayValue ?? []
                let mine = listed.first { $0["creator"]?["_id"]?.stringValue == session.userID }
                if let id = mine?["_id"]?.stringValue {
                    await session.call(Fitness.completeActivity, path: ["id": id], body: body)
                }
            }
            let covered = [Fitness.completeActivity.id, Fitness.joinActivity.id, Fitness.leaveActivity.id]
            let hints = WriteHints().flow(covering: covered, own)
            let options = CheckOptions(
                baseURL: server.baseURL.absoluteString, credentials: credentials, allowWrites: true, probes: false,
                transport: Self.patient)
            let report = await Checker(spec: Fitness.spec.hinting(hints), options: options).run()
            #expect(Self.problems(report) == [])
            // The explorer's create, then the flow's one write: the explorer acted on nothing the flow covers.
            let posts = report.sent.filter { $0.method == .post }
            #expect(posts.map { $0.url.split(separator: "/").last ?? "" } == ["activities", "complete"])
            #expect(
                posts.last.map { String(decoding: $0.body ?? [], as: UTF8.self) }
                    == #"{"distanceKm":5,"durationMinutes":30}"#)
            #expect(
                report.endpoints.first { $0.endpoint == "POST /activities/{id}/join" }?.skipped
                    == "not in this scenario")

            // Without hints: the explorer creates an activity of its own and acts on it.
            let explored = await Self.check(Fitness.spec.hinting(WriteHints()), server, credentials: credentials)
            let created = explored.sent.filter { $0.method == .post && $0.url.hasSuffix("/activities") }
            #expect(created.count == 1)
            #expect(explored.endpoints.first { $0.endpoint == "POST /activities" }?.skipped == nil)
            // With --allow-writes the probes reach writes too: a malformed body (400) and no token (401).
            #expect(explored.endpoints.first { $0.endpoint == "POST /activities" }?.elicited == [201, 400, 401])
        }
    }

    /// An action declared to run on an item the spec chooses (joining another user's activity) runs there, in the
    /// declared order; where the chooser finds none, each action is skipped with the declared reason, and is not sent
    /// to the check's own item instead.
    @Test func declaredTargetsChooseTheItemAnActionRunsOn() async throws {
        try await withMockServer(.apinest) { server in
            let credentials = Credentials(token: try await server.token(for: "camille.dubois@example.com"))
            let report = await Self.check(Fitness.spec, server, credentials: credentials)
            // Leaving answers 200 only to a participant: the activity joined is the one left.
            #expect(Self.problems(report) == [])
            for id in [Fitness.joinActivity.id, Fitness.leaveActivity.id] {
                #expect(report.endpoints.first { $0.endpoint == id }?.elicited.contains(200) == true)
            }

            let nowhere = WriteHints().acting(
                [Fitness.joinActivity.id, Fitness.leaveActivity.id], because: "needs a stranger's activity"
            ) { _ in nil }
            // Without the probes, which send their own refusals to every write, nothing else reaches the actions.
            let skipped = await Checker(
                spec: Fitness.spec.hinting(nowhere),
                options: CheckOptions(
                    baseURL: server.baseURL.absoluteString, credentials: credentials, allowWrites: true, probes: false,
                    transport: Self.patient)
            ).run()
            for id in [Fitness.joinActivity.id, Fitness.leaveActivity.id] {
                let record = skipped.endpoints.first { $0.endpoint == id }
                #expect(record?.skipped == "no item to act on: needs a stranger's activity")
                #expect(record?.requests == 0)
            }
            #expect(skipped.endpoints.first { $0.endpoint == Fitness.completeActivity.id }?.elicited == [200])
        }
    }

    /// What the explorer writes is what it reads back when a server only changes its spelling.
    @Test(arguments: [
        (JSONValue.string("2025-09-27T16:15:00Z"), JSONValue?.some(.string("2025-09-27T16:15:00.000Z")), true),
        (.string("2025-09-22"), .string("2025-09-22T00:00:00.000Z"), true),
        (.string("2025-09-22"), .string("2025-09-23T00:00:00Z"), false),
        (.string("Running"), .string("running"), false),
        (.null, nil, true),
        (.string("a"), nil, false),
        (.number(JSONNumber(1.0)), .integer(1), true),
    ])
    func writtenAndReadAreTheSame(written: JSONValue, read: JSONValue?, same: Bool) {
        #expect(Explorer.same(written, read) == same)
    }

    @Test func videGreniersIsCleanSigningInWithALogin() async throws {
        try await withMockServer(.videgreniers) { server in
            let credentials = Credentials(login: ("demo@videgreniers.test", "Passw0rd!"))
            let report = await Self.check(VideGreniers.spec, server, credentials: credentials)
            #expect(Self.problems(report) == [])
            let skipped = Set(report.endpoints.filter { $0.skipped != nil }.map(\.endpoint))
            #expect(
                skipped == ["POST /api/auth/oauth/apple", "POST /api/auth/oauth/google", "POST /api/notifications"])
            #expect(report.endpoints.count == VideGreniers.spec.endpoints.count)
            // The throwaway account is gone and the demo user's session was closed.
            let output = CheckReportRenderer.json([report])
            #expect(!output.contains("Passw0rd!"))
        }
    }

    /// Without `--destructive` the run leaves the seeded user's own data alone: the writes that would change what it
    /// did not make (a seeded notification read, the profile replaced) are not sent, and say why.
    @Test func aGuestRunLeavesTheSeededUsersDataAlone() async throws {
        try await withMockServer(.videgreniers) { server in
            let credentials = Credentials(login: ("demo@videgreniers.test", "Passw0rd!"))
            let report = await Self.check(VideGreniers.spec, server, credentials: credentials, destructive: false)
            #expect(Self.problems(report) == [])
            var skipped: [String: String] = [:]
            for record in report.endpoints { skipped[record.endpoint] = record.skipped }
            #expect(skipped["PUT /api/user/profile"] == "not sent: PUT /api/user/profile acts on all it names, not on an item the run made (--destructive sends it)")
            #expect(skipped["PATCH /api/notifications/{notificationId}/read"]?.hasPrefix("not sent: notifications item ") == true)
        }
        try await withMockServer(.apinest) { server in
            let token = try await server.token(for: "camille.dubois@example.com")
            let report = await Self.check(Achievements.spec, server, credentials: Credentials(token: token), destructive: false)
            #expect(
                report.endpoints.first { $0.endpoint == "POST /achievements/notifications/read-all" }?.skipped
                    == "not sent: its name says it acts on many items (all), not on one the run made (--destructive sends it)")
        }
    }

    /// An administrator's login reaches the administrators' `POST /api/notifications` too: every endpoint but the
    /// two sign-ins the document announces and does not implement yet.
    @Test func videGreniersAsAnAdministratorReachesEveryImplementedEndpoint() async throws {
        try await withMockServer(.videgreniers) { server in
            let credentials = Credentials(login: ("admin@videgreniers.test", "Adm1nPassw0rd!"))
            let report = await Self.check(VideGreniers.spec, server, credentials: credentials)
            #expect(Self.problems(report) == [])
            let skipped = Set(report.endpoints.filter { $0.skipped != nil }.map(\.endpoint))
            #expect(skipped == ["POST /api/auth/oauth/apple", "POST /api/auth/oauth/google"])
            #expect(report.coverage.reached == VideGreniers.spec.endpoints.count - 2)
            #expect(report.endpoints.first { $0.endpoint == "POST /api/notifications" }?.elicited.contains(201) == true)
        }
    }

    @Test func easyCoIsCleanRemovesItsFavoriteAndApplies() async throws {
        try await withMockServer(.easyco) { server in
            let mock = try #require(server.engine.behaviour as? EasyCoMock)
            let before = mock.store.read { $0.tables["favorites"]?.rows.count }
            let applications = mock.store.read { $0.tables["applications"]?.rows.count ?? 0 }
            let credentials = Credentials(token: try await server.token(), apiKey: mock.keys.anon)
            let report = await Self.check(EasyCo.spec, server, credentials: credentials)
            // The one finding is the app's: the favorite and the application it adds get `created_at` (and
            // `updated_at`) from now(), which PostgreSQL writes with microseconds (`…T08:40:07.294435+00:00`), and
            // `ISO8601DateFormatter()` without `.withFractionalSeconds` reads nil from that, as it would from
            // Supabase.
            let problems = Self.problems(report)
            #expect(problems.contains { $0.contains(" /rest/v1/favorites /*/created_at: ") })
            #expect(problems.contains { $0.contains(" /rest/v1/applications /*/updated_at: ") })
            #expect(
                problems.allSatisfy {
                    $0.hasPrefix("warning app.parse-failed ")
                        && ($0.contains(" /rest/v1/favorites /*/created_at: ")
                            || $0.contains(" /rest/v1/applications /*/created_at: ")
                            || $0.contains(" /rest/v1/applications /*/updated_at: "))
                }, "\(problems)")
            #expect(report.endpoints.first { $0.endpoint == "POST /rest/v1/applications" }?.requests == 1)
            #expect(mock.store.read { $0.tables["applications"]?.rows.count } == applications + 1)
            #expect(report.endpoints.first { $0.endpoint == "POST /rest/v1/favorites" }?.requests == 1)
            #expect(report.endpoints.first { $0.endpoint == "DELETE /rest/v1/favorites" }?.requests == 1)
            #expect(mock.store.read { $0.tables["favorites"]?.rows.count } == before)
            #expect(report.coverage.reached == EasyCo.spec.endpoints.count)
        }
    }

    @Test func intra42IsCleanWithAUserToken() async throws {
        try await withMockServer(.intra42) { server in
            let report = await Self.check(
                Intra42.spec, server, credentials: Credentials(token: try await server.token()))
            #expect(Self.problems(report) == [])
            #expect(report.endpoints.first { $0.endpoint == "DELETE /v2/slots/{id}" }?.requests == 2)
        }
    }

    /// A user's token and the application's credentials together: the sign-in is checked, the user's token kept
    /// for the user's endpoints, and every endpoint is reached.
    @Test func intra42WithAUserTokenAndClientCredentialsReachesEveryEndpoint() async throws {
        try await withMockServer(.intra42) { server in
            let mock = try #require(server.engine.behaviour as? Intra42Mock)
            let credentials = Credentials(
                token: try await server.token(), client: (mock.application.clientID, mock.application.clientSecret))
            let report = await Self.check(Intra42.spec, server, credentials: credentials)
            #expect(Self.problems(report) == [])
            #expect(report.coverage.reached == Intra42.spec.endpoints.count)
            #expect(report.endpoints.first { $0.endpoint == "POST /oauth/token" }?.elicited.contains(200) == true)
            // The probes ask for a slot no answer named yet, with and without the token: 404, then 401.
            #expect(report.endpoints.first { $0.endpoint == "DELETE /v2/slots/{id}" }?.elicited == [204, 401, 404])
        }
    }

    /// With another user's token (`--other-token`), the slots the run opened are that user's to neither see nor
    /// cancel, as the spec declares: they are left out of the other user's `GET /v2/me/slots`, and cancelling one
    /// answers 403, a documented status no other request provokes.
    @Test func intra42RefusesAnotherUserTheRunsSlots() async throws {
        try await withMockServer(.intra42) { server in
            let credentials = Credentials(
                token: try await server.token(), otherToken: try await server.token(for: "lbernard"))
            let report = await Self.check(Intra42.spec, server, credentials: credentials)
            #expect(Self.problems(report) == [])
            #expect(report.endpoints.first { $0.endpoint == "DELETE /v2/slots/{id}" }?.elicited == [204, 401, 403, 404])
        }
    }

    @Test func intra42ClientCredentialsSignInAndUserEndpointsAreRefusedAsWarnings() async throws {
        try await withMockServer(.intra42) { server in
            let mock = try #require(server.engine.behaviour as? Intra42Mock)
            let credentials = Credentials(client: (mock.application.clientID, mock.application.clientSecret))
            let report = await Self.check(Intra42.spec, server, credentials: credentials, writes: false)
            let problems = report.sortedFindings.filter { $0.severity > .note }
            #expect(!problems.isEmpty)
            #expect(problems.allSatisfy { $0.rule == .credentialRefused && $0.endpoint?.contains("/v2/me") == true })
            #expect(report.endpoints.first { $0.endpoint == "POST /oauth/token" }?.requests == 1)
            #expect(!CheckReportRenderer.json([report]).contains(mock.application.clientSecret))
        }
    }

    @Test func withoutCredentialsAuthenticatedEndpointsAreSkippedWithANote() async throws {
        try await withMockServer(.apinest) { server in
            let report = await Self.check(Fitness.spec, server, credentials: Credentials(), writes: false)
            #expect(Self.problems(report) == [])
            #expect(
                report.endpoints.filter { $0.skipped == nil }.map(\.endpoint) == [
                    "GET /activities", "GET /activities/{id}",
                ])
            #expect(
                report.endpoints.first { $0.endpoint == "POST /activities" }?.skipped
                    == "changes data: runs only with --allow-writes")
        }
    }
}
