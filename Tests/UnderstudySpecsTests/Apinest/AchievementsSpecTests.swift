import Foundation
import Testing
import UnderstudyCore

@testable import UnderstudySpecs

struct AchievementsSpecTests {
    let spec = Achievements.spec

    /// Every error finding for `text` as a body of the response of `endpoint` (schema and app decoding).
    func findings(_ text: String, _ endpoint: String) throws -> [String] {
        let model = try #require(spec.endpoint(endpoint)?.response)
        return BodyCheck.findings(Array(text.utf8), model: model, spec: spec).filter { $0.severity == .error }
            .map(\.summary)
    }

    static let notification = #"""
        {"_id": "65a1b2c3d4e5f6a7b8c9d0e1", "type": "badge_unlocked", "title": "Badge", "message": "Bravo",
         "metadata": METADATA, "isRead": false, "createdAt": "2025-11-14T10:30:00Z"}
        """#

    static func notificationsPage(metadata: String, createdAt: String = "2025-11-14T10:30:00Z") -> String {
        let item = notification.replacingOccurrences(of: "METADATA", with: metadata)
            .replacingOccurrences(of: "2025-11-14T10:30:00Z", with: createdAt)
        return #"{"notifications": [\#(item)], "pagination": {"total": 1, "page": 1, "totalPages": 1, "limit": 20}}"#
    }

    @Test func endpointsMatchTheInventory() {
        #expect(
            spec.endpoints.map(\.id) == [
                "GET /achievements/summary", "GET /achievements/badges", "GET /achievements/challenges",
                "GET /achievements/leaderboard", "GET /achievements/notifications",
                "POST /achievements/notifications/{id}/read", "POST /achievements/notifications/read-all",
            ])
        #expect(spec.id == "achievements")
        #expect(spec.wire == DecoderSettings(dates: .iso8601))
        #expect(spec.app == AppContract(decoder: DecoderSettings(dates: .iso8601)))
        #expect(spec.endpoints.allSatisfy { $0.auth == .required && $0.errors.contains(.unauthorized) })
        #expect(spec.endpoints.allSatisfy { $0.request == nil && $0.success == .ok })
        // The guide has no JSON example at all.
        #expect(spec.endpoints.allSatisfy { $0.examples == Examples() })
    }

    @Test func pagedEndpointsTakePageLimitAndUnreadOnly() throws {
        let paging = Pagination.pageInBody(
            pageParameter: "page", sizeParameter: "limit", metadataPointer: "/pagination")
        let leaderboard = try #require(spec.endpoint("GET /achievements/leaderboard"))
        let notifications = try #require(spec.endpoint("GET /achievements/notifications"))
        #expect(leaderboard.pagination == paging && notifications.pagination == paging)
        #expect(leaderboard.parameters.map(\.name) == ["page", "limit"])
        #expect(notifications.parameters.map(\.name) == ["page", "limit", "unreadOnly"])
        #expect(notifications.parameters.map(\.defaultValue) == [1, 20, false])
        #expect(notifications.parameters.map(\.schema) == [.integer(minimum: 1), .integer(minimum: 1), .boolean])
        #expect(leaderboard.response?.name == "Apinest.LeaderboardResponse")
        let read = try #require(spec.endpoint("POST /achievements/notifications/{id}/read"))
        #expect(read.parameters == [.path("id", .string(format: .objectId), summary: "The notification's `_id`.")])
        #expect(spec.endpoint("POST /achievements/notifications/read-all")?.response?.name == "Apinest.EmptyResponse")
    }

    @Test func challengesAreWrappedNotABareArray() throws {
        #expect(spec.endpoint("GET /achievements/challenges")?.response?.name == "Apinest.ChallengesResponse")
        let challenge = #"""
            {"_id": "65a1b2c3d4e5f6a7b8c9d0e1", "name": "5 km", "description": "Run 5 km", "challengeType": "weekly",
             "xpReward": 100, "currentProgress": 2, "target": 5, "daysLeft": 3, "expiresAt": "2025-11-20T00:00:00Z"}
            """#
        #expect(try findings(#"{"activeChallenges": [\#(challenge)]}"#, "GET /achievements/challenges").isEmpty)
        // The fitness guide's `[Challenge]` reading of the same endpoint (Foundation's decode message differs
        // between platforms, so only the rule and location of the decode finding are pinned).
        let model = try #require(spec.endpoint("GET /achievements/challenges")?.response)
        let bare = try JSONValue(parsing: "[\(challenge)]")
        let findings = BodyCheck.findings(bare.serializedBytes(), model: model, spec: spec)
        #expect(findings.map(\.rule) == [.typeMismatch, .decodeTypeMismatch])
        #expect(findings.map(\.pointer) == [.root, .root])
        #expect(findings.first?.summary == "/: expected object, found array of 1")
        let ambiguity = try #require(spec.ambiguities.first { $0.id == "challenges-response-shape" })
        #expect(ambiguity.endpoint == "GET /achievements/challenges")
    }

    @Test func fractionalSecondsBreakTheAppsDates() throws {
        let page = Self.notificationsPage(metadata: "null", createdAt: "2025-11-14T10:30:00.000Z")
        let stamp = #""2025-11-14T10:30:00.000Z""#
        #expect(
            try findings(page, "GET /achievements/notifications") == [
                "/notifications/0/createdAt: expected string in date-time-no-fraction format, found \(stamp)",
                "/notifications/0/createdAt: the app cannot decode Apinest.NotificationsResponse: "
                    + "Expected date string to be ISO8601-formatted. (found string \(stamp))",
            ])
    }

    @Test func metadataDecodesAnyJSONButNull() throws {
        let decoder = spec.app.decoder.makeDecoder()
        func metadata(_ text: String) throws -> [String: JSONValue]? {
            let page = Self.notificationsPage(metadata: text)
            let response = try decoder.decode(Apinest.NotificationsResponse.self, from: Data(page.utf8))
            return response.notifications[0].metadata
        }
        #expect(
            try metadata(
                #"{"badgeId": "b1", "xp": 50, "ratio": 0.5, "new": true, "tags": ["a", 1], "more": {"k": "v"}}"#)
                == ["badgeId": "b1", "xp": 50, "ratio": 0.5, "new": true, "tags": ["a", 1], "more": ["k": "v"]])
        // `try?` swallows whatever is not an object of non-null values.
        #expect(try metadata(#"{"badgeId": null}"#) == nil)
        #expect(try metadata(#""text""#) == nil)
        #expect(try metadata("null") == nil)
        let absent = Self.notificationsPage(metadata: "{}").replacingOccurrences(of: #""metadata": {},"#, with: "")
        #expect(try findings(absent, "GET /achievements/notifications").isEmpty)

        // The schema flags the `null` that makes the app drop the metadata.
        let nested = Self.notificationsPage(metadata: #"{"deep": [{"x": 1}]}"#)
        #expect(try findings(nested, "GET /achievements/notifications").isEmpty)
        let withNull = Self.notificationsPage(metadata: #"{"badgeId": null}"#)
        #expect(
            try findings(withNull, "GET /achievements/notifications") == [
                "/notifications/0/metadata/badgeId: expected boolean or number or string or array or object, found null"
            ])
    }

    @Test func anyCodableKeepsTheDocumentsDecodeOrder() throws {
        let decoder = JSONDecoder()
        func value(_ text: String) throws -> JSONValue {
            try decoder.decode(Apinest.AnyCodable.self, from: Data(text.utf8)).value
        }
        #expect(try value("true") == .bool(true))
        #expect(try value("42") == .integer(42))
        #expect(try value("4.5") == .double(4.5))
        #expect(try value(#""x""#) == "x")
        #expect(try value(#"[1, "a"]"#) == [1, "a"])
        #expect(throws: DecodingError.self) { try value("null") }
        #expect(throws: DecodingError.self) { try value("[null]") }
        let encoded = try JSONEncoder().encode(Apinest.AnyCodable(["a": [1, 2.5, "s", true]]))
        #expect(try JSONValue(parsing: Array(encoded)) == ["a": [1, 2.5, "s", true]])
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(Apinest.AnyCodable(.null)) }
    }

    @Test func notificationSchemaIsPinned() throws {
        let level1: Schema = .oneOf([.boolean, .number(), .string(), .array(.any), .map(.any)])
        let level2: Schema = .oneOf([.boolean, .number(), .string(), .array(level1), .map(level1)])
        let level3: Schema = .oneOf([.boolean, .number(), .string(), .array(level2), .map(level2)])
        #expect(Apinest.AnyCodable.jsonSchema == level3)
        #expect(
            spec.definitions["Apinest.AchievementNotification"]
                == .object([
                    Property("_id", .string(format: .objectId)),
                    Property(
                        "type",
                        .string(values: [
                            "badge_unlocked", "level_up", "challenge_completed", "xp_earned", "streak_updated",
                            "like_received", "match_made",
                        ])),
                    Property("title", .string()),
                    Property("message", .string()),
                    Property("isRead", .boolean),
                    Property("createdAt", .string(format: .dateTimeWithoutFraction)),
                    Property("metadata", .nullable(.map(level3)), required: false),
                ]))
    }

    @Test func otherSchemasArePinned() {
        #expect(
            spec.definitions["Apinest.Badge"]
                == .object([
                    Property("_id", .string(format: .objectId)),
                    Property("name", .string()),
                    Property("description", .string()),
                    Property("iconUrl", .nullable(.string()), required: false),
                    Property("rarity", .string(values: ["common", "uncommon", "rare", "epic", "legendary"])),
                    Property(
                        "category",
                        .string(values: ["creation", "completion", "distance", "duration", "streak", "sport"])),
                    Property("earnedAt", .nullable(.string(format: .dateTimeWithoutFraction)), required: false),
                ]))
        #expect(
            spec.definitions["Apinest.LeaderboardResponse"]
                == .object([
                    Property("leaderboard", .array(.ref("Apinest.LeaderboardEntry"))),
                    Property("userRank", .nullable(.integer()), required: false),
                    Property("pagination", .ref("Apinest.LeaderboardResponse.PaginationInfo")),
                ]))
        #expect(
            spec.definitions["Apinest.EmptyResponse"]
                == .object([Property("success", .nullable(.boolean), required: false)]))
    }

    @Test func emptyBodiesFailTheAppsDecoding() throws {
        let model = try #require(spec.endpoint("POST /achievements/notifications/read-all")?.response)
        #expect(model.decodeError(Data("{}".utf8), settings: spec.app.decoder) == nil)
        #expect(model.decodeError(Data(#"{"success": true}"#.utf8), settings: spec.app.decoder) == nil)
        #expect(model.decodeError(Data(), settings: spec.app.decoder) != nil)
    }

    @Test func ambiguitiesAreRecorded() {
        #expect(
            spec.ambiguities.map(\.id) == [
                "challenges-response-shape", "summary-model-name", "iso8601-fractional-seconds", "object-id-format",
                "notification-metadata-shape", "empty-response-body", "post-action-status", "pagination-bounds",
                "error-envelope-source",
            ])
        let endpoints = Set(spec.endpoints.map(\.id))
        #expect(spec.ambiguities.allSatisfy { $0.endpoint.map { endpoints.contains($0) } ?? true })
    }

}
