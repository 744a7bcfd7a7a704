import Foundation
import Testing
import UnderstudyCore

@testable import UnderstudySpecs

struct EasyCoSpecTests {
    let spec = EasyCo.spec

    /// The inventory of ENDPOINTS.md, in its order.
    static let inventory = [
        "GET /rest/v1/properties", "GET /rest/v1/property_members", "GET /rest/v1/transactions",
        "GET /rest/v1/payment_schedules", "GET /rest/v1/applications", "POST /rest/v1/applications",
        "GET /rest/v1/favorites", "POST /rest/v1/favorites", "DELETE /rest/v1/favorites",
    ]

    /// A property row as PostgREST sends it: every column, `null`s included, microsecond timestamps.
    static let propertyRow = #"""
        {"id": "8c2f3a52-6d0e-4b7a-9f1e-2a4c6e8b0d13", "owner_id": "0b6e7c4d-1f2a-4e3b-8c5d-9e0f1a2b3c4d",
         "title": "Appartement 2 chambres", "description": null, "property_type": "apartment",
         "address": "12 rue des Lilas", "city": "Lyon", "neighborhood": null, "postal_code": "69003",
         "country": "France", "latitude": 45.7578, "longitude": 4.8320, "bedrooms": 2, "bathrooms": 1,
         "surface_area": 54, "furnished": true, "monthly_rent": 950.00, "charges": 80, "deposit": null,
         "available_from": "2026-01-01", "is_available": true, "amenities": ["wifi", "lave-linge"],
         "images": ["https://cdn.easyco.fr/p/1.jpg"], "main_image": null, "status": "published",
         "views_count": 42, "applications_count": 3, "favorites_count": 7,
         "created_at": "2025-11-02T09:14:03.512731+00:00", "updated_at": "2025-12-01T18:00:00+00:00",
         "published_at": "2025-11-03T08:00:00.1+00:00"}
        """#

    func endpoint(_ id: String) throws -> AnyEndpoint {
        try #require(spec.endpoint(id), "no endpoint \(id)")
    }

    func findings(_ text: String, _ model: ModelReference) -> [String] {
        BodyCheck.findings(Array(text.utf8), model: model, spec: spec).map(\.summary)
    }

    func errors(_ text: String, _ model: ModelReference) -> [String] {
        BodyCheck.findings(Array(text.utf8), model: model, spec: spec).filter { $0.severity == .error }.map(\.summary)
    }

    func object(_ name: String) throws -> ObjectSchema {
        guard case .object(let object) = try #require(spec.definitions[name], "no definition \(name)") else {
            throw ObjectExpected(name: name)
        }
        return object
    }

    struct ObjectExpected: Error {
        let name: String
    }

    // MARK: - Endpoints

    @Test func endpointsMatchTheInventory() {
        #expect(spec.id == "easyco")
        #expect(spec.endpoints.map(\.id) == Self.inventory)
        #expect(spec.auth == .supabase)
        #expect(spec.wire == .plain)
        #expect(spec.app == AppContract(decoder: .plain))
        #expect(spec.endpoints.allSatisfy { $0.auth == .required })
        #expect(spec.canonicalJSON["endpoints"]?.arrayValue?.count == 9)
    }

    @Test func statusesBodiesAndPaging() throws {
        for endpoint in spec.endpoints {
            let apikey = endpoint.parameters.first { $0.name == "apikey" }
            #expect(apikey?.location == .header && apikey?.required == true, "\(endpoint.id)")
            #expect(endpoint.parameters.contains { $0.name == "Prefer" && $0.location == .header }, "\(endpoint.id)")
            switch endpoint.method {
            case .get:
                #expect(endpoint.success == .ok && endpoint.pagination == .range && endpoint.body == .none)
                #expect(endpoint.errors == [.badRequest, .unauthorized, .rangeNotSatisfiable])
                let names = endpoint.parameters.map(\.name)
                for name in ["select", "order", "limit", "offset", "Range", "Range-Unit"] {
                    #expect(names.contains(name), "\(endpoint.id) \(name)")
                }
            case .post:
                #expect(endpoint.success == .created && endpoint.body == .required && endpoint.pagination == .none)
                #expect(endpoint.errors == [.badRequest, .unauthorized, .forbidden, .conflict])
            default:
                #expect(endpoint.success == .noContent && endpoint.response == nil && endpoint.request == nil)
            }
        }
        #expect(try endpoint("GET /rest/v1/properties").response?.name == "[EasyCo.Property]")
        #expect(try endpoint("POST /rest/v1/applications").response?.name == "[EasyCo.Application]")
        #expect(try endpoint("GET /rest/v1/favorites").response?.name == "[EasyCo.FavoriteProperty]")
        #expect(try endpoint("POST /rest/v1/favorites").response?.name == "[EasyCo.Favorite]")
        #expect(try endpoint("POST /rest/v1/favorites").request?.name == "EasyCo.NewFavorite")
        let limit = try #require(try endpoint("GET /rest/v1/properties").parameters.first { $0.name == "limit" })
        #expect(limit.schema == .integer(minimum: 0, maximum: Int.max) && limit.location == .query)
    }

    /// The documented queries are in the part of PostgREST's grammar the patterns state, once their placeholders
    /// are ids; values outside it are not (a column the table lacks, an operator PostgREST does not have).
    @Test func documentedQueriesMeetTheGrammarPatterns() throws {
        let validator = Validator()
        func findings(_ endpoint: AnyEndpoint, _ name: String, _ value: String) throws -> [String] {
            let parameter = try #require(endpoint.parameters.first { $0.name == name })
            return validator.validate(.string(value), against: parameter.schema).map(\.message)
        }
        let id = "0be57a3d-5448-4032-b7a1-877ba1798cf7"
        for endpoint in spec.endpoints {
            for query in endpoint.examples.queries {
                for pair in query.replacingOccurrences(of: "<userId>", with: id)
                    .replacingOccurrences(of: "<propertyId>", with: id).split(separator: "&")
                {
                    let (name, value) = (String(pair.prefix { $0 != "=" }), String(pair.drop { $0 != "=" }.dropFirst()))
                    #expect(try findings(endpoint, name, value) == [], "\(endpoint.id): \(pair)")
                }
            }
        }
        let properties = try endpoint("GET /rest/v1/properties")
        #expect(try findings(properties, "select", "id,rooms").count == 1)
        #expect(try findings(properties, "status", "like.pub*").count == 1)
        #expect(try findings(properties, "status", "eq.sold").count == 1)
        #expect(try findings(properties, "order", "created_at.desc.nullslast,id").isEmpty)
        #expect(try findings(try endpoint("GET /rest/v1/favorites"), "select", "property:properties(id,title)").isEmpty)
    }

    @Test func documentedQueriesUseDeclaredParameters() throws {
        let queries = spec.endpoints.flatMap { endpoint in endpoint.examples.queries.map { (endpoint, $0) } }
        #expect(queries.count == 10)
        #expect(spec.endpoints.compactMap(\.examples.request).count == 2)
        for (endpoint, query) in queries {
            let declared = Set(endpoint.parameters.filter { $0.location == .query }.map(\.name))
            for pair in query.split(separator: "&") {
                let name = String(pair.prefix { $0 != "=" })
                #expect(declared.contains(name), "\(endpoint.id): \(name) in \(query)")
            }
        }
        #expect(
            try endpoint("GET /rest/v1/applications").examples.queries == [
                "status=in.(pending,reviewing)&select=*,property:properties(id,title)"
            ])
    }

    // MARK: - Document examples

    @Test func requestExamplesArePinned() throws {
        let favorite = try endpoint("POST /rest/v1/favorites")
        #expect(
            findings(try #require(favorite.examples.request), try #require(favorite.request)) == [
                "/user_id: expected string in uuid format, found \"<userId>\"",
                "/property_id: expected string in uuid format, found \"<propertyId>\"",
                "/user_id: the app cannot decode EasyCo.NewFavorite: Attempted to decode UUID from invalid UUID "
                    + "string. (found string \"<userId>\")",
            ])
        let application = try endpoint("POST /rest/v1/applications")
        #expect(
            findings(try #require(application.examples.request), try #require(application.request)) == [
                "/applicant_id: expected string in uuid format, found \"<userId>\"",
                "/property_id: expected string in uuid format, found \"<propertyId>\"",
                "/applicant_id: the app cannot decode EasyCo.NewApplication: Attempted to decode UUID from invalid "
                    + "UUID string. (found string \"<userId>\")",
            ])
    }

    @Test func requestExamplesConformOncePlaceholdersAreFilled() throws {
        let application = try endpoint("POST /rest/v1/applications")
        let text = try #require(application.examples.request)
            .replacingOccurrences(of: "<userId>", with: "0b6e7c4d-1f2a-4e3b-8c5d-9e0f1a2b3c4d")
            .replacingOccurrences(of: "<propertyId>", with: "8c2f3a52-6d0e-4b7a-9f1e-2a4c6e8b0d13")
        #expect(findings(text, try #require(application.request)) == [])
        let unknownColumn = #"""
            {"applicant_id": "0b6e7c4d-1f2a-4e3b-8c5d-9e0f1a2b3c4d",
             "property_id": "8c2f3a52-6d0e-4b7a-9f1e-2a4c6e8b0d13",
             "applicant_name": "Léa", "applicant_email": "lea@example.fr", "status": "accepted", "phone": "06"}
            """#
        #expect(
            errors(unknownColumn, try #require(application.request)) == [
                "/status: expected one of \"pending\", \"reviewing\", \"approved\", \"rejected\", \"withdrawn\", "
                    + "\"expired\", found \"accepted\"",
                "/phone: property is not allowed here",
            ])
    }

    // MARK: - Rows as PostgREST sends them

    @Test func propertyRowsConformAndDecode() throws {
        let properties = try #require(try endpoint("GET /rest/v1/properties").response)
        #expect(findings("[\(Self.propertyRow)]", properties) == [])
        let bytes = Data("[\(Self.propertyRow)]".utf8)
        let rows = try spec.app.decoder.makeDecoder().decode([EasyCo.Property].self, from: bytes)
        #expect(rows.first?.monthlyRent == Decimal(950) && rows.first?.amenities == ["wifi", "lave-linge"])
        #expect(rows.first?.createdAt == "2025-11-02T09:14:03.512731+00:00")

        let unknownStatus = Self.propertyRow.replacingOccurrences(of: "\"published\"", with: "\"sold\"")
        #expect(
            findings("[\(unknownStatus)]", properties) == [
                "/0/status: expected one of "
                    + "\"draft\", \"published\", \"archived\", \"rented\", \"under_review\", found \"sold\""
            ])
    }

    @Test func appDateParserRejectsPostgrestTimestamps() {
        // The ambiguity `timestamp-fraction`: the app's parser loses every timestamp with a fraction.
        let parser = ISO8601DateFormatter()
        #expect(parser.date(from: "2025-11-02T09:14:03.512731+00:00") == nil)
        #expect(parser.date(from: "2025-12-01T18:00:00+00:00") != nil)
        #expect(StringFormat.dateTime.matches("2025-11-02T09:14:03.512731+00:00"))
    }

    @Test func embedsDecodeForEveryDocumentedQuery() throws {
        let applications = try #require(try endpoint("GET /rest/v1/applications").response)
        let embedded = #"""
            [{"id": "5d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d", "property_id": "8c2f3a52-6d0e-4b7a-9f1e-2a4c6e8b0d13",
              "applicant_id": "0b6e7c4d-1f2a-4e3b-8c5d-9e0f1a2b3c4d", "status": "reviewing", "applicant_name": "Léa",
              "applicant_email": "lea@example.fr", "applicant_phone": null, "occupation": "Étudiante",
              "monthly_income": 1200.5, "message": null, "desired_move_in_date": "2026-02-01",
              "created_at": "2025-12-01T10:00:00.000001+00:00", "updated_at": "2025-12-01T10:00:00.000001+00:00",
              "property": {"id": "8c2f3a52-6d0e-4b7a-9f1e-2a4c6e8b0d13", "title": "Appartement 2 chambres"}}]
            """#
        #expect(findings(embedded, applications) == [])
        // The rows POST returns have no embed.
        let inserted = embedded.replacingOccurrences(
            of: #",\#n  "property": {"id": "8c2f3a52-6d0e-4b7a-9f1e-2a4c6e8b0d13", "title": "Appartement 2 chambres"}"#,
            with: "")
        #expect(!inserted.contains("\"property\":"))
        #expect(findings(inserted, try #require(try endpoint("POST /rest/v1/applications").response)) == [])

        let favorites = try #require(try endpoint("GET /rest/v1/favorites").response)
        let favoriteRows = """
            [{"property_id": "8c2f3a52-6d0e-4b7a-9f1e-2a4c6e8b0d13", "properties": \(Self.propertyRow)},
             {"property_id": "9d3a4b63-7e1f-4c8b-a02f-3b5d7f9c1e24", "properties": null}]
            """
        #expect(findings(favoriteRows, favorites) == [])
        let decoded = try JSONDecoder().decode([EasyCo.FavoriteProperty].self, from: Data(favoriteRows.utf8))
        #expect(decoded.map { $0.properties?.title } == ["Appartement 2 chambres", nil])
    }

    @Test func transactionAndScheduleRules() throws {
        let transactions = try #require(try endpoint("GET /rest/v1/transactions").response)
        let transaction = #"""
            [{"id": "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d", "payer_id": "0b6e7c4d-1f2a-4e3b-8c5d-9e0f1a2b3c4d",
              "payee_id": null, "property_id": null, "amount": -5, "currency": "CHF",
              "transaction_type": "rent_payment",
              "status": "completed", "payment_method": "card", "description": null, "due_date": null,
              "paid_at": "2025-12-01T10:00:00+00:00", "metadata": {"stripe": {"id": "pi_1"}},
              "created_at": "2025-12-01T10:00:00+00:00", "updated_at": "2025-12-01T10:00:00+00:00"}]
            """#
        #expect(
            findings(transaction, transactions) == [
                "/0/amount: expected at least 0, found -5",
                "/0/currency: expected one of \"EUR\", \"USD\", \"GBP\", found \"CHF\"",
            ])
        let schedule = try object("EasyCo.PaymentSchedule")
        #expect(schedule["amount"] == Property("amount", .decimal(exclusiveMinimum: 0)))
        // A `date` column, as the migration declares it.
        #expect(schedule["start_date"] == Property("start_date", .string(format: .date)))
        #expect(schedule["day_of_month"] == Property("day_of_month", .nullable(.integer()), required: false))
    }

    // MARK: - Schemas

    @Test func inferredSchemas() throws {
        let property = try object("EasyCo.Property")
        #expect(property.properties.count == 31)
        #expect(property["id"] == Property("id", .string(format: .uuid)))
        // The migration's CHECKs are the model's bounds; the mock's PostgREST engine reads them as the table's.
        #expect(property["monthly_rent"] == Property("monthly_rent", .decimal(minimum: 0, maximum: 1_000_000)))
        #expect(property["deposit"] == Property("deposit", .nullable(.decimal(minimum: 0)), required: false))
        #expect(property["bathrooms"] == Property("bathrooms", .integer(minimum: 0, maximum: 10)))
        // A DEFAULT without NOT NULL is a nullable column (`amenities JSONB DEFAULT '[]'::jsonb`).
        #expect(property["amenities"] == Property("amenities", .nullable(.array(.string())), required: false))
        #expect(property["country"] == Property("country", .nullable(.string()), required: false))
        #expect(property["bedrooms"] == Property("bedrooms", .integer(minimum: 0, maximum: 20)))
        let availableFrom = Property("available_from", .nullable(.string(format: .date)), required: false)
        #expect(property["available_from"] == availableFrom)
        #expect(property["created_at"] == Property("created_at", .string(format: .dateTime)))
        #expect(property["property_type"]?.schema == .string(values: EasyCo.Property.propertyTypes))

        let transaction = try object("EasyCo.Transaction")
        #expect(transaction["metadata"] == Property("metadata", .map(.any)))

        let application = try object("EasyCo.Application")
        #expect(
            application["property"] == Property("property", .nullable(.ref("EasyCo.PropertySummary")), required: false))

        let favorite = try object("EasyCo.FavoriteProperty")
        #expect(
            favorite.properties == [
                Property("property_id", .string(format: .uuid)),
                Property("properties", .nullable(.ref("EasyCo.Property")), required: false),
            ])

        let newFavorite = try object("EasyCo.NewFavorite")
        #expect(newFavorite.additionalProperties == .forbidden)
        #expect(newFavorite.properties.map(\.name) == ["user_id", "property_id"])
        let newApplication = try object("EasyCo.NewApplication")
        #expect(
            newApplication.properties.filter(\.required).map(\.name) == [
                "applicant_id", "property_id", "applicant_name", "applicant_email", "status",
            ])
    }

    // MARK: - Errors and tables

    @Test func errorEnvelope() throws {
        let model = spec.errorEnvelope.model
        let conflict = spec.errorEnvelope.make(
            .conflict, ["duplicate key value violates unique constraint", "Key exists."])
        #expect(
            conflict == [
                "code": "23505", "message": "duplicate key value violates unique constraint",
                "details": "Key exists.", "hint": nil,
            ])
        for status in [400, 401, 403, 404, 406, 409, 416, 500] as [HTTPStatus] {
            let body = spec.errorEnvelope.make(status, [])
            #expect(findings(body.serialized(), model) == [], "\(status)")
        }
        #expect(spec.errorEnvelope.make(.unauthorized, [])["code"] == "PGRST301")
        #expect(spec.errorEnvelope.make(.rangeNotSatisfiable, [])["code"] == "PGRST103")
        #expect(spec.errorEnvelope.make(.notAcceptable, [])["code"] == "PGRST116")
        #expect(spec.errorEnvelope.make(.forbidden, [])["code"] == "42501")
        let real = #"""
            {"code":"PGRST116","details":"The result contains 0 rows","hint":null,
             "message":"JSON object requested, multiple (or no) rows returned"}
            """#
        #expect(findings(real, model) == [])
    }

    @Test func tablesCoverEveryEndpoint() {
        let names = EasyCo.tables.map(\.name)
        #expect(
            names == [
                "properties", "property_members", "transactions", "payment_schedules", "applications", "favorites",
            ])
        let paths = Set(spec.endpoints.map { String($0.path.template.dropFirst("/rest/v1/".count)) })
        #expect(paths.isSubset(of: Set(names)))
        let favorites = EasyCo.tables.first { $0.name == "favorites" }
        #expect(favorites?.uniqueKeys == [["user_id", "property_id"]])
        #expect(favorites?.policies == [EasyCo.RowPolicy([.select, .insert, .delete], .column("user_id"))])
        let transactions = EasyCo.tables.first { $0.name == "transactions" }
        #expect(transactions?.policies.allSatisfy { !$0.operations.contains(.delete) } == true)
        #expect(EasyCo.tables.first { $0.name == "applications" }?.defaults == ["status": "pending"])
    }

    @Test func ambiguitiesAreRecorded() {
        let ids = spec.ambiguities.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(ids.contains("timestamp-fraction") && ids.contains("application-embed-optional"))
        for ambiguity in spec.ambiguities {
            if let endpoint = ambiguity.endpoint { #expect(spec.endpoint(endpoint) != nil, "\(ambiguity.id)") }
        }
    }
}
