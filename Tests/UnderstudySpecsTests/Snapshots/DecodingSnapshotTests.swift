import Foundation
import Testing
import UnderstudyCore
import UnderstudySpecs

/// Pins what the apps' decoders do: every fixture decoded into its model, and for tricky payloads per
/// API the exact decode result or error under the app's decoder settings. A change to a model or to a
/// decoder setting changes these files and fails here, showing the difference.
struct DecodingSnapshotTests {
    /// The decoded value, or the app's decode error, as stable text.
    static func outcome(_ json: String, model: ModelReference, spec: APISpec, settings: DecoderSettings? = nil) -> String {
        do {
            return DecodedValueRenderer.render(try model.decode(Data(json.utf8), settings: settings ?? spec.app.decoder))
        } catch {
            let body = try? JSONParser().parse(Array(json.utf8))
            guard let finding = DecodeVerdict.diagnostic(for: error, body: body, model: model.name) else {
                return "error: \(error)\n"
            }
            return "error \(finding.rule): \(finding.summary)\n"
        }
    }

    @Test(arguments: Specs.all.map(\.id))
    func everyFixtureDecodesAsPinned(api: String) {
        let spec = Specs.named(api)![0]
        for endpoint in spec.endpoints {
            let fixture = spec.fixture(for: endpoint, seed: 1)
            var text = "# \(endpoint.id) (seed 1, decoder dates: \(spec.app.decoder.dates), keys: \(spec.app.decoder.keys))\n"
            for status in fixture.responses.keys.sorted() {
                let body = fixture.responses[status]!
                let model = status == endpoint.success.rawValue ? endpoint.response : spec.errorEnvelope.model
                text += "\n## \(status) \(model?.name ?? "no body")\n"
                guard let model else { continue }
                text += Self.outcome(body.serialized(), model: model, spec: spec)
            }
            let file = fixture.fileName.replacingOccurrences(of: ".json", with: ".txt")
            Golden.assert(text, named: "\(api)/\(file)")
        }
    }

    /// Tricky payloads: `(name, endpoint, JSON)`, decoded as the endpoint's success model.
    static let tricky: [String: [(String, String, String)]] = [
        "fitness": [
            ("absent optional description", "GET /activities/{id}", activity(description: nil)),
            ("null optional description", "GET /activities/{id}", activity(description: "null")),
            ("participants as a string", "GET /activities/{id}", activity(participants: #""10""#)),
            ("participants as 10.0", "GET /activities/{id}", activity(participants: "10.0")),
            ("creator null", "GET /activities/{id}", activity(creator: "null")),
        ],
        "achievements": [
            ("earnedAt with fractional seconds under .iso8601", "GET /achievements/badges", badges(earnedAt: #""2025-11-15T14:30:00.000Z""#)),
            ("earnedAt without fractional seconds", "GET /achievements/badges", badges(earnedAt: #""2025-11-15T14:30:00Z""#)),
            ("earnedAt with an offset", "GET /achievements/badges", badges(earnedAt: #""2025-11-15T16:30:00+02:00""#)),
            ("unknown rarity", "GET /achievements/badges", badges(rarity: #""mythic""#)),
            ("metadata with a null inside is dropped by try?", "GET /achievements/notifications", notifications(metadata: #"{"badge": "b1", "xp": null}"#)),
            ("metadata with numbers and nesting", "GET /achievements/notifications", notifications(metadata: #"{"xp": 50, "ratio": 0.5, "tags": ["a"], "ok": true}"#)),
            ("challenges as a bare array (the fitness guide's shape)", "GET /achievements/challenges", "[]"),
        ],
        "videgreniers": [
            ("documented ISO date under .iso8601", "GET /api/user/stats", stats(date: #""2023-01-15T10:30:00Z""#)),
            ("date with .NET's 7 fraction digits", "GET /api/user/stats", stats(date: #""2023-01-15T10:30:00.1234567Z""#)),
            ("date without a time zone", "GET /api/user/stats", stats(date: #""2023-01-15T10:30:00""#)),
            ("date as seconds since 2001 (the sample client's JSONDecoder())", "GET /api/user/stats", stats(date: "716466600")),
            ("activityCounts as the documented object", "GET /api/user-activities/statistics", statistics(counts: #"{"0": 45, "1": 12}"#)),
            ("activityCounts keyed by enum names", "GET /api/user-activities/statistics", statistics(counts: #"{"EventViewed": 45}"#)),
            ("activityCounts as key/value pairs", "GET /api/user-activities/statistics", statistics(counts: "[0, 45, 1, 12, 7, 8]")),
            ("activityCounts with an unknown activity type", "GET /api/user-activities/statistics", statistics(counts: #"{"42": 1}"#)),
            ("Decimal fee precision", "GET /api/events/{id}", event(fee: "19.99")),
            ("Decimal fee with trailing zeros", "GET /api/events/{id}", event(fee: "2.00")),
            ("Decimal fee as a string", "GET /api/events/{id}", event(fee: #""2.00""#)),
            ("unknown event status", "GET /api/events/{id}", event(status: "9")),
        ],
        "easyco": [
            ("monthly_rent with many decimals", "GET /rest/v1/properties", property(rent: "1234.56789")),
            ("monthly_rent as a string (numeric sent as text)", "GET /rest/v1/properties", property(rent: #""950.00""#)),
            ("favorite whose embedded property is null", "GET /rest/v1/favorites", #"[{"property_id": "7c9e6679-7425-40de-944b-e07fc1f90ae7", "properties": null}]"#),
        ],
        "intra42": [
            ("\"active?\" and \"validated?\" keys", "GET /v2/users/{login}/projects_users", projectsUsers(validated: "true")),
            ("\"validated?\": null", "GET /v2/users/{login}/projects_users", projectsUsers(validated: "null")),
            ("\"validated?\" absent", "GET /v2/users/{login}/projects_users", projectsUsers(validated: nil)),
            ("location still open (end_at null)", "GET /v2/users/{login}/locations", #"[{"id": 1, "begin_at": "2025-11-15T08:00:00.000Z", "end_at": null, "host": "z1r2p3", "campus_id": 9, "primary": true}]"#),
        ],
    ]

    @Test(arguments: Specs.all.map(\.id))
    func trickyPayloadsDecodeAsPinned(api: String) {
        let spec = Specs.named(api)![0]
        var text = "# Tricky payloads for \(api) (decoder dates: \(spec.app.decoder.dates), keys: \(spec.app.decoder.keys))\n"
        for (name, endpointID, json) in Self.tricky[api] ?? [] {
            guard let model = spec.endpoint(endpointID)?.response else {
                Issue.record("\(api) has no response model for \(endpointID)")
                continue
            }
            text += "\n## \(name)\n\(endpointID) as \(model.name)\n\(json)\n→ \(Self.outcome(json, model: model, spec: spec))"
        }
        Golden.assert(text, named: "\(api)/tricky.txt")
    }

    @Test func aChangedDecodedValueFailsShowingTheDifference() {
        #expect(Golden.difference("A(\n  x: 1\n)", "A(\n  x: 2\n)") == "2 -   x: 1\n2 +   x: 2")
    }

    /// The pinned outcome depends on the decoder setting: with a plain `JSONDecoder()` the same badge
    /// no longer decodes, so changing the spec's setting would change the golden files.
    @Test func aDecoderSettingChangeChangesTheOutcome() {
        let spec = Achievements.spec
        let model = spec.endpoint("GET /achievements/badges")!.response!
        let json = Self.badges(earnedAt: #""2025-11-15T14:30:00Z""#)
        #expect(Self.outcome(json, model: model, spec: spec).hasPrefix("Apinest.BadgesResponse("))
        #expect(
            Self.outcome(json, model: model, spec: spec, settings: .plain)
                == "error decode.type-mismatch: /earnedBadges/0/earnedAt: the app cannot decode Apinest.BadgesResponse: expected Double, found string \"2025-11-15T14:30:00Z\"\n")
    }

    // MARK: Payload builders

    static func activity(description: String? = #""Friendly match""#, participants: String = "10", creator: String? = nil) -> String {
        let creatorJSON = creator ?? #"{"_id": "65a1b2c3d4e5f6a7b8c9d0e0", "name": "John Doe"}"#
        let descriptionJSON = description.map { #""description": \#($0), "# } ?? ""
        return #"{"_id": "65a1b2c3d4e5f6a7b8c9d0e1", "sportType": "Football", "title": "Match", \#(descriptionJSON)"location": "Central Park", "date": "2025-11-15T00:00:00.000Z", "time": "2025-11-15T14:30:00.000Z", "participants": \#(participants), "participantIds": ["65a1b2c3d4e5f6a7b8c9d0e0"], "level": "Intermediate", "visibility": "public", "isCompleted": false, "creator": \#(creatorJSON), "createdAt": "2025-11-14T10:30:00.000Z", "updatedAt": "2025-11-14T10:30:00.000Z"}"#
    }

    static func badges(earnedAt: String = "null", rarity: String = #""rare""#) -> String {
        #"{"earnedBadges": [{"_id": "65a1b2c3d4e5f6a7b8c9d0e1", "name": "Marathon", "description": "Run 42 km", "rarity": \#(rarity), "category": "distance", "earnedAt": \#(earnedAt)}], "inProgress": []}"#
    }

    static func notifications(metadata: String) -> String {
        #"{"notifications": [{"_id": "65a1b2c3d4e5f6a7b8c9d0e1", "type": "badge_unlocked", "title": "Badge", "message": "You unlocked a badge", "metadata": \#(metadata), "isRead": false, "createdAt": "2025-11-15T14:30:00Z"}], "pagination": {"total": 1, "page": 1, "totalPages": 1, "limit": 20}}"#
    }

    static func stats(date: String) -> String {
        #"{"data": {"totalFavorites": 12, "totalEventsCreated": 3, "totalNotifications": 25, "unreadNotifications": 4, "accountCreatedDate": \#(date), "lastLoginDate": null, "daysActive": 234}, "success": true, "timestamp": "2023-09-15T08:00:00Z"}"#
    }

    static func statistics(counts: String) -> String {
        #"{"data": {"totalActivities": 65, "activityCounts": \#(counts), "eventsViewed": 45, "eventsFavorited": 12, "eventsCreated": 2, "searchesPerformed": 8, "topSearchTerms": ["brocante"], "lastActivityDate": null, "periodStart": "2023-08-16T08:00:00Z", "periodEnd": "2023-09-15T08:00:00Z"}, "success": true, "timestamp": "2023-09-15T08:00:00Z"}"#
    }

    static func event(fee: String = "2.00", status: String = "1") -> String {
        #"{"data": {"id": "7c9e6679-7425-40de-944b-e07fc1f90ae7", "title": "Grande Brocante", "description": "Vide-grenier annuel", "location": {"street": "Place de la Mairie", "city": "Bourg-en-Bresse", "postalCode": "01000", "country": "France", "state": null, "latitude": 46.2057, "longitude": 5.2281}, "startDate": "2023-09-16T08:00:00Z", "endDate": "2023-09-16T18:00:00Z", "status": \#(status), "eventType": 1, "contactEmail": null, "contactPhone": null, "specialInstructions": null, "entryFeeAmount": \#(fee), "entryFeeCurrency": "EUR", "allowsEarlyBird": false, "earlyBirdTime": null, "earlyBirdFeeAmount": null, "earlyBirdFeeCurrency": null, "publishedOnUtc": null, "createdOnUtc": "2023-09-15T08:00:00Z", "modifiedOnUtc": null, "organizerName": null, "categoryName": null, "categoryIcon": null, "categoryColor": null, "distanceKm": null, "isFavorite": null, "favoriteCount": 47}, "success": true, "timestamp": "2023-09-15T08:00:00Z"}"#
    }

    static func property(rent: String) -> String {
        #"[{"id": "7c9e6679-7425-40de-944b-e07fc1f90ae7", "owner_id": "0be57a3d-5448-4032-b7a1-877ba1798cf7", "title": "Appartement 2 chambres", "description": null, "property_type": "apartment", "address": "1 rue Victor Hugo", "city": "Lyon", "neighborhood": null, "postal_code": "69002", "country": "France", "latitude": null, "longitude": null, "bedrooms": 2, "bathrooms": 1, "surface_area": 48, "furnished": true, "monthly_rent": \#(rent), "charges": 0, "deposit": null, "available_from": null, "is_available": true, "amenities": [], "images": [], "main_image": null, "status": "published", "views_count": 0, "applications_count": 0, "favorites_count": 0, "created_at": "2025-12-04T10:00:00.123456+00:00", "updated_at": "2025-12-04T10:00:00+00:00", "published_at": null}]"#
    }

    static func projectsUsers(validated: String?) -> String {
        let validatedJSON = validated.map { #""validated?": \#($0), "# } ?? ""
        return #"[{"id": 1, "final_mark": 100, "status": "finished", \#(validatedJSON)"occurrence": 0, "cursus_ids": [21], "created_at": "2025-11-15T14:30:00.000Z", "marked_at": null, "closed_at": null, "project": {"name": "Libft", "slug": "42cursus-libft"}, "current_team_id": null, "teams": []}]"#
    }
}
