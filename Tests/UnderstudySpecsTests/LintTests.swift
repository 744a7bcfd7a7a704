import Foundation
import Testing
import UnderstudyCore
import UnderstudySpecs

/// `understudy lint`: each of a document's contradictions once, with every endpoint and field it touches.
struct LintTests {
    @Test(arguments: Specs.all.map(\.id))
    func lintOutputIsPinned(api: String) {
        let spec = Specs.named(api)![0]
        Golden.assert(LintRenderer.text([(spec, DocumentLint.contradictions(in: spec))]), named: "lint/\(api).txt")
    }

    @Test func theSampleClientsDatesAreOneWarningAcrossEveryEndpoint() throws {
        let contradictions = DocumentLint.contradictions(in: VideGreniers.spec)
        let sample = contradictions.filter { $0.rule == .sampleClient }
        // JSONDecoder() with .deferredToDate stops at the first ISO date of each example: one root cause.
        #expect(sample.count == 1)
        let warning = try #require(sample.first)
        #expect(warning.severity == .warning)
        #expect(
            warning.message
                == "the document's sample client, as written (dates: deferredToDate, keys: useDefaultKeys), cannot "
                + "decode the document's own JSON: expected Double [decode.type-mismatch]")
        #expect(warning.endpoints.contains("GET /api/events"))
        #expect(warning.places.contains { $0.endpoint == "GET /api/events" && $0.pointer == "/data/*/startDate" })
        #expect(warning.resolution.contains("dates: iso8601"))
    }

    @Test func placeholdersAndMissingTimestampsAreErrorsOfTheDocument() {
        let errors = DocumentLint.contradictions(in: VideGreniers.spec).filter { $0.severity == .error }
        #expect(errors.allSatisfy { $0.rule == .exampleInvalid })
        let uuid = errors.first { $0.message.contains("uuid format") }
        #expect(uuid?.places.contains { $0.found == #""uuid""# } == true)
        let timestamp = errors.first { $0.message.contains("a required member is missing") }
        #expect(timestamp?.places.allSatisfy { $0.pointer == "/timestamp" } == true)
        #expect(timestamp?.endpoints.contains("GET /api/events") == true)
    }

    @Test func aDeclaredContradictionIsListedWithItsEndpoint() throws {
        let counts = try #require(
            DocumentLint.contradictions(in: VideGreniers.spec).first { $0.id == "activity-counts-wire-shape" })
        #expect(counts.rule == .contradiction)
        #expect(counts.endpoints == ["GET /api/user-activities/statistics"])
    }

    @Test func theAppContractDecodesTheDocumentedActivityCounts() throws {
        let endpoint = try #require(VideGreniers.spec.endpoint("GET /api/user-activities/statistics"))
        let body = #"""
            {"data": {"totalActivities": 65, "activityCounts": {"0": 45, "1": 12, "7": 8}, "eventsViewed": 45,
            "eventsFavorited": 12, "eventsCreated": 0, "searchesPerformed": 8, "topSearchTerms": [],
            "lastActivityDate": "2023-09-06T12:45:00Z", "periodStart": "2023-08-07T00:00:00Z",
            "periodEnd": "2023-09-06T00:00:00Z"}, "success": true, "message": null, "errors": null,
            "timestamp": "2023-09-06T12:45:00Z"}
            """#
        let model = try #require(endpoint.response)
        #expect(BodyCheck.findings(Array(body.utf8), model: model, spec: VideGreniers.spec).isEmpty)
        // Keys switched to the enum's names break both contracts.
        let names = body.replacingOccurrences(of: #"{"0": 45, "1": 12, "7": 8}"#, with: #"{"EventViewed": 45}"#)
        let findings = BodyCheck.findings(Array(names.utf8), model: model, spec: VideGreniers.spec)
        #expect(findings.map(\.rule) == [.invalidKey, .decodeDataCorrupted])
        #expect(findings.map(\.pointer.description) == Array(repeating: "/data/activityCounts/EventViewed", count: 2))
    }

    @Test func documentsWithoutASampleClientDepartureHaveNoSampleWarning() {
        for spec in [Fitness.spec, Achievements.spec, EasyCo.spec, Intra42.spec] {
            #expect(!DocumentLint.contradictions(in: spec).contains { $0.rule == .sampleClient }, "\(spec.id)")
        }
    }
}
