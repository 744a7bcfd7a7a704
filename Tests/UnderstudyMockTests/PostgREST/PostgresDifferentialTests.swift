import Foundation
import PostgresNIO
import Testing
import UnderstudyCore
import UnderstudyPostgREST
import UnderstudySpecs

@testable import UnderstudyMock

/// The EasyCo mock against a real PostgreSQL 15: the six tables created with their DDL (ENDPOINTS.md's table facts
/// and the project's public migrations: types, NOT NULL, defaults, CHECKs, foreign keys, unique keys), the mock's
/// seed rows loaded into both, then each PostgREST query run on the mock and its hand-written SQL run on
/// PostgreSQL, and each bad write run on both.
///
/// There is no PostgREST binary here, so the SQL is what PostgREST generates as its documentation describes it: a
/// read is `SELECT … FROM t WHERE … ORDER BY … LIMIT … OFFSET …` with embeds as correlated subqueries aggregated
/// with `json_agg` (docs/references/api/resource_embedding.rst), an insert is
/// `INSERT INTO t (keys) SELECT keys FROM json_populate_recordset(null::t, body)` (PostgREST/postgrest#1118), and an
/// error's `code` and `message` are PostgreSQL's SQLSTATE and message, passed through (docs/references/errors.rst).
/// The database runs with `TimeZone=UTC`, as Supabase's do; text orders follow the test server's `C.UTF-8`
/// collation (byte order), which is also the mock's. Supabase's own collation may differ (uncertain).
@Suite(.enabled(if: TestDatabase.server != nil, "set UNDERSTUDY_TEST_POSTGRES: scripts/test-postgres.sh start"))
struct PostgresDifferentialTests {
    /// One read: the PostgREST query and the SQL whose rows it must return.
    struct Read {
        let query: String
        let sql: String
        /// Whether the rows come in a defined order (the query orders on a unique key, or ties are equal rows).
        let ordered: Bool
    }

    /// One insert PostgreSQL refuses: the table, the body, and what both must answer.
    struct BadInsert {
        let table: String
        let body: JSONValue
    }

    @Test func readsAndBadWritesMatchPostgreSQL() async throws {
        try await TestDatabase.with { url in
            let database = try await Database(url)
            let mock = try await MockUnderTest()
            for statement in Self.schema.components(separatedBy: ";\n") { try await database.run(statement) }
            try await database.run(
                "INSERT INTO users (id) SELECT unnest(ARRAY[\(mock.users.map { "'\($0)'" }.joined(separator: ","))]::uuid[])"
            )
            for table in [
                "properties", "property_members", "transactions", "payment_schedules", "applications", "favorites",
            ] {
                let rows = try await mock.rows("\(table)?select=*")
                try await database.run(
                    "INSERT INTO \(table) SELECT * FROM json_populate_recordset(null::\(table), \(Self.literal(.array(rows))))"
                )
            }

            let reads = try Self.reads(mock)
            #expect(reads.count >= 60)
            var mismatches: [String] = []
            for read in reads {
                let mocked = try await mock.rows(read.query)
                let expected = try await database.json("SELECT coalesce(json_agg(t), '[]') FROM (\(read.sql)) t")
                let (left, right) =
                    read.ordered
                    ? (JSONValue.array(mocked), expected)
                    : (Self.sorted(mocked), Self.sorted(expected.arrayValue ?? []))
                if left != right {
                    mismatches.append(
                        "\(read.query)\n  mock:       \(left.serialized())\n  PostgreSQL: \(right.serialized())")
                }
            }
            #expect(
                mismatches.isEmpty,
                "\(mismatches.count) of \(reads.count) reads differ:\n\(mismatches.joined(separator: "\n"))")

            for (query, sql) in try Self.counts(mock) {
                let reply = await mock.send("HEAD", query, headers: ["Prefer": "count=exact"])
                let total = reply.response.headers.first { $0.name == "Content-Range" }?.value.split(separator: "/")
                    .last
                let expected = try await database.json("SELECT to_json(count(*)) FROM (\(sql)) t")
                #expect(total.map(String.init) == expected.numberLiteral, "\(query)")
            }

            let inserts = try Self.badInserts(mock)
            for insert in inserts {
                let reply = await mock.send(
                    "POST", insert.table, json: insert.body, headers: ["Prefer": "return=minimal"])
                let keys = (insert.body.objectValue ?? insert.body.arrayValue?.first?.objectValue ?? [:]).keys.sorted()
                let columns = keys.joined(separator: ", ")
                let refused = await database.error(
                    "INSERT INTO \(insert.table) (\(columns)) SELECT \(columns) FROM "
                        + "json_populate_recordset(null::\(insert.table), \(Self.literal(.array(insert.body.arrayValue ?? [insert.body]))))"
                )
                #expect(
                    reply.json?["code"]?.stringValue == refused?.code
                        && reply.json?["message"]?.stringValue == refused?.message,
                    "\(insert.table) \(insert.body.serialized()): mock \(reply.status) \(reply.json?.serialized() ?? "") vs PostgreSQL \(refused.map { "\($0.code) \($0.message)" } ?? "accepted")"
                )
                #expect(reply.status == Self.status(of: refused?.code ?? ""), "\(insert.body.serialized())")
            }
            // A DEFAULT is not NOT NULL: an explicit NULL in such a column is stored and read back NULL.
            let nullable = [
                "country", "furnished", "charges", "is_available", "amenities", "images", "status", "views_count",
                "applications_count", "favorites_count",
            ]
            var body: [String: JSONValue] = [
                "owner_id": .string(try mock.user("camille.martin@example.com")), "title": "Colonnes nulles",
                "property_type": "studio", "address": "1 rue Neuve", "city": "Lyon", "postal_code": "69001",
                "monthly_rent": 500,
            ]
            for column in nullable { body[column] = .null }
            let stored = await mock.send(
                "POST", "properties?select=title,\(nullable.joined(separator: ","))", json: .object(body),
                headers: ["Prefer": "return=representation"])
            let keys = body.keys.sorted().joined(separator: ", ")
            let expected = try await database.json(
                "WITH t AS (INSERT INTO properties (\(keys)) SELECT \(keys) FROM json_populate_recordset("
                    + "null::properties, \(Self.literal([.object(body)]))) RETURNING title, "
                    + "\(nullable.joined(separator: ", "))) SELECT json_agg(t) FROM t")
            #expect(stored.status == 201)
            #expect(stored.json == expected, "mock \(stored.json?.serialized() ?? "") vs PostgreSQL \(expected.serialized())")
            #expect(expected[0]?["country"] == .null && expected[0]?["images"] == .null)
            print("PostgresDifferentialTests: \(reads.count) reads, \(inserts.count) bad inserts compared")
            try await database.connection.close()
        }
    }

    /// PostgREST's status for a SQLSTATE (docs/references/errors.rst: 23503 and 23505 are 409, the rest of class
    /// 22 and 23 is 400).
    static func status(of code: String) -> Int {
        ["23503", "23505"].contains(code) ? 409 : 400
    }

    // MARK: Cases

    static func reads(_ mock: MockUnderTest) throws -> [Read] {
        let camille = try mock.user("camille.martin@example.com")
        let hugo = try mock.user("hugo.bernard@example.com")
        let flat = try mock.property("Appartement 2 chambres")
        func read(_ query: String, _ sql: String, ordered: Bool = true) -> Read {
            Read(query: query, sql: sql, ordered: ordered)
        }
        return [
            // The document's twelve queries.
            read(
                "properties?status=eq.published&order=created_at.desc,id",
                "SELECT * FROM properties WHERE status = 'published' ORDER BY created_at DESC, id"),
            read("properties?id=eq.\(flat)", "SELECT * FROM properties WHERE id = '\(flat)'"),
            read(
                "properties?owner_id=eq.\(camille)&order=id",
                "SELECT * FROM properties WHERE owner_id = '\(camille)' ORDER BY id"),
            read(
                "property_members?user_id=eq.\(camille)&status=eq.active",
                "SELECT * FROM property_members WHERE user_id = '\(camille)' AND status = 'active'", ordered: false),
            read(
                "transactions?or=(payer_id.eq.\(camille),payee_id.eq.\(camille))",
                "SELECT * FROM transactions WHERE payer_id = '\(camille)' OR payee_id = '\(camille)'", ordered: false),
            read(
                "transactions?payee_id=eq.\(camille)&transaction_type=eq.rent_payment&status=eq.completed",
                "SELECT * FROM transactions WHERE payee_id = '\(camille)' AND transaction_type = 'rent_payment' AND status = 'completed'",
                ordered: false),
            read(
                "payment_schedules?payer_id=eq.\(camille)&is_active=eq.true",
                "SELECT * FROM payment_schedules WHERE payer_id = '\(camille)' AND is_active = true", ordered: false),
            read(
                "applications?status=in.(pending,reviewing)&select=*,property:properties(id,title)&order=id",
                "SELECT a.*, (SELECT to_json(x) FROM (SELECT p.id, p.title FROM properties p WHERE p.id = a.property_id) x) AS property FROM applications a WHERE a.status IN ('pending', 'reviewing') ORDER BY a.id"
            ),
            read(
                "favorites?user_id=eq.\(camille)&select=property_id,properties(*)&order=property_id",
                "SELECT f.property_id, (SELECT to_json(p) FROM properties p WHERE p.id = f.property_id) AS properties FROM favorites f WHERE f.user_id = '\(camille)' ORDER BY f.property_id"
            ),
            // Every comparison operator.
            read(
                "properties?status=neq.published&order=id",
                "SELECT * FROM properties WHERE status <> 'published' ORDER BY id"),
            read(
                "properties?monthly_rent=gt.900&order=monthly_rent,id",
                "SELECT * FROM properties WHERE monthly_rent > 900 ORDER BY monthly_rent, id"),
            read(
                "properties?monthly_rent=gte.950&order=monthly_rent.desc,id",
                "SELECT * FROM properties WHERE monthly_rent >= 950 ORDER BY monthly_rent DESC, id"),
            read(
                "properties?monthly_rent=lt.500&order=id",
                "SELECT * FROM properties WHERE monthly_rent < 500 ORDER BY id"),
            read(
                "properties?monthly_rent=lte.520.00&order=id",
                "SELECT * FROM properties WHERE monthly_rent <= 520.00 ORDER BY id"),
            read("properties?bedrooms=eq.2&order=id", "SELECT * FROM properties WHERE bedrooms = 2 ORDER BY id"),
            read(
                "properties?surface_area=gt.60&order=surface_area,id",
                "SELECT * FROM properties WHERE surface_area > 60 ORDER BY surface_area, id"),
            read("properties?title=like.*Loft*", "SELECT * FROM properties WHERE title LIKE '%Loft%'", ordered: false),
            read(
                "properties?title=like.Studio%25", "SELECT * FROM properties WHERE title LIKE 'Studio%'", ordered: false
            ),
            read(
                "properties?title=ilike.*APPARTEMENT*", "SELECT * FROM properties WHERE title ILIKE '%APPARTEMENT%'",
                ordered: false),
            read(
                "properties?description=like.*_Croix*", "SELECT * FROM properties WHERE description LIKE '%_Croix%'",
                ordered: false),
            read("properties?city=match.^L", "SELECT * FROM properties WHERE city ~ '^L'", ordered: false),
            read("properties?city=imatch.^l.*e$", "SELECT * FROM properties WHERE city ~* '^l.*e$'", ordered: false),
            read(
                "properties?city=in.(Lyon,Lille)&order=id",
                "SELECT * FROM properties WHERE city IN ('Lyon', 'Lille') ORDER BY id"),
            read(
                "properties?city=not.in.(Lyon,Lille)&order=id",
                "SELECT * FROM properties WHERE NOT (city IN ('Lyon', 'Lille')) ORDER BY id"),
            read(
                "properties?title=in.(\"Duplex Vieux-Port\",\"T3 avec terrasse\")",
                "SELECT * FROM properties WHERE title IN ('Duplex Vieux-Port', 'T3 avec terrasse')", ordered: false),
            read("properties?deposit=is.null", "SELECT * FROM properties WHERE deposit IS NULL", ordered: false),
            read(
                "properties?deposit=not.is.null&order=deposit,id",
                "SELECT * FROM properties WHERE deposit IS NOT NULL ORDER BY deposit, id"),
            read(
                "properties?is_available=is.true&order=id",
                "SELECT * FROM properties WHERE is_available IS TRUE ORDER BY id"),
            read(
                "properties?is_available=is.false&order=id",
                "SELECT * FROM properties WHERE is_available IS FALSE ORDER BY id"),
            read(
                "properties?furnished=eq.false&order=id", "SELECT * FROM properties WHERE furnished = false ORDER BY id"
            ),
            read(
                "properties?neighborhood=isdistinct.Gare&order=id",
                "SELECT * FROM properties WHERE neighborhood IS DISTINCT FROM 'Gare' ORDER BY id"),
            read(
                "properties?monthly_rent=not.gt.900&order=id",
                "SELECT * FROM properties WHERE NOT (monthly_rent > 900) ORDER BY id"),
            read(
                "properties?amenities=cs.[\"wifi\"]&order=id",
                "SELECT * FROM properties WHERE amenities @> '[\"wifi\"]' ORDER BY id"),
            read(
                "properties?images=ov.{x,https://cdn.easyco.example/properties/duplex-vieux-port/1.jpg}",
                "SELECT * FROM properties WHERE images && '{x,https://cdn.easyco.example/properties/duplex-vieux-port/1.jpg}'",
                ordered: false),
            read(
                "properties?images=cd.{https://cdn.easyco.example/properties/duplex-vieux-port/1.jpg,https://cdn.easyco.example/properties/duplex-vieux-port/2.jpg,https://cdn.easyco.example/properties/duplex-vieux-port/3.jpg}",
                "SELECT * FROM properties WHERE images <@ '{https://cdn.easyco.example/properties/duplex-vieux-port/1.jpg,https://cdn.easyco.example/properties/duplex-vieux-port/2.jpg,https://cdn.easyco.example/properties/duplex-vieux-port/3.jpg}'",
                ordered: false),
            read(
                "properties?created_at=gte.2025-09-01T00:00:00Z&order=created_at,id",
                "SELECT * FROM properties WHERE created_at >= '2025-09-01T00:00:00Z' ORDER BY created_at, id"),
            read(
                "properties?created_at=lt.2025-08-10T11:12:00%2B02:00&order=id",
                "SELECT * FROM properties WHERE created_at < '2025-08-10T11:12:00+02:00' ORDER BY id"),
            read(
                "properties?available_from=lt.2026-01-01&order=id",
                "SELECT * FROM properties WHERE available_from < '2026-01-01' ORDER BY id"),
            read(
                "properties?postal_code=gte.44000&order=postal_code,id",
                "SELECT * FROM properties WHERE postal_code >= '44000' ORDER BY postal_code, id"),
            read(
                "properties?title=gt.M&order=title,id", "SELECT * FROM properties WHERE title > 'M' ORDER BY title, id"),
            // Logic.
            read(
                "properties?or=(city.eq.Lyon,monthly_rent.gt.1000)&order=id",
                "SELECT * FROM properties WHERE city = 'Lyon' OR monthly_rent > 1000 ORDER BY id"),
            read(
                "properties?and=(status.eq.published,is_available.is.true)&order=id",
                "SELECT * FROM properties WHERE status = 'published' AND is_available IS TRUE ORDER BY id"),
            read(
                "properties?or=(bedrooms.gte.3,and(city.eq.Lyon,status.eq.draft))&order=id",
                "SELECT * FROM properties WHERE bedrooms >= 3 OR (city = 'Lyon' AND status = 'draft') ORDER BY id"),
            read(
                "properties?not.or=(city.eq.Lyon,city.eq.Lille)&order=id",
                "SELECT * FROM properties WHERE NOT (city = 'Lyon' OR city = 'Lille') ORDER BY id"),
            read(
                "properties?or=(deposit.is.null,not.and(bedrooms.lt.2,charges.gt.0))&order=id",
                "SELECT * FROM properties WHERE deposit IS NULL OR NOT (bedrooms < 2 AND charges > 0) ORDER BY id"),
            read(
                "properties?city=eq.Lyon&or=(status.eq.draft,status.eq.published)&order=id",
                "SELECT * FROM properties WHERE city = 'Lyon' AND (status = 'draft' OR status = 'published') ORDER BY id"
            ),
            // Ordering with nulls, limits and offsets.
            read(
                "properties?order=deposit.asc.nullsfirst,id",
                "SELECT * FROM properties ORDER BY deposit ASC NULLS FIRST, id"),
            read(
                "properties?order=deposit.desc.nullslast,id",
                "SELECT * FROM properties ORDER BY deposit DESC NULLS LAST, id"),
            read("properties?order=deposit.desc,id", "SELECT * FROM properties ORDER BY deposit DESC, id"),
            read("properties?order=deposit,id", "SELECT * FROM properties ORDER BY deposit, id"),
            read(
                "properties?order=city,monthly_rent.desc,id",
                "SELECT * FROM properties ORDER BY city, monthly_rent DESC, id"),
            read(
                "properties?order=monthly_rent.desc,id&limit=3",
                "SELECT * FROM properties ORDER BY monthly_rent DESC, id LIMIT 3"),
            read("properties?order=id&limit=2&offset=3", "SELECT * FROM properties ORDER BY id LIMIT 2 OFFSET 3"),
            read("properties?order=id&offset=100", "SELECT * FROM properties ORDER BY id OFFSET 100"),
            read(
                "transactions?amount=gt.1000&order=amount.desc,id",
                "SELECT * FROM transactions WHERE amount > 1000 ORDER BY amount DESC, id"),
            read(
                "transactions?due_date=gte.2025-10-01&order=due_date,id",
                "SELECT * FROM transactions WHERE due_date >= '2025-10-01' ORDER BY due_date, id"),
            read(
                "transactions?paid_at=is.null&order=id", "SELECT * FROM transactions WHERE paid_at IS NULL ORDER BY id"),
            read(
                "transactions?order=paid_at.desc.nullslast,id&limit=4",
                "SELECT * FROM transactions ORDER BY paid_at DESC NULLS LAST, id LIMIT 4"),
            read(
                "payment_schedules?order=next_payment_date.desc,id",
                "SELECT * FROM payment_schedules ORDER BY next_payment_date DESC, id"),
            read(
                "property_members?status=neq.active&order=id",
                "SELECT * FROM property_members WHERE status <> 'active' ORDER BY id"),
            read(
                "property_members?move_out_date=is.null&order=move_in_date,id",
                "SELECT * FROM property_members WHERE move_out_date IS NULL ORDER BY move_in_date, id"),
            read(
                "applications?monthly_income=eq.2800&order=id",
                "SELECT * FROM applications WHERE monthly_income = 2800 ORDER BY id"),
            read(
                "applications?message=is.null&order=id", "SELECT * FROM applications WHERE message IS NULL ORDER BY id"),
            read(
                "favorites?order=created_at.desc,id&limit=5",
                "SELECT * FROM favorites ORDER BY created_at DESC, id LIMIT 5"),
            // Columns, aliases, casts and JSON paths.
            read(
                "properties?select=id,title,monthly_rent&order=id",
                "SELECT id, title, monthly_rent FROM properties ORDER BY id"),
            read(
                "properties?select=name:title,rent:monthly_rent&order=id",
                "SELECT title AS name, monthly_rent AS rent FROM properties ORDER BY id"),
            read(
                "properties?select=id,bedrooms::text&order=id",
                "SELECT id, bedrooms::text AS bedrooms FROM properties ORDER BY id"),
            read(
                "properties?select=id,first:amenities->>0,second:amenities->1&order=id",
                "SELECT id, amenities->>0 AS first, amenities->1 AS second FROM properties ORDER BY id"),
            read(
                "transactions?select=id,provider:metadata->>provider&metadata->>provider=eq.stripe&order=id",
                "SELECT id, metadata->>'provider' AS provider FROM transactions WHERE metadata->>'provider' = 'stripe' ORDER BY id"
            ),
            // Embeds.
            read(
                "properties?select=id,property_members(user_id,role)&property_members.order=user_id&order=id",
                "SELECT p.id, coalesce((SELECT json_agg(x) FROM (SELECT m.user_id, m.role FROM property_members m WHERE m.property_id = p.id ORDER BY m.user_id) x), '[]') AS property_members FROM properties p ORDER BY p.id"
            ),
            read(
                "properties?select=title,applications(status)&applications.status=eq.pending&order=id",
                "SELECT p.title, coalesce((SELECT json_agg(x) FROM (SELECT a.status FROM applications a WHERE a.property_id = p.id AND a.status = 'pending') x), '[]') AS applications FROM properties p ORDER BY p.id"
            ),
            read(
                "properties?select=id,transactions(amount)&transactions.order=amount.desc&transactions.limit=2&order=id",
                "SELECT p.id, coalesce((SELECT json_agg(x) FROM (SELECT t.amount FROM transactions t WHERE t.property_id = p.id ORDER BY t.amount DESC LIMIT 2) x), '[]') AS transactions FROM properties p ORDER BY p.id"
            ),
            read(
                "properties?select=id,applications!inner(id)&applications.order=id&order=id",
                "SELECT p.id, (SELECT json_agg(x) FROM (SELECT a.id FROM applications a WHERE a.property_id = p.id ORDER BY a.id) x) AS applications FROM properties p WHERE EXISTS (SELECT 1 FROM applications a WHERE a.property_id = p.id) ORDER BY p.id"
            ),
            read(
                "transactions?select=id,amount,property:properties(title,city)&payer_id=eq.\(camille)&order=id",
                "SELECT t.id, t.amount, (SELECT to_json(x) FROM (SELECT p.title, p.city FROM properties p WHERE p.id = t.property_id) x) AS property FROM transactions t WHERE t.payer_id = '\(camille)' ORDER BY t.id"
            ),
            read(
                "transactions?select=amount,...properties(title)&payee_id=eq.\(hugo)&order=id",
                "SELECT t.amount, p.title FROM transactions t LEFT JOIN properties p ON p.id = t.property_id WHERE t.payee_id = '\(hugo)' ORDER BY t.id"
            ),
            read(
                "transactions?select=id,properties(title)&order=properties(title).desc,id",
                "SELECT t.id, (SELECT to_json(x) FROM (SELECT p.title FROM properties p WHERE p.id = t.property_id) x) AS properties FROM transactions t LEFT JOIN properties o ON o.id = t.property_id ORDER BY o.title DESC, t.id"
            ),
            read(
                "property_members?select=id,properties(status)&properties.status=eq.published&properties=not.is.null&order=id",
                "SELECT m.id, (SELECT to_json(x) FROM (SELECT p.status FROM properties p WHERE p.id = m.property_id) x) AS properties FROM property_members m WHERE EXISTS (SELECT 1 FROM properties p WHERE p.id = m.property_id AND p.status = 'published') ORDER BY m.id"
            ),
            read(
                "properties?select=id,favorites(user_id)&favorites=is.null&order=id",
                "SELECT p.id, '[]'::json AS favorites FROM properties p WHERE NOT EXISTS (SELECT 1 FROM favorites f WHERE f.property_id = p.id) ORDER BY p.id"
            ),
            read(
                "applications?select=id,properties(title,property_members(role))&properties.property_members.order=role&order=id",
                "SELECT a.id, (SELECT to_json(x) FROM (SELECT p.title, coalesce((SELECT json_agg(y) FROM (SELECT m.role FROM property_members m WHERE m.property_id = p.id ORDER BY m.role) y), '[]') AS property_members FROM properties p WHERE p.id = a.property_id) x) AS properties FROM applications a ORDER BY a.id"
            ),
        ]
    }

    /// HEAD requests with `Prefer: count=exact` and the rows they count.
    static func counts(_ mock: MockUnderTest) throws -> [(String, String)] {
        let camille = try mock.user("camille.martin@example.com")
        return [
            ("properties", "SELECT * FROM properties"),
            ("properties?status=eq.published", "SELECT * FROM properties WHERE status = 'published'"),
            (
                "transactions?or=(payer_id.eq.\(camille),payee_id.eq.\(camille))",
                "SELECT * FROM transactions WHERE payer_id = '\(camille)' OR payee_id = '\(camille)'"
            ),
            (
                "applications?select=id,properties!inner(id)&properties.city=eq.Lyon",
                "SELECT a.* FROM applications a JOIN properties p ON p.id = a.property_id WHERE p.city = 'Lyon'"
            ),
        ]
    }

    static func badInserts(_ mock: MockUnderTest) throws -> [BadInsert] {
        let camille = try mock.user("camille.martin@example.com")
        let flat = try mock.property("Appartement 2 chambres")
        let favorite = try #require(mock.stored("favorites").first)
        func property(_ changes: [String: JSONValue]) -> BadInsert {
            var body: [String: JSONValue] = [
                "owner_id": .string(camille), "title": "Essai", "property_type": "studio", "address": "1 rue Neuve",
                "city": "Lyon", "postal_code": "69001", "monthly_rent": 500,
            ]
            for (key, value) in changes { body[key] = value }
            return BadInsert(table: "properties", body: .object(body))
        }
        func transaction(_ changes: [String: JSONValue]) -> BadInsert {
            var body: [String: JSONValue] = [
                "payer_id": .string(camille), "amount": 10, "transaction_type": "other",
            ]
            for (key, value) in changes { body[key] = value }
            return BadInsert(table: "transactions", body: .object(body))
        }
        return [
            property(["bedrooms": "abc"]),
            property(["bedrooms": 1.5]),
            property(["bedrooms": 3_000_000_000]),
            property(["bedrooms": "-2147483649"]),
            property(["bathrooms": true]),
            // 030_create_properties_table.sql's ranges: a studio cannot have 60 bathrooms.
            property(["bathrooms": 60]),
            property(["bedrooms": -1]),
            property(["surface_area": 0]),
            property(["surface_area": 23, "bedrooms": 10, "bathrooms": 60]),
            property(["monthly_rent": 1_000_000.01]),
            property(["views_count": -1]),
            property(["property_type": "castle"]),
            property(["property_type": "castle", "status": "gone"]),
            property(["status": "gone"]),
            property(["title": nil]),
            property(["title": nil, "property_type": "castle"]),
            property(["owner_id": "nope"]),
            property(["is_available": "maybe"]),
            property(["available_from": "nope"]),
            property(["available_from": "2025-02-30"]),
            property(["published_at": "2025-12-04T25:00:00Z"]),
            // Not "yesterday": PostgreSQL's date/time input takes that special value (and now, today, epoch…).
            property(["created_at": "later"]),
            property(["monthly_rent": "abc"]),
            property(["monthly_rent": 123_456_789]),
            property(["images": "x"]),
            property(["owner_id": "00000000-0000-4000-8000-000000000000"]),
            transaction(["amount": -1]),
            transaction(["currency": "JPY"]),
            transaction(["transaction_type": nil]),
            transaction(["property_id": "00000000-0000-4000-8000-000000000000"]),
            transaction(["due_date": "2025-13-01"]),
            BadInsert(
                table: "favorites",
                body: ["user_id": favorite["user_id"] ?? .null, "property_id": favorite["property_id"] ?? .null]),
            // POST /rest/v1/favorites is documented: the mock checks its body against `NewFavorite` first (PGRST100),
            // so the NOT NULL of a missing key is tried on a table without a documented insert.
            BadInsert(
                table: "property_members", body: ["property_id": .string(flat), "role": "tenant", "status": "active"]),
            BadInsert(
                table: "property_members",
                body: [
                    "property_id": .string(flat), "user_id": .string(camille), "role": "landlord", "status": "active",
                ]),
            BadInsert(
                table: "payment_schedules",
                body: [
                    "payer_id": .string(camille), "amount": 0, "frequency": "monthly", "payment_type": "rent",
                    "start_date": "2026-01-01", "next_payment_date": "2026-02-01",
                ]),
            BadInsert(
                table: "payment_schedules",
                body: [
                    "payer_id": .string(camille), "amount": 10, "frequency": "monthly", "payment_type": "rent",
                    "start_date": "2026-01-01", "next_payment_date": "2026-02-01", "day_of_month": "1st",
                ]),
        ]
    }

    // MARK: Support

    /// Rows in a canonical order, for queries that do not order them.
    static func sorted(_ rows: [JSONValue]) -> JSONValue {
        .array(rows.sorted { $0.serialized() < $1.serialized() })
    }

    /// A SQL literal of a JSON value.
    static func literal(_ value: JSONValue) -> String {
        "'" + value.serialized().replacingOccurrences(of: "'", with: "''") + "'::json"
    }

    /// The mock, its seed, and its `service_role` key (row-level security is left out of the comparison: PostgreSQL
    /// runs as a superuser).
    struct MockUnderTest {
        let mock: EasyCoMock
        let engine: MockEngine
        let service: String

        init() async throws {
            let configuration = MockConfiguration(
                seed: 1, now: { Date(timeIntervalSince1970: 1_763_217_000.25) })
            mock = try await EasyCoMock(configuration: configuration)
            engine = MockEngine(behaviour: mock, configuration: configuration)
            service = mock.keys.service
        }

        var users: [String] { mock.store.read { $0.users.map(\.id) } }

        func send(
            _ method: String, _ query: String, json: JSONValue? = nil, headers: [String: String] = [:]
        ) async -> (status: Int, json: JSONValue?, response: MockResponse) {
            var all = headers
            all["apikey"] = service
            return await engine.send(method, "/rest/v1/" + query, json: json, headers: all)
        }

        func rows(_ query: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [JSONValue] {
            let reply = await send("GET", query)
            #expect(reply.status == 200, "\(query): \(reply.json ?? .null)", sourceLocation: sourceLocation)
            return try #require(reply.json?.arrayValue, "\(query)", sourceLocation: sourceLocation)
        }

        func user(_ email: String) throws -> String {
            try #require(mock.store.read { $0.users.first { $0.email == email }?.id })
        }

        func property(_ title: String) throws -> String {
            try #require(
                mock.store.read {
                    $0.tables["properties"]?.rows.first { $0["title"] == .string(title) }?["id"]?.stringValue
                })
        }

        func stored(_ table: String) -> [PostgrestRow] { mock.store.read { $0.tables[table]?.rows ?? [] } }
    }

    /// The PostgreSQL side: one connection, in UTC.
    struct Database {
        let connection: PostgresConnection

        init(_ url: URL) async throws {
            connection = try await TestDatabase.connect(url)
            try await run("SET TimeZone = 'UTC'")
        }

        func run(_ sql: String) async throws {
            try await connection.query(PostgresQuery(unsafeSQL: sql), logger: TestDatabase.logger)
        }

        /// The one JSON value a query returns.
        func json(_ sql: String) async throws -> JSONValue {
            let rows = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: TestDatabase.logger)
            for try await text in rows.decode(String.self) { return try JSONParser().parse(Array(text.utf8)) }
            throw TestDatabaseError(description: "no row: \(sql)")
        }

        /// The SQLSTATE and message of a statement PostgreSQL refuses (`nil` when it succeeds, then rolled back).
        func error(_ sql: String) async -> (code: String, message: String)? {
            do {
                try await run("BEGIN")
                try await run(sql)
                try await run("ROLLBACK")
                return nil
            } catch let error as PSQLError {
                try? await run("ROLLBACK")
                return (error.serverInfo?[.sqlState] ?? "", error.serverInfo?[.message] ?? "")
            } catch {
                try? await run("ROLLBACK")
                return ("", "\(error)")
            }
        }
    }

    /// The six tables, as ENDPOINTS.md and the project's migrations declare them (`text` for the `VARCHAR(n)`
    /// columns, whose lengths the mock does not model; `double precision` for the coordinates, as the row model
    /// reads them, where the migration says `DECIMAL(10, 8)`).
    static let schema = """
        CREATE TABLE users (id uuid PRIMARY KEY);
        CREATE TABLE properties (
          id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
          owner_id uuid NOT NULL REFERENCES users(id),
          title text NOT NULL,
          description text,
          property_type text NOT NULL CHECK (property_type IN ('apartment', 'house', 'studio', 'coliving', 'shared_room', 'private_room', 'entire_place')),
          address text NOT NULL,
          city text NOT NULL,
          neighborhood text,
          postal_code text NOT NULL,
          country text DEFAULT 'France',
          latitude double precision,
          longitude double precision,
          bedrooms integer NOT NULL DEFAULT 1 CHECK (bedrooms >= 0 AND bedrooms <= 20),
          bathrooms integer NOT NULL DEFAULT 1 CHECK (bathrooms >= 0 AND bathrooms <= 10),
          surface_area integer CHECK (surface_area > 0 AND surface_area <= 10000),
          furnished boolean DEFAULT false,
          monthly_rent numeric(10,2) NOT NULL CHECK (monthly_rent >= 0 AND monthly_rent <= 1000000),
          charges numeric(10,2) DEFAULT 0 CHECK (charges >= 0),
          deposit numeric(10,2) CHECK (deposit >= 0),
          available_from date,
          is_available boolean DEFAULT true,
          amenities jsonb DEFAULT '[]',
          images text[] DEFAULT '{}',
          main_image text,
          status text DEFAULT 'draft' CHECK (status IN ('draft', 'published', 'archived', 'rented', 'under_review')),
          views_count integer DEFAULT 0 CHECK (views_count >= 0),
          applications_count integer DEFAULT 0 CHECK (applications_count >= 0),
          favorites_count integer DEFAULT 0 CHECK (favorites_count >= 0),
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now(),
          published_at timestamptz
        );
        CREATE TABLE property_members (
          id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
          property_id uuid NOT NULL REFERENCES properties(id),
          user_id uuid NOT NULL REFERENCES users(id),
          role text NOT NULL CHECK (role IN ('resident', 'tenant', 'roommate')),
          status text NOT NULL CHECK (status IN ('active', 'pending', 'moved_out')),
          move_in_date date,
          move_out_date date,
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now(),
          UNIQUE (property_id, user_id, status)
        );
        CREATE TABLE transactions (
          id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
          payer_id uuid REFERENCES users(id),
          payee_id uuid REFERENCES users(id),
          property_id uuid REFERENCES properties(id),
          amount numeric(10,2) NOT NULL CHECK (amount >= 0),
          currency text NOT NULL DEFAULT 'EUR' CHECK (currency IN ('EUR', 'USD', 'GBP')),
          transaction_type text NOT NULL CHECK (transaction_type IN ('rent_payment', 'security_deposit', 'application_fee', 'service_fee', 'refund', 'damage_charge', 'utility_payment', 'other')),
          status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'processing', 'completed', 'failed', 'cancelled', 'refunded')),
          payment_method text,
          description text,
          due_date date,
          paid_at timestamptz,
          metadata jsonb NOT NULL DEFAULT '{}',
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE TABLE payment_schedules (
          id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
          payer_id uuid NOT NULL REFERENCES users(id),
          payee_id uuid REFERENCES users(id),
          property_id uuid REFERENCES properties(id),
          amount numeric(10,2) NOT NULL CHECK (amount > 0),
          currency text NOT NULL DEFAULT 'EUR',
          frequency text NOT NULL CHECK (frequency IN ('weekly', 'biweekly', 'monthly', 'quarterly', 'yearly')),
          payment_type text NOT NULL CHECK (payment_type IN ('rent', 'utilities', 'service_fee', 'other')),
          start_date date NOT NULL,
          end_date date,
          next_payment_date date NOT NULL,
          day_of_month integer,
          auto_pay_enabled boolean NOT NULL DEFAULT false,
          is_active boolean NOT NULL DEFAULT true,
          description text,
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now()
        );
        CREATE TABLE applications (
          id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
          property_id uuid NOT NULL REFERENCES properties(id),
          applicant_id uuid NOT NULL REFERENCES users(id),
          status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'reviewing', 'approved', 'rejected', 'withdrawn', 'expired')),
          applicant_name text NOT NULL,
          applicant_email text NOT NULL,
          applicant_phone text,
          occupation text,
          monthly_income numeric,
          message text,
          desired_move_in_date date,
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now(),
          UNIQUE (property_id, applicant_id)
        );
        CREATE TABLE favorites (
          id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
          user_id uuid NOT NULL REFERENCES users(id),
          property_id uuid NOT NULL REFERENCES properties(id),
          created_at timestamptz NOT NULL DEFAULT now(),
          UNIQUE (user_id, property_id)
        );
        """
}
