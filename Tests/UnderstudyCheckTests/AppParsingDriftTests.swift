import Testing
import UnderstudyCore
import UnderstudySpecs

@testable import UnderstudyCheck

/// EasyCo's app parses timestamp strings with `ISO8601DateFormatter().date(from:)`: a value it cannot
/// parse decodes fine and still breaks the app.
struct AppParsingDriftTests {
    static func favorites(createdAt: String) -> [String: CannedServer.Answer] {
        var rows = DriftTests.fixture(EasyCo.spec, "GET /rest/v1/favorites").arrayValue ?? []
        for index in rows.indices { DriftTests.set(.string(createdAt), "created_at", in: &rows[index]) }
        let range = rows.isEmpty ? "*/0" : "0-\(rows.count - 1)/*"
        return ["/rest/v1/favorites": .json(JSONValue.array(rows).serialized(), headers: [("Content-Range", range)])]
    }

    @Test func aTimestampTheAppParsesIsClean() async throws {
        let (lines, _) = try await DriftTests.check(
            EasyCo.spec, ["GET /rest/v1/favorites"], answers: Self.favorites(createdAt: "2025-12-04T10:15:30+00:00"))
        #expect(lines == [])
    }

    @Test func fractionalSecondsAreReportedOncePerField() async throws {
        let (lines, findings) = try await DriftTests.check(
            EasyCo.spec, ["GET /rest/v1/favorites"],
            answers: Self.favorites(createdAt: "2025-12-04T10:15:30.123456+00:00"))
        #expect(lines == ["warning app.parse-failed GET /rest/v1/favorites /*/created_at"])
        let finding = try #require(findings.first { $0.rule == .appParseFailed })
        #expect(
            finding.message
                == "the app reads created_at with ISO8601DateFormatter().date(from:), which returns nil for its value")
        #expect(finding.context["example"] == #"/0/created_at = "2025-12-04T10:15:30.123456+00:00""#)
    }
}
