import Foundation
import Testing
import UnderstudyCore
import UnderstudyPostgREST
import UnderstudySpecs

@testable import UnderstudyMock

/// PostgREST's query grammar, checked against the stored rows (read with the service key, so row-level
/// security does not hide any).
extension EasyCoMockTests {
    /// The ids a query on properties returns, and the ids a Swift predicate picks from the stored rows.
    struct Properties {
        let session: Session

        func ids(_ query: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> Set<String> {
            Set(
                EasyCoMockTests.strings(
                    try await session.all("/rest/v1/properties?select=id&\(query)", sourceLocation: sourceLocation),
                    "id"))
        }

        func expected(_ predicate: (PostgrestRow) -> Bool) -> Set<String> {
            Set(session.stored("properties").filter(predicate).compactMap { $0["id"]?.stringValue })
        }

        /// Titles among the scenario's properties (generated fixtures reuse some of its titles).
        func titles(_ query: String) async throws -> [String] {
            let scenario = "main_image=like.https://cdn.easyco.example*"
            return EasyCoMockTests.strings(
                try await session.all("/rest/v1/properties?select=title&\(scenario)&\(query)"), "title")
        }
    }

    static func number(_ row: PostgrestRow, _ column: String) -> Double? { row[column]?.numberValue?.doubleValue }
    static func text(_ row: PostgrestRow, _ column: String) -> String? { row[column]?.stringValue }

    @Test func comparisonsFollowTheColumnType() async throws {
        let properties = Properties(session: try await session())
        let rent = { (row: PostgrestRow) in Self.number(row, "monthly_rent") ?? -1 }
        // Numbers compare as numbers: 1200.00 > 900 although "1200.00" < "900" as text.
        let expensive = try await properties.ids("monthly_rent=gt.900")
        #expect(expensive == properties.expected { rent($0) > 900 })
        #expect(expensive.contains(try properties.session.propertyID("Maison avec jardin")))
        #expect(try await properties.ids("monthly_rent=gte.950") == properties.expected { rent($0) >= 950 })
        #expect(try await properties.ids("monthly_rent=lt.520") == properties.expected { rent($0) < 520 })
        #expect(try await properties.ids("monthly_rent=lte.520") == properties.expected { rent($0) <= 520 })
        #expect(try await properties.ids("monthly_rent=eq.950") == properties.expected { rent($0) == 950 })
        #expect(try await properties.ids("monthly_rent=neq.950") == properties.expected { rent($0) != 950 })
        #expect(
            try await properties.ids("bedrooms=gte.2&bedrooms=lte.3")
                == properties.expected { (2...3).contains(Self.number($0, "bedrooms") ?? -1) })
        #expect(try await properties.ids("city=eq.Lyon") == properties.expected { Self.text($0, "city") == "Lyon" })
        #expect(
            try await properties.ids("is_available=eq.false") == properties.expected { $0["is_available"] == false })
        #expect(try await properties.ids("is_available=eq.t") == properties.expected { $0["is_available"] == true })
        // Timestamps compare as instants, whatever their spelling.
        let october = PostgrestTime.seconds("2025-10-01T00:00:00Z")!
        let recent = properties.expected { PostgrestTime.seconds(Self.text($0, "created_at") ?? "")! >= october }
        #expect(try await properties.ids("created_at=gte.2025-10-01") == recent)
        #expect(try await properties.ids("created_at=gte.2025-10-01T02:00:00%2B02:00") == recent)
        // A comparison with NULL is unknown: neither eq nor neq keeps the row.
        let withDeposit = properties.expected { $0["deposit"] != .null && Self.number($0, "deposit") != 450 }
        #expect(try await properties.ids("deposit=neq.450") == withDeposit)
        #expect(try await properties.ids("deposit=not.eq.450") == withDeposit)
        #expect(
            try await properties.ids("deposit=isdistinct.450")
                == properties.expected { Self.number($0, "deposit") != 450 })
    }

    @Test func patternsListsAndIs() async throws {
        let properties = Properties(session: try await session())
        #expect(try await properties.titles("title=like.*chambre*").sorted() == ["Appartement 2 chambres"])
        #expect(
            try await properties.titles("title=ilike.*CHAMBRE*").sorted() == [
                "Appartement 2 chambres", "Chambre en colocation",
            ])
        #expect(try await properties.titles("title=like.Studio%25").sorted() == ["Studio meublé proche gare"])
        #expect(
            try await properties.ids("postal_code=like.6900_")
                == properties.expected {
                    Self.text($0, "postal_code")?.hasPrefix("6900") == true && Self.text($0, "postal_code")?.count == 5
                })
        #expect(try await properties.titles("title=match.^Loft") == ["Loft lumineux près du canal"])
        #expect(try await properties.titles("title=imatch.^LOFT") == ["Loft lumineux près du canal"])
        #expect(
            try await properties.ids(#"city=in.(Lyon,"Bourg-en-Bresse")"#)
                == properties.expected { ["Lyon", "Bourg-en-Bresse"].contains(Self.text($0, "city")) })
        // Quoted items may hold the reserved , . : ( ) characters; \" escapes a quote.
        #expect(
            try await properties.titles(
                #"description=in.("Loft lumineux près du canal à Lille, quartier Vieux-Lille.","say \"hi\"")"#)
                == ["Loft lumineux près du canal"])
        #expect(try await properties.ids("city=in.()").isEmpty)
        #expect(
            try await properties.ids("status=not.in.(published,draft)")
                // A NULL status is neither in nor not in the list (SQL's three-valued logic).
                == properties.expected { Self.text($0, "status").map { !["published", "draft"].contains($0) } ?? false })
        #expect(try await properties.ids("deposit=is.null") == properties.expected { $0["deposit"] == .null })
        #expect(try await properties.ids("deposit=not.is.null") == properties.expected { $0["deposit"] != .null })
        #expect(
            try await properties.ids("is_available=is.false") == properties.expected { $0["is_available"] == false })
        #expect(try await properties.ids("is_available=is.TRUE") == properties.expected { $0["is_available"] == true })
        #expect(
            try await properties.titles("city=eq(any).{Lille,Toulouse}").sorted() == [
                "Loft lumineux près du canal", "T3 avec terrasse",
            ])
        #expect(try await properties.titles("title=like(all).{*Studio*,*gare}") == ["Studio meublé proche gare"])
        #expect(
            try await properties.titles("title=like(any).{Loft*,T3*}").sorted() == [
                "Loft lumineux près du canal", "T3 avec terrasse",
            ])
        #expect(
            try await properties.ids(#"amenities=cs.["wifi"]"#)
                == properties.expected { $0["amenities"]?.arrayValue?.contains("wifi") == true })
        let image = "https://cdn.easyco.example/properties/t3-avec-terrasse/1.jpg"
        #expect(try await properties.titles("images=cs.{\(image)}") == ["T3 avec terrasse"])
        #expect(
            try await properties.titles("images=ov.{\(image),https://nowhere.example/x.jpg}") == ["T3 avec terrasse"])
        #expect(try await properties.titles("description=phfts.quartier%20Carmes") == ["T3 avec terrasse"])
        #expect(try await properties.titles("description=fts(french).Carmes%20quartier") == ["T3 avec terrasse"])
    }

    @Test func logicTreesNestAndNegate() async throws {
        let properties = Properties(session: try await session())
        let city = { (row: PostgrestRow) in Self.text(row, "city") ?? "" }
        let status = { (row: PostgrestRow) in Self.text(row, "status") }
        #expect(
            try await properties.ids("or=(city.eq.Lyon,city.eq.Lille)")
                == properties.expected { ["Lyon", "Lille"].contains(city($0)) })
        #expect(
            try await properties.ids("and=(city.eq.Lyon,status.eq.published)")
                == properties.expected { city($0) == "Lyon" && status($0) == "published" })
        #expect(
            try await properties.ids("not.or=(status.eq.published,status.eq.draft)")
                == properties.expected { status($0).map { !["published", "draft"].contains($0) } ?? false })
        #expect(
            try await properties.ids("or=(city.eq.Nantes,and(city.eq.Lyon,status.not.eq.draft))")
                == properties.expected {
                    city($0) == "Nantes" || (city($0) == "Lyon" && status($0).map { $0 != "draft" } ?? false)
                })
        #expect(
            try await properties.ids(
                "or=(bedrooms.gt.3,not.and(is_available.is.true,monthly_rent.lt.900))&city=neq.Paris")
                == properties.expected { row in
                    let wide = (Self.number(row, "bedrooms") ?? 0) > 3
                    let cheap = row["is_available"] == true && (Self.number(row, "monthly_rent") ?? 0) < 900
                    return (wide || !cheap) && city(row) != "Paris"
                })
        #expect(
            try await properties.ids("or=(status.in.(rented,archived),deposit.is.null)")
                == properties.expected { ["rented", "archived"].contains(status($0)) || $0["deposit"] == .null })
        #expect(
            try await properties.titles(
                #"or=(title.eq."Loft lumineux près du canal",description.eq."T3 avec terrasse à Toulouse, quartier Carmes.")"#
            ).sorted() == ["Loft lumineux près du canal", "T3 avec terrasse"])
        // Several logic parameters are ANDed with the other filters.
        #expect(
            try await properties.ids("or=(city.eq.Lyon,city.eq.Nantes)&or=(status.eq.rented,status.eq.draft)")
                == properties.expected {
                    ["Lyon", "Nantes"].contains(city($0)) && ["rented", "draft"].contains(status($0))
                })
    }

    @Test func selectRenamesCastsAndReadsJSON() async throws {
        let session = try await session()
        let studio = try session.propertyID("Studio meublé proche gare")
        let renamed = try await session.all(
            "/rest/v1/properties?select=name:title,rent:monthly_rent,bedrooms::text,city&id=eq.\(studio)")
        #expect(
            renamed == [
                [
                    "name": "Studio meublé proche gare", "rent": .number(JSONNumber(uncheckedLiteral: "520.00")),
                    "bedrooms": "1", "city": "Bourg-en-Bresse",
                ]
            ])
        let json = try await session.all(
            "/rest/v1/transactions?select=provider:metadata->>provider,metadata->provider,amount::int&status=eq.completed&payer_id=eq.\(session.user)&limit=1"
        )
        #expect(json == [["provider": "stripe", "amount": 1900]])
        let paths = try await session.all("/rest/v1/properties?select=first:amenities->>0,amenities->1&id=eq.\(studio)")
        #expect(paths == [["first": "wifi", "1": "lave-linge"]])
        let notJSON = await session.send("GET", "/rest/v1/properties?select=images->>0")
        #expect(Self.error(notJSON) == (400, "42883", "operator does not exist: text[] ->> unknown"))
        let filtered = try await session.all("/rest/v1/transactions?select=id&metadata->>provider=eq.stripe")
        #expect(
            filtered.count == session.stored("transactions").filter { $0["metadata"]?["provider"] == "stripe" }.count)
        let star = try await session.all("/rest/v1/properties?select=*,name:title&id=eq.\(studio)")
        #expect(star.first?.objectValue?.count == PostgrestCatalog.easyCo.table("properties")!.columns.count + 1)
    }

    @Test func embedsFollowTheForeignKeys() async throws {
        let session = try await session()
        let studio = try session.propertyID("Studio meublé proche gare")
        let camille = session.user
        // To-one, renamed.
        let applications = try await session.all(
            "/rest/v1/applications?select=id,property_id,property:properties(id,title)")
        #expect(applications.count == session.stored("applications").count)
        #expect(applications.allSatisfy { $0["property"]?["id"] == $0["property_id"] })
        // To-many, with the embed's own filters, order and limit.
        let withApplications = try await session.all(
            "/rest/v1/properties?select=title,applications(applicant_name,status)&id=eq.\(studio)")
        #expect(
            Set(Self.strings(withApplications.first?["applications"]?.arrayValue ?? [], "applicant_name")) == [
                "Louis Thomas", "Inès Moreau",
            ])
        let pending = try await session.all(
            "/rest/v1/properties?select=title,applications(status)&id=eq.\(studio)&applications.status=eq.pending")
        #expect(pending.first?["applications"] == [["status": "pending"]])
        let latest = try await session.all(
            "/rest/v1/properties?select=title,apps:applications(applicant_name)&id=eq.\(studio)&apps.order=created_at.desc&apps.limit=1"
        )
        #expect(latest.first?["apps"] == [["applicant_name": "Louis Thomas"]])
        // !inner keeps only parents with a matching child; the alias or the name carries the filters.
        let rejected = try await session.all(
            "/rest/v1/properties?select=title,applications!inner(status)&owner_id=eq.\(camille)&applications.status=eq.rejected"
        )
        #expect(Self.strings(rejected, "title") == ["Maison avec jardin"])
        // Spread a to-one embed into the parent.
        let spread = try await session.all(
            "/rest/v1/applications?select=status,...properties(title,city)&property_id=eq.\(studio)&order=status")
        let pendingRow: JSONValue = [
            "status": "pending", "title": "Studio meublé proche gare", "city": "Bourg-en-Bresse",
        ]
        let reviewingRow: JSONValue = [
            "status": "reviewing", "title": "Studio meublé proche gare", "city": "Bourg-en-Bresse",
        ]
        #expect(spread == [pendingRow, reviewingRow])
        // Foreign-key hints, nested embeds, and the anti-join on a hidden embed.
        let hinted = try await session.rows("/rest/v1/favorites?select=properties!favorites_property_id_fkey(title)")
        #expect(hinted.count == 3)
        let nested = try await session.rows(
            "/rest/v1/favorites?select=properties(title,applications(status))&properties=not.is.null")
        #expect(nested.count == 2 && nested.allSatisfy { $0["properties"]?["applications"]?.arrayValue != nil })
        let hidden = try await session.rows("/rest/v1/favorites?select=property_id,properties(id)&properties=is.null")
        #expect(Self.strings(hidden, "property_id") == [try session.propertyID("Duplex Vieux-Port")])
        // Embedded rows obey row-level security too: Camille sees Louis's application, not Manon's.
        let seen = try await session.rows(
            "/rest/v1/properties?select=title,applications(applicant_name)&title=eq.Loft%20lumineux%20pr%C3%A8s%20du%20canal"
        )
        #expect(seen.first?["applications"] == [])
    }

    @Test func orderingWithNullsAndRelatedColumns() async throws {
        let session = try await session()
        func deposits(_ order: String) async throws -> [Double?] {
            try await session.all("/rest/v1/properties?select=deposit&order=\(order)").map {
                $0["deposit"]?.numberValue?.doubleValue
            }
        }
        let ascending = try await deposits("deposit.asc")
        let values = ascending.compactMap { $0 }
        let nulls = ascending.count - values.count
        #expect(nulls > 0)
        #expect(values == values.sorted() && ascending.suffix(nulls).allSatisfy { $0 == nil })
        let nullsFirst = try await deposits("deposit.asc.nullsfirst")
        #expect(nullsFirst.prefix(nulls).allSatisfy { $0 == nil } && nullsFirst.dropFirst(nulls).map { $0! } == values)
        let descending = try await deposits("deposit.desc")
        #expect(
            descending.prefix(nulls).allSatisfy { $0 == nil }
                && descending.dropFirst(nulls).map { $0! } == values.reversed())
        let nullsLast = try await deposits("deposit.desc.nullslast")
        #expect(nullsLast.prefix(values.count).map { $0! } == values.reversed())

        let rows = try await session.all(
            "/rest/v1/properties?select=city,monthly_rent&order=city.asc,monthly_rent.desc")
        let keys: [(city: String, rent: Double)] = rows.map { row in
            (row["city"]?.stringValue ?? "", row["monthly_rent"]?.numberValue?.doubleValue ?? 0)
        }
        let sortedKeys = keys.sorted { a, b in a.city != b.city ? a.city < b.city : a.rent > b.rent }
        #expect(keys.map(\.city) == sortedKeys.map(\.city) && keys.map(\.rent) == sortedKeys.map(\.rent))

        let related = try await session.all(
            "/rest/v1/applications?select=id,property:properties(title)&order=properties(title).desc,created_at")
        let titles = related.map { $0["property"]?["title"]?.stringValue ?? "" }
        #expect(titles == titles.sorted(by: >))
    }

    @Test func limitOffsetRangeAndCount() async throws {
        let session = try await session()
        let total = session.stored("properties").count
        let base = "/rest/v1/properties?select=id&order=created_at.desc"
        let all = Self.strings(try await session.all(base), "id")
        #expect(all.count == total)
        func send(_ query: String, _ headers: [String: String] = [:]) async -> (
            status: Int, json: JSONValue?, response: MockResponse
        ) {
            await session.send("GET", base + query, token: session.service, headers: headers)
        }
        let limited = await send("&limit=2")
        #expect(limited.status == 200 && Self.strings(limited.json?.arrayValue ?? [], "id") == Array(all.prefix(2)))
        #expect(limited.response.header("Content-Range") == "0-1/*")
        let offset = await send("&limit=2&offset=2")
        #expect(Self.strings(offset.json?.arrayValue ?? [], "id") == Array(all[2..<4]))
        #expect(offset.response.header("Content-Range") == "2-3/*")
        let ranged = await send("", ["Range": "0-2", "Range-Unit": "items"])
        #expect(ranged.status == 200 && ranged.response.header("Content-Range") == "0-2/*")
        #expect(Self.strings(ranged.json?.arrayValue ?? [], "id") == Array(all.prefix(3)))
        let open = await send("", ["Range": "3-", "Range-Unit": "items"])
        #expect(Self.strings(open.json?.arrayValue ?? [], "id") == Array(all.dropFirst(3)))
        #expect(open.response.header("Content-Range") == "3-\(total - 1)/*")
        let intersected = await send("&limit=10", ["Range": "2-4"])
        #expect(Self.strings(intersected.json?.arrayValue ?? [], "id") == Array(all[2...4]))

        let counted = await send("&limit=2", ["Prefer": "count=exact"])
        #expect(counted.status == 206 && counted.response.header("Content-Range") == "0-1/\(total)")
        #expect(counted.response.header("Preference-Applied") == "count=exact")
        let countedRange = await send("", ["Prefer": "count=exact", "Range": "1-3", "Range-Unit": "items"])
        #expect(countedRange.status == 206 && countedRange.response.header("Content-Range") == "1-3/\(total)")
        let whole = await send("", ["Prefer": "count=exact"])
        #expect(whole.status == 200 && whole.response.header("Content-Range") == "0-\(total - 1)/\(total)")
        let none = await send("&id=eq.00000000-0000-4000-8000-000000000000", ["Prefer": "count=exact"])
        #expect(none.status == 200 && none.json == [] && none.response.header("Content-Range") == "*/0")
        let noneUncounted = await send("&id=eq.00000000-0000-4000-8000-000000000000")
        #expect(noneUncounted.response.header("Content-Range") == "*/*")

        let inverted = await send("", ["Range": "5-2"])
        #expect(Self.error(inverted) == (416, "PGRST103", "Requested range not satisfiable"))
        expectConforms(inverted.response.body, "GET /rest/v1/properties", in: spec, status: 416)
        let beyond = await send("&offset=1000", ["Prefer": "count=exact"])
        #expect(Self.error(beyond).0 == 416)
        #expect(
            beyond.json?["details"] == .string("An offset of 1000 was requested, but there are only \(total) rows."))
        let beyondUncounted = await send("&offset=1000")
        #expect(
            beyondUncounted.status == 200 && beyondUncounted.json == []
                && beyondUncounted.response.header("Content-Range") == "*/*")

        // Answers that depend on Range or Prefer are not mixed up by the engine's GET cache.
        let first = await session.send("GET", "/rest/v1/properties?select=id", headers: ["Range": "0-0"])
        let second = await session.send("GET", "/rest/v1/properties?select=id")
        #expect(first.json?.arrayValue?.count == 1 && (second.json?.arrayValue?.count ?? 0) > 1)
        let third = await session.send("GET", "/rest/v1/properties?select=id", headers: ["Prefer": "count=exact"])
        #expect(third.response.header("Content-Range")?.hasSuffix("/*") == false)
    }

    @Test func badQueriesAnswerPostgRESTErrors() async throws {
        let session = try await session()
        func error(_ query: String, table: String = "properties", headers: [String: String] = [:]) async -> (
            Int, String?, String?, String?
        ) {
            let reply = await session.send("GET", "/rest/v1/\(table)?\(query)", headers: headers)
            if reply.status != 200 {
                expectConforms(reply.response.body, "GET /rest/v1/\(table)", in: spec, status: reply.status)
            }
            return (
                reply.status, reply.json?["code"]?.stringValue, reply.json?["message"]?.stringValue,
                reply.json?["details"]?.stringValue
            )
        }
        #expect(
            await error("status=published") == (
                400, "PGRST100", #""failed to parse filter (published)" (line 1, column 1)"#,
                #"unexpected "p" expecting "not" or operator (eq, gt, ...)"#
            ))
        #expect(
            await error("status=eq") == (
                400, "PGRST100", #""failed to parse filter (eq)" (line 1, column 3)"#,
                #"unexpected end of input expecting ".""#
            ))
        #expect(await error("or=(city.eq.Lyon").0 == 400)
        #expect(await error("or=(city.eq.Lyon").2?.hasPrefix(#""failed to parse logic tree ((city.eq.Lyon)""#) == true)
        #expect(await error("or=(city.eq.Lyon,nope)").1 == "PGRST100")
        // In a logic tree, `not.` negates a group or follows the column: `status.not.eq.draft`.
        #expect(await error("or=(not.status.eq.draft)").1 == "PGRST100")
        #expect(await error("status=in.(a,b").1 == "PGRST100")
        #expect(await error("is_available=is.maybe").1 == "PGRST100")
        #expect(await error("title=like(some).{a}").1 == "PGRST100")
        #expect(await error("select=id,properties(").2?.hasPrefix(#""failed to parse select parameter"#) == true)
        #expect(
            await error("order=title.sideways").2 == #""failed to parse order (title.sideways)" (line 1, column 7)"#)
        #expect(await error("nope=eq.1") == (400, "42703", "column properties.nope does not exist", nil))
        #expect(await error("select=id,nope").2 == "column properties.nope does not exist")
        #expect(await error("order=nope.desc").2 == "column properties.nope does not exist")
        #expect(await error("or=(city.eq.Lyon,nope.eq.1)").1 == "42703")
        #expect(
            await error("select=*,owners(*)", table: "applications") == (
                400, "PGRST200",
                "Could not find a relationship between 'applications' and 'owners' in the schema cache",
                "Searched for a foreign key relationship between 'applications' and 'owners' in the schema 'public', but no matches were found."
            ))
        #expect(await error("select=*,properties!nope(*)", table: "favorites").1 == "PGRST200")
        #expect(await error("applications.status=eq.pending").1 == "PGRST108")
        #expect(await error("bedrooms=eq.two") == (400, "22P02", #"invalid input syntax for type integer: "two""#, nil))
        #expect(await error("monthly_rent=gt.cheap").2 == #"invalid input syntax for type numeric: "cheap""#)
        #expect(await error("is_available=eq.maybe").2 == #"invalid input syntax for type boolean: "maybe""#)
        #expect(
            await error("created_at=gt.yesterday").2
                == #"invalid input syntax for type timestamp with time zone: "yesterday""#)
        #expect(await error("bedrooms=like.2*").1 == "42883")
        #expect(await error("city=is.true").1 == "42804")
        #expect(await error("select=bedrooms::money").1 == "42704")
        #expect(await error("select=id", headers: ["Prefer": "handling=strict, count=sometimes"]).1 == "PGRST122")
        // Lenient handling ignores what it does not know.
        #expect(await error("select=id", headers: ["Prefer": "count=sometimes, frobnicate"]).0 == 200)
    }
}

extension EasyCoMockTests {
    /// The reads write their JSON straight to bytes: the bytes must be those of the canonical serializer.
    @Test func writtenBytesAreTheCanonicalSerialization() async throws {
        let session = try await session()
        let state = session.mock.store.read { $0 }
        let cases: [(String, String, PostgrestCaller)] = [
            ("properties", "select=*", .serviceRole),
            (
                "properties", "select=title,applications(*),members:property_members(user_id,status)",
                .user(session.user)
            ),
            ("applications", "select=*,property:properties(id,title)", .user(session.user)),
            ("applications", "select=status,...properties(title,city)", .serviceRole),
            ("favorites", "select=property_id,properties(*)", .user(session.user)),
            ("transactions", "select=id,provider:metadata->>provider,metadata,amount::text,due:due_date", .serviceRole),
        ]
        for (table, query, caller) in cases {
            let executor = PostgrestExecutor(
                catalog: .easyCo, tables: state.tables, caller: caller, cache: PostgrestColumnCache())
            let node = try executor.plan(try PostgrestQuery(QueryItems(query)), table: table)
            let positions = try executor.matches(node)
            var values: [JSONValue] = []
            for position in positions { values.append(.object(try executor.shape(node, position))) }
            let written = try executor.write(node, positions: positions)
            #expect(written == JSONValue.array(values).serializedBytes(), "\(table)?\(query)")
        }
        let tricky: JSONValue = [
            "text": "quote \" backslash \\ newline \n tab \t return \r bell \u{07} nul \u{00} é 😀 \u{1F}",
            "nested": ["b": [1, 2.50, true, nil], "a": ["z": "y"]],
            "number": .number(JSONNumber(uncheckedLiteral: "1e-7")),
        ]
        var bytes: [UInt8] = []
        PostgrestJSONWriter.value(tricky, into: &bytes)
        #expect(bytes == tricky.serializedBytes())
    }
}
