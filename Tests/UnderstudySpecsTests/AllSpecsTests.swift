import Foundation
import Testing
import UnderstudyCore
import UnderstudySpecs

/// Properties every spec must have: the inventory of ENDPOINTS.md, fixtures that validate and decode,
/// and a stable canonical export.
struct AllSpecsTests {
    /// The 67 endpoints of `shared/ENDPOINTS.md`, method and path exactly as written there.
    static let inventory: [String: [String]] = [
        "fitness": [
            "POST /activities", "GET /activities", "GET /activities/{id}", "POST /activities/{id}/complete",
            "POST /activities/{id}/join", "POST /activities/{id}/leave",
        ],
        "achievements": [
            "GET /achievements/summary", "GET /achievements/badges", "GET /achievements/challenges",
            "GET /achievements/leaderboard", "GET /achievements/notifications",
            "POST /achievements/notifications/{id}/read", "POST /achievements/notifications/read-all",
        ],
        "videgreniers": [
            "POST /api/auth/register", "POST /api/auth/login", "POST /api/auth/refresh", "POST /api/auth/logout",
            "GET /api/auth/me", "POST /api/auth/oauth/google", "POST /api/auth/oauth/apple", "GET /api/events",
            "GET /api/events/{id}", "GET /api/events/nearby", "POST /api/events", "PUT /api/events/{id}",
            "POST /api/events/{id}/publish", "POST /api/events/{id}/cancel", "GET /api/favorites",
            "POST /api/favorites/{eventId}", "DELETE /api/favorites/{eventId}", "PATCH /api/favorites/{eventId}/toggle",
            "POST /api/favorites/status", "GET /api/favorites/upcoming", "GET /api/notifications",
            "PATCH /api/notifications/{notificationId}/read", "POST /api/notifications", "GET /api/user/profile",
            "PUT /api/user/profile", "GET /api/user/stats", "DELETE /api/user/account", "GET /api/user-activities",
            "GET /api/user-activities/statistics", "GET /health",
        ],
        "easyco": [
            "GET /rest/v1/properties", "GET /rest/v1/property_members", "GET /rest/v1/transactions",
            "GET /rest/v1/payment_schedules", "GET /rest/v1/applications", "POST /rest/v1/applications",
            "GET /rest/v1/favorites", "POST /rest/v1/favorites", "DELETE /rest/v1/favorites",
        ],
        "intra42": [
            "POST /oauth/token", "GET /v2/me", "GET /v2/users/{login}", "GET /v2/users/{login}/coalitions",
            "GET /v2/users/{login}/coalitions_users", "GET /v2/users/{login}/projects_users",
            "GET /v2/users/{login}/locations", "GET /v2/users/{login}/locations_stats", "GET /v2/campus/{id}",
            "GET /v2/campus/{id}/locations", "GET /v2/campus/{id}/events", "GET /v2/users", "GET /v2/me/slots",
            "POST /v2/slots", "DELETE /v2/slots/{id}",
        ],
    ]

    @Test func everyDocumentedEndpointIsDescribedOnce() {
        #expect(Specs.all.map(\.id) == ["fitness", "achievements", "videgreniers", "easyco", "intra42"])
        for spec in Specs.all {
            #expect(Set(spec.endpoints.map(\.id)) == Set(Self.inventory[spec.id] ?? []), "\(spec.id)")
            #expect(spec.endpoints.count == Set(spec.endpoints.map(\.id)).count, "\(spec.id) has a duplicate endpoint")
        }
        #expect(Specs.all.reduce(0) { $0 + $1.endpoints.count } == 67)
        #expect(Specs.named("apinest")?.map(\.id) == ["fitness", "achievements"])
        #expect(Specs.named("nope") == nil)
    }

    /// One registry: the selectors, the backends and each spec's backend all come from ``Specs/builtIn``.
    @Test func theRegistryNamesEveryBackendAndSelector() {
        #expect(Specs.builtIn.map(\.name) == ["apinest", "videgreniers", "easyco", "intra42"])
        #expect(Specs.selectors == ["fitness", "achievements", "apinest", "videgreniers", "easyco", "intra42", "all"])
        #expect(Specs.backend(serving: "achievements")?.name == "apinest")
        #expect(Specs.backend(serving: "intra42")?.specs.map(\.id) == ["intra42"])
        #expect(Specs.backend(serving: "apinest") == nil)
        for selector in Specs.selectors { #expect(Specs.named(selector) != nil, "\(selector)") }
        #expect(Set(Specs.builtIn.map(\.name)).count == Specs.builtIn.count)
    }

    @Test func everyPathParameterIsDescribed() {
        for spec in Specs.all {
            for endpoint in spec.endpoints {
                let described = endpoint.parameters.filter { $0.location == .path }.map(\.name)
                #expect(described == endpoint.path.parameterNames, "\(spec.id) \(endpoint.id)")
            }
        }
    }

    @Test(arguments: [UInt64(1), 2, 3, 42, 2026])
    func everyFixtureValidatesAndDecodes(seed: UInt64) throws {
        for spec in Specs.all {
            for endpoint in spec.endpoints {
                let fixture = spec.fixture(for: endpoint, seed: seed)
                if let model = endpoint.request {
                    let request = try #require(fixture.request, "\(endpoint.id) has no request fixture")
                    let findings = BodyCheck.findings(request.serializedBytes(), model: model, spec: spec)
                    #expect(
                        findings.filter { $0.severity == .error }.map(\.summary) == [],
                        "\(spec.id) \(endpoint.id) request")
                }
                for (status, body) in fixture.responses {
                    let model = status == endpoint.success.rawValue ? endpoint.response : spec.errorEnvelope.model
                    guard let model else {
                        #expect(body == .null, "\(endpoint.id) \(status) has no body model but a body")
                        continue
                    }
                    let findings = BodyCheck.findings(body.serializedBytes(), model: model, spec: spec)
                    #expect(
                        findings.filter { $0.severity == .error }.map(\.summary) == [],
                        "\(spec.id) \(endpoint.id) \(status)")
                }
                let statuses = Set([endpoint.success.rawValue] + endpoint.errors.map(\.rawValue))
                #expect(Set(fixture.responses.keys) == statuses, "\(endpoint.id)")
            }
        }
    }

    @Test func fixturesAreDeterministicAndRoundTrip() throws {
        for spec in Specs.all {
            let first = spec.fixtures(seed: 9).map { $0.jsonValue.serialized() }
            let second = spec.fixtures(seed: 9).map { $0.jsonValue.serialized() }
            #expect(first == second, "\(spec.id)")
            for fixture in spec.fixtures(seed: 9) {
                let read = try EndpointFixture(json: try JSONValue(parsing: fixture.jsonValue.serialized(.pretty)))
                #expect(
                    read.endpoint == fixture.endpoint && read.responses == fixture.responses
                        && read.request == fixture.request)
            }
        }
    }

    @Test func conformingDocumentExamplesAreUsedVerbatim() throws {
        for spec in Specs.all {
            for endpoint in spec.endpoints {
                let fixture = spec.fixture(for: endpoint, seed: 1)
                for (status, text) in endpoint.examples.responses where fixture.generatedBecause[status] == nil {
                    guard fixture.responses[status] != nil else { continue }
                    #expect(fixture.responses[status] == (try JSONValue(parsing: text)), "\(endpoint.id) \(status)")
                }
            }
        }
    }

    @Test func canonicalExportIsStable() {
        for spec in Specs.all {
            #expect(spec.canonicalJSON.serialized(.pretty) == spec.canonicalJSON.serialized(.pretty))
            #expect(spec.canonicalJSON["endpoints"]?.arrayValue?.count == spec.endpoints.count)
        }
    }

    @Test func everyReferenceResolves() {
        for spec in Specs.all {
            var references: Set<String> = []
            func collect(_ schema: Schema) {
                switch schema {
                case .ref(let name): references.insert(name)
                case .array(let array): collect(array.items)
                case .object(let object): object.properties.forEach { collect($0.schema) }
                case .map(let map): collect(map.keys); collect(map.values)
                case .pairs(let key, let value): collect(key); collect(value)
                case .oneOf(let alternatives): alternatives.forEach(collect)
                case .nullable(let wrapped): collect(wrapped)
                case .any, .boolean, .integer, .number, .decimal, .string: break
                }
            }
            spec.definitions.values.forEach(collect)
            spec.endpoints.forEach { endpoint in
                endpoint.request.map { collect($0.schema) }
                endpoint.response.map { collect($0.schema) }
            }
            #expect(references.subtracting(spec.definitions.keys) == [], "\(spec.id)")
        }
    }

    /// `wireJSON` writes a model as its server does: ASP.NET's System.Text.Json writes every property (`null`
    /// when empty) and lower-case GUIDs; apinest's MongoDB documents leave unset members out; 42's Rails
    /// server writes nulls, in a bare list too.
    @Test func modelsAreWrittenAsTheServerWritesThem() throws {
        let id = try #require(UUID(uuidString: "3F2A9C4E-0B1D-4E5F-8A6B-7C8D9E0F1A2B"))
        let toggle = VideGreniers.ApiResponse(
            data: VideGreniers.FavoriteToggleDto(eventId: id, isFavorite: true, action: .added), success: true,
            message: nil, errors: nil, timestamp: Date(timeIntervalSince1970: 1_763_217_000))
        #expect(
            try VideGreniers.spec.wireJSON(toggle) == [
                "data": ["eventId": "3f2a9c4e-0b1d-4e5f-8a6b-7c8d9e0f1a2b", "isFavorite": true, "action": "added"],
                "success": true, "message": nil, "errors": nil, "timestamp": "2025-11-15T14:30:00Z",
            ])
        let badge = Apinest.Badge(
            id: "65a1b2c3d4e5f6a7b8c9d0e1", name: "First Host", description: "Create your first activity.",
            iconUrl: nil, rarity: .common, category: .creation, earnedAt: nil)
        #expect(
            try Achievements.spec.wireJSON(badge) == [
                "_id": "65a1b2c3d4e5f6a7b8c9d0e1", "name": "First Host", "description": "Create your first activity.",
                "rarity": "common", "category": "creation",
            ])
        // The bytes are those of the shaped value, whether a model needs shaping (toggle) or not (badge).
        #expect(try VideGreniers.spec.wireBytes(toggle) == VideGreniers.spec.wireJSON(toggle).serializedBytes())
        #expect(try Achievements.spec.wireBytes([badge]) == Achievements.spec.wireJSON([badge]).serializedBytes())
        let member = Intra42.CoalitionUser(coalitionId: 45, score: 1_200, rank: nil)
        #expect(try Intra42.spec.wireJSON([member]) == [["coalition_id": 45, "score": 1_200, "rank": nil]])
    }
}
