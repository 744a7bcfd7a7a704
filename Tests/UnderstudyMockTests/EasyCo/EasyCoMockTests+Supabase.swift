import Foundation
import JWTKit
import Testing
import UnderstudyCore
import UnderstudyPostgREST
import UnderstudySpecs

@testable import UnderstudyMock

/// The everyday calls of the Supabase client libraries, sent as they send them.
///
/// What the clients send, from their sources:
/// - supabase-swift `PostgrestBuilder.execute` adds `Accept: application/json` unless set, `Content-Type:
///   application/json` on every request, and `Accept-Profile` (GET, HEAD) or `Content-Profile` (other verbs) with
///   the schema, `public` by default; `select(head: true, count: .exact)` is `HEAD` with `Prefer: count=exact`;
///   `.single()` sets `Accept: application/vnd.pgrst.object+json`; `insert([a, b])` adds `columns=` with the
///   sorted keys; `range(from:to:)` is `offset` and `limit` (supabase/supabase-swift Sources/PostgREST/
///   PostgrestBuilder.swift, PostgrestTransformBuilder.swift, PostgrestQueryBuilder.swift).
/// - The `SupabaseClient` headers: `apikey`, `Authorization: Bearer <key or session token>`, `X-Client-Info:
///   supabase-swift/<version>` (supabase-swift's client tests and Constants.swift).
/// - supabase-js (postgrest-js `PostgrestQueryBuilder.insert`) quotes the `columns` of an array insert:
///   `columns="user_id","property_id"`; `maybeSingle()` on GET sends the plural `Accept: application/json` and
///   reduces the array itself (postgrest-js PostgrestTransformBuilder.ts, PostgrestBuilder.ts).
extension EasyCoMockTests {
    static let clientInfo = "supabase-swift/2.30.0"

    /// The headers supabase-swift adds to a request with `key` as the `apikey`.
    static func swiftHeaders(
        _ method: String, apikey: String, accept: String = "application/json", prefer: String? = nil
    ) -> [String: String] {
        var headers = [
            "apikey": apikey, "X-Client-Info": clientInfo, "X-Supabase-Client-Platform": "iOS",
            "Accept": accept, "Content-Type": "application/json",
            (method == "GET" || method == "HEAD" ? "Accept-Profile" : "Content-Profile"): "public",
        ]
        if let prefer { headers["Prefer"] = prefer }
        return headers
    }

    /// A JWT with any claims, signed HS256 with `secret`, as GoTrue or a developer's script mints them.
    static func jwt(_ claims: JSONValue, secret: String = MockConfiguration.defaultJWTSecret) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        return try await keys.sign(AnyClaims(claims))
    }

    struct AnyClaims: JWTPayload {
        let claims: JSONValue
        init(_ claims: JSONValue) { self.claims = claims }
        init(from decoder: any Decoder) throws { claims = try JSONValue(from: decoder) }
        func encode(to encoder: any Encoder) throws { try claims.encode(to: encoder) }
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// The claims of a GoTrue access token (supabase/auth internal/api/token.go `GoTrueClaims`: the standard
    /// claims, email, phone, app_metadata, user_metadata, role, aal, amr, session_id; `is_anonymous` in later
    /// versions).
    static func goTrueClaims(sub: String?, email: String, expiresIn: TimeInterval = 3600) -> JSONValue {
        let issued = Int(instant.timeIntervalSince1970)
        var claims: [String: JSONValue] = [
            "iss": "https://understudy-easyco.supabase.co/auth/v1", "aud": "authenticated",
            "exp": .integer(issued + Int(expiresIn)), "iat": .integer(issued), "email": .string(email), "phone": "",
            "app_metadata": ["provider": "email", "providers": ["email"]], "user_metadata": [:],
            "role": "authenticated", "aal": "aal1", "amr": [["method": "password", "timestamp": .integer(issued)]],
            "session_id": "7c8a2d36-5a0e-4d47-9f57-0b6a8a1c2e11", "is_anonymous": false,
        ]
        if let sub { claims["sub"] = .string(sub) }
        return .object(claims)
    }

    /// Sends with supabase-swift's headers; `bearer` `nil` sends no `Authorization`.
    func swiftSend(
        _ session: Session, _ method: String, _ target: String, json: JSONValue? = nil, apikey: String? = nil,
        bearer: String?, accept: String = "application/json", prefer: String? = nil
    ) async -> (status: Int, json: JSONValue?, response: MockResponse) {
        var headers = Self.swiftHeaders(method, apikey: apikey ?? session.apikey, accept: accept, prefer: prefer)
        if let bearer { headers["Authorization"] = "Bearer \(bearer)" }
        return await session.engine.send(method, target, json: json, headers: headers)
    }

    static let pgrst116 = "Cannot coerce the result to a single JSON object"

    // MARK: - Singular answers

    // PostgREST's "Singular or Plural": `Accept: application/vnd.pgrst.object+json` answers the object itself with
    // `Content-Type: application/vnd.pgrst.object+json`, and other than one row is 406 PGRST116 (docs/references/api/
    // resource_representation.rst). The wording is PostgREST's current one, src/PostgREST/Error.hs: message
    // "Cannot coerce the result to a single JSON object", details "The result contains N rows", hint null (the
    // docs still show the older "JSON object requested, multiple (or no) rows returned"; PostgREST 11.2 changed
    // it, postgrest-js PR #486, and Supabase answers the new text: supabase/supabase issue #41958).
    @Test func singleAnswersOneObjectOr406() async throws {
        let session = try await session()
        let t3 = try session.propertyID("T3 avec terrasse")
        let object = "application/vnd.pgrst.object+json"
        let one = await swiftSend(
            session, "GET", "/rest/v1/properties?select=id,title&id=eq.\(t3)", bearer: session.token, accept: object)
        #expect(one.status == 200)
        #expect(one.json == ["id": .string(t3), "title": "T3 avec terrasse"])
        #expect(one.response.header("Content-Type") == "application/vnd.pgrst.object+json; charset=utf-8")
        #expect(one.response.header("Content-Range") == "0-0/*")
        // PostgREST echoes the schema a request negotiated by profile (src/PostgREST/Response.hs profileHeader).
        #expect(one.response.header("Content-Profile") == "public")

        let none = await swiftSend(
            session, "GET", "/rest/v1/properties?id=eq.00000000-0000-4000-8000-000000000000", bearer: session.token,
            accept: object)
        #expect(none.status == 406)
        #expect(
            none.json == [
                "code": "PGRST116", "message": .string(Self.pgrst116), "details": "The result contains 0 rows",
                "hint": nil,
            ])
        #expect(none.response.header("Content-Type") == "application/json; charset=utf-8")
        expectConforms(none.response.body, "GET /rest/v1/properties", in: spec, status: 406)

        let published = try await session.rows("/rest/v1/properties?status=eq.published&select=id").count
        #expect(published > 1)
        let many = await swiftSend(
            session, "GET", "/rest/v1/properties?status=eq.published&select=id", bearer: session.token, accept: object)
        #expect(Self.error(many) == (406, "PGRST116", Self.pgrst116))
        #expect(many.json?["details"] == .string("The result contains \(published) rows"))
        // `.limit(1).single()`, as the libraries' documentation advises, is one row again.
        let limited = await swiftSend(
            session, "GET", "/rest/v1/properties?status=eq.published&select=id&limit=1", bearer: session.token,
            accept: object)
        #expect(limited.status == 200 && limited.json?["id"]?.stringValue != nil)
        // PostgREST checks the rows before the range (src/PostgREST/Query.hs readQuery: failNotSingular runs
        // before the response sees the range), so an offset past a counted end is 406, not 416.
        let beyond = await swiftSend(
            session, "GET", "/rest/v1/properties?select=id&offset=1000", bearer: session.token, accept: object,
            prefer: "count=exact")
        #expect(Self.error(beyond).0 == 406 && beyond.json?["details"] == "The result contains 0 rows")
        // Another media type first in the list keeps the plural answer; a schema the project does not expose is
        // 406 PGRST106 (src/PostgREST/Error.hs UnacceptableSchema).
        let plural = await session.send(
            "GET", "/rest/v1/properties?id=eq.\(t3)", headers: ["Accept": "application/json, \(object)"])
        #expect(plural.json?.arrayValue?.count == 1)
        // The same read without a profile first: the engine's answer cache must not serve it to the others.
        let unprofiled = await session.send("GET", "/rest/v1/properties?select=id")
        #expect(unprofiled.status == 200 && unprofiled.response.header("Content-Profile") == nil)
        let otherSchema = await session.send(
            "GET", "/rest/v1/properties?select=id", headers: ["Accept-Profile": "storage"])
        #expect(Self.error(otherSchema) == (406, "PGRST106", "Invalid schema: storage"))
        #expect(otherSchema.json?["hint"] == "Only the following schemas are exposed: public")
        let profiled = await session.send(
            "GET", "/rest/v1/properties?select=id", headers: ["Accept-Profile": "public"])
        #expect(profiled.status == 200 && profiled.response.header("Content-Profile") == "public")
    }

    // supabase-js `maybeSingle()` on GET sends `Accept: application/json` (no limit) and turns the array into one
    // row or null itself; more than one row is its own PGRST116 (postgrest-js PostgrestBuilder.ts). The mock's part
    // is the plain array; supabase-swift has no maybeSingle (uncertain for versions newer than those read).
    @Test func maybeSingleGetsThePluralArray() async throws {
        let session = try await session()
        let t3 = try session.propertyID("T3 avec terrasse")
        let found = await swiftSend(session, "GET", "/rest/v1/properties?select=id&id=eq.\(t3)", bearer: session.token)
        #expect(found.status == 200 && found.json == [["id": .string(t3)]])
        let missing = await swiftSend(
            session, "GET", "/rest/v1/properties?select=id&id=eq.00000000-0000-4000-8000-000000000000",
            bearer: session.token)
        #expect(missing.status == 200 && missing.json == [])
    }

    // PostgREST applies the singular check to POST, PATCH and DELETE whatever `Prefer: return` says (CHANGELOG
    // 7.0.0, #1417), counting the rows the write changed, and calls `SQL.condemn` first, so the transaction rolls
    // back (src/PostgREST/Query.hs createQuery/deleteQuery → failNotSingular). The mock's write throws inside the
    // store's write, which undoes it.
    @Test func singularWritesOfOtherThanOneRowRollBack() async throws {
        let session = try await session()
        let object = "application/vnd.pgrst.object+json"
        let t3 = try session.propertyID("T3 avec terrasse")
        let flat = try session.propertyID("Appartement 2 chambres")
        let before = session.stored("favorites")
        let two: JSONValue = [Self.newFavorite(session.user, t3), Self.newFavorite(session.user, flat)]
        for prefer in ["return=representation", "return=minimal"] {
            let refused = await swiftSend(
                session, "POST", "/rest/v1/favorites?columns=property_id,user_id&select=*", json: two,
                bearer: session.token, accept: object, prefer: prefer)
            #expect(Self.error(refused) == (406, "PGRST116", Self.pgrst116), "\(prefer)")
            #expect(refused.json?["details"] == "The result contains 2 rows", "\(prefer)")
            #expect(session.stored("favorites") == before, "\(prefer)")
        }

        // `insert(x).select().single()`: the row itself.
        let inserted = await swiftSend(
            session, "POST", "/rest/v1/favorites?select=*", json: Self.newFavorite(session.user, t3),
            bearer: session.token, accept: object, prefer: "return=representation")
        #expect(inserted.status == 201)
        #expect(inserted.json?["property_id"] == .string(t3) && inserted.json?["user_id"] == .string(session.user))
        #expect(inserted.response.header("Content-Type") == "application/vnd.pgrst.object+json; charset=utf-8")
        #expect(inserted.response.header("Content-Profile") == "public")
        #expect(session.stored("favorites").count == before.count + 1)

        // Camille has four favorites now: a singular delete of all of them deletes none.
        let all = await swiftSend(
            session, "DELETE", "/rest/v1/favorites?user_id=eq.\(session.user)", bearer: session.token,
            accept: object, prefer: "return=representation")
        #expect(Self.error(all) == (406, "PGRST116", Self.pgrst116))
        #expect(all.json?["details"] == "The result contains 4 rows")
        #expect(session.stored("favorites").count == before.count + 1)
        let nothing = await swiftSend(
            session, "DELETE", "/rest/v1/favorites?property_id=eq.00000000-0000-4000-8000-000000000000",
            bearer: session.token, accept: object, prefer: "return=representation")
        #expect(nothing.status == 406 && nothing.json?["details"] == "The result contains 0 rows")
        let removed = await swiftSend(
            session, "DELETE", "/rest/v1/favorites?property_id=eq.\(t3)", bearer: session.token, accept: object,
            prefer: "return=representation")
        #expect(removed.status == 200 && removed.json?["property_id"] == .string(t3))
        #expect(session.stored("favorites") == before)
    }

    // MARK: - Ranges and counts

    // PostgREST "Pagination and Count" (docs/references/api/pagination_count.rst): `Prefer: count=exact` gives
    // `Content-Range: <first>-<last>/<total>`, 206 when the range is part of the rows; HEAD is the same answer
    // without a body. Past the end, 416 with the PGRST103 body (src/PostgREST/Error.hs InvalidRange OutOfBounds:
    // "Requested range not satisfiable", "An offset of N was requested, but there are only M rows.") and the read's
    // own headers, whose `Content-Range` is `*/M` (src/PostgREST/Response.hs builds the 416 with them).
    @Test func headCountsAndRangesAsSupabaseSwiftAsks() async throws {
        let session = try await session()
        let total = session.stored("properties").count
        try #require(total > 10)
        // With the service key and `count: .exact`, as supabase-swift sends them.
        func counted(_ method: String, _ target: String) async -> (
            status: Int, json: JSONValue?, response: MockResponse
        ) {
            await swiftSend(
                session, method, target, apikey: session.service, bearer: session.service, prefer: "count=exact")
        }
        // `select("*", head: true, count: .exact)`.
        let head = await counted("HEAD", "/rest/v1/properties?select=*")
        #expect(head.status == 200 && head.response.body.isEmpty)
        #expect(head.response.header("Content-Range") == "0-\(total - 1)/\(total)")
        #expect(head.response.header("Content-Profile") == "public")
        // `.range(from: 0, to: 9)` on top: offset and limit.
        let page = await counted("HEAD", "/rest/v1/properties?select=*&offset=0&limit=10")
        #expect(page.status == 206 && page.response.body.isEmpty)
        #expect(page.response.header("Content-Range") == "0-9/\(total)")
        let rows = await counted("GET", "/rest/v1/properties?select=id&offset=10&limit=10")
        #expect(rows.status == 206 && rows.json?.arrayValue?.count == min(10, total - 10))
        #expect(rows.response.header("Content-Range") == "10-\(min(19, total - 1))/\(total)")
        let beyond = await counted("GET", "/rest/v1/properties?select=id&offset=\(total + 5)&limit=10")
        #expect(beyond.status == 416 && beyond.response.header("Content-Range") == "*/\(total)")
        #expect(
            beyond.json == [
                "code": "PGRST103", "message": "Requested range not satisfiable",
                "details": .string("An offset of \(total + 5) was requested, but there are only \(total) rows."),
                "hint": nil,
            ])
        let headBeyond = await counted("HEAD", "/rest/v1/properties?offset=\(total + 5)")
        #expect(headBeyond.status == 416 && headBeyond.response.body.isEmpty)
        #expect(headBeyond.response.header("Content-Range") == "*/\(total)")
        // Exactly at the end: no row, not an error (PostgREST's 416 is for an offset above the total).
        let atEnd = await counted("GET", "/rest/v1/properties?select=id&offset=\(total)")
        #expect(atEnd.status == 206 && atEnd.json == [] && atEnd.response.header("Content-Range") == "*/\(total)")
    }

    // MARK: - Auth

    // Supabase's gateway (supabase/supabase docker/volumes/api/kong.yml and kong-entrypoint.sh): `key-auth` on
    // /rest/v1 takes the key from the `apikey` header or the `apikey` query parameter (Kong's key_in_query), and a
    // request-transformer sets `Authorization` to the request's own when it has one, else to the apikey, so a key
    // alone runs as its role. Uncertain: a 2023 answer (supabase/pg_graphql issue #148) saw the hosted platform run
    // a service key sent only as `apikey` as `anon`; the mock follows the current gateway configuration. The
    // transformer reads the header only; the mock also lets `?apikey=` stand for the header in this (uncertain).
    @Test func anApikeyAloneActsAsItsRole() async throws {
        let session = try await session()
        let anon = await swiftSend(session, "GET", "/rest/v1/favorites", bearer: nil)
        #expect(anon.status == 200 && anon.json == [])
        let published = await swiftSend(session, "GET", "/rest/v1/properties?select=status,is_available", bearer: nil)
        let publishedRows = try #require(published.json?.arrayValue)
        #expect(!publishedRows.isEmpty && publishedRows.allSatisfy { $0["status"] == "published" })
        let service = await swiftSend(
            session, "GET", "/rest/v1/favorites?select=id", apikey: session.service, bearer: nil)
        #expect(service.json?.arrayValue?.count == session.stored("favorites").count)
        // An insert with only the anon key is the anon role's: row-level security refuses it with 401.
        let t3 = try session.propertyID("T3 avec terrasse")
        let insert = await swiftSend(
            session, "POST", "/rest/v1/favorites", json: Self.newFavorite(session.user, t3), bearer: nil)
        #expect(
            Self.error(insert) == (401, "42501", #"new row violates row-level security policy for table "favorites""#))

        let query = await session.engine.send("GET", "/rest/v1/favorites?select=id&apikey=\(session.service)")
        #expect(query.status == 200 && query.json?.arrayValue?.count == session.stored("favorites").count)
        let queryWithBearer = await session.engine.send(
            "GET", "/rest/v1/favorites?select=user_id&apikey=\(session.apikey)", token: session.token)
        let own = try #require(queryWithBearer.json?.arrayValue)
        #expect(own.count == 3 && own.allSatisfy { $0["user_id"] == .string(session.user) })
        let wrongQuery = await session.engine.send("GET", "/rest/v1/favorites?apikey=not-the-key")
        #expect(Self.error(wrongQuery) == (401, "PGRST301", "Invalid API key"))
        let none = await session.engine.send("GET", "/rest/v1/favorites")
        #expect(Self.error(none) == (401, "PGRST301", "No API key found in request"))
        // Authorization without an apikey stays refused by the gateway.
        let bearerOnly = await session.engine.send("GET", "/rest/v1/favorites", token: session.token)
        #expect(Self.error(bearerOnly) == (401, "PGRST301", "No API key found in request"))
    }

    // PostgREST needs only `role` in a JWT (no role: the anonymous role) and maps an unknown role's PostgreSQL error
    // 22023 to 401 (src/PostgREST/Error.hs mapSQLtoHTTP); `sub` is what `auth.uid()` reads. The project's keys are
    // JWTs with iss, ref, role, iat and exp only (Supabase "Understanding API Keys").
    @Test func anyJWTSignedWithTheSecretCarryingARole() async throws {
        let session = try await session()
        let issued = Int(Self.instant.timeIntervalSince1970)
        let serviceJWT = try await Self.jwt([
            "iss": "supabase", "ref": "my-project", "role": "service_role", "iat": .integer(issued),
            "exp": .integer(issued + 600),
        ])
        let all = await swiftSend(session, "GET", "/rest/v1/favorites?select=id", bearer: serviceJWT)
        #expect(all.status == 200 && all.json?.arrayValue?.count == session.stored("favorites").count)
        let t3 = try session.propertyID("T3 avec terrasse")
        let hugo = try session.userID(Self.hugo)
        let seeded = await swiftSend(
            session, "POST", "/rest/v1/favorites", json: Self.newFavorite(hugo, t3), bearer: serviceJWT)
        #expect(seeded.status == 201)

        // A GoTrue access token with every claim GoTrue writes.
        let goTrue = try await Self.jwt(Self.goTrueClaims(sub: session.user, email: Self.camille))
        let own = await swiftSend(session, "GET", "/rest/v1/favorites?select=user_id", bearer: goTrue)
        let ownRows = try #require(own.json?.arrayValue)
        #expect(ownRows.count == 3 && ownRows.allSatisfy { $0["user_id"] == .string(session.user) })
        // authenticated without `sub`: no `auth.uid()`, so no own rows, but what anyone may read.
        let noSub = try await Self.jwt(Self.goTrueClaims(sub: nil, email: Self.camille))
        #expect(await swiftSend(session, "GET", "/rest/v1/favorites", bearer: noSub).json == [])
        let explorer = await swiftSend(session, "GET", "/rest/v1/properties?status=eq.published", bearer: noSub)
        #expect(explorer.json?.arrayValue?.isEmpty == false)
        // No `role` at all, not even `exp`: the anonymous role.
        let bare = try await Self.jwt(["sub": .string(session.user)])
        let bareInsert = await swiftSend(
            session, "POST", "/rest/v1/favorites", json: Self.newFavorite(session.user, t3), bearer: bare)
        #expect(Self.error(bareInsert).0 == 401 && Self.error(bareInsert).1 == "42501")

        let admin = try await Self.jwt(["role": "admin", "exp": .integer(issued + 600)])
        let unknownRole = await swiftSend(session, "GET", "/rest/v1/favorites", bearer: admin)
        #expect(Self.error(unknownRole) == (401, "22023", #"role "admin" does not exist"#))
        let expired = try await Self.jwt(Self.goTrueClaims(sub: session.user, email: Self.camille, expiresIn: -1))
        let refused = await swiftSend(session, "GET", "/rest/v1/favorites", bearer: expired)
        #expect(Self.error(refused) == (401, "PGRST303", "JWT expired"))
        let foreign = try await Self.jwt(
            Self.goTrueClaims(sub: session.user, email: Self.camille), secret: String(repeating: "k", count: 40))
        let forged = await swiftSend(session, "GET", "/rest/v1/favorites", bearer: foreign)
        #expect(Self.error(forged) == (401, "PGRST301", "JWSError JWSInvalidSignature"))
        #expect(forged.response.header("WWW-Authenticate")?.hasPrefix("Bearer error=\"invalid_token\"") == true)
    }

    // MARK: - Insert many

    // PostgREST "Bulk Insert" (docs/references/api/tables_views.rst) inserts every object of a JSON array in one
    // statement, so one refused row refuses them all; the objects must have the same keys unless `columns=` names
    // them (src/PostgREST/ApiRequest/Payload.hs: "All object keys must match", PGRST102); `[]` inserts nothing.
    @Test func insertManyIsAllOrNothing() async throws {
        let session = try await session()
        let t3 = try session.propertyID("T3 avec terrasse")
        let flat = try session.propertyID("Appartement 2 chambres")
        let loft = try session.propertyID("Loft lumineux près du canal")
        let before = session.stored("favorites")
        let hugo = try session.userID(Self.hugo)
        let refusals: [(JSONValue, Int, String)] = [
            // The second row repeats the first: the unique key refuses the statement.
            ([Self.newFavorite(session.user, t3), Self.newFavorite(session.user, t3)], 409, "23505"),
            // Loft is already a favorite.
            ([Self.newFavorite(session.user, t3), Self.newFavorite(session.user, loft)], 409, "23505"),
            (
                [
                    Self.newFavorite(session.user, t3),
                    Self.newFavorite(session.user, "00000000-0000-4000-8000-000000000000"),
                ], 409, "23503"
            ),
            ([Self.newFavorite(session.user, t3), Self.newFavorite(hugo, flat)], 403, "42501"),
        ]
        for (body, status, code) in refusals {
            let reply = await swiftSend(
                session, "POST", "/rest/v1/favorites?columns=property_id,user_id", json: body, bearer: session.token)
            #expect(reply.status == status && reply.json?["code"]?.stringValue == code, "\(body)")
            #expect(session.stored("favorites") == before, "\(body)")
        }
        // A row the request model refuses names its index.
        let incomplete = await swiftSend(
            session, "POST", "/rest/v1/favorites",
            json: [Self.newFavorite(session.user, t3), ["user_id": .string(session.user)]],
            bearer: session.token)
        #expect(incomplete.status == 400)
        #expect(
            incomplete.json?["message"]?.stringValue?.hasPrefix("1.property_id: required property is missing") == true)
        #expect(session.stored("favorites") == before)

        let empty = await swiftSend(session, "POST", "/rest/v1/favorites", json: [], bearer: session.token)
        #expect(empty.status == 201 && session.stored("favorites") == before)

        // supabase-swift `insert([a, b])`: 201 without a body.
        let two: JSONValue = [Self.newFavorite(session.user, t3), Self.newFavorite(session.user, flat)]
        let inserted = await swiftSend(
            session, "POST", "/rest/v1/favorites?columns=property_id,user_id", json: two, bearer: session.token)
        #expect(inserted.status == 201 && inserted.response.body.isEmpty)
        #expect(inserted.response.header("Content-Range") == "*/*")
        let added = session.stored("favorites").filter { $0["user_id"] == .string(session.user) }
        let addedIDs = Set(added.compactMap { $0["property_id"]?.stringValue })
        #expect(addedIDs.contains(t3) && addedIDs.contains(flat))
        #expect(session.stored("favorites").count == before.count + 2)
    }

    @Test func insertManyReturnsTheRowsAsAsked() async throws {
        let session = try await session()
        let t3 = try session.propertyID("T3 avec terrasse")
        let flat = try session.propertyID("Appartement 2 chambres")
        // supabase-js `insert([a, b]).select()`: quoted columns, return=representation; the rows in body order.
        let two: JSONValue = [Self.newFavorite(session.user, flat), Self.newFavorite(session.user, t3)]
        let represented = await session.send(
            "POST", #"/rest/v1/favorites?columns="user_id","property_id"&select=*"#, json: two,
            headers: [
                "Prefer": "return=representation", "Content-Profile": "public", "X-Client-Info": "supabase-js/2.45.0",
            ])
        #expect(represented.status == 201)
        let rows = try #require(represented.json?.arrayValue)
        #expect(Self.strings(rows, "property_id") == [flat, t3])
        #expect(represented.response.header("Content-Profile") == "public")
        expectConforms(represented.response.body, "POST /rest/v1/favorites", in: spec)

        // Objects with different keys: refused without `columns=`, taken with it.
        let mixed: JSONValue = [
            Self.newApplication(session.user, t3, message: "Disponible en janvier."),
            Self.newApplication(session.user, try session.propertyID("Colocation étudiante Bordeaux")),
        ]
        let uneven = await session.send("POST", "/rest/v1/applications", json: mixed)
        #expect(Self.error(uneven) == (400, "PGRST102", "All object keys must match"))
        let listed = await session.send(
            "POST",
            "/rest/v1/applications?columns=applicant_email,applicant_id,applicant_name,message,property_id,status",
            json: mixed, headers: ["Prefer": "return=representation"])
        #expect(listed.status == 201)
        #expect(Self.strings(listed.json?.arrayValue ?? [], "message") == ["Disponible en janvier.", "null"])
    }

    // MARK: - Over loopback

    @Test func supabaseSwiftCallsOverLoopback() async throws {
        let configuration = Self.configuration()
        try await LiveMock.with(.easyco, configuration: configuration) { mock in
            let answer = try await mock.token()
            let user = try #require(answer["user"]?.stringValue)
            let token = try #require(answer["access_token"]?.stringValue)
            let apikey = try #require(answer["apikey"]?.stringValue)
            let service = try await EasyCoKeys(secret: configuration.jwtSecret).service
            func headers(
                _ method: String, key: String = apikey, bearer: String?, accept: String = "application/json",
                prefer: String? = nil
            ) -> [(String, String)] {
                var all = Self.swiftHeaders(method, apikey: key, accept: accept, prefer: prefer).map {
                    ($0.key, $0.value)
                }
                if let bearer { all.append(("Authorization", "Bearer \(bearer)")) }
                return all
            }

            // select(count: .exact, head: true)
            let head = try await mock.send(
                "HEAD", "/rest/v1/properties?select=*",
                headers: headers("HEAD", key: service, bearer: service, prefer: "count=exact"))
            #expect(head.status == 200 && head.bytes.isEmpty)
            let total = try #require(head.header("Content-Range")?.split(separator: "/").last.flatMap { Int($0) })
            #expect(head.header("Content-Range") == "0-\(total - 1)/\(total)")
            let beyond = try await mock.send(
                "GET", "/rest/v1/properties?select=id&offset=\(total + 1)&limit=10",
                headers: headers("GET", key: service, bearer: service, prefer: "count=exact"))
            #expect(beyond.status == 416 && beyond.header("Content-Range") == "*/\(total)")
            #expect(beyond.json?["code"] == "PGRST103")

            // .single()
            let single = try await mock.send(
                "GET", "/rest/v1/property_members?select=property_id&user_id=eq.\(user)&status=eq.active",
                headers: headers("GET", bearer: token, accept: "application/vnd.pgrst.object+json"))
            #expect(single.status == 200 && single.json?["property_id"]?.stringValue != nil)
            #expect(single.header("Content-Type") == "application/vnd.pgrst.object+json; charset=utf-8")
            let noRow = try await mock.send(
                "GET", "/rest/v1/property_members?user_id=eq.00000000-0000-4000-8000-000000000000",
                headers: headers("GET", bearer: token, accept: "application/vnd.pgrst.object+json"))
            #expect(noRow.status == 406 && noRow.json?["code"] == "PGRST116")

            // A service_role JWT minted with the secret seeds rows for a user, as test suites do on Supabase.
            let issued = Int(Self.instant.timeIntervalSince1970)
            let serviceJWT = try await Self.jwt(
                ["role": "service_role", "iss": "supabase", "iat": .integer(issued), "exp": .integer(issued + 600)],
                secret: configuration.jwtSecret)
            let hugo = try #require(try await mock.token(for: Self.hugo)["user"]?.stringValue)
            // One column of a read as the seeding script, which holds the service_role JWT.
            func column(_ name: String, of target: String) async throws -> [String] {
                let reply = try await mock.send(
                    "GET", target, headers: headers("GET", key: service, bearer: serviceJWT))
                return try #require(reply.json?.arrayValue).compactMap { $0[name]?.stringValue }
            }
            let favored = try await column(
                "property_id", of: "/rest/v1/favorites?select=property_id&user_id=eq.\(hugo)")
            let published = try await column("id", of: "/rest/v1/properties?select=id&status=eq.published&order=id")
            let chosen = Array(published.filter { !favored.contains($0) }.prefix(2))
            try #require(chosen.count == 2)
            let inserted = try await mock.send(
                "POST", "/rest/v1/favorites?columns=property_id,user_id&select=*",
                json: .array(chosen.map { Self.newFavorite(hugo, $0) }),
                headers: headers("POST", key: service, bearer: serviceJWT, prefer: "return=representation"))
            #expect(inserted.status == 201 && inserted.header("Content-Profile") == "public")
            #expect(Self.strings(inserted.json?.arrayValue ?? [], "property_id") == chosen)
            // The anon key alone, without Authorization, reads as anon.
            let anonymous = try await mock.send("GET", "/rest/v1/favorites", headers: headers("GET", bearer: nil))
            #expect(anonymous.status == 200 && anonymous.json == [])
        }
    }
}
