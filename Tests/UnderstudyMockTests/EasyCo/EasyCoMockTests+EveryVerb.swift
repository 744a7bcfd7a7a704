import Foundation
import Testing
import UnderstudyCore
import UnderstudySpecs

@testable import UnderstudyMock

/// PostgREST serves every verb on every table and lets row-level security decide; the EasyCo document describes
/// only the app's operations, so the others are the mock's undocumented routes: never narrower than the real
/// server, and never in what `check`, the exports or `diff` describe.
///
/// PATCH semantics from PostgREST's docs (docs/references/api/tables_views.rst, "Update"): the body's columns
/// are set on every row the filters match; 204 by default, 200 with the rows under `Prefer:
/// return=representation`; rows the update policies' USING hides are skipped, a new row that fails WITH CHECK
/// is 42501 ("new row violates row-level security policy"), as PostgreSQL's UPDATE does.
extension EasyCoMockTests {
    @Test func theServiceRoleSeedsAndChangesEveryTable() async throws {
        let session = try await session()
        // POST on properties, which the app never writes: test suites seed data with the service key.
        let property: JSONValue = [
            "owner_id": .string(session.user), "title": "Studio de test", "property_type": "studio",
            "address": "3 rue du Test", "city": "Lyon", "postal_code": "69003", "monthly_rent": 640,
            "furnished": true, "amenities": ["wifi"], "images": [],
            // ENDPOINTS.md gives these counters no default: the mock asks for them (NOT NULL).
            "views_count": 0, "applications_count": 0, "favorites_count": 0,
        ]
        let created = await session.send(
            "POST", "/rest/v1/properties", json: property, token: session.service,
            headers: ["Prefer": "return=representation"])
        #expect(created.status == 201, "\(created.json ?? .null)")
        let id = try #require(created.json?[0]?["id"]?.stringValue)

        let patched = await session.send(
            "PATCH", "/rest/v1/properties?id=eq.\(id)", json: ["monthly_rent": 690, "status": "published"],
            token: session.service, headers: ["Prefer": "return=representation"])
        #expect(patched.status == 200)
        #expect(patched.json?[0]?["monthly_rent"]?.numberLiteral == "690.00" && patched.json?[0]?["status"] == "published")
        let stored = try #require(session.stored("properties").first { $0["id"] == .string(id) })
        #expect(stored["monthly_rent"]?.numberLiteral == "690.00" && stored["title"] == "Studio de test")

        // DELETE on a table the document only reads.
        let members = session.stored("property_members").count
        let removed = await session.send("DELETE", "/rest/v1/property_members?status=eq.active", token: session.service)
        #expect(removed.status == 204)
        #expect(session.stored("property_members").count < members)

        // The undocumented routes answer OPTIONS with every verb, and stay out of the spec.
        let options = await session.send("OPTIONS", "/rest/v1/properties")
        #expect(options.response.headers.first { $0.0 == "Allow" }?.1 == "GET, HEAD, POST, PATCH, DELETE, OPTIONS")
        #expect(EasyCo.spec.endpoints.count == 9)
        #expect(EasyCo.spec.endpoint("PATCH /rest/v1/properties") == nil)
    }

    @Test func updatesFollowRowLevelSecurity() async throws {
        let session = try await session()
        let properties = session.stored("properties")
        let mine = try #require(properties.first { $0["owner_id"] == .string(session.user) }?["id"]?.stringValue)
        let theirs = try #require(properties.first { $0["owner_id"] != .string(session.user) }?["id"]?.stringValue)

        // Another owner's row is skipped (USING): 204, nothing changed.
        let skipped = await session.send("PATCH", "/rest/v1/properties?id=eq.\(theirs)", json: ["title": "Pris"])
        #expect(skipped.status == 204)
        #expect(session.stored("properties").first { $0["id"] == .string(theirs) }?["title"] != "Pris")
        let anonymous = await session.send("PATCH", "/rest/v1/properties?id=eq.\(mine)", json: ["title": "Anonyme"], token: "")
        #expect(anonymous.status == 204)
        #expect(session.stored("properties").first { $0["id"] == .string(mine) }?["title"] != "Anonyme")

        // The owner's own row changes, and its updated_at moves.
        let before = try #require(session.stored("properties").first { $0["id"] == .string(mine) })
        let changed = await session.send("PATCH", "/rest/v1/properties?id=eq.\(mine)", json: ["title": "Refait à neuf"])
        #expect(changed.status == 204)
        let after = try #require(session.stored("properties").first { $0["id"] == .string(mine) })
        #expect(after["title"] == "Refait à neuf")
        #expect(after["updated_at"] != before["updated_at"])

        // Giving the row away fails the policy's WITH CHECK: 42501, and nothing is kept.
        let hugo = try session.userID(Self.hugo)
        let given = await session.send("PATCH", "/rest/v1/properties?id=eq.\(mine)", json: ["owner_id": .string(hugo)])
        #expect(Self.error(given) == (403, "42501", #"new row violates row-level security policy for table "properties""#))
        #expect(session.stored("properties").first { $0["id"] == .string(mine) }?["owner_id"] == .string(session.user))
    }

    @Test func updatesAreCheckedLikePostgreSQL() async throws {
        let session = try await session()
        let favorites = session.stored("favorites").filter { $0["user_id"] == .string(session.user) }
        #expect(favorites.count >= 2)
        let first = try #require(favorites.first?["id"]?.stringValue)
        let taken = try #require(favorites.last?["property_id"])
        // Two favorites of the same property: the unique key (user_id, property_id).
        let duplicate = await session.send(
            "PATCH", "/rest/v1/favorites?id=eq.\(first)", json: ["property_id": taken], token: session.service)
        #expect(duplicate.status == 409 && duplicate.json?["code"] == "23505")
        let unknown = await session.send(
            "PATCH", "/rest/v1/favorites?id=eq.\(first)", json: ["colour": "blue"], token: session.service)
        #expect(Self.error(unknown) == (400, "PGRST204", "Could not find the 'colour' column of 'favorites' in the schema cache"))
        let notUUID = await session.send(
            "PATCH", "/rest/v1/favorites?id=eq.\(first)", json: ["property_id": "nope"], token: session.service)
        #expect(notUUID.status == 400 && notUUID.json?["code"] == "22P02")
        let dangling = await session.send(
            "PATCH", "/rest/v1/favorites?id=eq.\(first)", json: ["property_id": "00000000-0000-4000-8000-000000000000"],
            token: session.service)
        #expect(dangling.status == 409 && dangling.json?["code"] == "23503")
        let notNull = await session.send(
            "PATCH", "/rest/v1/favorites?id=eq.\(first)", json: ["user_id": nil], token: session.service)
        #expect(notNull.status == 400 && notNull.json?["code"] == "23502")
        #expect(session.stored("favorites").first { $0["id"] == .string(first) } == favorites.first)
        // A limit needs an order, as on DELETE.
        let unordered = await session.send(
            "PATCH", "/rest/v1/favorites?limit=1", json: ["property_id": taken], token: session.service)
        #expect(Self.error(unordered).1 == "PGRST109")
    }
}

extension EasyCoMockTests {
    /// Money columns are `numeric(10,2)`: PostgreSQL rounds to the scale (half away from zero) and writes every
    /// digit of it, reads a numeric string, and refuses what needs more than 8 integer digits (22003) or is no
    /// number (22P02) — PostgreSQL's documentation, "Arbitrary Precision Numbers".
    @Test func moneyIsStoredAsNumericTenTwo() async throws {
        let session = try await session()
        let id = try session.propertyID("T3 avec terrasse")
        func rent(_ value: JSONValue) async -> (status: Int, json: JSONValue?, response: MockResponse) {
            await session.send(
                "PATCH", "/rest/v1/properties?id=eq.\(id)&select=monthly_rent", json: ["monthly_rent": value],
                token: session.service, headers: ["Prefer": "return=representation"])
        }
        #expect(await rent(.number(JSONNumber(1234.455))).json?[0]?["monthly_rent"]?.numberLiteral == "1234.46")
        #expect(await rent("990").json?[0]?["monthly_rent"]?.numberLiteral == "990.00")
        #expect(await rent(.number(JSONNumber(0.004))).json?[0]?["monthly_rent"]?.numberLiteral == "0.00")
        #expect(await rent(.number(JSONNumber(999_999.994))).json?[0]?["monthly_rent"]?.numberLiteral == "999999.99")
        // The type first, then the column's CHECK (monthly_rent >= 0 AND monthly_rent <= 1000000).
        let check = #"new row for relation "properties" violates check constraint "properties_monthly_rent_check""#
        #expect(Self.error(await rent(.number(JSONNumber(-12.345)))) == (400, "23514", check))
        #expect(Self.error(await rent(.number(JSONNumber(99_999_999.994)))) == (400, "23514", check))
        let overflow = await rent(.number(JSONNumber(99_999_999.995)))
        #expect(overflow.status == 400 && overflow.json?["code"] == "22003")
        let word = await rent("beaucoup")
        #expect(Self.error(word) == (400, "22P02", #"invalid input syntax for type numeric: "beaucoup""#))
        // The refused writes changed nothing.
        #expect(session.stored("properties").first { $0["id"] == .string(id) }?["monthly_rent"]?.numberLiteral == "999999.99")
    }
}

extension EasyCoMockTests {
    /// ENDPOINTS.md: a transaction's amount is ≥ 0, a payment schedule's > 0 — CHECK constraints, whose violation
    /// PostgreSQL reports as 23514 (`new row for relation "t" violates check constraint "t_amount_check"`), on inserts
    /// and updates alike; `NULL` passes a CHECK.
    @Test func checkConstraintsGuardAmounts() async throws {
        let session = try await session()
        let transaction = try #require(session.stored("transactions").first)
        let id = try #require(transaction["id"]?.stringValue)
        func patch(_ table: String, _ id: String, _ amount: JSONValue) async -> (Int, String?, String?) {
            Self.error(
                await session.send("PATCH", "/rest/v1/\(table)?id=eq.\(id)", json: ["amount": amount], token: session.service))
        }
        #expect(
            await patch("transactions", id, -0.01)
                == (400, "23514", #"new row for relation "transactions" violates check constraint "transactions_amount_check""#))
        #expect(await patch("transactions", id, 0).0 == 204)
        let schedule = try #require(session.stored("payment_schedules").first?["id"]?.stringValue)
        #expect(await patch("payment_schedules", schedule, 0).1 == "23514")
        #expect(await patch("payment_schedules", schedule, 0.01).0 == 204)

        var copy = transaction.filter { !["id", "created_at", "updated_at"].contains($0.key) }
        copy["amount"] = -5
        let before = session.stored("transactions").count
        let inserted = await session.send("POST", "/rest/v1/transactions", json: .object(copy), token: session.service)
        #expect(Self.error(inserted).1 == "23514")
        #expect(session.stored("transactions").count == before)
        // The same row with a valid amount goes in: the refusal was the check's.
        copy["amount"] = 5
        let accepted = await session.send("POST", "/rest/v1/transactions", json: .object(copy), token: session.service)
        #expect(accepted.status == 201 && session.stored("transactions").count == before + 1)
    }
}
