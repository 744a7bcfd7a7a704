import Foundation
import UnderstudyCore
import UnderstudyPostgREST
import UnderstudySpecs

/// The initial state of the EasyCo mock, the same for a seed.
///
/// Two parts: a scenario written for the document (a resident who also owns three properties, with
/// rent payments, a schedule, applications and favorites, so each of the twelve documented queries
/// returns rows for the default user), then the endpoints' fixtures (generated, or the `--fixtures`
/// files) as extra rows, made coherent: every user they name exists, every `property_id` points at a
/// property, and no unique key is broken.
struct EasyCoSeed {
    let fixtures: FixtureSource
    let catalog: PostgrestCatalog

    private var random: SeededRandom
    private var users: [EasyCoUser] = []
    private var tables: [String: PostgrestTable] = [:]
    /// The unique-key values taken, per table, so importing large fixtures stays linear.
    private var taken: [String: Set<[JSONValue]>] = [:]
    private var userIDs: Set<String> = []

    init(fixtures: FixtureSource, catalog: PostgrestCatalog) {
        self.fixtures = fixtures
        self.catalog = catalog
        random = SeededRandom(seed: fixtures.seed).derived("easyco scenario")
    }

    /// Builds the state.
    /// - Throws: ``FixtureError`` naming the fixture row and column that PostgreSQL would refuse.
    func state() throws -> EasyCoState {
        var seed = self
        let defaultUser = seed.scenario()
        try seed.importFixtures()
        for name in catalog.tables.keys where seed.tables[name] == nil { seed.tables[name] = PostgrestTable() }
        return EasyCoState(users: seed.users, defaultUser: defaultUser, tables: seed.tables, insertions: 0)
    }

    // MARK: Scenario

    /// The document's story; returns the default user's id.
    private mutating func scenario() -> String {
        let camille = person("Camille Martin")
        let hugo = person("Hugo Bernard")
        let lea = person("Léa Dubois")
        let louis = person("Louis Thomas")
        let manon = person("Manon Petit")
        let jules = person("Jules Durand")
        let ines = person("Inès Moreau")
        let adam = person("Adam Leroy")

        // Camille rents Hugo's flat ("✅ Property loaded: Appartement 2 chambres") and owns three properties.
        let flat = property(
            owner: hugo, title: "Appartement 2 chambres", type: "apartment", address: "12 rue des Lilas", city: "Lyon",
            neighborhood: "Croix-Rousse", postalCode: "69004", location: (45.7747, 4.8276), rooms: (2, 1), surface: 54,
            rent: ("950.00", "80.00", "1900.00"), status: "published", available: true, created: "2025-08-10T09:12:00Z",
            views: 128)
        let studio = property(
            owner: camille, title: "Studio meublé proche gare", type: "studio", address: "4 avenue Alsace-Lorraine",
            city: "Bourg-en-Bresse", neighborhood: "Gare", postalCode: "01000", location: (46.1990, 5.2144),
            rooms: (1, 1), surface: 24, rent: ("520.00", "40.00", "1040.00"), status: "published", available: true,
            created: "2025-10-02T17:45:00Z", views: 64)
        let house = property(
            owner: camille, title: "Maison avec jardin", type: "house", address: "27 rue Paul Bellamy", city: "Nantes",
            neighborhood: "Hauts-Pavés", postalCode: "44000", location: (47.2262, -1.5571), rooms: (4, 2),
            surface: 112, rent: ("1200.00", "0.00", "2400.00"), status: "rented", available: false,
            created: "2025-03-20T10:00:00Z", views: 311)
        property(
            owner: camille, title: "Chambre en colocation", type: "private_room", address: "3 place Sathonay",
            city: "Lyon", neighborhood: "Terreaux", postalCode: "69001", location: (45.7683, 4.8310), rooms: (1, 1),
            surface: 14, rent: ("480.00", "35.00", nil), status: "draft", available: true,
            created: "2025-11-12T19:30:00Z", views: 0)
        let loft = property(
            owner: lea, title: "Loft lumineux près du canal", type: "apartment", address: "8 quai de la Basse-Deûle",
            city: "Lille", neighborhood: "Vieux-Lille", postalCode: "59000", location: (50.6410, 3.0560),
            rooms: (1, 1), surface: 61, rent: ("890.00", "60.00", "1780.00"), status: "published", available: true,
            created: "2025-09-28T08:20:00Z", views: 97)
        let coliving = property(
            owner: adam, title: "Colocation étudiante Bordeaux", type: "coliving", address: "15 cours de la Marne",
            city: "Bordeaux", neighborhood: "Saint-Michel", postalCode: "33800", location: (44.8310, -0.5680),
            rooms: (5, 2), surface: 130, rent: ("450.00", "50.00", "450.00"), status: "published", available: true,
            created: "2025-07-01T12:00:00Z", views: 203)
        property(
            owner: adam, title: "T3 avec terrasse", type: "apartment", address: "41 rue de Metz", city: "Toulouse",
            neighborhood: "Carmes", postalCode: "31000", location: (43.5990, 1.4470), rooms: (2, 1), surface: 68,
            rent: ("980.00", "70.00", "1960.00"), status: "published", available: true,
            created: "2025-11-08T15:10:00Z", views: 41)
        let duplex = property(
            owner: hugo, title: "Duplex Vieux-Port", type: "apartment", address: "2 quai du Port", city: "Marseille",
            neighborhood: "Vieux-Port", postalCode: "13002", location: (43.2960, 5.3700), rooms: (3, 2), surface: 90,
            rent: ("1350.00", "90.00", "2700.00"), status: "archived", available: false,
            created: "2025-02-14T09:00:00Z", views: 420)

        member(flat, camille, role: "tenant", status: "active", moveIn: "2025-09-01", moveOut: nil)
        member(coliving, camille, role: "roommate", status: "moved_out", moveIn: "2024-09-01", moveOut: "2025-08-31")
        member(studio, manon, role: "resident", status: "active", moveIn: "2025-05-01", moveOut: nil)
        member(house, jules, role: "tenant", status: "active", moveIn: "2025-04-01", moveOut: nil)

        // What Camille pays: deposit, application fee, three rents and December's, still pending.
        transaction(camille, hugo, flat, "1900.00", type: "security_deposit", status: "completed", due: "2025-08-25")
        transaction(camille, hugo, flat, "25.00", type: "application_fee", status: "completed", due: "2025-08-20")
        for month in ["09", "10", "11"] {
            transaction(
                camille, hugo, flat, "1030.00", type: "rent_payment", status: "completed", due: "2025-\(month)-01")
        }
        transaction(camille, hugo, flat, "1030.00", type: "rent_payment", status: "pending", due: "2025-12-01")
        // What Camille earns ("✅ Loaded 15 revenue transactions"): 15 completed rents, one pending, one utility bill.
        for month in ["05", "06", "07", "08", "09", "10", "11"] {
            transaction(
                manon, camille, studio, "560.00", type: "rent_payment", status: "completed", due: "2025-\(month)-01")
        }
        for month in ["04", "05", "06", "07", "08", "09", "10", "11"] {
            transaction(
                jules, camille, house, "1200.00", type: "rent_payment", status: "completed", due: "2025-\(month)-01")
        }
        transaction(jules, camille, house, "1200.00", type: "rent_payment", status: "pending", due: "2025-12-01")
        transaction(manon, camille, studio, "38.50", type: "utility_payment", status: "completed", due: "2025-10-15")

        schedule(
            camille, hugo, flat, "1030.00", type: "rent", active: true, start: "2025-09-01", end: nil,
            next: "2025-12-01")
        schedule(
            camille, adam, coliving, "500.00", type: "rent", active: false, start: "2024-09-01", end: "2025-08-31",
            next: "2025-09-01")
        schedule(
            manon, camille, studio, "560.00", type: "rent", active: true, start: "2025-05-01", end: nil,
            next: "2025-12-01")

        // Two applications wait on Camille's studio ("✅ Loaded 2 pending applications"); hers for the flat was
        // approved.
        application(
            louis, studio, status: "pending", message: "Bonjour, je commence un CDI à Bourg en janvier.",
            created: "2025-11-10T18:02:00Z")
        application(
            ines, studio, status: "reviewing", message: "Étudiante en master, garant disponible.",
            created: "2025-11-06T09:41:00Z")
        application(adam, house, status: "rejected", message: nil, created: "2025-03-28T11:00:00Z")
        application(
            camille, flat, status: "approved", message: "Je cherche un logement pour septembre.",
            created: "2025-08-12T20:15:00Z")
        application(manon, loft, status: "pending", message: nil, created: "2025-11-13T07:55:00Z")

        // The archived duplex stays a favorite: row-level security hides it, so it embeds as null.
        favorite(camille, loft, created: "2025-10-03T21:00:00Z")
        favorite(camille, coliving, created: "2025-10-20T13:30:00Z")
        favorite(camille, duplex, created: "2025-04-02T08:45:00Z")
        favorite(manon, flat, created: "2025-08-15T16:00:00Z")
        return camille
    }

    @discardableResult
    private mutating func person(_ name: String) -> String {
        let id = random.uuid()
        let email =
            name.lowercased().replacingOccurrences(of: " ", with: ".")
            .folding(options: .diacriticInsensitive, locale: nil) + "@example.com"
        users.append(EasyCoUser(id: id, name: name, email: email))
        userIDs.insert(id)
        return id
    }

    @discardableResult
    private mutating func property(
        owner: String, title: String, type: String, address: String, city: String, neighborhood: String,
        postalCode: String, location: (Double, Double), rooms: (Int, Int), surface: Int,
        rent: (String, String, String?), status: String, available: Bool, created: String, views: Int
    ) -> String {
        let slug = title.lowercased().folding(options: .diacriticInsensitive, locale: nil)
            .map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
        let images = (1...3).map { JSONValue.string("https://cdn.easyco.example/properties/\(slug)/\($0).jpg") }
        return add(
            "properties",
            [
                "owner_id": .string(owner), "title": .string(title),
                "description": .string("\(title) à \(city), quartier \(neighborhood)."),
                "property_type": .string(type),
                "address": .string(address), "city": .string(city), "neighborhood": .string(neighborhood),
                "postal_code": .string(postalCode), "country": "France", "latitude": .double(location.0),
                "longitude": .double(location.1), "bedrooms": .integer(rooms.0), "bathrooms": .integer(rooms.1),
                "surface_area": .integer(surface), "furnished": .bool(type != "house"),
                "monthly_rent": Self.money(rent.0),
                "charges": Self.money(rent.1), "deposit": rent.2.map(Self.money) ?? .null,
                "available_from": .string(available ? "2025-12-01" : "2026-06-01"), "is_available": .bool(available),
                "amenities": ["wifi", "lave-linge", "chauffage central"], "images": .array(images),
                "main_image": images[0], "status": .string(status), "views_count": .integer(views),
                "applications_count": .integer(views / 30), "favorites_count": .integer(views / 12),
                "created_at": .string(created), "updated_at": .string(created),
                "published_at": status == "draft" ? .null : .string(created),
            ])
    }

    private mutating func member(
        _ property: String, _ user: String, role: String, status: String, moveIn: String, moveOut: String?
    ) {
        add(
            "property_members",
            [
                "property_id": .string(property), "user_id": .string(user), "role": .string(role),
                "status": .string(status),
                "move_in_date": .string(moveIn), "move_out_date": moveOut.map(JSONValue.string) ?? .null,
                "created_at": .string("\(moveIn)T09:00:00Z"), "updated_at": .string("\(moveOut ?? moveIn)T09:00:00Z"),
            ])
    }

    private mutating func transaction(
        _ payer: String, _ payee: String, _ property: String, _ amount: String, type: String, status: String,
        due: String
    ) {
        let completed = status == "completed"
        add(
            "transactions",
            [
                "payer_id": .string(payer), "payee_id": .string(payee), "property_id": .string(property),
                "amount": Self.money(amount), "currency": "EUR", "transaction_type": .string(type),
                "status": .string(status),
                "payment_method": completed ? "sepa_debit" : .null,
                "description": .string("\(type.replacingOccurrences(of: "_", with: " ").capitalized) \(due.prefix(7))"),
                "due_date": .string(due), "paid_at": completed ? .string("\(due)T07:30:00Z") : .null,
                "metadata": completed ? ["provider": "stripe"] : [:], "created_at": .string("\(due)T06:00:00Z"),
                "updated_at": .string(completed ? "\(due)T07:30:00Z" : "\(due)T06:00:00Z"),
            ])
    }

    private mutating func schedule(
        _ payer: String, _ payee: String, _ property: String, _ amount: String, type: String, active: Bool,
        start: String, end: String?, next: String
    ) {
        add(
            "payment_schedules",
            [
                "payer_id": .string(payer), "payee_id": .string(payee), "property_id": .string(property),
                "amount": Self.money(amount), "currency": "EUR", "frequency": "monthly", "payment_type": .string(type),
                "start_date": .string(start), "end_date": end.map(JSONValue.string) ?? .null,
                "next_payment_date": .string(next), "day_of_month": 1, "auto_pay_enabled": .bool(active),
                "is_active": .bool(active), "description": "Loyer mensuel", "created_at": .string("\(start)T08:00:00Z"),
                "updated_at": .string("\((end ?? start))T08:00:00Z"),
            ])
    }

    private mutating func application(
        _ applicant: String, _ property: String, status: String, message: String?, created: String
    ) {
        let user = users.first { $0.id == applicant }
        add(
            "applications",
            [
                "property_id": .string(property), "applicant_id": .string(applicant), "status": .string(status),
                "applicant_name": .string(user?.name ?? ""), "applicant_email": .string(user?.email ?? ""),
                "applicant_phone": "+33612345678", "occupation": "Ingénieur·e",
                "monthly_income": Self.money("2800.00"),
                "message": message.map(JSONValue.string) ?? .null, "desired_move_in_date": "2026-01-01",
                "created_at": .string(created), "updated_at": .string(created),
            ])
    }

    private mutating func favorite(_ user: String, _ property: String, created: String) {
        add("favorites", ["user_id": .string(user), "property_id": .string(property), "created_at": .string(created)])
    }

    /// A unique key's values in a row, tagged with the key's columns.
    private static func uniqueValue(_ key: [String], _ row: PostgrestRow) -> [JSONValue] {
        [.string(key.joined(separator: ","))] + key.map { row[$0] ?? .null }
    }

    private static func money(_ literal: String) -> JSONValue { .number(JSONNumber(uncheckedLiteral: literal)) }

    /// Adds a row with every column (missing ones are defaults or null) and an id; returns the id.
    @discardableResult
    private mutating func add(_ table: String, _ values: [String: JSONValue]) -> String {
        var row = values
        let id = values["id"]?.stringValue ?? random.uuid()
        row["id"] = .string(id)
        do {
            tables[table, default: PostgrestTable()].append(try normalized(row, table: table))
        } catch {
            preconditionFailure("the scenario's \(table) row \(id) breaks a column rule: \(error.message)")
        }
        return id
    }

    /// A row with every column (missing ones are defaults or null), stored as PostgreSQL stores an insert's values
    /// and checked against NOT NULL and the CHECKs, as a write is.
    /// - Throws: the PostgREST error of the first value or constraint the row breaks.
    private func normalized(_ values: [String: JSONValue], table: String) throws(PostgrestError) -> PostgrestRow {
        guard let info = catalog.table(table) else { return values }
        var row: PostgrestRow = [:]
        for column in info.columns {
            guard let value = values[column.name] else {
                row[column.name] = info.defaults[column.name]
                continue
            }
            do {
                row[column.name] = try PostgrestInput.stored(value, column: column, in: info)
            } catch {
                var error = error
                error.message = "column \(column.name): " + error.message
                throw error
            }
        }
        try PostgrestInput.check(row, info: info)
        return row
    }

    // MARK: Fixtures

    /// The fixtures' rows, after the scenario's, with their references repaired.
    /// - Throws: ``FixtureError`` for a row PostgreSQL would refuse.
    private mutating func importFixtures() throws {
        let spec = EasyCo.spec
        func rows(_ endpoint: String) -> [[String: JSONValue]] {
            fixtures.body(endpoint, in: spec).arrayValue?.compactMap(\.objectValue) ?? []
        }
        for (name, table) in tables {
            for key in catalog.table(name)?.facts.uniqueKeys ?? [] {
                for row in table.rows { taken[name, default: []].insert(Self.uniqueValue(key, row)) }
            }
        }
        let scenarioProperties = tables["properties"]?.rows.compactMap { $0["id"]?.stringValue } ?? []
        var fixtureProperties: [String] = []
        for (index, var row) in rows("GET /rest/v1/properties").enumerated() {
            let source = "GET /rest/v1/properties, row \(index + 1)"
            if fixtures.isGenerated("GET /rest/v1/properties", in: spec) { plausibleLayout(&row) }
            if let id = try importRow(row, table: "properties", properties: [], source: source) {
                fixtureProperties.append(id)
            }
        }
        for (index, row) in rows("GET /rest/v1/favorites").enumerated() {
            guard var property = row["properties"]?.objectValue else { continue }
            let source = "GET /rest/v1/favorites, row \(index + 1), properties"
            if fixtures.isGenerated("GET /rest/v1/favorites", in: spec) { plausibleLayout(&property) }
            if let id = try importRow(property, table: "properties", properties: [], source: source) {
                fixtureProperties.append(id)
            }
        }
        // Fixture rows hang on fixture properties, so the scenario's counts stay as the document logs them.
        let targets = fixtureProperties.isEmpty ? Array(scenarioProperties.suffix(1)) : fixtureProperties
        for (table, endpoints) in [
            ("property_members", ["GET /rest/v1/property_members"]),
            ("transactions", ["GET /rest/v1/transactions"]),
            ("payment_schedules", ["GET /rest/v1/payment_schedules"]),
            ("applications", ["GET /rest/v1/applications", "POST /rest/v1/applications"]),
            ("favorites", ["POST /rest/v1/favorites"]),
        ] {
            for endpoint in endpoints {
                for (index, row) in rows(endpoint).enumerated() {
                    try importRow(row, table: table, properties: targets, source: "\(endpoint), row \(index + 1)")
                }
            }
        }
    }

    /// Gives a generated property the rooms, surface and prices of a real listing, which fit together (the schema
    /// bounds each value alone: 13 bedrooms and 7 bathrooms in 40 m² meet them): a studio has no bedroom, a flat
    /// 1 to 3; 18 m² plus 17 m² a bedroom; a rent of 12 to 22 € a m², charges of 8 %, a deposit of one month's rent
    /// (two when furnished). Rows from `--fixtures` files are kept as written.
    private mutating func plausibleLayout(_ row: inout [String: JSONValue]) {
        let bedrooms = row["property_type"]?.stringValue == "studio" ? 0 : Int(1 + random.next() % 3)
        let surface = 18 + 17 * bedrooms + Int(random.next() % 10)
        let rent = Double(surface * Int(12 + random.next() % 11))
        row["bedrooms"] = .integer(bedrooms)
        row["bathrooms"] = .integer(bedrooms >= 3 ? 2 : 1)
        row["surface_area"] = .integer(surface)
        row["monthly_rent"] = Self.money(String(format: "%.2f", rent))
        row["charges"] = Self.money(String(format: "%.2f", (rent * 0.08).rounded()))
        let months = row["furnished"]?.boolValue == true ? 2.0 : 1.0
        row["deposit"] = Self.money(String(format: "%.2f", rent * months))
    }

    /// Adds one fixture row unless its id or a unique key is taken; returns its id when added.
    /// - Throws: ``FixtureError`` naming `source` (the fixture's endpoint and row) when a value or constraint of
    ///   the row is one PostgreSQL would refuse.
    @discardableResult
    private mutating func importRow(
        _ values: [String: JSONValue], table: String, properties: [String], source: String
    ) throws -> String? {
        guard let info = catalog.table(table) else { return nil }
        var row: PostgrestRow
        do {
            row = try normalized(values, table: table)
        } catch {
            throw FixtureError(
                description: "the easyco fixture of \(source) (table \(table)) cannot be stored: "
                    + "\(error.message) (\(error.body["code"]?.stringValue ?? ""))")
        }
        if row["id"]?.stringValue == nil { row["id"] = .string(random.uuid()) }
        guard let id = row["id"]?.stringValue, tables[table]?.row(id: id) == nil else { return nil }
        if let reference = row["property_id"]?.stringValue, tables["properties"]?.row(id: reference) == nil,
            !properties.isEmpty
        {
            row["property_id"] = .string(properties[Int(random.next() % UInt64(properties.count))])
        }
        for column in info.facts.userColumns {
            guard let user = row[column]?.stringValue, !userIDs.contains(user) else { continue }
            userIDs.insert(user)
            let number = users.count + 1
            users.append(EasyCoUser(id: user, name: "Utilisateur \(number)", email: "utilisateur\(number)@example.com"))
        }
        let keys = info.facts.uniqueKeys.map { Self.uniqueValue($0, row) }
        if keys.contains(where: { taken[table]?.contains($0) == true }) { return nil }
        for key in keys { taken[table, default: []].insert(key) }
        tables[table, default: PostgrestTable()].append(row)
        return id
    }
}
