import Testing
import UnderstudyCore

@testable import UnderstudyCheck

struct RedactorTests {
    @Test func knownSecretsBecomePlaceholders() {
        let redactor = Redactor(secrets: [("s3cr3t-token-value", "UNDERSTUDY_TOKEN")])
        #expect(redactor.redact("Authorization: Bearer s3cr3t-token-value") == "Authorization: Bearer $UNDERSTUDY_TOKEN")
    }

    @Test func anythingShapedLikeAJWTIsRedacted() {
        let text = #"{"accessToken":"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl","x":"eyJ not a token"}"#
        #expect(Redactor().redact(text) == #"{"accessToken":"<redacted-jwt>","x":"eyJ not a token"}"#)
    }

    @Test func curlKeepsPlaceholdersExpandableAndQuotesTheRest() {
        let redactor = Redactor(secrets: [("s3cr3t-token-value", "UNDERSTUDY_TOKEN")])
        let request = OutgoingRequest(
            method: .post, url: "http://127.0.0.1:1/a?b=c'd",
            headers: ["Authorization": "Bearer s3cr3t-token-value", "Content-Type": "application/json"],
            body: Array(#"{"price":"$5"}"#.utf8))
        #expect(
            Curl.command(for: request, redactor: redactor)
                == #"curl -sS -i -X POST 'http://127.0.0.1:1/a?b=c'\''d' -H "Authorization: Bearer $UNDERSTUDY_TOKEN" "#
                + #"-H 'Content-Type: application/json' --data-raw '{"price":"$5"}'"#)
    }
}
