import Testing
import UnderstudyCore

@testable import UnderstudyMock

/// RFC 3339 §5.6: `time-numoffset = ("+" / "-") time-hour ":" time-minute`, `time-hour = 2DIGIT ; 00-23`,
/// `time-minute = 2DIGIT ; 00-59`. Any offset up to ±23:59 is a valid date-time on the wire, although
/// Foundation's formatters (and so an app's `.iso8601` decoder) stop at ±18:00; the mocks follow the RFC.
struct RFC3339OffsetTests {
    @Test func theGrammarAllowsOffsetsUpTo2359() {
        for text in ["2025-11-15T08:00:00+23:59", "2025-11-15T08:00:00-23:59", "2025-11-15T08:00:00.5+18:01"] {
            #expect(DateTimeSyntax.matchesDateTime(text, fraction: .optional), "\(text)")
        }
        for text in ["2025-11-15T08:00:00+24:00", "2025-11-15T08:00:00+12:60", "2025-11-15T08:00:00+1200"] {
            #expect(!DateTimeSyntax.matchesDateTime(text, fraction: .optional), "\(text)")
        }
    }

    @Test func videGreniersReadsQueryDatesWithLargeOffsets() async throws {
        let harness = try await VideGreniersHarness.make()
        let large = await harness.send("GET", "/api/events?startDate=2025-11-15T08:00:00%2B23:59")
        #expect(large.status == 200)
        // The same instant written in UTC selects the same events.
        let utc = await harness.send("GET", "/api/events?startDate=2025-11-14T08:01:00Z")
        #expect(large.json?["data"] == utc.json?["data"])
        let beyond = await harness.send("GET", "/api/events?startDate=2025-11-15T08:00:00%2B24:00")
        #expect(beyond.status == 400)
        #expect(
            beyond.json?["errors"]?[0]?.stringValue?.hasPrefix("query parameter startDate:") == true,
            "\(beyond.json ?? .null)")
    }
}
