import Foundation
import Testing
import UnderstudyCore
import UnderstudySpecs

@testable import UnderstudyMock

/// Inserts, deletes and row-level security.
extension EasyCoMockTests {
    static func newFavorite(_ user: String, _ property: String) -> JSONValue {
        ["user_id": .string(user), "property_id": .string(property)]
    }

    static func newApplication(_ user: String, _ property: String, message: String? = nil) -> JSONValue {
        var body: [String: JSONValue] = [
            "applicant_id": .string(user), "property_id": .string(property), "applicant_name": "Camille Martin",
            "applicant_email": "camille.martin@example.com", "status": "pending",
        ]
        if let message { body["message"] = .string(message) }
        return .object(body)
    }

    @Test func insertsReturnWhatPreferAsks() async throws {
        let session = try await session()
        let t3 = try session.propertyID("T3 avec terrasse")
        let studio = try session.propertyID("Studio meublé proche gare")
        let represented = await session.send(
            "POST", "/rest/v1/favorites", json: Self.newFavorite(session.user, t3),
            headers: ["Prefer": "return=representation"])
        #expect(represented.status == 201)
        let row = try #require(represented.json?[0])
        #expect(represented.json?.arrayValue?.count == 1)
        #expect(row["user_id"] == .string(session.user) && row["property_id"] == .string(t3))
        // now() as PostgreSQL's JSON writes a timestamptz under TimeZone=UTC.
        #expect(row["created_at"] == "2025-11-15T14:30:00+00:00")
        #expect(row.objectValue?.keys.sorted() == ["created_at", "id", "property_id", "user_id"])
        #expect(represented.response.header("Content-Range") == "*/*")
        #expect(represented.response.header("Preference-Applied") == "return=representation")
        expectConforms(represented.response.body, "POST /rest/v1/favorites", in: spec)

        // As PostgREST, no Prefer means return=minimal: 201 without a body.
        let removed = await session.send("DELETE", "/rest/v1/favorites?property_id=eq.\(t3)")
        #expect(removed.status == 204)
        let minimal = await session.send("POST", "/rest/v1/favorites", json: Self.newFavorite(session.user, t3))
        #expect(minimal.status == 201 && minimal.response.body.isEmpty)
        // The app decodes the rows, so its own request carries Prefer: return=representation: documented required,
        // not enforced by the mock (as PostgREST does not), still expected of the app by check and proxy.
        let create = try #require(spec.endpoint("POST /rest/v1/favorites"))
        let prefer = try #require(create.parameters.first { $0.name == "Prefer" })
        #expect(prefer.required && !prefer.enforced)
        let inspection = RequestInspector(spec: spec, endpoint: create).inspect(
            body: Self.newFavorite(session.user, t3).serializedBytes(), contentType: "application/json"
        ) { $0.name == "apikey" ? session.apikey : nil }
        #expect(inspection.findings.map(\.message) == ["header parameter Prefer is required"])
        _ = await session.send("DELETE", "/rest/v1/favorites?property_id=eq.\(t3)")
        let explicit = await session.send(
            "POST", "/rest/v1/favorites", json: Self.newFavorite(session.user, t3),
            headers: ["Prefer": "return=minimal"])
        #expect(explicit.status == 201 && explicit.response.body.isEmpty)
        _ = await session.send("DELETE", "/rest/v1/favorites?property_id=eq.\(t3)")
        let headersOnly = await session.send(
            "POST", "/rest/v1/favorites", json: Self.newFavorite(session.user, t3),
            headers: ["Prefer": "return=headers-only"])
        #expect(headersOnly.status == 201 && headersOnly.response.body.isEmpty)
        let location = try #require(headersOnly.response.header("Location"))
        #expect(location.hasPrefix("/favorites?id=eq."))
        #expect(try await session.rows("/rest/v1/favorites?\(location.dropFirst("/favorites?".count))").count == 1)

        // Applications: the default status, the message, and the embed of the representation.
        let application = await session.send(
            "POST", "/rest/v1/applications?select=*,property:properties(id,title)",
            json: Self.newApplication(session.user, t3, message: "Disponible dès janvier."),
            headers: ["Prefer": "return=representation"])
        #expect(application.status == 201)
        let created = try #require(application.json?[0])
        #expect(created["status"] == "pending" && created["message"] == "Disponible dès janvier.")
        #expect(created["occupation"] == .null && created["monthly_income"] == .null)
        #expect(created["property"] == ["id": .string(t3), "title": "T3 avec terrasse"])
        expectConforms(application.response.body, "POST /rest/v1/applications", in: spec)
        // The owner of the property sees it; the applicant too.
        let adam = try await session.token(for: "adam.leroy@example.com")
        #expect(try await session.rows("/rest/v1/applications?property_id=eq.\(t3)", token: adam).count == 1)
        #expect(try await session.rows("/rest/v1/applications?property_id=eq.\(t3)").count == 1)
        let hugo = try await session.token(for: Self.hugo)
        #expect(try await session.rows("/rest/v1/applications?property_id=eq.\(t3)", token: hugo).isEmpty)
        _ = studio
    }

    @Test func uniqueKeysConflictWith23505() async throws {
        let session = try await session()
        let loft = try session.propertyID("Loft lumineux près du canal")
        let duplicate = await session.send("POST", "/rest/v1/favorites", json: Self.newFavorite(session.user, loft))
        #expect(
            Self.error(duplicate) == (
                409, "23505", #"duplicate key value violates unique constraint "favorites_user_id_property_id_key""#
            ))
        #expect(
            duplicate.json?["details"]
                == .string("Key (user_id, property_id)=(\(session.user), \(loft)) already exists."))
        expectConforms(duplicate.response.body, "POST /rest/v1/favorites", in: spec, status: 409)
        let flat = try session.propertyID("Appartement 2 chambres")
        let again = await session.send("POST", "/rest/v1/applications", json: Self.newApplication(session.user, flat))
        #expect(Self.error(again).0 == 409 && Self.error(again).1 == "23505")
        // Upper-case uuids are the same key.
        let upper = await session.send(
            "POST", "/rest/v1/favorites", json: Self.newFavorite(session.user.uppercased(), loft.uppercased()))
        #expect(upper.status == 409)
        // An upsert that ignores duplicates inserts nothing and succeeds; one that merges needs an update
        // policy, which favorites do not have.
        let ignored = await session.send(
            "POST", "/rest/v1/favorites?on_conflict=user_id,property_id", json: Self.newFavorite(session.user, loft),
            headers: ["Prefer": "resolution=ignore-duplicates,return=representation"])
        #expect(ignored.status == 201 && ignored.json == [])
        let merged = await session.send(
            "POST", "/rest/v1/favorites?on_conflict=user_id,property_id", json: Self.newFavorite(session.user, loft),
            headers: ["Prefer": "resolution=merge-duplicates"])
        #expect(Self.error(merged).0 == 403 && Self.error(merged).1 == "42501")
        let badTarget = await session.send(
            "POST", "/rest/v1/favorites?on_conflict=created_at", json: Self.newFavorite(session.user, loft),
            headers: ["Prefer": "resolution=ignore-duplicates"])
        #expect(Self.error(badTarget).1 == "42P10")
        #expect(session.stored("favorites").filter { $0["user_id"] == .string(session.user) }.count == 3)
    }

    @Test func rowLevelSecurityGuardsInserts() async throws {
        let session = try await session()
        let t3 = try session.propertyID("T3 avec terrasse")
        let hugo = try session.userID(Self.hugo)
        let forSomeoneElse = await session.send("POST", "/rest/v1/favorites", json: Self.newFavorite(hugo, t3))
        #expect(
            Self.error(forSomeoneElse) == (
                403, "42501", #"new row violates row-level security policy for table "favorites""#
            ))
        expectConforms(forSomeoneElse.response.body, "POST /rest/v1/favorites", in: spec, status: 403)
        let applyAsSomeoneElse = await session.send(
            "POST", "/rest/v1/applications", json: Self.newApplication(hugo, t3))
        #expect(Self.error(applyAsSomeoneElse).0 == 403)
        let anonymous = await session.send(
            "POST", "/rest/v1/favorites", json: Self.newFavorite(session.user, t3), token: session.apikey)
        #expect(Self.error(anonymous).0 == 401 && Self.error(anonymous).1 == "42501")
        let missing = await session.send(
            "POST", "/rest/v1/favorites", json: Self.newFavorite(session.user, "00000000-0000-4000-8000-000000000000"))
        #expect(
            Self.error(missing) == (
                409, "23503",
                #"insert or update on table "favorites" violates foreign key constraint "favorites_property_id_fkey""#
            ))
        // The service role bypasses row-level security.
        let service = await session.send(
            "POST", "/rest/v1/favorites", json: Self.newFavorite(hugo, t3), token: session.service)
        #expect(service.status == 201)
        #expect(
            session.stored("favorites").contains { $0["user_id"] == .string(hugo) && $0["property_id"] == .string(t3) })
    }

    @Test func deletesTouchOnlyTheCallersRows() async throws {
        let session = try await session()
        let flat = try session.propertyID("Appartement 2 chambres")
        let loft = try session.propertyID("Loft lumineux près du canal")
        let manon = try session.userID(Self.manon)
        let before = session.stored("favorites").count
        // Manon's favorite on the flat: Camille's delete filtered on it matches nothing she may delete.
        let others = await session.send("DELETE", "/rest/v1/favorites?user_id=eq.\(manon)&property_id=eq.\(flat)")
        #expect(others.status == 204)
        #expect(session.stored("favorites").count == before)
        // Without filters, only her own rows go.
        let represented = await session.send(
            "DELETE", "/rest/v1/favorites?property_id=eq.\(loft)", headers: ["Prefer": "return=representation"])
        #expect(represented.status == 200)
        #expect(represented.json?.arrayValue?.count == 1 && represented.json?[0]?["property_id"] == .string(loft))
        let everything = await session.send("DELETE", "/rest/v1/favorites", headers: ["Prefer": "count=exact"])
        #expect(everything.status == 204 && everything.response.header("Content-Range") == "*/2")
        #expect(try await session.rows("/rest/v1/favorites").isEmpty)
        #expect(session.stored("favorites").count == before - 3)
        #expect(session.stored("favorites").contains { $0["user_id"] == .string(manon) })
        // Bad filters are refused before anything is deleted.
        let bad = await session.send("DELETE", "/rest/v1/favorites?user_id=eq.me")
        #expect(Self.error(bad).1 == "22P02")
        let unknownColumn = await session.send("DELETE", "/rest/v1/favorites?owner=eq.1")
        #expect(Self.error(unknownColumn).1 == "42703")
        let limited = await session.send("DELETE", "/rest/v1/favorites?limit=1", token: session.service)
        #expect(Self.error(limited).1 == "PGRST109")
        let strict = await session.send(
            "DELETE", "/rest/v1/favorites", token: session.service,
            headers: ["Prefer": "handling=strict,max-affected=1"])
        #expect(Self.error(strict).1 == "PGRST124")
        #expect(session.stored("favorites").count == before - 3)
    }

    @Test func rowLevelSecurityGuardsReads() async throws {
        let session = try await session()
        let manon = try await session.token(for: Self.manon)
        let hugo = try await session.token(for: Self.hugo)
        // Drafts are seen by their owner only; published and available rows by everyone.
        #expect(
            Self.strings(try await session.rows("/rest/v1/properties?status=eq.draft"), "title") == [
                "Chambre en colocation"
            ])
        #expect(try await session.rows("/rest/v1/properties?status=eq.draft", token: manon).isEmpty)
        let house = try session.propertyID("Maison avec jardin")
        #expect(try await session.rows("/rest/v1/properties?id=eq.\(house)", token: manon).isEmpty)
        #expect(try await session.rows("/rest/v1/properties?id=eq.\(house)").count == 1)
        // Favorites, transactions and schedules: only the user's own, without any filter.
        let favorites = try await session.rows("/rest/v1/favorites?select=user_id")
        #expect(favorites.count == 3 && favorites.allSatisfy { $0["user_id"] == .string(session.user) })
        let received = try await session.rows("/rest/v1/transactions", token: hugo)
        #expect(
            received.count == 6
                && received.allSatisfy {
                    $0["payee_id"] == .string(session.user) || $0["payer_id"] == .string(session.user)
                })
        #expect(try await session.rows("/rest/v1/payment_schedules", token: hugo).count == 1)
        // Members: a member sees their rows, the owner sees the members of their properties.
        let members = try await session.rows("/rest/v1/property_members?select=user_id,status")
        #expect(members.count == 4)
        #expect(try await session.rows("/rest/v1/property_members", token: manon).count == 1)
        // Applications: the applicant's own, and those on the owner's properties.
        let applications = try await session.rows("/rest/v1/applications?select=applicant_name&order=applicant_name")
        #expect(
            Self.strings(applications, "applicant_name") == [
                "Adam Leroy", "Camille Martin", "Inès Moreau", "Louis Thomas",
            ])
    }
}
