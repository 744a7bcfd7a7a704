import UnderstudyCore

extension EasyCo {
    public typealias Table = DatabaseTable
    public typealias RowPolicy = UnderstudyCore.RowPolicy

    /// The six tables the app uses, in the order of ENDPOINTS.md, as the migrations declare them: the row
    /// models, unique keys, defaults, the `property_id` foreign keys, the columns holding users, and
    /// row-level security.
    ///
    /// The row models give the column types, `NOT NULL` (a non-optional property) and the lists of values: the
    /// project's public migrations (`030_create_properties_table.sql`, `20241102_create_payment_system.sql`)
    /// declare them as `TEXT`/`VARCHAR` columns with `CHECK (column IN (…))`, not enum types, so a value outside
    /// a list is 23514. The defaults ENDPOINTS.md does not list (counters, `furnished`, `currency`, `metadata`,
    /// the schedule's flags) are those migrations' too. The indexes are the orders the app and a price search read a
    /// page in (`order=created_at.desc`, `order=monthly_rent`): the mock answers such a page by walking them, as
    /// PostgreSQL would with those indexes, instead of sorting the table.
    ///
    /// ```swift
    /// let favorites = EasyCo.tables.first { $0.name == "favorites" }!
    /// favorites.uniqueKeys   // [["user_id", "property_id"]]
    /// ```
    public static let tables: [Table] = [
        Table(
            name: "properties", model: "EasyCo.Property",
            defaults: [
                "country": "France", "bedrooms": 1, "bathrooms": 1, "charges": 0, "is_available": true,
                "status": "draft", "furnished": false, "amenities": [], "images": [], "views_count": 0,
                "applications_count": 0, "favorites_count": 0,
            ],
            userColumns: ["owner_id"], textArrayColumns: ["images"],
            numericColumns: ["monthly_rent": money, "charges": money, "deposit": money],
            indexes: ["created_at", "monthly_rent"],
            policies: [
                RowPolicy(Set(RowPolicy.Operation.allCases), .column("owner_id")),
                RowPolicy([.select], .anyone(where: ["status": "published", "is_available": true])),
            ]),
        Table(
            name: "property_members", model: "EasyCo.PropertyMember",
            uniqueKeys: [["property_id", "user_id", "status"]],
            references: ["property_id": "properties"], userColumns: ["user_id"],
            policies: [
                RowPolicy([.select], .column("user_id")),
                RowPolicy(Set(RowPolicy.Operation.allCases), propertyOwner),
            ]),
        Table(
            name: "transactions", model: "EasyCo.Transaction",
            defaults: ["currency": "EUR", "status": "pending", "metadata": [:]],
            references: ["property_id": "properties"],
            userColumns: ["payer_id", "payee_id"], numericColumns: ["amount": money],
            policies: [
                RowPolicy([.select, .insert], .column("payer_id")),
                RowPolicy([.select], .column("payee_id")),
            ]),
        Table(
            name: "payment_schedules", model: "EasyCo.PaymentSchedule",
            defaults: ["currency": "EUR", "auto_pay_enabled": false, "is_active": true],
            references: ["property_id": "properties"],
            userColumns: ["payer_id", "payee_id"], numericColumns: ["amount": money],
            policies: [
                RowPolicy([.select, .insert, .delete], .column("payer_id")),
                RowPolicy([.select], .column("payee_id")),
            ]),
        Table(
            name: "applications", model: "EasyCo.Application", embeds: ["property"],
            uniqueKeys: [["property_id", "applicant_id"]], defaults: ["status": "pending"],
            references: ["property_id": "properties"], userColumns: ["applicant_id"], indexes: ["created_at"],
            policies: [
                RowPolicy([.select, .insert], .column("applicant_id")),
                RowPolicy([.select], propertyOwner),
            ]),
        Table(
            name: "favorites", model: "EasyCo.Favorite", uniqueKeys: [["user_id", "property_id"]],
            references: ["property_id": "properties"], userColumns: ["user_id"],
            policies: [RowPolicy([.select, .insert, .delete], .column("user_id"))]),
    ]

    /// Money columns: `numeric(10,2)`. The document says "decimal" only; the scale is the one the PostgreSQL
    /// database of issue 12's differential test declares (PostgreSQL stores 123.455 as 123.46 there).
    private static let money = NumericScale(precision: 10, scale: 2)

    /// The owner (`properties.owner_id`) of the property a row belongs to.
    private static let propertyOwner = RowPolicy.Subject.referencedOwner(via: "property_id", ownerColumn: "owner_id")
}
