import Foundation
import Testing
import UnderstudyCore
import UnderstudySpecs

@testable import UnderstudyMock

/// Column types and constraints on every write and on fixture load, with PostgreSQL 15's codes and messages
/// (each checked against a real PostgreSQL by `PostgresDifferentialTests`).
extension EasyCoMockTests {
    /// A property Camille may insert, with `changes` applied.
    static func newProperty(_ owner: String, _ changes: [String: JSONValue] = [:]) -> JSONValue {
        var body: [String: JSONValue] = [
            "owner_id": .string(owner), "title": "Essai", "property_type": "studio", "address": "1 rue Neuve",
            "city": "Lyon", "postal_code": "69001", "monthly_rent": 500,
        ]
        for (key, value) in changes { body[key] = value }
        return .object(body)
    }

    /// Every seeded listing, the scenario's and those made from the spec's generated fixtures, reads as a real one:
    /// inside the migration's CHECKs, and rooms, surface and prices that fit together.
    @Test func seededPropertiesArePlausibleListings() async throws {
        let session = try await session()
        let properties = session.stored("properties")
        #expect(properties.count > 8)
        for row in properties {
            let title = row["title"]?.stringValue ?? "?"
            guard let bedrooms = row["bedrooms"]?.numberValue?.intValue,
                let bathrooms = row["bathrooms"]?.numberValue?.intValue,
                let surface = row["surface_area"]?.numberValue?.intValue,
                let rent = row["monthly_rent"]?.numberValue?.doubleValue,
                let charges = row["charges"]?.numberValue?.doubleValue
            else {
                Issue.record("\(title): a listing without rooms, surface or rent")
                continue
            }
            #expect(bedrooms <= 5 && bathrooms >= 1 && bathrooms <= bedrooms + 1, "\(title): \(bedrooms)/\(bathrooms)")
            // A room in a shared flat may have 9 m² (France's legal minimum for a let room).
            #expect(surface >= 9 * max(1, bedrooms) && surface <= 150, "\(title): \(surface) m², \(bedrooms) bedrooms")
            #expect((3...40).contains(rent / Double(surface)), "\(title): \(rent) € for \(surface) m²")
            #expect(charges < rent / 5, "\(title): \(charges) € of charges on \(rent) €")
        }
    }

    @Test func valuesAreStoredAsTheirColumnTypesStoreThem() async throws {
        let session = try await session()
        let reply = await session.send(
            "POST", "/rest/v1/properties",
            json: Self.newProperty(
                session.user,
                [
                    // PostgreSQL reads a JSON string through the type's input function: "3" is an integer,
                    // "yes" a boolean, and a text column takes a number as its text.
                    "bedrooms": "3", "furnished": "yes", "postal_code": 69001,
                    "owner_id": .string(session.user.uppercased()),
                    "published_at": "2025-12-04T12:15:30.123400+02:00", "available_from": "2025-12-04",
                    "images": "{a,\"b c\"}",
                ]),
            headers: ["Prefer": "return=representation"])
        #expect(reply.status == 201, "\(reply.json ?? .null)")
        let row = try #require(reply.json?[0])
        #expect(row["bedrooms"] == 3 && row["furnished"] == true && row["postal_code"] == "69001")
        #expect(row["owner_id"] == .string(session.user))
        // timestamptz as PostgreSQL 15's JSON output writes it under TimeZone=UTC (checked with
        // `SELECT to_json('2025-12-04T10:15:30.1234Z'::timestamptz)`): trailing zeros of the fraction trimmed.
        #expect(row["published_at"] == "2025-12-04T10:15:30.1234+00:00")
        #expect(row["created_at"] == "2025-11-15T14:30:00+00:00")
        #expect(row["available_from"] == "2025-12-04")
        #expect(row["images"] == ["a", "b c"])
        // The defaults of the columns the insert leaves out (the project's migrations).
        #expect(
            row["country"] == "France" && row["views_count"] == 0
                && row["charges"] == .number(JSONNumber(uncheckedLiteral: "0.00")))
        #expect(row["amenities"] == [] && row["status"] == "draft")
    }

    @Test func valuesTheColumnsRefuseAreErrors() async throws {
        let session = try await session()
        func insert(_ changes: [String: JSONValue]) async -> (Int, String?, String?) {
            Self.error(await session.send("POST", "/rest/v1/properties", json: Self.newProperty(session.user, changes)))
        }
        #expect(await insert(["bedrooms": "abc"]) == (400, "22P02", "invalid input syntax for type integer: \"abc\""))
        #expect(await insert(["bedrooms": 1.5]) == (400, "22P02", "invalid input syntax for type integer: \"1.5\""))
        #expect(
            await insert(["bedrooms": 3_000_000_000])
                == (400, "22003", "value \"3000000000\" is out of range for type integer"))
        #expect(await insert(["owner_id": "nope"]) == (400, "22P02", "invalid input syntax for type uuid: \"nope\""))
        #expect(
            await insert(["is_available": "maybe"]) == (
                400, "22P02", "invalid input syntax for type boolean: \"maybe\""
            ))
        // Dates are 22007 / 22008, not 22P02 (PostgreSQL's DateTimeParseError).
        #expect(
            await insert(["available_from": "nope"]) == (400, "22007", "invalid input syntax for type date: \"nope\""))
        #expect(
            await insert(["available_from": "2025-02-30"])
                == (400, "22008", "date/time field value out of range: \"2025-02-30\""))
        #expect(
            await insert(["published_at": "soon"])
                == (400, "22007", "invalid input syntax for type timestamp with time zone: \"soon\""))
        #expect(
            await insert(["property_type": "castle"])
                == (
                    400, "23514",
                    "new row for relation \"properties\" violates check constraint \"properties_property_type_check\""
                ))
        #expect(
            await insert(["title": nil, "property_type": "castle"])
                == (
                    400, "23502",
                    "null value in column \"title\" of relation \"properties\" violates not-null constraint"
                ))
        // An update goes through the same rules; one that matches no row checks nothing, as in SQL.
        let flat = try session.propertyID("Maison avec jardin")
        let patch = await session.send("PATCH", "/rest/v1/properties?id=eq.\(flat)", json: ["status": "sold"])
        #expect(
            Self.error(patch)
                == (
                    400, "23514",
                    "new row for relation \"properties\" violates check constraint \"properties_status_check\""
                ))
        let none = await session.send("PATCH", "/rest/v1/properties?id=eq.\(flat)&city=eq.Paris", json: ["title": nil])
        #expect(none.status == 204)
        #expect(try await session.all("/rest/v1/properties?id=eq.\(flat)&select=status") == [["status": "rented"]])
    }

    /// `columns=` names the inserted columns for every object: a key an object lacks is NULL, or the column's
    /// default under `Prefer: missing=default` (docs.postgrest.org/en/v12/references/api/preferences.html,
    /// "Missing"; supabase-js sends `columns=` with arrays and `missing=default` unless `defaultToNull`).
    @Test func missingKeysOfABulkInsertAreNullOrTheDefault() async throws {
        let session = try await session()
        // `bedrooms` is `NOT NULL DEFAULT 1`; `country` has a DEFAULT only, so its NULL is stored.
        let rows: JSONValue = [
            Self.newProperty(session.user, ["title": "Trois chambres", "bedrooms": 3, "country": "Belgique"]),
            Self.newProperty(session.user, ["title": "Sans chambres"]),
        ]
        let target =
            "/rest/v1/properties?columns=owner_id,title,property_type,address,city,postal_code,monthly_rent,bedrooms,"
            + "country"
        let nulls = await session.send("POST", target, json: rows)
        #expect(
            Self.error(nulls)
                == (
                    400, "23502",
                    "null value in column \"bedrooms\" of relation \"properties\" violates not-null constraint"
                ))
        let defaults = await session.send(
            "POST", target + "&select=title,bedrooms,country", json: rows,
            headers: ["Prefer": "return=representation,missing=default"])
        #expect(defaults.status == 201)
        #expect(
            defaults.json == [
                ["title": "Trois chambres", "bedrooms": 3, "country": "Belgique"],
                ["title": "Sans chambres", "bedrooms": 1, "country": "France"],
            ])
        let kept = await session.send(
            "POST", target + "&select=title,bedrooms,country", json: [rows[0]!],
            headers: ["Prefer": "return=representation"])
        #expect(kept.status == 201)
        #expect(kept.json == [["title": "Trois chambres", "bedrooms": 3, "country": "Belgique"]])
        #expect(defaults.response.header("Preference-Applied") == "return=representation, missing=default")
    }

    /// A DEFAULT is not NOT NULL (`030_create_properties_table.sql`: `country VARCHAR(100) DEFAULT 'France'`,
    /// `images TEXT[] DEFAULT ARRAY[]::TEXT[]`, …): a fixture row with NULL there loads and reads back NULL, as
    /// PostgreSQL keeps it (pinned in ``PostgresDifferentialTests``); leaving the key out gives the default.
    @Test func aFixtureRowWithNullInANullableColumnWithADefaultLoads() async throws {
        let nullable = [
            "country", "furnished", "charges", "is_available", "amenities", "images", "views_count",
            "applications_count", "favorites_count",
        ]
        let folder = try propertiesFixture { row in
            var nulls = row
            nulls["title"] = "Colonnes nulles"
            for column in nullable { nulls[column] = .null }
            nulls["status"] = "published"
            nulls["is_available"] = true
            var absent = row
            absent["id"] = "5b0c8b1e-0f57-4a34-9f51-5b7e3f0b1c2d"
            absent["title"] = "Colonnes absentes"
            absent["status"] = "published"
            for column in nullable where column != "is_available" { absent[column] = nil }
            absent["is_available"] = true
            return [nulls, absent]
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try await session(Self.configuration(fixtures: folder))
        let select = "select=title," + nullable.filter { $0 != "is_available" }.joined(separator: ",")
        let rows = try await session.rows("/rest/v1/properties?title=like.Colonnes*&order=title&\(select)")
        #expect(rows.count == 2)
        #expect(rows.first?["title"] == "Colonnes absentes")
        #expect(rows.first?["country"] == "France" && rows.first?["images"] == [] && rows.first?["charges"] == .number(JSONNumber(uncheckedLiteral: "0.00")))
        #expect(rows.last?["title"] == "Colonnes nulles")
        for column in nullable where column != "is_available" {
            #expect(rows.last?[column] == .null, "\(column)")
        }
    }

    @Test func aFixtureRowTheColumnsRefuseStopsTheStart() async throws {
        let folder = try propertiesFixture { row in
            var bad = row
            bad["id"] = "5b0c8b1e-0f57-4a34-9f51-5b7e3f0b1c2d"
            bad["bedrooms"] = "deux"
            return [row, bad]
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        await #expect(
            throws: FixtureError(
                description:
                    "the easyco fixture of GET /rest/v1/properties, row 2 (table properties) cannot be stored: "
                    + "column bedrooms: invalid input syntax for type integer: \"deux\" (22P02)")
        ) {
            _ = try await EasyCoMock(configuration: Self.configuration(fixtures: folder))
        }
    }

    /// Issue 12's scale: 10 000 rows in one request, under EasyCo's 32 MiB body limit.
    @Test func tenThousandRowsInOneInsert() async throws {
        let session = try await session()
        let before = session.stored("properties").count
        let rows = JSONValue.array(
            (0..<10_000).map {
                Self.newProperty(session.user, ["title": .string("Lot \($0)"), "bedrooms": .integer($0 % 5)])
            })
        let body = rows.serializedBytes()
        #expect(body.count > 1 << 20 && session.engine.maximumBodyBytes == 32 << 20)
        let huge = await session.send("POST", "/rest/v1/properties", bytes: body + [UInt8](repeating: 32, count: 32 << 20))
        #expect(huge.status == 413 && huge.json?["message"] != nil)
        let started = ContinuousClock.now
        let reply = await session.send("POST", "/rest/v1/properties", bytes: body)
        #expect(reply.status == 201, "\(reply.json ?? .null)")
        print("10 000-row insert: \(ContinuousClock.now - started)")
        #expect(session.stored("properties").count == before + 10_000)
        let counted = await session.send(
            "HEAD", "/rest/v1/properties?title=like.Lot*&bedrooms=eq.4", headers: ["Prefer": "count=exact"])
        #expect(counted.response.header("Content-Range") == "0-1999/2000")
    }
}
