import Foundation
import Testing
import UnderstudyCore

private struct Booking: Codable, Sendable {
    let id: UUID
    let fee: Decimal?
}

/// Rules between values in different places of one request (``RequestRule``): how they are written, judged and
/// kept by generated requests.
struct RequestRuleTests {
    private let spec = APISpec(
        id: "bookings", title: "Bookings", document: "none", auth: .bearerJWT, wire: DecoderSettings(dates: .iso8601),
        errorEnvelope: ErrorEnvelope(JSONValue.self) { _, messages in .string(messages.joined()) },
        endpoints: [
            AnyEndpoint(
                Endpoint<Booking, NoContent>(
                    .put, "/bookings/{id}", parameters: [.path("id", .string(format: .uuid))], auth: .none,
                    success: .noContent, rules: [.equal(.body("id"), .path("id"))], summary: "Replace a booking")),
            AnyEndpoint(
                Endpoint<NoBody, [Booking]>(
                    .get, "/bookings",
                    parameters: [
                        .query("from", .string(format: .dateTime)), .query("until", .string(format: .dateTime)),
                    ],
                    auth: .none, rules: [.notBefore(.query("until"), .query("from"))], summary: "List bookings")),
        ])

    private func findings(
        _ id: String, path: [String: String] = [:], query: [String: String] = [:], body: String = ""
    ) -> [String] {
        let endpoint = spec.endpoint(id)!
        return RequestInspector(spec: spec, endpoint: endpoint)
            .inspect(body: Array(body.utf8), contentType: "application/json") { parameter in
                parameter.location == .path ? path[parameter.name] : query[parameter.name]
            }
            .findings.filter { $0.severity == .error }.map { "\($0.rule) \($0.message)" }
    }

    @Test func rulesAreWrittenAsRuntimeExpressions() {
        let rule = RequestRule.equal(.body("id"), .path("id"))
        #expect(rule.json == ["equal": ["$request.body#/id", "$request.path.id"]])
        #expect(RequestRule(json: rule.json) == rule)
        let period = RequestRule.notBefore(.query("endDate"), .query("startDate"))
        #expect(period.json == ["notBefore": ["$request.query.endDate", "$request.query.startDate"]])
        #expect(RequestRule(json: period.json) == period)
        #expect(RequestRule(json: ["notBefore": ["$request.cookie.a", "$request.query.b"]]) == nil)
        #expect(RequestRule(json: ["after": ["a", "b"]]) == nil)
        #expect(RequestValue(expression: "$request.body#/a~1b") == .body("a/b"))
    }

    @Test func aBodyValueMustEqualThePathsInAnyUUIDCase() {
        let id = "6F1C2B8E-4A0D-4C77-9B55-8E2D1F0A3C11"
        #expect(findings("PUT /bookings/{id}", path: ["id": id.lowercased()], body: #"{"id": "\#(id)"}"#) == [])
        #expect(
            findings(
                "PUT /bookings/{id}", path: ["id": id], body: #"{"id": "0f1c2b8e-4a0d-4c77-9b55-8e2d1f0a3c11"}"#) == [
                    #"request.rule-broken id: expected a value equal to path parameter id (string "\#(id)"), found string "0f1c2b8e-4a0d-4c77-9b55-8e2d1f0a3c11""#
                ])
    }

    @Test func aQueryValueMustNotBeBeforeAnother() {
        #expect(findings("GET /bookings", query: ["from": "2025-11-10T00:00:00Z", "until": "2025-11-10T00:00:00Z"]) == [])
        #expect(findings("GET /bookings", query: ["from": "2025-11-10T00:00:00Z"]) == [])
        #expect(
            findings("GET /bookings", query: ["from": "2025-11-10T02:00:00+02:00", "until": "2025-11-09T23:00:00Z"])
                == [
                    #"request.rule-broken query parameter until: expected a value not before query parameter from (string "2025-11-10T02:00:00+02:00"), found string "2025-11-09T23:00:00Z""#
                ])
        // A value its schema refuses is that parameter's finding only.
        #expect(
            findings("GET /bookings", query: ["from": "2025-11-10T00:00:00Z", "until": "soon"]).map { $0.prefix(33) }
                == ["request.parameter-invalid query p"])
    }

    @Test func generatedValuesAreMadeToKeepTheRules() throws {
        let replace = try #require(spec.endpoint("PUT /bookings/{id}"))
        var path = ["id": "6f1c2b8e-4a0d-4c77-9b55-8e2d1f0a3c11"]
        var query: [(String, String)] = []
        var body: JSONValue? = ["id": "0f1c2b8e-4a0d-4c77-9b55-8e2d1f0a3c11"]
        replace.keepRules(path: &path, query: &query, body: &body)
        #expect(body == ["id": "6f1c2b8e-4a0d-4c77-9b55-8e2d1f0a3c11"])
        #expect(findings(replace.id, path: path, body: body!.serialized()) == [])

        let list = try #require(spec.endpoint("GET /bookings"))
        query = [("from", "2025-11-10T00:00:00Z"), ("until", "2025-11-01T00:00:00Z")]
        var none: JSONValue?
        list.keepRules(path: &path, query: &query, body: &none)
        #expect(query.map(\.1) == ["2025-11-10T00:00:00Z", "2025-11-10T00:15:00Z"])
        #expect(findings(list.id, query: Dictionary(uniqueKeysWithValues: query)) == [])
    }

    /// .NET's decimal rounds a number finer than 10⁻²⁸ to zero (System.Text.Json through
    /// `Number.TryNumberToDecimal`); Foundation's Decimal cannot hold 8.4e-154 at all. The model reads it as zero
    /// instead of refusing a body the server takes.
    @Test func aDecimalTooSmallForADecimalTypeReadsAsZero() throws {
        let replace = try #require(spec.endpoint("PUT /bookings/{id}"))
        let id = "6f1c2b8e-4a0d-4c77-9b55-8e2d1f0a3c11"
        let inspection = RequestInspector(spec: spec, endpoint: replace)
            .inspect(body: Array(#"{"id": "\#(id)", "fee": 8.4e-154}"#.utf8), contentType: "application/json") { _ in
                id
            }
        #expect(inspection.findings.filter { $0.severity == .error }.isEmpty)
        #expect(inspection.body?["fee"]?.numberValue?.doubleValue == 0)
        let small = RequestInspector(spec: spec, endpoint: replace)
            .inspect(body: Array(#"{"id": "\#(id)", "fee": 1.5e-20}"#.utf8), contentType: "application/json") { _ in
                id
            }
        #expect(small.body?["fee"]?.numberValue?.doubleValue == 1.5e-20)
    }

    @Test func diffCallsANewRuleBreaking() {
        let before = APISpec(
            id: "bookings", title: "Bookings", document: "none", auth: .bearerJWT, wire: DecoderSettings(),
            errorEnvelope: spec.errorEnvelope,
            endpoints: [
                AnyEndpoint(
                    Endpoint<Booking, NoContent>(
                        .put, "/bookings/{id}", parameters: [.path("id", .string(format: .uuid))], auth: .none,
                        success: .noContent, summary: "Replace a booking"))
            ])
        let after = APISpec(
            id: "bookings", title: "Bookings", document: "none", auth: .bearerJWT, wire: DecoderSettings(),
            errorEnvelope: spec.errorEnvelope, endpoints: [spec.endpoint("PUT /bookings/{id}")!])
        let added = SpecDiff.compare(old: before.canonicalJSON, new: after.canonicalJSON)
        #expect(added.map(\.impact) == [.breaking])
        #expect(added.first?.message.contains(#"{"equal":["$request.body#/id","$request.path.id"]}"#) == true)
        let dropped = SpecDiff.compare(old: after.canonicalJSON, new: before.canonicalJSON)
        #expect(dropped.map(\.impact) == [.compatible])
    }
}
