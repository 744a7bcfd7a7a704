import Foundation
import Testing
import UnderstudyCore
import UnderstudyPostgREST
import UnderstudySpecs

@testable import UnderstudyMock

/// Filtering, ordering and embedding over 100 000 rows per table: the answers are compared with a
/// brute-force computation; timings are printed, never asserted.
extension EasyCoMockTests {
    /// A state with `count` properties, applications and favorites spread over 50 users.
    static func largeState(count: Int) -> EasyCoState {
        var random = SeededRandom(seed: 42)
        let users = (0..<50).map { index in
            EasyCoUser(id: random.uuid(), name: "User \(index)", email: "user\(index)@example.com")
        }
        let cities = ["Lyon", "Paris", "Lille", "Nantes", "Bordeaux", "Toulouse", "Marseille", "Nice"]
        let statuses = ["published", "published", "published", "draft", "archived", "rented"]
        let base = FixtureGenerator.referenceInstant
        func stamp(_ seconds: Int) -> JSONValue {
            .string(FixtureGenerator.isoDate(base.addingTimeInterval(-Double(seconds)), fraction: false))
        }
        let catalog = PostgrestCatalog.easyCo
        func row(_ table: String, _ values: [String: JSONValue]) -> PostgrestRow {
            var row: PostgrestRow = [:]
            for column in catalog.table(table)!.columns { row[column.name] = values[column.name] ?? .null }
            return row
        }
        var properties: [PostgrestRow] = []
        properties.reserveCapacity(count)
        var propertyIDs: [String] = []
        for index in 0..<count {
            let id = random.uuid()
            propertyIDs.append(id)
            let rent = 300 + random.int(in: 0...1700)
            properties.append(
                row(
                    "properties",
                    [
                        "id": .string(id), "owner_id": .string(users[random.int(in: 0...49)].id),
                        "title": .string("Logement \(index)"),
                        "property_type": "apartment", "address": .string("\(index) rue du Test"),
                        "city": .string(random.pick(cities)),
                        "postal_code": "69001", "country": "France", "bedrooms": .integer(random.int(in: 1...5)),
                        "bathrooms": 1,
                        "furnished": .bool(random.chance(0.5)),
                        "monthly_rent": .number(JSONNumber(uncheckedLiteral: "\(rent).00")),
                        "charges": 0, "deposit": random.chance(0.2) ? .null : .integer(rent * 2),
                        "is_available": .bool(random.chance(0.8)), "amenities": ["wifi"], "images": [],
                        "status": .string(random.pick(statuses)), "views_count": 0, "applications_count": 0,
                        "favorites_count": 0,
                        "created_at": stamp(random.int(in: 0...20_000_000)), "updated_at": stamp(0),
                    ]))
        }
        var applications: [PostgrestRow] = []
        var favorites: [PostgrestRow] = []
        var pairs = Set<String>()
        for _ in 0..<count {
            let property = propertyIDs[random.int(in: 0...(count - 1))]
            let user = users[random.int(in: 0...49)].id
            applications.append(
                row(
                    "applications",
                    [
                        "id": .string(random.uuid()), "property_id": .string(property),
                        "applicant_id": .string(user),
                        "status": .string(random.pick(EasyCo.Application.statuses)), "applicant_name": "Someone",
                        "applicant_email": "someone@example.com", "created_at": stamp(random.int(in: 0...20_000_000)),
                        "updated_at": stamp(0),
                    ]))
            let favoriteUser = users[random.int(in: 0...49)].id
            let favoriteProperty = propertyIDs[random.int(in: 0...(count - 1))]
            if pairs.insert(favoriteUser + favoriteProperty).inserted {
                favorites.append(
                    row(
                        "favorites",
                        [
                            "id": .string(random.uuid()), "user_id": .string(favoriteUser),
                            "property_id": .string(favoriteProperty),
                            "created_at": stamp(random.int(in: 0...20_000_000)),
                        ]))
            }
        }
        var tables: [String: PostgrestTable] = [:]
        for name in catalog.tables.keys { tables[name] = PostgrestTable() }
        tables["properties"] = PostgrestTable(rows: properties)
        tables["applications"] = PostgrestTable(rows: applications)
        tables["favorites"] = PostgrestTable(rows: favorites)
        return EasyCoState(users: users, defaultUser: users[0].id, tables: tables, insertions: 0)
    }

    @Test func hundredThousandRowsStayCorrect() async throws {
        let clock = ContinuousClock()
        var start = clock.now
        let state = Self.largeState(count: 100_000)
        print("easyco benchmark: built 3 × 100 000 rows in \(clock.now - start)")
        let configuration = Self.configuration()
        let mock = try await EasyCoMock(configuration: configuration, seed: state)
        let engine = MockEngine(behaviour: mock, configuration: configuration)
        let user = state.defaultUser
        let token = try #require(try await mock.issueToken(for: nil)["access_token"]?.stringValue)
        let properties = state.tables["properties"]!.rows
        let applications = state.tables["applications"]!.rows
        let favorites = state.tables["favorites"]!.rows
        let byID = Dictionary(uniqueKeysWithValues: properties.map { ($0["id"]!.stringValue!, $0) })
        func text(_ row: PostgrestRow, _ column: String) -> String { row[column]?.stringValue ?? "" }
        func number(_ row: PostgrestRow, _ column: String) -> Double { row[column]?.numberValue?.doubleValue ?? 0 }
        func visible(_ property: PostgrestRow) -> Bool {
            text(property, "owner_id") == user
                || (text(property, "status") == "published" && property["is_available"] == true)
        }
        func timed(_ label: String, _ target: String, token: String? = nil, headers: [String: String] = [:]) async -> (
            status: Int, json: JSONValue?, response: MockResponse
        ) {
            start = clock.now
            var all = headers
            all["apikey"] = mock.keys.anon
            let reply = await engine.send("GET", target, token: token ?? mock.keys.service, headers: all)
            print("easyco benchmark: \(label): \(clock.now - start) (\(reply.response.body.count) bytes)")
            return reply
        }

        // The explorer query, as the default user, counted and ranged.
        let explorer = await timed(
            "published, created_at.desc, limit 25, count=exact",
            "/rest/v1/properties?status=eq.published&order=created_at.desc&limit=25",
            token: token, headers: ["Prefer": "count=exact"])
        let published = properties.indices.filter {
            visible(properties[$0]) && text(properties[$0], "status") == "published"
        }
        let newest = published.sorted { a, b in
            let (x, y) = (text(properties[a], "created_at"), text(properties[b], "created_at"))
            return x != y ? x > y : a < b
        }
        #expect(explorer.status == 206)
        #expect(explorer.response.header("Content-Range") == "0-24/\(published.count)")
        #expect(
            Self.strings(explorer.json?.arrayValue ?? [], "id") == newest.prefix(25).map { text(properties[$0], "id") })

        // Again, once the column vectors exist (another limit, so the engine's GET cache does not answer).
        let warm = await timed(
            "the same, warm", "/rest/v1/properties?status=eq.published&order=created_at.desc&limit=26", token: token,
            headers: ["Prefer": "count=exact"])
        #expect(Self.strings(warm.json?.arrayValue ?? [], "id") == newest.prefix(26).map { text(properties[$0], "id") })

        // Logic tree and two-key ordering over every row.
        let logic = await timed(
            "or/and filter, two-key order, limit 100",
            "/rest/v1/properties?select=id&or=(city.eq.Lyon,and(bedrooms.gte.3,monthly_rent.lt.800))&order=monthly_rent.asc,created_at.desc&limit=100"
        )
        let matching = properties.indices.filter { index in
            let row = properties[index]
            return text(row, "city") == "Lyon" || (number(row, "bedrooms") >= 3 && number(row, "monthly_rent") < 800)
        }
        let ordered = matching.sorted { a, b in
            let (x, y) = (number(properties[a], "monthly_rent"), number(properties[b], "monthly_rent"))
            if x != y { return x < y }
            let (c, d) = (text(properties[a], "created_at"), text(properties[b], "created_at"))
            return c != d ? c > d : a < b
        }
        #expect(
            Self.strings(logic.json?.arrayValue ?? [], "id") == ordered.prefix(100).map { text(properties[$0], "id") })

        // The owner dashboard's applications, embedded, with row-level security through the property.
        let pending = await timed(
            "applications in.(pending,reviewing) + property embed, RLS via owner",
            "/rest/v1/applications?status=in.(pending,reviewing)&select=*,property:properties(id,title)", token: token)
        let expected = applications.filter { row in
            ["pending", "reviewing"].contains(text(row, "status"))
                && (text(row, "applicant_id") == user
                    || byID[text(row, "property_id")].map { text($0, "owner_id") == user } == true)
        }
        let rows = pending.json?.arrayValue ?? []
        #expect(Self.strings(rows, "id") == expected.map { text($0, "id") })
        #expect(
            zip(rows, expected).allSatisfy { reply, row in
                let property = byID[text(row, "property_id")]!
                return reply["property"]
                    == (visible(property) ? ["id": property["id"]!, "title": property["title"]!] : .null)
            })

        // Favorites with the whole property embedded.
        let favorite = await timed(
            "favorites with properties(*)", "/rest/v1/favorites?user_id=eq.\(user)&select=property_id,properties(*)",
            token: token)
        let mine = favorites.filter { text($0, "user_id") == user }
        #expect(Self.strings(favorite.json?.arrayValue ?? [], "property_id") == mine.map { text($0, "property_id") })
        #expect(
            favorite.json?.arrayValue?.allSatisfy { row in
                let property = byID[row["property_id"]!.stringValue!]!
                return row["properties"] == (visible(property) ? .object(property) : .null)
            } == true)

        // A to-many embed: each owned property with its applications.
        let owned = await timed(
            "owner's properties with applications(id) (to-many)",
            "/rest/v1/properties?select=id,applications(id)&owner_id=eq.\(user)", token: token)
        let grouped = Dictionary(grouping: applications, by: { text($0, "property_id") })
        #expect(
            owned.json?.arrayValue?.allSatisfy { row in
                Self.strings(row["applications"]?.arrayValue ?? [], "id")
                    == (grouped[row["id"]!.stringValue!] ?? []).map { text($0, "id") }
            } == true)
        #expect(owned.json?.arrayValue?.count == properties.filter { text($0, "owner_id") == user }.count)

        let everything = await timed(
            "every property, no filter (service role, 100 000 rows out)", "/rest/v1/properties")
        #expect(everything.json?.arrayValue?.count == 100_000)

        // Inserting and deleting stay quick on large tables.
        start = clock.now
        let taken = Set(mine.map { text($0, "property_id") })
        let target = try #require(properties.first { visible($0) && !taken.contains(text($0, "id")) })
        let inserted = await engine.send(
            "POST", "/rest/v1/favorites", json: ["user_id": .string(user), "property_id": target["id"]!], token: token,
            headers: ["apikey": mock.keys.anon])
        #expect(inserted.status == 201)
        let deleted = await engine.send(
            "DELETE", "/rest/v1/favorites?property_id=eq.\(target["id"]!.stringValue!)", token: token,
            headers: ["apikey": mock.keys.anon])
        #expect(deleted.status == 204)
        print("easyco benchmark: insert + delete: \(clock.now - start)")
    }
}
