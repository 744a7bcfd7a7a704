import Foundation
import Testing
import UnderstudyCore

private struct Badge: Codable, Sendable {
    enum Rarity: String, Codable, CaseIterable, Sendable { case common, rare }
    let id: String
    let rarity: Rarity
    let earnedAt: Date?
    let count: Int
}

struct DecodeVerdictTests {
    private let spec = APISpec(
        id: "test", title: "Test", document: "none", auth: .bearerJWT, wire: DecoderSettings(dates: .iso8601),
        errorEnvelope: ErrorEnvelope(JSONValue.self) { _, messages in .string(messages.joined()) },
        endpoints: [AnyEndpoint(Endpoint<NoBody, [Badge]>(.get, "/badges", auth: .required, summary: "Badges"))])

    private func findings(_ json: String) -> [String] {
        let endpoint = spec.endpoint("GET /badges")!
        return BodyCheck.findings(Array(json.utf8), model: endpoint.response!, spec: spec).map { "\($0.rule) \($0.summary)" }
    }

    @Test func fractionalSecondsFailUnderAppleISO8601() {
        #expect(
            findings(#"[{"id": "b", "rarity": "rare", "earnedAt": "2025-11-15T14:30:00.000Z", "count": 1}]"#) == [
                #"schema.format-mismatch /0/earnedAt: expected string in date-time-no-fraction format, found "2025-11-15T14:30:00.000Z""#,
                #"decode.data-corrupted /0/earnedAt: the app cannot decode [Badge]: Expected date string to be ISO8601-formatted. (found string "2025-11-15T14:30:00.000Z")"#,
            ])
        #expect(findings(#"[{"id": "b", "rarity": "rare", "earnedAt": "2025-11-15T14:30:00Z", "count": 1}]"#) == [])
    }

    @Test func unknownEnumCase() {
        #expect(
            findings(#"[{"id": "b", "rarity": "mythic", "count": 1}]"#) == [
                #"schema.enum-unknown /0/rarity: expected one of "common", "rare", found "mythic""#,
                #"decode.data-corrupted /0/rarity: the app cannot decode [Badge]: Cannot initialize Rarity from invalid String value mythic (found string "mythic")"#,
            ])
    }

    @Test func nullInANonOptionalAndMissingKeys() {
        #expect(
            findings(#"[{"id": null, "rarity": "rare", "count": 1}]"#) == [
                "schema.null-not-allowed /0/id: expected string, found null; the model's property is not optional",
                "decode.value-not-found /0/id: the app cannot decode [Badge]: expected String, found null",
            ])
        #expect(
            findings(#"[{"id": "b", "rarity": "rare"}]"#) == [
                "schema.required-missing /0/count: required property is missing (expected integer)",
                #"decode.key-not-found /0/count: the app cannot decode [Badge]: required key "count" is missing"#,
            ])
    }

    @Test func typeChangesAndWrappedArrays() {
        #expect(
            findings(#"[{"id": "b", "rarity": "rare", "count": "1"}]"#) == [
                #"schema.type-mismatch /0/count: expected integer, found string "1""#,
                #"decode.type-mismatch /0/count: the app cannot decode [Badge]: expected Int, found string "1""#,
            ])
        #expect(
            findings(#"{"items": []}"#) == [
                "schema.type-mismatch /: expected array, found object",
                "decode.type-mismatch /: the app cannot decode [Badge]: expected array, found object",
            ])
    }

    @Test func notJSONIsOneFinding() {
        #expect(findings("<html>502</html>") == [#"body.invalid-json /: the body is not JSON: unexpected '<' at byte 0"#])
        #expect(findings(#"[{"id": "#) == ["body.invalid-json /: the body is not JSON: unexpected end of input at byte 8: the JSON text is truncated"])
    }
}
