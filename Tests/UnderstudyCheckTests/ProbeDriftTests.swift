import Foundation
import Testing
import UnderstudyCore
import UnderstudySpecs

@testable import UnderstudyCheck

/// Servers that answer the app's requests well but refuse badly: an unknown id, a missing or bad token, an
/// invalid query value, a malformed body. Each probe rule fires on the drifted server and stays silent on a
/// conforming one.
struct ProbeDriftTests {
    static let unknownActivity = "ffffffffffffffff00000001"

    static func error(_ spec: APISpec, _ status: HTTPStatus, headers: [(String, String)] = []) -> CannedServer.Answer {
        .json(
            spec.errorEnvelope.make(status, ["understudy probe"]).serialized(), status: status.rawValue,
            headers: headers)
    }

    /// The fitness list and one activity answered well; an unknown id and an invalid `visibility` answered
    /// with `unknown` and `invalid`.
    static func fitness(unknown: CannedServer.Answer, invalid: CannedServer.Answer = error(Fitness.spec, .badRequest))
        -> [String: CannedServer.Answer]
    {
        let list = DriftTests.fixture(Fitness.spec, "GET /activities")
        let id = list[0]?["_id"]?.stringValue ?? ""
        return [
            "/activities": .choose { head in head.contains("understudy-invalid") ? invalid : .json(list.serialized()) },
            "/activities/\(id)": .json(DriftTests.fixture(Fitness.spec, "GET /activities/{id}").serialized()),
            "/activities/\(unknownActivity)": unknown,
        ]
    }

    static let fitnessReads: Set<String> = ["GET /activities", "GET /activities/{id}"]

    /// The lines and the messages of the findings above notes.
    static func check(
        _ spec: APISpec, _ endpoints: Set<String>, _ answers: [String: CannedServer.Answer], allowWrites: Bool = false
    ) async throws -> (lines: [String], messages: [String]) {
        let (lines, findings) = try await DriftTests.check(
            spec, endpoints, answers: answers, probes: true, allowWrites: allowWrites)
        // Probes of one rule on one endpoint are one finding; the other probes' messages are its examples.
        let messages = findings.filter { $0.severity > .note }
            .flatMap { finding in
                [finding.message]
                    + finding.examples.map {
                        String($0.dropFirst("/: ".count))
                            .replacingOccurrences(of: #" \(found: [^)]*\)$"#, with: "", options: .regularExpression)
                    }
            }.sorted()
        return (lines, messages)
    }

    // MARK: Unknown id

    @Test func anUnknownIdAnsweredWithTheEnvelopeIsClean() async throws {
        let (lines, _) = try await Self.check(
            Fitness.spec, Self.fitnessReads, Self.fitness(unknown: Self.error(Fitness.spec, .notFound)))
        #expect(lines == [])
    }

    @Test func anHTMLNotFoundPageIsReported() async throws {
        let (lines, findings) = try await DriftTests.check(
            Fitness.spec, Self.fitnessReads,
            answers: Self.fitness(
                unknown: .json("<html><body>Not Found</body></html>", status: 404, contentType: "text/html")),
            probes: true)
        #expect(lines == ["error probe.content-type GET /activities/{id} /"])
        let finding = try #require(findings.first { $0.rule == .probeContentType })
        #expect(
            finding.message
                == "the 404 answer to an unknown id (ffffffffffffffff00000001) is text/html, not JSON; "
                + "the app decodes the error from it")
        // The probe's own request, to reproduce it.
        #expect(finding.context["curl"]?.contains("/activities/ffffffffffffffff00000001'") == true)
    }

    @Test func anUnknownIdAnsweredWithAnItemIsReported() async throws {
        let item = DriftTests.fixture(Fitness.spec, "GET /activities/{id}").serialized()
        let (lines, messages) = try await Self.check(
            Fitness.spec, Self.fitnessReads, Self.fitness(unknown: .json(item)))
        #expect(lines == ["error probe.not-found-status GET /activities/{id} /"])
        #expect(messages == ["an unknown id (ffffffffffffffff00000001) was answered with 200, not 404"])
    }

    @Test func aNotFoundBodyOutsideTheEnvelopeIsReported() async throws {
        let (lines, messages) = try await Self.check(
            Fitness.spec, Self.fitnessReads, Self.fitness(unknown: .json(#"{"error":"Not Found"}"#, status: 404)))
        #expect(lines == ["error probe.error-envelope GET /activities/{id} /message"])
        #expect(
            messages == [
                "the 404 answer to an unknown id (ffffffffffffffff00000001) is not the API's error envelope "
                    + "Apinest.APIErrorResponse: required property is missing (expected string)"
            ])
    }

    // MARK: Invalid query value

    @Test func anIgnoredInvalidQueryValueIsAWarning() async throws {
        let list = DriftTests.fixture(Fitness.spec, "GET /activities").serialized()
        let (lines, messages) = try await Self.check(
            Fitness.spec, Self.fitnessReads,
            Self.fitness(unknown: Self.error(Fitness.spec, .notFound), invalid: .json(list)))
        #expect(lines == ["warning probe.invalid-query-accepted GET /activities /"])
        #expect(messages == ["visibility=understudy-invalid (an enum parameter) was answered with 200, not 400"])
    }

    // MARK: Authentication

    /// `GET /achievements/summary` answered with the summary for the run's token, `refusal` otherwise.
    static func summary(refusal: CannedServer.Answer) -> [String: CannedServer.Answer] {
        let summary = DriftTests.fixture(Achievements.spec, "GET /achievements/summary").serialized()
        return [
            "/achievements/summary": .choose { head in
                head.contains("Authorization: Bearer \(DriftTests.token)") ? .json(summary) : refusal
            }
        ]
    }

    @Test func refusedTokensAreClean() async throws {
        let (lines, _) = try await Self.check(
            Achievements.spec, ["GET /achievements/summary"],
            Self.summary(refusal: Self.error(Achievements.spec, .unauthorized)))
        #expect(lines == [])
    }

    @Test func aServerThatAcceptsAnyTokenIsReported() async throws {
        let summary = DriftTests.fixture(Achievements.spec, "GET /achievements/summary").serialized()
        let (lines, messages) = try await Self.check(
            Achievements.spec, ["GET /achievements/summary"], Self.summary(refusal: .json(summary)))
        #expect(lines == ["error probe.auth-not-refused GET /achievements/summary /"])
        #expect(
            messages == [
                "a garbage token was answered with 200, not 401",
                "a request without a token was answered with 200, not 401",
                "an expired token was answered with 200, not 401",
            ])
    }

    @Test func aRefusalWithTheWrongStatusIsReported() async throws {
        let (lines, messages) = try await Self.check(
            Achievements.spec, ["GET /achievements/summary"],
            Self.summary(refusal: Self.error(Achievements.spec, .forbidden)))
        #expect(lines == ["error probe.auth-status GET /achievements/summary /"])
        #expect(messages.last == "an expired token was answered with 403, not 401")
    }

    /// `GET /v2/me` answered for the run's token; otherwise a 401 with `headers`.
    static func me(_ headers: [(String, String)]) -> [String: CannedServer.Answer] {
        ["/v2/me": authorized(.json(DriftTests.fixture(Intra42.spec, "GET /v2/me").serialized()), headers)]
    }

    /// Doorkeeper's challenge on a 401.
    static let doorkeeper = [("WWW-Authenticate", #"Bearer realm="Doorkeeper", error="invalid_token""#)]

    static let campus = DriftTests.fixture(Intra42.spec, "GET /v2/campus/{id}").serialized()

    /// `GET /v2/me` (refusing without the token, with Doorkeeper's challenge), the campus it names answered with
    /// `known`, and the probes' unknown campus with `unknown`.
    static func meAndCampus(
        known: CannedServer.Answer, unknown: CannedServer.Answer
    ) throws -> [String: CannedServer.Answer] {
        let id = try #require(DriftTests.fixture(Intra42.spec, "GET /v2/me")["campus"]?[0]?["id"]?.numberValue?.literal)
        var answers = me(doorkeeper)
        answers["/v2/campus/\(id)"] = known
        answers["/v2/campus/2147483646"] = unknown
        return answers
    }

    /// `answer` for the run's token; otherwise 42's 401 with `headers`.
    static func authorized(_ answer: CannedServer.Answer, _ headers: [(String, String)]) -> CannedServer.Answer {
        let refusal = CannedServer.Answer.json(
            #"{"error":"Not authorized","message":"The access token is invalid"}"#, status: 401, headers: headers)
        return .choose { head in head.contains("Authorization: Bearer \(DriftTests.token)") ? answer : refusal }
    }

    @Test func aDoorkeeperRefusalWithItsChallengeIsClean() async throws {
        let (lines, _) = try await Self.check(
            Intra42.spec, ["GET /v2/me"],
            Self.me(Self.doorkeeper))
        #expect(lines == [])
    }

    @Test func aMissingChallengeIsReported() async throws {
        let (lines, messages) = try await Self.check(Intra42.spec, ["GET /v2/me"], Self.me([]))
        #expect(lines == ["error probe.www-authenticate-missing GET /v2/me /"])
        #expect(
            messages.first
                == "the 401 answer to a garbage token has no WWW-Authenticate header; the real server sends one")
    }

    @Test func aStatusNoDocumentNamesIsExpectedWithAWarning() async throws {
        // 42: no document names the 404 for an unknown id; the spec assumes it. Every route refuses a request without
        // the token: each documents its 401, and each is asked.
        let campus = Self.authorized(.json(Self.campus), Self.doorkeeper)
        let answers = try Self.meAndCampus(known: campus, unknown: campus)
        let (lines, messages) = try await Self.check(Intra42.spec, ["GET /v2/me", "GET /v2/campus/{id}"], answers)
        #expect(lines == ["warning probe.not-found-status GET /v2/campus/{id} /"])
        #expect(messages == ["an unknown id (2147483646) was answered with 200, not 404"])
    }

    /// One route that forgets its guard (the issue's `visibility=friends`-style bug) is found though the route the
    /// token variants go to refuses them all: a request without a token goes to every route documenting its 401.
    @Test func aRouteThatLetsARequestWithoutATokenThroughIsFound() async throws {
        let notFound = CannedServer.Answer.json(#"{"error":"Not Found","message":"Not Found"}"#, status: 404)
        let answers = try Self.meAndCampus(
            known: .json(Self.campus), unknown: Self.authorized(notFound, Self.doorkeeper))
        let (lines, messages) = try await Self.check(Intra42.spec, ["GET /v2/me", "GET /v2/campus/{id}"], answers)
        #expect(lines == ["error probe.auth-not-refused GET /v2/campus/{id} /"])
        #expect(messages == ["a request without a token was answered with 200, not 401"])
    }

    // MARK: Malformed body

    /// `POST /activities`: 401 without the run's token (the probes of a missing, garbage and expired one), 201
    /// for the write scenario's body, `malformed` for the probe's 15 bytes.
    static func create(malformed: CannedServer.Answer) -> [String: CannedServer.Answer] {
        let created = DriftTests.fixture(Fitness.spec, "POST /activities", status: 201).serialized()
        let refusal = error(Fitness.spec, .unauthorized)
        return [
            "/activities": .choose { head in
                guard head.contains("Authorization: Bearer \(DriftTests.token)") else { return refusal }
                return head.lowercased().components(separatedBy: "\r\n").contains("content-length: 15")
                    ? malformed : .json(created, status: 201)
            }
        ]
    }

    @Test func aRefusedMalformedBodyIsClean() async throws {
        let (lines, _) = try await Self.check(
            Fitness.spec, ["POST /activities"], Self.create(malformed: Self.error(Fitness.spec, .badRequest)),
            allowWrites: true)
        #expect(lines == [])
    }

    @Test func anAcceptedMalformedBodyIsReported() async throws {
        let created = DriftTests.fixture(Fitness.spec, "POST /activities", status: 201).serialized()
        let (lines, messages) = try await Self.check(
            Fitness.spec, ["POST /activities"], Self.create(malformed: .json(created, status: 201)), allowWrites: true)
        #expect(lines == ["error probe.malformed-body-accepted POST /activities /"])
        #expect(messages == ["a malformed JSON body was answered with 201, not 400"])
    }

    // MARK: Unique keys

    /// A PostgREST table whose declared unique key the server does not enforce. The explorer favorites a property
    /// (the user column filled with the token's `sub`, the foreign key with a listed property), then sends the same
    /// row again: PostgreSQL refuses it (`23505`, which PostgREST answers 409), so a second 201 is reported, and both
    /// rows are deleted by `id=eq.` alone. The same run against a server answering 409 reports nothing of the kind.
    @Test(arguments: [false, true])
    func aUniqueKeyNotEnforcedIsReported(enforced: Bool) async throws {
        let user = "0be57a3d-5448-4032-b7a1-877ba1798cf7"
        let token = [#"{"alg":"HS256","typ":"JWT"}"#, #"{"sub":"\#(user)","role":"authenticated"}"#, "signature"]
            .map { NegativeProbes.base64URL(Array($0.utf8)) }.joined(separator: ".")
        let properties = DriftTests.fixture(EasyCo.spec, "GET /rest/v1/properties")
        var row = try #require(
            DriftTests.fixture(EasyCo.spec, "POST /rest/v1/favorites", status: 201).arrayValue?.first)
        row[pointer: "/user_id"] = .string(user)
        row[pointer: "/property_id"] = try #require(properties.arrayValue?.first?["id"])
        let created = JSONValue.array([row]).serialized()
        let posts = Locked(0)
        let answers: [String: CannedServer.Answer] = [
            "/rest/v1/properties": .json(properties.serialized()),
            "/rest/v1/favorites": .choose { head in
                if head.hasPrefix("DELETE") { return .response(status: 204, headers: [], body: []) }
                guard head.hasPrefix("POST") else { return .json("[]") }
                let count = posts.withLock { count in
                    count += 1
                    return count
                }
                if count > 1 && enforced {
                    return .json(
                        #"{"code":"23505","details":null,"hint":null,"message":"duplicate key value violates unique constraint"}"#,
                        status: 409)
                }
                return .json(created, status: 201)
            },
        ]
        let endpoints: Set<String> = [
            "GET /rest/v1/properties", "GET /rest/v1/favorites", "POST /rest/v1/favorites", "DELETE /rest/v1/favorites",
        ]
        try await CannedServer.with(answers) { server in
            let options = CheckOptions(
                baseURL: server.baseURL, credentials: Credentials(token: token, apiKey: "drift-test-anon-key"),
                allowWrites: true, probes: false, endpoints: endpoints, transport: CheckMockTests.patient)
            let report = await Checker(spec: EasyCo.spec, options: options).run()
            let unique = report.findings.filter { $0.rule == .uniqueNotEnforced }
            #expect(unique.count == (enforced ? 0 : 1), "\(report.findings.map(\.summary))")
            #expect(unique.allSatisfy { $0.endpoint == "POST /rest/v1/favorites" && $0.severity == .error })
            let sent = server.requests.map { $0.prefix { $0 != "\r" } }
            #expect(sent.filter { $0.hasPrefix("POST /rest/v1/favorites") }.count == 2, "\(sent)")
            // Every delete names one row by its id, and nothing else.
            let deletes = sent.filter { $0.hasPrefix("DELETE") }
            #expect(deletes.count == (enforced ? 1 : 2), "\(sent)")
            #expect(deletes.allSatisfy { $0.hasPrefix("DELETE /rest/v1/favorites?id=eq.") && !$0.contains("&") })
        }
    }
}
