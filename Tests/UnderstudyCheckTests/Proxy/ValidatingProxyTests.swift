import Foundation
import Hummingbird
import Testing
import UnderstudyCore
import UnderstudyMock
import UnderstudyMockServer
import UnderstudySpecs

@testable import UnderstudyCheck

struct ValidatingProxyTests {
    static let apinest = [Fitness.spec, Achievements.spec]

    /// Sends through `transport` to `base + target`.
    static func send(
        _ transport: HTTPTransport, _ method: HTTPMethod, _ base: String, _ target: String, headers: HeaderFields = [:],
        body: String? = nil
    ) async -> Exchange {
        var fields = headers
        if body != nil { fields.add("Content-Type", "application/json") }
        return await transport.send(
            OutgoingRequest(method: method, url: base + target, headers: fields, body: body.map { Array($0.utf8) }))
    }

    static let validActivity = """
        {"sportType":"running","title":"Morning run","description":null,"location":"Paris","latitude":48.85,\
        "longitude":2.35,"date":"2030-05-01","time":"2030-05-01T07:30:00Z","participants":4,"level":"beginner",\
        "visibility":"public"}
        """

    @Test func answersAreTheMocksOwnAndValidTrafficHasNoFindings() async throws {
        let mock = try await MockServer.start(.apinest)
        let proxy = try await ValidatingProxy.start(
            specs: Self.apinest, upstream: mock.baseURL.absoluteString,
            options: ProxyOptions(transport: CheckMockTests.patient))
        try await Self.withClient { client in
            let direct = mock.baseURL.absoluteString
            let proxied = proxy.baseURL.absoluteString
            let token = try await mock.token()
            let list = await Self.send(client, .get, direct, "/activities")
            let listBody = try JSONParser().parse(try #require(list.response).body)
            let id = try #require(listBody[0]?["_id"]?.stringValue)
            let requests: [(HTTPMethod, String, HeaderFields, String?)] = [
                (.get, "/activities", [:], nil),
                (.get, "/activities?visibility=public", [:], nil),
                (.get, "/activities/\(id)", ["Authorization": "Bearer \(token)"], nil),
                (.get, "/activities/5f1d7c2e9b1e8a3d4c2b1a09", [:], nil),  // 404 in the API's envelope
                (.post, "/activities", [:], Self.validActivity),  // 401: no token
            ]
            for (method, target, headers, body) in requests {
                let expected = try #require(
                    await Self.send(client, method, direct, target, headers: headers, body: body).response)
                let actual = try #require(
                    await Self.send(client, method, proxied, target, headers: headers, body: body).response)
                #expect(actual.status == expected.status, "\(method) \(target)")
                #expect(actual.body == expected.body, "\(method) \(target)")
                for name in ["Content-Type", "Content-Length", "Server"] {
                    #expect(actual.headers[name] == expected.headers[name], "\(name) of \(method) \(target)")
                }
            }
            let created = await Self.send(
                client, .post, proxied, "/activities", headers: ["Authorization": "Bearer \(token)"],
                body: Self.validActivity)
            #expect(created.response?.status == 201)

            let findings = await proxy.findings
            #expect(findings.filter { $0.severity >= .warning }.map(\.summary) == [])
            let reports = await proxy.reports()
            #expect(reports.map(\.api) == ["fitness", "achievements"])
            #expect(reports[0].requests == requests.count + 1)
        }
        await proxy.stop()
        await mock.stop()
    }

    @Test func driftedAnswerIsPassedOnUnchangedAndReported() async throws {
        let drifted = """
            [{"_id":"5f1d7c2e9b1e8a3d4c2b1a09","sportType":"running","location":"Paris","date":"2030-05-01T00:00:00Z",\
            "time":"2030-05-01T07:30:00Z","participants":"four","participantIds":[],"level":"beginner",\
            "visibility":"public","isCompleted":false,"creator":{"_id":"5f1d7c2e9b1e8a3d4c2b1a01","name":"Alex"},\
            "createdAt":"2030-04-01T00:00:00Z","updatedAt":"2030-04-01T00:00:00Z"}]
            """
        let router = Router()
        router.get("/activities") { _, _ in TestUpstream.json(drifted) }
        let upstream = try await TestUpstream.start(router)
        let streamed = StreamedFindings()
        let proxy = try await ValidatingProxy.start(
            spec: Fitness.spec, upstream: upstream.baseURL, options: ProxyOptions(transport: CheckMockTests.patient)
        ) {
            streamed.append($0)
        }
        try await Self.withClient { client in

            let response = try #require(
                await Self.send(client, .get, proxy.baseURL.absoluteString, "/activities").response)
            #expect(response.status == 200)
            #expect(response.body == Array(drifted.utf8))
            #expect(response.headers["Content-Type"] == "application/json")

            let findings = await proxy.findings
            let missing = try #require(findings.first { $0.rule == .requiredMissing })
            #expect(missing.pointer == "/0/title")
            #expect(missing.endpoint == "GET /activities")
            #expect(missing.severity == .error)
            #expect(missing.context["curl"] == "curl -sS -i '\(upstream.baseURL)/activities'")
            let mistyped = try #require(findings.first { $0.rule == .typeMismatch })
            #expect(mistyped.pointer == "/0/participants")
            #expect(mistyped.expected == "integer")
            #expect(streamed.all == findings)

            // The app asks again: the same findings are not reported twice.
            _ = await Self.send(client, .get, proxy.baseURL.absoluteString, "/activities")
            #expect(await proxy.findings.count == findings.count)
        }
        await proxy.stop()
        await upstream.stop()
    }

    /// `understudy record`: what the proxy saw, as fixtures (one per endpoint, the first answer of each status and
    /// the request that got it), every secret of the traffic replaced by its name; `mock --fixtures` replays them.
    @Test func recordingWritesRedactedFixturesTheMockReplays() async throws {
        let mock = try await MockServer.start(.videgreniers)
        let proxy = try await ValidatingProxy.start(
            specs: [VideGreniers.spec], upstream: mock.baseURL.absoluteString,
            options: ProxyOptions(transport: CheckMockTests.patient, recording: true))
        var token = ""
        try await Self.withClient { client in
            let proxied = proxy.baseURL.absoluteString
            let login = await Self.send(
                client, .post, proxied, "/api/auth/login",
                body: #"{"email": "demo@videgreniers.test", "password": "Passw0rd!"}"#)
            let answer = try JSONParser().parse(try #require(login.response).body)
            token = try #require(answer["data"]?["accessToken"]?.stringValue)
            _ = await Self.send(client, .get, proxied, "/api/events?pageSize=2")
            _ = await Self.send(client, .get, proxied, "/api/events?pageSize=3")
        }
        let recorded = try #require(await proxy.recordings()["videgreniers"])
        await proxy.stop()
        await mock.stop()
        #expect(recorded.map(\.endpoint) == ["GET /api/events", "POST /api/auth/login"])
        let text = recorded.map { $0.jsonValue.serialized() }.joined()
        #expect(!text.contains(token))
        #expect(!text.contains("Passw0rd!"))
        let login = try #require(recorded.last)
        #expect(login.request?["password"] == "$UNDERSTUDY_PASSWORD")
        #expect(login.responses[200]?["data"]?["accessToken"] == "$UNDERSTUDY_TOKEN")
        // The first answer is kept: two events, not three.
        let events = try #require(recorded.first?.responses[200]?["data"]?.arrayValue)
        #expect(events.count == 2)

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-record-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("videgreniers"), withIntermediateDirectories: true)
        for fixture in recorded {
            try Data(fixture.jsonValue.serialized(.pretty).utf8).write(
                to: folder.appendingPathComponent("videgreniers").appendingPathComponent(fixture.fileName))
        }
        let replay = try await MockServer.start(.videgreniers, configuration: MockConfiguration(fixturesDirectory: folder))
        try await Self.withClient { client in
            let listed = await Self.send(client, .get, replay.baseURL.absoluteString, "/api/events?pageSize=100")
            let titles = try JSONParser().parse(try #require(listed.response).body)["data"]?.arrayValue?
                .compactMap { $0["title"]?.stringValue } ?? []
            let recordedTitles = events.compactMap { $0["title"]?.stringValue }
            #expect(recordedTitles.count == 2)
            #expect(Set(recordedTitles).isSubset(of: Set(titles)), "\(titles)")
        }
        await replay.stop()
    }

    /// An answer that breaks the contract is reported and not recorded.
    @Test func aBrokenAnswerIsNotRecorded() async throws {
        let router = Router()
        router.get("/activities") { _, _ in TestUpstream.json(#"[{"_id": 5}]"#) }
        let upstream = try await TestUpstream.start(router)
        let proxy = try await ValidatingProxy.start(
            spec: Fitness.spec, upstream: upstream.baseURL,
            options: ProxyOptions(transport: CheckMockTests.patient, recording: true))
        try await Self.withClient { client in
            _ = await Self.send(client, .get, proxy.baseURL.absoluteString, "/activities")
        }
        #expect(await proxy.recordings()["fitness"] == nil)
        #expect(await proxy.findings.contains { $0.rule == .proxyNotRecorded && $0.endpoint == "GET /activities" })
        await proxy.stop()
        await upstream.stop()
    }

    @Test func invalidRequestIsForwardedAndReported() async throws {
        let mock = try await MockServer.start(.apinest)
        let proxy = try await ValidatingProxy.start(
            specs: Self.apinest, upstream: mock.baseURL.absoluteString,
            options: ProxyOptions(transport: CheckMockTests.patient))
        try await Self.withClient { client in
            let token = try await mock.token()
            let body =
                #"{"sportType":"running","location":"Paris","date":"2030-05-01","time":"2030-05-01T07:30:00Z","#
                + #""participants":"many","level":"beginner","visibility":"public"}"#
            let response = await Self.send(
                client, .post, proxy.baseURL.absoluteString, "/activities",
                headers: ["Authorization": "Bearer \(token)"],
                body: body)
            // The mock refuses it: the request reached it.
            #expect(response.response?.status == 400)

            let findings = await proxy.findings
            let missing = try #require(findings.first { $0.rule == .request(.requiredMissing) })
            #expect(missing.pointer == "/title")
            #expect(missing.endpoint == "POST /activities")
            #expect(findings.contains { $0.rule == .request(.typeMismatch) && $0.pointer == "/participants" })
            #expect(findings.allSatisfy { $0.rule.rawValue.hasPrefix("request.") || $0.severity < .warning })
            let curl = try #require(missing.context["curl"])
            #expect(curl.contains(#"-H "Authorization: Bearer $UNDERSTUDY_TOKEN""#))
            #expect(!Self.rendered(findings).contains(token))
        }
        await proxy.stop()
        await mock.stop()
    }

    @Test func upstreamDownIsABadGatewayAndUnknownRoutesANote() async throws {
        // A port held bound and never listening: connections to it are refused, and no other test can take it.
        let closed = try ClosedPort()
        defer { withExtendedLifetime(closed) {} }
        // The refused connection is reported at once; the short timeout only bounds the test if it were not.
        let proxy = try await ValidatingProxy.start(
            spec: Fitness.spec, upstream: "http://127.0.0.1:\(closed.port)",
            options: ProxyOptions(transport: HTTPTransport.Options(timeout: .seconds(1))))
        try await Self.withClient { client in
            let secrets: HeaderFields = [
                "Authorization": "Bearer opaque-secret-token-42", "apikey": "anon-key-secret-99",
            ]

            let exchange = await Self.send(client, .get, proxy.baseURL.absoluteString, "/activities", headers: secrets)
            let down = try #require(exchange.response)
            #expect(down.status == 502)
            #expect(down.headers["Content-Type"] == "application/json")
            #expect(try JSONParser().parse(down.body)["error"] == "Bad Gateway")
            let unknown = await Self.send(
                client, .post, proxy.baseURL.absoluteString, "/nowhere?x=1", headers: secrets,
                body: #"{"password":"hunter2-secret"}"#)
            #expect(unknown.response?.status == 502)

            let findings = await proxy.findings
            let refused = try #require(
                findings.first { $0.rule.rawValue.hasPrefix("transport.") && $0.endpoint == "GET /activities" })
            #expect(refused.severity == .error)
            let curl = try #require(refused.context["curl"])
            #expect(curl.contains("$UNDERSTUDY_TOKEN") && curl.contains("$UNDERSTUDY_APIKEY"))
            let note = try #require(findings.first { $0.rule == .proxyUnknownRoute })
            #expect(note.severity == .note)
            #expect(note.endpoint == "POST /nowhere")
            #expect(note.context["curl"]?.contains("$UNDERSTUDY_PASSWORD") == true)

            let reports = await proxy.reports()
            let everything =
                Self.rendered(findings) + CheckReportRenderer.json(reports)
                + CheckReportRenderer.junit(reports, failOn: .error)
            for secret in ["opaque-secret-token-42", "anon-key-secret-99", "hunter2-secret"] {
                #expect(!everything.contains(secret), "\(secret) leaked")
            }
        }
        await proxy.stop()
    }

    @Test func aLiteralSegmentBeatsAParameter() throws {
        let session = ProxySession(specs: [VideGreniers.spec], upstream: "http://upstream", onFinding: { _ in })
        #expect(session.route(.get, "/api/events/nearby")?.endpoint.id == "GET /api/events/nearby")
        let event = try #require(session.route(.get, "/api/events/42"))
        #expect(event.endpoint.id == "GET /api/events/{id}")
        #expect(event.path == ["id": "42"])
        #expect(session.route(.get, "/api/events/42/nowhere") == nil)
    }

    /// Runs `body` with an HTTP client and always shuts the client down.
    static func withClient(_ body: (HTTPTransport) async throws -> Void) async throws {
        let client = HTTPTransport(options: CheckMockTests.patient)
        do {
            try await body(client)
        } catch {
            await client.shutdown()
            throw error
        }
        await client.shutdown()
    }

    /// Every way a finding is printed.
    static func rendered(_ findings: [Diagnostic]) -> String {
        findings.map { ProxyOutput.text($0) + ProxyOutput.jsonLine($0) }.joined()
            + TerminalDiagnosticRenderer().render(findings)
    }
}

/// Findings as the `onFinding` callback streamed them.
final class StreamedFindings: Sendable {
    private let storage = DiagnosticBuffer()
    func append(_ finding: Diagnostic) { storage.collect(finding) }
    var all: [Diagnostic] { storage.diagnostics }
}
