import Foundation
import Testing
import UnderstudyCore
import UnderstudyPostgREST
import UnderstudySpecs

@testable import UnderstudyMock

struct EasyCoMockTests {
    let spec = EasyCo.spec

    // MARK: - The document's twelve requests, verbatim, over loopback

    @Test func documentedQueriesOverLoopback() async throws {
        try await LiveMock.with(.easyco, configuration: Self.configuration()) { mock in
            let answer = try await mock.token()
            let user = try #require(answer["user"]?.stringValue)
            let token = try #require(answer["access_token"]?.stringValue)
            let apikey = try #require(answer["apikey"]?.stringValue)
            let headers = [("apikey", apikey)]
            func get(_ endpoint: String, _ query: String, property: String = "") async throws -> [JSONValue] {
                let target = query.replacingOccurrences(of: "<userId>", with: user)
                    .replacingOccurrences(of: "<propertyId>", with: property)
                let path = String(endpoint.dropFirst(4))
                let reply = try await mock.send("GET", "\(path)?\(target)", token: token, headers: headers)
                #expect(reply.status == 200, "\(endpoint)?\(target): \(reply.json ?? .null)")
                #expect(reply.header("Content-Range")?.hasSuffix("/*") == true)
                expectConforms(reply.bytes, endpoint, in: spec)
                return try #require(reply.json?.arrayValue)
            }
            func queries(_ endpoint: String) throws -> [String] {
                try #require(spec.endpoint(endpoint)).examples.queries
            }

            // Explorer: the published properties, newest first.
            let properties = try queries("GET /rest/v1/properties")
            let published = try await get("GET /rest/v1/properties", properties[0])
            let titles = Self.strings(published, "title")
            for title in [
                "Appartement 2 chambres", "Studio meublé proche gare", "Loft lumineux près du canal",
                "Colocation étudiante Bordeaux", "T3 avec terrasse",
            ] {
                #expect(titles.contains(title))
            }
            #expect(published.allSatisfy { $0["status"] == "published" })
            let created = Self.strings(published, "created_at")
            #expect(created == created.sorted(by: >))

            // Resident dashboard.
            let membership = try await get(
                "GET /rest/v1/property_members", try queries("GET /rest/v1/property_members")[0])
            #expect(membership.count == 1)
            let home = try #require(membership.first?["property_id"]?.stringValue)
            let property = try await get("GET /rest/v1/properties", properties[1], property: home)
            #expect(Self.strings(property, "title") == ["Appartement 2 chambres"])
            let transactions = try queries("GET /rest/v1/transactions")
            let history = try await get("GET /rest/v1/transactions", transactions[0])
            #expect(history.count == 23)
            #expect(history.allSatisfy { $0["payer_id"] == .string(user) || $0["payee_id"] == .string(user) })
            let schedules = try await get(
                "GET /rest/v1/payment_schedules", try queries("GET /rest/v1/payment_schedules")[0])
            #expect(schedules.count == 1 && schedules[0]["is_active"] == true)

            // Owner dashboard.
            let owned = try await get("GET /rest/v1/properties", properties[2])
            #expect(owned.count == 3 && owned.allSatisfy { $0["owner_id"] == .string(user) })
            let pending = try await get("GET /rest/v1/applications", try queries("GET /rest/v1/applications")[0])
            #expect(Set(Self.strings(pending, "status")) == ["pending", "reviewing"] && pending.count == 2)
            #expect(pending.allSatisfy { $0["property"]?["title"] == "Studio meublé proche gare" })
            #expect(pending.allSatisfy { $0["property"]?.objectValue?.keys.sorted() == ["id", "title"] })
            let revenue = try await get("GET /rest/v1/transactions", transactions[1])
            #expect(revenue.count == 15)

            // Favorites: the archived duplex embeds null (row-level security hides it).
            let favoritesQuery = try queries("GET /rest/v1/favorites")[0]
            let favorites = try await get("GET /rest/v1/favorites", favoritesQuery)
            #expect(favorites.count == 3)
            #expect(favorites.filter { $0["properties"] == .null }.count == 1)
            #expect(favorites.allSatisfy { $0.objectValue?.keys.sorted() == ["properties", "property_id"] })

            // Add a favorite and apply, with the document's bodies (placeholders replaced).
            let favoriteIDs = Set(Self.strings(favorites, "property_id"))
            let target = try #require(
                published.first { row in
                    row["owner_id"] != .string(user) && !favoriteIDs.contains(row["id"]?.stringValue ?? "")
                        && row["title"] == "T3 avec terrasse"
                }?["id"]?.stringValue)
            for endpoint in ["POST /rest/v1/favorites", "POST /rest/v1/applications"] {
                let example = try #require(spec.endpoint(endpoint)?.examples.request)
                let body = example.replacingOccurrences(of: "<userId>", with: user)
                    .replacingOccurrences(of: "<propertyId>", with: target)
                let reply = try await mock.send(
                    "POST", String(endpoint.dropFirst(5)), bytes: Array(body.utf8), token: token, headers: headers)
                #expect(reply.status == 201, "\(endpoint): \(reply.json ?? .null)")
                #expect(reply.bytes.isEmpty)
            }
            #expect(try await get("GET /rest/v1/favorites", favoritesQuery).count == 4)

            // Remove a favorite.
            let removeQuery = try queries("DELETE /rest/v1/favorites")[0]
                .replacingOccurrences(of: "<userId>", with: user).replacingOccurrences(of: "<propertyId>", with: target)
            let removed = try await mock.send(
                "DELETE", "/rest/v1/favorites?\(removeQuery)", token: token, headers: headers)
            #expect(removed.status == 204 && removed.bytes.isEmpty)
            let after = try await get("GET /rest/v1/favorites", favoritesQuery)
            #expect(after.count == 3 && !Self.strings(after, "property_id").contains(target))
        }
    }

    @Test func queriesWithTheirPlaceholdersAreRefusedAsPostgreSQLWould() async throws {
        let session = try await session()
        let reply = await session.send("GET", "/rest/v1/properties?id=eq.<propertyId>")
        #expect(Self.error(reply) == (400, "22P02", #"invalid input syntax for type uuid: "<propertyId>""#))
        expectConforms(reply.response.body, "GET /rest/v1/properties", in: spec, status: 400)
    }

    // MARK: - Every endpoint conforms

    @Test func everyEndpointsSuccessConforms() async throws {
        let session = try await session()
        let representation = ["Prefer": "return=representation"]
        for endpoint in spec.endpoints where endpoint.method == .get {
            let query = endpoint.examples.queries.first?.replacingOccurrences(of: "<userId>", with: session.user) ?? ""
            let reply = await session.send("GET", "\(endpoint.path.template)?\(query)")
            #expect(reply.status == 200, "\(endpoint.id)")
            #expect(reply.json?.arrayValue?.isEmpty == false, "\(endpoint.id)")
            expectConforms(reply.response.body, endpoint.id, in: spec)
            let everything = await session.send("GET", endpoint.path.template, token: session.service)
            expectConforms(everything.response.body, endpoint.id, in: spec)
        }
        let target = try session.propertyID("T3 avec terrasse")
        let favorite = await session.send(
            "POST", "/rest/v1/favorites", json: ["user_id": .string(session.user), "property_id": .string(target)],
            headers: representation)
        #expect(favorite.status == 201)
        expectConforms(favorite.response.body, "POST /rest/v1/favorites", in: spec)
        let application = await session.send(
            "POST", "/rest/v1/applications?select=*,property:properties(id,title)",
            json: [
                "applicant_id": .string(session.user), "property_id": .string(target),
                "applicant_name": "Camille Martin",
                "applicant_email": "camille.martin@example.com", "status": "pending",
            ],
            headers: representation)
        #expect(application.status == 201)
        expectConforms(application.response.body, "POST /rest/v1/applications", in: spec)
        let removed = await session.send(
            "DELETE", "/rest/v1/favorites?user_id=eq.\(session.user)&property_id=eq.\(target)")
        #expect(removed.status == 204)
        expectConforms(removed.response.body, "DELETE /rest/v1/favorites", in: spec)
    }

    // MARK: - Auth

    @Test func theApikeyIsRequiredAndChecked() async throws {
        let session = try await session()
        let missing = await session.send("GET", "/rest/v1/properties", apikey: "")
        #expect(Self.error(missing) == (401, "PGRST301", "No API key found in request"))
        #expect(missing.json?["hint"] == "No `apikey` request header or url param was found.")
        let wrong = await session.send("GET", "/rest/v1/properties", apikey: "not-the-key")
        #expect(Self.error(wrong) == (401, "PGRST301", "Invalid API key"))
        expectConforms(wrong.response.body, "GET /rest/v1/properties", in: spec, status: 401)
    }

    @Test func tokensAreCheckedLikePostgREST() async throws {
        let session = try await session()
        // Without Authorization, Supabase's gateway forwards the apikey as the bearer: the anon role's rows.
        let missing = await session.send("GET", "/rest/v1/favorites", token: "")
        #expect(missing.status == 200 && missing.json == [])
        let malformed = await session.send("GET", "/rest/v1/favorites", token: "not-a-jwt")
        #expect(Self.error(malformed).0 == 401 && Self.error(malformed).1 == "PGRST301")
        let notBearer = await session.send(
            "GET", "/rest/v1/favorites", token: "", headers: ["Authorization": "Basic abc"])
        #expect(notBearer.status == 401)
        let expiredToken = try await TokenService(
            secret: MockConfiguration.defaultJWTSecret, now: { Self.instant - 7200 }
        )
        .sign(subject: session.user, lifetime: 3600, role: "authenticated")
        let expired = await session.send("GET", "/rest/v1/favorites", token: expiredToken)
        #expect(Self.error(expired) == (401, "PGRST303", "JWT expired"))
        #expect(expired.response.header("WWW-Authenticate")?.contains("JWT expired") == true)
        let foreign = try await TokenService(secret: String(repeating: "x", count: 40), now: { Self.instant })
            .sign(subject: session.user, lifetime: 3600)
        let wronglySigned = await session.send("GET", "/rest/v1/favorites", token: foreign)
        #expect(Self.error(wronglySigned) == (401, "PGRST301", "JWSError JWSInvalidSignature"))
        for reply in [malformed, expired, wronglySigned] {
            expectConforms(reply.response.body, "GET /rest/v1/favorites", in: spec, status: 401)
        }
        // A token signed elsewhere with the same secret is a user like any other.
        let other = try await TokenService(secret: MockConfiguration.defaultJWTSecret, now: { Self.instant })
            .sign(subject: session.user, lifetime: 60, role: "authenticated")
        #expect(try await session.rows("/rest/v1/favorites", token: other).count == 3)
    }

    @Test func theAnonKeyAsBearerReadsOnlyWhatAnyoneMay() async throws {
        let session = try await session()
        let properties = try await session.rows("/rest/v1/properties", token: session.apikey)
        #expect(
            !properties.isEmpty && properties.allSatisfy { $0["status"] == "published" && $0["is_available"] == true })
        #expect(try await session.rows("/rest/v1/favorites", token: session.apikey).isEmpty)
        #expect(try await session.rows("/rest/v1/transactions", token: session.apikey).isEmpty)
    }

    @Test func tokensAreIssuedForSeededUsers() async throws {
        let session = try await session()
        let reply = await session.engine.send("POST", "/__understudy/token", json: ["user": .string(Self.hugo)])
        #expect(reply.status == 200)
        #expect(reply.json?["user"] == .string(try session.userID(Self.hugo)))
        #expect(reply.json?["apikey"] == .string(session.apikey))
        #expect(reply.json?["expires_in"] == 3600)
        let claims = try await TokenService(secret: MockConfiguration.defaultJWTSecret, now: { Self.instant })
            .verify(try #require(reply.json?["access_token"]?.stringValue))
        #expect(claims.role == "authenticated" && claims.email == Self.hugo)
        let hugoToken = try #require(reply.json?["access_token"]?.stringValue)
        #expect(try await session.rows("/rest/v1/transactions", token: hugoToken).count == 6)
        let byID = await session.engine.send("POST", "/__understudy/token", json: ["user": .string(session.user)])
        #expect(byID.json?["email"] == .string(Self.camille))
        let unknown = await session.engine.send("POST", "/__understudy/token", json: ["user": "nobody@example.com"])
        #expect(unknown.status == 404)
        let notes = await session.mock.startupNotes()
        #expect(notes.contains { $0.contains(session.apikey) })
        #expect(notes.contains { $0.contains(session.service) && $0.contains("service_role") })
        #expect(notes.contains { $0.contains("access token for the default user") })
        #expect(notes.contains { $0.contains(session.user) })
    }

    // MARK: - Bad input

    @Test func badBodiesAreRefusedNamingTheField() async throws {
        let session = try await session()
        let property = try session.propertyID("T3 avec terrasse")
        let wrongType = await session.send(
            "POST", "/rest/v1/favorites", json: ["user_id": 42, "property_id": .string(property)])
        #expect(wrongType.status == 400 && wrongType.json?["code"] == "PGRST100")
        #expect(wrongType.json?["message"]?.stringValue?.hasPrefix("user_id:") == true)
        let missing = await session.send("POST", "/rest/v1/favorites", json: ["user_id": .string(session.user)])
        #expect(missing.status == 400)
        #expect(missing.json?["message"]?.stringValue?.contains("property_id") == true)
        let unknown = await session.send(
            "POST", "/rest/v1/favorites",
            json: ["user_id": .string(session.user), "property_id": .string(property), "note": "x"])
        #expect(unknown.status == 400 && unknown.json?["message"]?.stringValue?.contains("note") == true)
        let badStatus = await session.send(
            "POST", "/rest/v1/applications",
            json: [
                "applicant_id": .string(session.user), "property_id": .string(property), "applicant_name": "C",
                "applicant_email": "c@example.com", "status": "maybe",
            ])
        #expect(badStatus.status == 400 && badStatus.json?["message"]?.stringValue?.hasPrefix("status") == true)
        let malformed = await session.send("POST", "/rest/v1/favorites", bytes: Array(#"{"user_id": "#.utf8))
        #expect(malformed.status == 400 && malformed.json?["message"]?.stringValue?.contains("not valid JSON") == true)
        let invalidUTF8 = await session.send(
            "POST", "/rest/v1/favorites", bytes: [0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x3A, 0x31, 0x7D])
        #expect(invalidUTF8.status == 400)
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let nested = await session.send("POST", "/rest/v1/favorites", bytes: Array(deep.utf8))
        #expect(nested.status == 400)
        let empty = await session.send("POST", "/rest/v1/favorites", bytes: [])
        #expect(empty.status == 400)
        for reply in [wrongType, missing, unknown, badStatus, malformed, invalidUTF8, nested, empty] {
            expectConforms(reply.response.body, "POST /rest/v1/favorites", in: spec, status: 400)
        }
        #expect(session.mock.stateVersion == 0)
    }

    @Test func oversizedBodiesUnknownRoutesAndMethods() async throws {
        // --max-body-bytes overrides EasyCo's 32 MiB, so the socket carries 2 MiB rather than 33.
        var configuration = Self.configuration()
        configuration.maximumBodyBytes = 1 << 20
        try await LiveMock.with(.easyco, configuration: configuration) { mock in
            let answer = try await mock.token()
            let token = try #require(answer["access_token"]?.stringValue)
            let headers = [("apikey", try #require(answer["apikey"]?.stringValue))]
            let big = [UInt8](repeating: UInt8(ascii: " "), count: 2 << 20)
            let tooLarge = try await mock.send("POST", "/rest/v1/favorites", bytes: big, token: token, headers: headers)
            #expect(tooLarge.status == 413 && tooLarge.json?["code"] != nil && tooLarge.json?["message"] != nil)
            let unknown = try await mock.send("GET", "/rest/v1/owners", token: token, headers: headers)
            #expect(unknown.status == 404 && unknown.json?["code"] == "42P01")
            expectConforms(unknown.bytes, "GET /rest/v1/properties", in: spec, status: 404)
            // PATCH is served (every verb on every table); an empty body changes nothing. PUT is not served yet.
            let patch = try await mock.send("PATCH", "/rest/v1/favorites", json: [:], token: token, headers: headers)
            #expect(patch.status == 204)
            let put = try await mock.send("PUT", "/rest/v1/favorites", json: [:], token: token, headers: headers)
            #expect(put.status == 405 && put.header("Allow") == "GET, HEAD, POST, PATCH, DELETE, OPTIONS")
        }
    }

    /// The query is PostgREST's to parse (``MockBehaviour/parsesQuery``): a bad `limit` is its PGRST100, not the
    /// engine's reading of the descriptor; headers are still the descriptor's.
    @Test func malformedQueryParametersAre400InPostgrestsWords() async throws {
        let session = try await session()
        let limit = await session.send("GET", "/rest/v1/properties?limit=ten")
        #expect(limit.status == 400 && limit.json?["code"] == "PGRST100")
        #expect(limit.json?["message"] == #""failed to parse limit (ten)" (line 1, column 1)"#)
        // Outside the part of the grammar the document's patterns state, and valid PostgREST all the same.
        let cast = await session.send("GET", "/rest/v1/properties?select=id::text,title&order=title.desc.nullslast")
        #expect(cast.status == 200)
        let unit = await session.send("GET", "/rest/v1/properties", headers: ["Range-Unit": "pages", "Range": "0-1"])
        #expect(unit.status == 400)
    }

    // MARK: - State

    @Test func concurrentInsertsLoseNothing() async throws {
        let session = try await session()
        let users = session.mock.store.read { $0.users.map(\.id) }
        let properties = session.stored("properties").compactMap { $0["id"]?.stringValue }
        let taken = Set(
            session.stored("favorites").map { "\($0["user_id"]!.stringValue!) \($0["property_id"]!.stringValue!)" })
        let pairs = users.flatMap { user in properties.map { (user, $0) } }.filter {
            !taken.contains("\($0.0) \($0.1)")
        }
        try #require(pairs.count >= 50)
        let before = session.stored("favorites").count
        let statuses = await withTaskGroup(of: Int.self) { group in
            for (user, property) in pairs.prefix(50) {
                group.addTask {
                    await session.send(
                        "POST", "/rest/v1/favorites",
                        json: ["user_id": .string(user), "property_id": .string(property)],
                        token: session.service
                    ).status
                }
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 201, count: 50))
        #expect(session.stored("favorites").count == before + 50)
        #expect(Set(session.stored("favorites").compactMap { $0["id"]?.stringValue }).count == before + 50)
    }

    @Test func writesArePersistedAndResetRestoresTheSeed() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-easyco-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let configuration = Self.configuration(stateFile: folder.appendingPathComponent("state.json"))
        // The first mock is released before the second opens the file: a running mock locks it.
        let target: String
        let id: String
        do {
            let first = try await session(configuration)
            target = try first.propertyID("T3 avec terrasse")
            let created = await first.send(
                "POST", "/rest/v1/favorites", json: ["user_id": .string(first.user), "property_id": .string(target)],
                headers: ["Prefer": "return=representation"])
            id = try #require(created.json?[0]?["id"]?.stringValue)
        }

        let second = try await session(configuration)
        let rows = try await second.rows("/rest/v1/favorites?select=id,property_id&id=eq.\(id)")
        #expect(rows == [["id": .string(id), "property_id": .string(target)]])
        // Decimals keep their value through the file.
        #expect(
            try await second.rows("/rest/v1/properties?title=eq.T3%20avec%20terrasse&monthly_rent=eq.980").count == 1)

        #expect(await second.engine.send("POST", "/__understudy/reset").status == 200)
        #expect(try await second.rows("/rest/v1/favorites?id=eq.\(id)").isEmpty)
        #expect(try await second.rows("/rest/v1/favorites").count == 3)
        // Ids of new rows are derived from the seed and the insert count: the same after a reset.
        let again = await second.send(
            "POST", "/rest/v1/favorites", json: ["user_id": .string(second.user), "property_id": .string(target)],
            headers: ["Prefer": "return=representation"])
        #expect(again.json?[0]?["id"] == .string(id))
    }

    @Test func theSeedIsDeterministicAndCoherent() async throws {
        let first = try await session()
        let second = try await session()
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(first.mock.store.read { $0 }) == encoder.encode(second.mock.store.read { $0 }))
        #expect(first.apikey == second.apikey)
        let other = try await session(Self.configuration(seed: 2))
        #expect(other.user != first.user)

        let users = Set(first.mock.store.read { $0.users.map(\.id) })
        let properties = Set(first.stored("properties").compactMap { $0["id"]?.stringValue })
        for table in [
            "properties", "property_members", "transactions", "payment_schedules", "applications", "favorites",
        ] {
            let rows = first.stored(table)
            #expect(!rows.isEmpty, "\(table)")
            let info = try #require(PostgrestCatalog.easyCo.table(table))
            let columns = info.columns.map(\.name).sorted()
            for row in rows {
                #expect(row.keys.sorted() == columns, "\(table)")
                if let property = row["property_id"]?.stringValue { #expect(properties.contains(property), "\(table)") }
                for column in info.facts.userColumns {
                    if let user = row[column]?.stringValue { #expect(users.contains(user), "\(table).\(column)") }
                }
            }
        }
        // The fixtures' rows are part of the seed.
        #expect(first.stored("properties").count > 8)
    }

    /// A temporary fixtures folder whose `GET /rest/v1/properties` fixture holds the rows `edit` makes of the
    /// generated first row; the caller removes it.
    func propertiesFixture(_ edit: ([String: JSONValue]) -> [[String: JSONValue]]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "understudy-easyco-fixtures-\(UUID())")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("easyco"), withIntermediateDirectories: true)
        var fixture = spec.fixture(for: try #require(spec.endpoint("GET /rest/v1/properties")), seed: 1)
        let row = try #require(fixture.responses[200]?.arrayValue?.first?.objectValue, "no generated property")
        fixture.responses[200] = .array(edit(row).map(JSONValue.object))
        try Data(fixture.jsonValue.serializedBytes(.pretty)).write(
            to: folder.appendingPathComponent("easyco/\(fixture.fileName)"))
        return folder
    }

    @Test func fixtureFilesBecomeRows() async throws {
        var row: [String: JSONValue] = [:]
        let folder = try propertiesFixture { generated in
            row = generated
            row["title"] = "Péniche amarrée quai de Bercy"
            row["status"] = "published"
            row["is_available"] = true
            return [row]
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try await session(Self.configuration(fixtures: folder))
        let found = try await session.rows(
            "/rest/v1/properties?title=eq.P%C3%A9niche%20amarr%C3%A9e%20quai%20de%20Bercy")
        #expect(found.count == 1)
        #expect(session.mock.store.read { $0.users.contains { $0.id == row["owner_id"]?.stringValue } })
    }
}
