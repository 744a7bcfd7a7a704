import Foundation
import Testing
import UnderstudyCore
import UnderstudySpecs

@testable import UnderstudyCheck

/// Servers that drift from the contract in one way each: the checker must report exactly that drift, with
/// the right rule and JSON Pointer, and nothing else above a note.
struct DriftTests {
    static let token = "drift-test-token-0123456789"

    /// A valid answer of `endpoint` (its seed-1 fixture), as a JSON value to mutate.
    static func fixture(_ spec: APISpec, _ endpoint: String, status: Int = 200) -> JSONValue {
        spec.fixture(for: spec.endpoint(endpoint)!, seed: 1).responses[status]!
    }

    /// Runs a read check of `endpoints` against canned answers; returns the findings above notes as
    /// `severity rule endpoint pointer`, sorted, and all findings.
    static func check(
        _ spec: APISpec, _ endpoints: Set<String>, answers: [String: CannedServer.Answer], probes: Bool = false,
        allowWrites: Bool = false
    ) async throws -> (lines: [String], findings: [Diagnostic]) {
        try await CannedServer.with(answers) { server in
            let credentials = Credentials(token: token, apiKey: spec.auth == .supabase ? "drift-test-anon-key" : nil)
            let options = CheckOptions(
                baseURL: server.baseURL, credentials: credentials, allowWrites: allowWrites, probes: probes, endpoints: endpoints,
                transport: CheckMockTests.patient)
            let report = await Checker(spec: spec, options: options).run()
            let lines = report.sortedFindings.filter { $0.severity > .note }.map {
                "\($0.severity) \($0.rule) \($0.endpoint ?? "-") \($0.pointer.displayString)"
            }
            return (lines, report.findings)
        }
    }

    static func activities(_ mutate: (inout [JSONValue]) -> Void) -> CannedServer.Answer {
        var list = fixture(Fitness.spec, "GET /activities").arrayValue!
        mutate(&list)
        return .json(JSONValue.array(list).serialized())
    }

    static func set(_ value: JSONValue?, _ key: String, in item: inout JSONValue) {
        guard case .object(var members) = item else { return }
        members[key] = value
        item = .object(members)
    }

    static let fitnessList: Set<String> = ["GET /activities"]

    @Test func aRemovedRequiredFieldIsASchemaAndADecodeError() async throws {
        let (lines, _) = try await Self.check(Fitness.spec, Self.fitnessList, answers: [
            "/activities": Self.activities { Self.set(nil, "title", in: &$0[0]) }
        ])
        #expect(lines == [
            "error decode.key-not-found GET /activities /0/title",
            "error schema.required-missing GET /activities /0/title",
        ])
    }

    @Test func nullInANonOptionalFieldIsReported() async throws {
        let (lines, _) = try await Self.check(Fitness.spec, Self.fitnessList, answers: [
            "/activities": Self.activities { Self.set(.null, "location", in: &$0[1]) }
        ])
        #expect(lines == [
            "error decode.value-not-found GET /activities /1/location",
            "error schema.null-not-allowed GET /activities /1/location",
        ])
    }

    @Test func aTypeChangeIsReported() async throws {
        let (lines, _) = try await Self.check(Fitness.spec, Self.fitnessList, answers: [
            "/activities": Self.activities { Self.set("12", "participants", in: &$0[0]) }
        ])
        #expect(lines == [
            "error decode.type-mismatch GET /activities /0/participants",
            "error schema.type-mismatch GET /activities /0/participants",
        ])
    }

    @Test func aNewEnumValueIsReported() async throws {
        let (lines, _) = try await Self.check(Fitness.spec, Self.fitnessList, answers: [
            "/activities": Self.activities { Self.set("everyone", "visibility", in: &$0[0]) }
        ])
        #expect(lines.contains("error schema.enum-unknown GET /activities /0/visibility"))
        #expect(lines.allSatisfy { $0.hasSuffix("/0/visibility") })
    }

    @Test func aRenamedKeyIsAMissingFieldAndAnUnknownNote() async throws {
        let (lines, findings) = try await Self.check(Fitness.spec, Self.fitnessList, answers: [
            "/activities": Self.activities { list in
                let title = list[0]["title"]
                Self.set(nil, "title", in: &list[0])
                Self.set(title, "name", in: &list[0])
            }
        ])
        #expect(lines == [
            "error decode.key-not-found GET /activities /0/title",
            "error schema.required-missing GET /activities /0/title",
        ])
        #expect(findings.contains { $0.rule == .unknownProperty && $0.pointer.displayString == "/0/name" && $0.severity == .note })
    }

    @Test func anAddedUnknownFieldIsOnlyANote() async throws {
        let (lines, findings) = try await Self.check(Fitness.spec, Self.fitnessList, answers: [
            "/activities": Self.activities { Self.set("new", "mood", in: &$0[0]) }
        ])
        #expect(lines == [])
        #expect(findings.contains { $0.rule == .unknownProperty && $0.pointer.displayString == "/0/mood" && $0.severity == .note })
    }

    @Test func anArrayWrappedInAnObjectIsReported() async throws {
        let list = Self.fixture(Fitness.spec, "GET /activities")
        let (lines, _) = try await Self.check(Fitness.spec, Self.fitnessList, answers: [
            "/activities": .json(JSONValue.object(["activities": list]).serialized())
        ])
        #expect(lines == [
            "error decode.type-mismatch GET /activities /",
            "error schema.type-mismatch GET /activities /",
        ])
    }

    @Test func fractionalSecondsBreakAnISO8601Decode() async throws {
        var body = Self.fixture(Achievements.spec, "GET /achievements/notifications")
        guard case .object(var members) = body, case .array(var items)? = members["notifications"] else {
            Issue.record("unexpected fixture shape")
            return
        }
        Self.set("2025-11-14T10:30:00.123Z", "createdAt", in: &items[0])
        // One item, so the pagination walk (which this server would fail: it ignores `limit`) does not run.
        members["notifications"] = .array([items[0]])
        body = .object(members)
        let (lines, _) = try await Self.check(Achievements.spec, ["GET /achievements/notifications"], answers: [
            "/achievements/notifications": .json(body.serialized())
        ])
        #expect(lines == [
            "error decode.data-corrupted GET /achievements/notifications /notifications/0/createdAt",
            "error schema.format-mismatch GET /achievements/notifications /notifications/0/createdAt",
        ])
    }

    @Test func aWrongStatusCodeIsReported() async throws {
        let list = Self.fixture(Fitness.spec, "GET /activities")
        let (lines, findings) = try await Self.check(Fitness.spec, Self.fitnessList, answers: [
            "/activities": .json(list.serialized(), status: 202)
        ])
        #expect(lines == ["error status.undocumented GET /activities /"])
        #expect(findings.first { $0.rule == RuleID.statusUndocumented }?.found == "202")
    }

    @Test func aWrongContentTypeIsReported() async throws {
        let (lines, findings) = try await Self.check(Fitness.spec, Self.fitnessList, answers: [
            "/activities": .json(Self.fixture(Fitness.spec, "GET /activities").serialized(), contentType: "text/plain")
        ])
        #expect(lines == ["error header.content-type GET /activities /"])
        #expect(findings.first { $0.rule == RuleID.contentType }?.found == "text/plain")
    }

    @Test func htmlInsteadOfJSONIsReported() async throws {
        let (lines, _) = try await Self.check(Fitness.spec, Self.fitnessList, answers: [
            "/activities": .json("<html><body>Bad gateway</body></html>", contentType: "text/html")
        ])
        #expect(lines == ["error body.invalid-json GET /activities /", "error header.content-type GET /activities /"])
    }

    @Test func aMissingPaginationHeaderIsReported() async throws {
        let users = Self.fixture(Intra42.spec, "GET /v2/users").serialized()
        let (lines, _) = try await Self.check(Intra42.spec, ["GET /v2/users"], answers: [
            "/v2/users": .json(users, headers: [("X-Page", "1"), ("X-Per-Page", "30")])
        ])
        #expect(lines == ["error header.missing GET /v2/users /"])
        let (rangeLines, _) = try await Self.check(
            EasyCo.spec, ["GET /rest/v1/favorites"],
            answers: ["/rest/v1/favorites": .json(Self.fixture(EasyCo.spec, "GET /rest/v1/favorites").serialized())])
        #expect(rangeLines == ["error header.missing GET /rest/v1/favorites /"])
    }

    @Test func aMissingEnvelopeFieldIsReported() async throws {
        guard case .object(var envelope) = Self.fixture(VideGreniers.spec, "GET /api/events") else {
            Issue.record("unexpected fixture shape")
            return
        }
        envelope["success"] = nil
        let (lines, _) = try await Self.check(VideGreniers.spec, ["GET /api/events"], answers: [
            "/api/events": .json(JSONValue.object(envelope).serialized())
        ])
        #expect(lines == [
            "error decode.key-not-found GET /api/events /success",
            "error schema.required-missing GET /api/events /success",
            // Said once per run whatever the server sends: the document's sample client cannot read its JSON.
            "warning lint.sample-client - /",
        ])
    }

    // MARK: A misbehaving server

    @Test func transportFailuresBecomeFindingsNotCrashes() async throws {
        let truncated = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n[{\"_id\":".utf8)
        let huge = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 999999999\r\n\r\n[".utf8)
        let redirect = CannedServer.Answer.response(
            status: 302, headers: [("Location", "https://elsewhere.example/")], body: [])
        let failure = CannedServer.Answer.json(#"{"message":"boom","statusCode":500}"#, status: 500)
        let cases: [(CannedServer.Answer, RuleID)] = [
            (.silence, .transportTimeout), (.raw(truncated), .transportClosed), (.raw([]), .transportClosed),
            (.raw(huge), .bodyTooLarge), (redirect, .statusRedirect), (failure, .statusServerError),
        ]
        for (answer, rule) in cases {
            let lines = try await CannedServer.with(["/activities": answer]) { server in
                // Only the silent server may time out; the others must be judged on what they sent.
                let timeout: Duration = rule == .transportTimeout ? .milliseconds(500) : .seconds(300)
                let options = CheckOptions(
                    baseURL: server.baseURL, probes: false, endpoints: Self.fitnessList,
                    transport: HTTPTransport.Options(timeout: timeout, maximumBodyBytes: 1 << 20))
                let report = await Checker(spec: Fitness.spec, options: options).run()
                return report.findings.filter { $0.severity == .error }.map { "\($0.rule)" + ": " + $0.message }
            }
            #expect(lines.first?.hasPrefix("\(rule): ") == true, "\(lines)")
        }
    }

    @Test func aClosedPortIsConnectionRefused() async throws {
        // Held bound, never listening: no test running beside this one can open a server on it meanwhile.
        let closed = try ClosedPort()
        let options = CheckOptions(
            baseURL: "http://127.0.0.1:\(closed.port)", probes: false, endpoints: Self.fitnessList)
        let report = await Checker(spec: Fitness.spec, options: options).run()
        #expect(report.findings.filter { $0.severity > .note }.map(\.rule) == [RuleID.transportRefused])
        withExtendedLifetime(closed) {}
    }

    @Test func retriesRepeatOnlyTransportFailures() async throws {
        let count = try await CannedServer.with(["/activities": .raw([])]) { server in
            let options = CheckOptions(
                baseURL: server.baseURL, probes: false, endpoints: Self.fitnessList,
                transport: HTTPTransport.Options(timeout: .seconds(300), retries: 2))
            _ = await Checker(spec: Fitness.spec, options: options).run()
            return server.requests.count
        }
        #expect(count == 3)
        let statusCount = try await CannedServer.with([
            "/activities": .json(#"{"message":"boom","statusCode":503}"#, status: 503)
        ]) { server in
            let options = CheckOptions(
                baseURL: server.baseURL, probes: false, endpoints: Self.fitnessList,
                transport: HTTPTransport.Options(timeout: .seconds(300), retries: 2))
            _ = await Checker(spec: Fitness.spec, options: options).run()
            return server.requests.count
        }
        #expect(statusCount == 1)
    }

    @Test func theTokenNeverAppearsInAnyOutput() async throws {
        // A server that echoes the Authorization header in its error body, and a JWT in a field.
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlLXNpZ25hdHVyZQ"
        let body = #"{"message":"bad token Bearer \#(Self.token) \#(jwt)","statusCode":401}"#
        let (_, findings) = try await Self.check(Achievements.spec, ["GET /achievements/summary"], answers: [
            "/achievements/summary": .json(body, status: 401)
        ])
        let report = CheckReport(api: "achievements", baseURL: "http://x", findings: findings, endpoints: [], seconds: 0)
        let outputs = [
            TerminalDiagnosticRenderer().render(findings), CheckReportRenderer.json([report]),
            CheckReportRenderer.junit([report], failOn: .error), CheckReportRenderer.github([report]),
        ]
        #expect(!findings.isEmpty)
        for output in outputs {
            #expect(!output.contains(Self.token))
            #expect(!output.contains(jwt))
        }
        #expect(outputs[0].contains("$UNDERSTUDY_TOKEN"))
    }
}
