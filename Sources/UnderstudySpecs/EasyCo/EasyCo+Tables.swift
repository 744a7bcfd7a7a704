import UnderstudyCore

extension EasyCo {
    /// What the migrations say about one table beyond its columns: unique keys, defaults and row-level
    /// security, as plain data for the mock.
    ///
    /// `id`, `created_at` and `updated_at` are filled by the database (`gen_random_uuid()`, `now()`).
    ///
    /// ```swift
    /// let favorites = EasyCo.tables.first { $0.name == "favorites" }!
    /// favorites.uniqueKeys   // [["user_id", "property_id"]]
    /// ```
    public struct Table: Sendable, Hashable {
        /// The table name, as in `/rest/v1/<name>`.
        public let name: String
        /// Column sets that are unique besides the `id` primary key (a violation is 409, `23505`).
        public let uniqueKeys: [[String]]
        /// Column defaults applied when an insert leaves the column out.
        public let defaults: [String: JSONValue]
        /// Row-level security: a row is visible to, or changeable by, a user when one policy allows it.
        public let policies: [RowPolicy]

        public init(
            name: String, uniqueKeys: [[String]] = [], defaults: [String: JSONValue] = [:],
            policies: [RowPolicy]
        ) {
            self.name = name
            self.uniqueKeys = uniqueKeys
            self.defaults = defaults
            self.policies = policies
        }
    }

    /// One row-level security policy: which operations it allows, and to whom.
    public struct RowPolicy: Sendable, Hashable {
        /// A SQL command a policy covers.
        public enum Operation: String, Sendable, Hashable, CaseIterable {
            case select, insert, update, delete
        }

        /// Who a policy lets in, in terms of the JWT `sub` (the user id) and the row.
        public enum Subject: Sendable, Hashable {
            /// The user whose id is in this column of the row.
            case column(String)
            /// The owner (`properties.owner_id`) of the property whose id is in this column of the row.
            case propertyOwner(via: String)
            /// Anyone, for rows whose columns hold these values.
            case anyone(where: [String: JSONValue])
        }

        public let operations: Set<Operation>
        public let subject: Subject

        public init(_ operations: Set<Operation>, _ subject: Subject) {
            self.operations = operations
            self.subject = subject
        }
    }

    /// The six tables the app uses, in the order of ENDPOINTS.md.
    public static let tables: [Table] = [
        Table(
            name: "properties",
            defaults: [
                "country": "France", "bedrooms": 1, "bathrooms": 1, "charges": 0, "is_available": true,
                "status": "draft",
            ],
            policies: [
                RowPolicy(Set(RowPolicy.Operation.allCases), .column("owner_id")),
                RowPolicy([.select], .anyone(where: ["status": "published", "is_available": true])),
            ]),
        Table(
            name: "property_members",
            uniqueKeys: [["property_id", "user_id", "status"]],
            policies: [
                RowPolicy([.select], .column("user_id")),
                RowPolicy(Set(RowPolicy.Operation.allCases), .propertyOwner(via: "property_id")),
            ]),
        Table(
            name: "transactions",
            policies: [
                RowPolicy([.select, .insert], .column("payer_id")),
                RowPolicy([.select], .column("payee_id")),
            ]),
        Table(
            name: "payment_schedules",
            policies: [
                RowPolicy([.select, .insert, .delete], .column("payer_id")),
                RowPolicy([.select], .column("payee_id")),
            ]),
        Table(
            name: "applications",
            uniqueKeys: [["property_id", "applicant_id"]],
            defaults: ["status": "pending"],
            policies: [
                RowPolicy([.select, .insert], .column("applicant_id")),
                RowPolicy([.select], .propertyOwner(via: "property_id")),
            ]),
        Table(
            name: "favorites",
            uniqueKeys: [["user_id", "property_id"]],
            policies: [RowPolicy([.select, .insert, .delete], .column("user_id"))]),
    ]
}
