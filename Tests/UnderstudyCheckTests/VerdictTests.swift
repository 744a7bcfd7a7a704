import Foundation
import Testing
import UnderstudyCore
import UnderstudySpecs

@testable import UnderstudyCheck

/// Verdicts a team can gate CI on: the wire contract and the app contract apart, one finding per root
/// cause, secrets nowhere.
struct VerdictTests {
    /// The event of `GET /api/events` exactly as the VideGreniers document shows it (ISO 8601 dates with
    /// `Z`), with its "uuid" placeholders made real UUIDs and the envelope's `timestamp` the other examples
    /// carry: what an ASP.NET server sends, here as `GET /api/events/nearby`'s list (no page walk). `count`
    /// events, the document's own repeated.
    static func documentedEvents(count: Int = 1, startDate: String = "2023-09-15T08:00:00Z") -> String {
        let example = VideGreniers.spec.endpoint("GET /api/events")!.examples.responses[200]!
        var body = try! JSONParser().parse(Array(example.utf8))
        guard case .object(var envelope) = body, case .array(let events)? = envelope["data"],
            case .object(var event) = events[0]
        else { fatalError("the document's example changed shape") }
        event["startDate"] = .string(startDate)
        envelope["data"] = .array(
            (0..<count).map { index in
                var copy = event
                copy["id"] = .string(String(format: "3f2504e0-4f89-11d3-9a0c-%012x", index))
                return .object(copy).replacingPlaceholders
            })
        envelope["timestamp"] = "2023-09-15T08:00:00Z"
        envelope["pagination"] = nil
        body = .object(envelope)
        return body.serialized()
    }

    static func check(
        _ body: String, spec: APISpec = VideGreniers.spec, maximum: Int = 20
    ) async throws -> CheckReport {
        try await CannedServer.with(["/api/events/nearby": .json(body)]) { server in
            let options = CheckOptions(
                baseURL: server.baseURL, probes: false, endpoints: ["GET /api/events/nearby"],
                transport: CheckMockTests.patient, maximumFindingsPerResponse: maximum)
            return await Checker(spec: spec, options: options).run()
        }
    }

    static func lines(_ report: CheckReport) -> [String] {
        report.sortedFindings.filter { $0.severity > .note }.map {
            "\($0.severity) \($0.rule) \($0.pointer.collapsingIndices.displayString) ×\($0.occurrences)"
        }
    }

    // MARK: Two contracts

    @Test func theDocumentedJSONHasNoErrorAndTheSampleClientIsOneWarning() async throws {
        let report = try await Self.check(Self.documentedEvents(count: 3))
        #expect(Self.lines(report) == ["warning lint.sample-client / ×1"])
        #expect(report.app == AppContract(decoder: DecoderSettings(dates: .iso8601), sampleClient: .plain))
    }

    @Test func fractionalSecondsAreOneAppFindingNotOnePerEvent() async throws {
        // .NET writes 7 fraction digits for instants that are not whole seconds; Apple's .iso8601 refuses them.
        let report = try await Self.check(Self.documentedEvents(count: 50, startDate: "2023-09-15T08:00:00.1234567Z"))
        #expect(
            Self.lines(report) == [
                "error decode.data-corrupted /data/*/startDate ×1",
                "error schema.format-mismatch /data/*/startDate ×50",
                "warning lint.sample-client / ×1",
            ])
        let schema = try #require(report.findings.first { $0.rule == .formatMismatch })
        #expect(schema.examples.count == Diagnostic.examplesKept)
        #expect(
            schema.examples.first
                == #"/data/1/startDate: expected string in date-time-no-fraction format, found "2023-09-15T08:00:00.1234567Z""#
        )
    }

    @Test func aDateWithoutAZoneBreaksBothContracts() async throws {
        let report = try await Self.check(Self.documentedEvents(count: 2, startDate: "2023-09-15T08:00:00"))
        #expect(
            Self.lines(report) == [
                "error decode.data-corrupted /data/*/startDate ×1",
                "error schema.format-mismatch /data/*/startDate ×2",
                "warning lint.sample-client / ×1",
            ])
    }

    @Test func aTeamWhoseAppDecodesDifferentlySaysSoOnce() async throws {
        // An app left with JSONDecoder()'s default fails on every date: one finding per field, not per event.
        let spec = VideGreniers.spec.withApp(DecoderSettings(dates: .deferredToDate), origin: "--date-strategy")
        let report = try await Self.check(Self.documentedEvents(count: 40), spec: spec)
        // That app is the sample client as written: no separate warning about it.
        #expect(Self.lines(report) == ["error decode.type-mismatch /data/*/startDate ×1"])
        #expect(
            report.appLine == "videgreniers: app decoder dates: deferredToDate, keys: useDefaultKeys (--date-strategy)")
        let json = CheckReportRenderer.json([report])
        #expect(json.contains(#""origin": "--date-strategy""#))
    }

    // MARK: One finding per root cause

    @Test func oneAnswerAddsAtMostTheCapThenCountsTheRest() async throws {
        // Every event drifts in five fields: 5 distinct findings; a cap of 3 keeps 3 and counts 2.
        var body = Self.documentedEvents(count: 4)
        for field in ["title", "city", "status", "eventType", "viewCount"] {
            body = body.replacingOccurrences(of: "\"\(field)\":", with: "\"\(field)Renamed\":")
        }
        let report = try await Self.check(body, maximum: 3)
        let capped = try #require(report.findings.first { $0.rule == .findingsCapped })
        #expect(capped.message.hasPrefix("and "))
        #expect(capped.message.hasSuffix(" more like this in the same answer (--max-findings-per-response 3)"))
        #expect(
            report.findings.filter { $0.endpoint == "GET /api/events/nearby" && $0.rule != .ambiguity }.count == 3 + 1)
    }

    @Test func aOneDriftReportFitsOnOneScreen() async throws {
        // One field retyped in a long list, every page of the walk repeating it.
        let body = Self.documentedEvents(count: 500).replacingOccurrences(
            of: #""favoriteCount":"#, with: #""favoriteCount":"many","was":"#)
        let report = try await Self.check(body)
        // What `check` prints by default: notes left out.
        let text = TerminalDiagnosticRenderer(showNotes: false).render(report.sortedFindings)
        #expect(text.split(separator: "\n").count <= 40, "\(text)")
        #expect(text.contains("×500"))
        let notes = report.findings.filter { $0.severity == .note }.count
        #expect(text.hasSuffix("2 errors, 1 warning, \(notes) notes (notes not shown: --notes)\n"))
        #expect(!text.contains("note "))
        let all = TerminalDiagnosticRenderer().render(report.sortedFindings)
        #expect(all.split(separator: "\n").count > text.split(separator: "\n").count)
    }

    @Test func oneModelFieldsFindingsAreShownTogetherAcrossEndpoints() async throws {
        // EventDto.startDate drifts to a zone-less date on the list and on the detail of one event.
        let list = Self.documentedEvents(count: 2, startDate: "2023-09-15T08:00:00")
        var detail = try JSONParser().parse(Array(list.utf8))
        guard case .object(var envelope) = detail, let first = detail["data"]?[0] else { return }
        envelope["data"] = first
        detail = .object(envelope)
        let id = try #require(first["id"]?.stringValue)
        let report = try await CannedServer.with([
            "/api/events/nearby": .json(list), "/api/events/\(id)": .json(detail.serialized()),
        ]) { server in
            let options = CheckOptions(
                baseURL: server.baseURL, parameters: ["id": id], probes: false,
                endpoints: ["GET /api/events/nearby", "GET /api/events/{id}"], transport: CheckMockTests.patient)
            return await Checker(spec: VideGreniers.spec, options: options).run()
        }
        let text = TerminalDiagnosticRenderer(showNotes: false).render(report.sortedFindings)
        #expect(text.contains("VideGreniers.EventDto.startDate [schema.format-mismatch], on 2 endpoints\n"))
        #expect(
            text.contains("  error GET /api/events/nearby /data/*/startDate: expected string in date-time-no-fraction"))
        #expect(text.contains("  error GET /api/events/{id} /data/startDate: expected string in date-time-no-fraction"))
        let json = CheckReportRenderer.json([report])
        #expect(json.contains(#""field": "VideGreniers.EventDto.startDate""#))
    }

    // MARK: Secrets

    @Test func aSecretEchoedAnywhereIsRedactedInEveryOutput() async throws {
        // The token as a member name (so in the pointer), in a value (found, message), in the error text
        // (context), and in the examples of a merged finding.
        let secret = "echoed-secret-0123456789"
        var items: [String] = []
        for index in 0..<3 {
            items.append(
                #"{"_id":"\#(index)","Bearer \#(secret)":1,"title":7,"sportType":"Bearer \#(secret)","location":"x"}"#)
        }
        let body = "[" + items.joined(separator: ",") + "]"
        let report = try await CannedServer.with(["/activities": .json(body)]) { server in
            let options = CheckOptions(
                baseURL: server.baseURL, credentials: Credentials(token: secret), probes: false,
                endpoints: ["GET /activities"], transport: CheckMockTests.patient)
            return await Checker(spec: Fitness.spec, options: options).run()
        }
        #expect(report.findings.contains { $0.pointer.description.contains("$UNDERSTUDY_TOKEN") })
        let outputs = [
            TerminalDiagnosticRenderer().render(report.sortedFindings), CheckReportRenderer.json([report]),
            CheckReportRenderer.junit([report], failOn: .error), CheckReportRenderer.github([report]),
        ]
        for output in outputs { #expect(!output.contains(secret)) }
    }
}

extension JSONValue {
    /// The value with the document's `"uuid"` placeholders replaced by real UUIDs.
    fileprivate var replacingPlaceholders: JSONValue {
        switch self {
        case .string("uuid"): .string("9b2f6c1e-2d3a-4b5c-8d7e-1f2a3b4c5d6e")
        case .array(let elements): .array(elements.map(\.replacingPlaceholders))
        case .object(let members): .object(members.mapValues(\.replacingPlaceholders))
        default: self
        }
    }
}

/// Against a server per API that sends the documented JSON (``DocumentedServer``), with the document's own
/// sign-in, `check` reports no error and no warning about the server.
struct DocumentedServerTests {
    /// A JWT-shaped token (the checker reads the user id of EasyCo's writes from its `sub`; the documented
    /// server only compares it).
    static let token =
        [#"{"alg":"HS256","typ":"JWT"}"#, #"{"sub":"9b2f6c1e-2d3a-4b5c-8d7e-1f2a3b4c5d6e","role":"authenticated"}"#]
        .map { Data($0.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "") }
        .joined(separator: ".") + ".documented-signature"

    static let apis = ["fitness", "achievements", "videgreniers", "intra42", "easyco"]

    /// `check` with the document's sign-in (a token; VideGreniers' login; 42's client credentials; EasyCo's
    /// anon key) against the API's documented server, changed by `drift`.
    static func check(
        _ api: String, probes: Bool = false, reversedLinks: Bool = false, strict: Bool = false,
        unknown: CannedServer.Answer? = nil,
        drift: @escaping @Sendable (AnyEndpoint, [String: String], JSONValue) -> JSONValue = { $2 }
    ) async throws
        -> (CheckReport, APISpec)
    {
        let spec = try #require(Specs.named(api)?.first)
        let apiKey = spec.auth == .supabase ? "documented-anon-key" : nil
        let credentials =
            switch spec.id {
            case "videgreniers": Credentials(login: ("demo@videgreniers.test", "Passw0rd!"))
            case "intra42": Credentials(client: ("documented-client", "documented-secret"))
            default: Credentials(token: Self.token, apiKey: apiKey)
            }
        let documented = DocumentedServer.answer(
            spec, token: Self.token, apiKey: apiKey, reversedLinks: reversedLinks, drift: drift)
        // What names nothing (the probes' `understudy-no-such-login-1`) gets `unknown`, when given.
        var answer = documented
        if let unknown, case .choose(let choose) = documented {
            answer = .choose { head in head.contains("understudy-no-such-") ? unknown : choose(head) }
        }
        let report = try await CannedServer.with([:], otherwise: answer) { server in
            var options = CheckOptions(
                baseURL: server.baseURL, credentials: credentials, allowWrites: !probes, probes: probes,
                transport: CheckMockTests.patient)
            options.strict = strict
            // The server is this test's and keeps nothing: the writes on items the run did not make are sent too.
            options.destructive = true
            return await Checker(spec: spec, options: options).run()
        }
        return (report, spec)
    }

    /// The problems a documented server may have: not `resource.not-kept` nor `resource.unique-not-enforced`, as it
    /// keeps nothing (its reads answer the document's example whatever was written, and a second insert of the same
    /// row is answered as the first); what is kept is judged against the mocks.
    static func problems(_ report: CheckReport) -> [String] {
        CheckMockTests.problems(report).filter {
            !$0.contains(" \(RuleID.resourceNotKept) ") && !$0.contains(" \(RuleID.uniqueNotEnforced) ")
        }
    }

    @Test(arguments: apis)
    func theDocumentedJSONChecksClean(api: String) async throws {
        let (report, spec) = try await Self.check(api)
        #expect(Self.problems(report) == [])
        // Every read ran, and with --allow-writes every write the API's scenarios cover.
        let checked = Set(report.endpoints.filter { $0.skipped == nil }.map(\.endpoint))
        let reads = spec.endpoints.filter { $0.method == .get && $0.availability == .available }.map(\.id)
        #expect(Set(reads).isSubset(of: checked), "\(report.endpoints.filter { $0.skipped != nil })")
        #expect(checked.count > reads.count, "\(report.endpoints.filter { $0.skipped != nil })")
    }

    @Test(arguments: apis)
    func compatibleDriftsAreNoError(api: String) async throws {
        // Every object gains a member, and optional members sent as null are left out. (Not the maps, whose
        // keys are values: dates, enum raw values, ids.)
        let (report, _) = try await Self.check(api) { _, _, body in body.compatiblyDrifted }
        #expect(Self.problems(report) == [])
        #expect(report.findings.contains { $0.rule == .unknownProperty })
    }

    /// 42's document gives no status for an unknown login (the `error-statuses` ambiguity): a server that answers
    /// it 404 with a body of its own gets warnings naming the assumption, one cause across the endpoints in text,
    /// and errors with `--strict`.
    @Test func aStatusNoDocumentNamesIsAWarningButWithStrict() async throws {
        let unknown = CannedServer.Answer.json("{}", status: 404)
        let (report, _) = try await Self.check("intra42", probes: true, unknown: unknown)
        let assumed = report.findings.filter { $0.rule == .probeErrorEnvelope }
        #expect(Set(assumed.compactMap(\.endpoint)).count >= 4, "\(assumed.map(\.summary))")
        #expect(assumed.allSatisfy { $0.severity == .warning && $0.basis == .assumption("error-statuses") })
        #expect(!report.findings.contains { $0.severity == .error && $0.basis != .document })
        let text = TerminalDiagnosticRenderer().render(report.sortedFindings)
        #expect(text.components(separatedBy: "[probe.error-envelope, assumed: error-statuses]").count == 2, "\(text)")

        let (strict, _) = try await Self.check("intra42", probes: true, strict: true, unknown: unknown)
        let errors = strict.findings.filter { $0.rule == .probeErrorEnvelope && $0.severity == .error }
        #expect(errors.count == assumed.count)
    }

    @Test func aReorderedLinkHeaderIsNoError() async throws {
        let (report, _) = try await Self.check("intra42", reversedLinks: true)
        #expect(CheckMockTests.problems(report) == [])
        #expect(report.endpoints.contains { $0.endpoint == "GET /v2/users/{login}/projects_users" && $0.requests >= 3 })
    }

    @Test(arguments: apis)
    func aRetypedFieldIsAnErrorOnItsEndpoint(api: String) async throws {
        // The first GET with a string in its body sends that string as a number.
        let spec = try #require(Specs.named(api)?.first)
        let drifted = try #require(
            spec.endpoints.first { endpoint in
                endpoint.method == .get
                    && DocumentedServer.body(for: endpoint, in: spec, token: Self.token).firstString != nil
            })
        let driftedID = drifted.id
        let (report, _) = try await Self.check(api) { endpoint, _, body in
            endpoint.id == driftedID ? body.retypingFirstString : body
        }
        // (A second insert answered as the first is the static server's, not the drift: see `problems`.)
        let errors = report.findings.filter { $0.severity == .error && $0.rule != .uniqueNotEnforced }
        #expect(!errors.isEmpty)
        #expect(errors.allSatisfy { $0.endpoint == drifted.id }, "\(errors.map(\.summary))")
    }
}

extension JSONValue {
    fileprivate var compatiblyDrifted: JSONValue {
        switch self {
        case .object(let members):
            var drifted = members.filter { $0.value != .null }.mapValues(\.compatiblyDrifted)
            // A model's keys are names (`createdOnUtc`, `end_at`); a map's are values: dates, enum raw values,
            // ids (the document's `event-uuid-1`). An empty map has no key to tell.
            let isName = { (key: String) in
                key.first?.isLetter == true && key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
            }
            if !members.isEmpty && members.keys.allSatisfy(isName) {
                drifted["addedByTheServer"] = "added"
            }
            return .object(drifted)
        case .array(let elements): return .array(elements.map(\.compatiblyDrifted))
        default: return self
        }
    }

    /// The first string member, depth first in key order.
    fileprivate var firstString: String? {
        switch self {
        case .string(let text): text
        case .object(let members): members.keys.sorted().lazy.compactMap { members[$0]!.firstString }.first
        case .array(let elements): elements.lazy.compactMap(\.firstString).first
        default: nil
        }
    }

    fileprivate var retypingFirstString: JSONValue {
        switch self {
        case .string: return .number(JSONNumber(42))
        case .object(var members):
            guard let key = members.keys.sorted().first(where: { members[$0]!.firstString != nil }) else { return self }
            members[key] = members[key]!.retypingFirstString
            return .object(members)
        case .array(var elements):
            guard let index = elements.firstIndex(where: { $0.firstString != nil }) else { return self }
            elements[index] = elements[index].retypingFirstString
            return .array(elements)
        default: return self
        }
    }
}
