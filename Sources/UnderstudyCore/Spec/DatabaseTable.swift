/// One table of the database behind a PostgREST API (Supabase), as its migrations declare it: the row model
/// whose properties are the columns, keys, defaults, foreign keys and row-level security.
///
/// The row model's schema states the columns' `CHECK`s, named `<table>_<column>_check` as PostgreSQL names a
/// column constraint (a violation is 400, `23514`): a number's bounds (`CHECK (bedrooms >= 0 AND bedrooms <= 20)`)
/// and a text column's values (`CHECK (status IN (…))`, unless ``enumTypes`` declares the column an enum). A spec lists its
/// tables (``APISpec/database``) and the mock's PostgREST engine serves any such schema.
///
/// `id`, `created_at` and `updated_at` are filled by the database (`gen_random_uuid()`, `now()`).
///
/// ```swift
/// let favorites = DatabaseTable(
///     name: "favorites", model: "EasyCo.Favorite", uniqueKeys: [["user_id", "property_id"]],
///     references: ["property_id": "properties"], userColumns: ["user_id"],
///     policies: [RowPolicy([.select, .insert, .delete], .column("user_id"))])
/// ```
public struct DatabaseTable: Sendable, Hashable {
    /// The table name, as in `/rest/v1/<name>`.
    public let name: String
    /// The name of the row model in the spec's definitions; its properties are the columns.
    public let model: String
    /// Keys of the row model that a query embeds (`Application.property`), not columns.
    public let embeds: Set<String>
    /// Column sets that are unique besides the `id` primary key (a violation is 409, `23505`).
    public let uniqueKeys: [[String]]
    /// Column defaults applied when an insert leaves the column out.
    public let defaults: [String: JSONValue]
    /// Many-to-one foreign keys: a column and the table whose `id` it references.
    public let references: [String: String]
    /// The columns that reference `auth.users`.
    public let userColumns: [String]
    /// Array columns declared `text[]`; the other arrays are `jsonb`.
    public let textArrayColumns: Set<String>
    /// Columns declared `numeric(precision, scale)`: values are rounded to the scale when written.
    public let numericColumns: [String: NumericScale]
    /// Columns of a PostgreSQL enum type, by column, with the type's name: the model's values are the type's
    /// labels, and another value is refused as the type reads it (400, `22P02`) rather than by a `CHECK`.
    public let enumTypes: [String: String]
    /// Columns a btree index orders (`CREATE INDEX … (column)`), besides the `id` primary key: a read ordered by one
    /// of them (`order=created_at.desc&limit=20`) walks the index instead of sorting the table.
    public let indexes: [String]
    /// Row-level security: a row is visible to, or changeable by, a user when one policy allows it.
    public let policies: [RowPolicy]

    public init(
        name: String, model: String, embeds: Set<String> = [], uniqueKeys: [[String]] = [],
        defaults: [String: JSONValue] = [:], references: [String: String] = [:], userColumns: [String] = [],
        textArrayColumns: Set<String> = [], numericColumns: [String: NumericScale] = [:],
        enumTypes: [String: String] = [:], indexes: [String] = [], policies: [RowPolicy]
    ) {
        self.name = name
        self.model = model
        self.embeds = embeds
        self.uniqueKeys = uniqueKeys
        self.defaults = defaults
        self.references = references
        self.userColumns = userColumns
        self.textArrayColumns = textArrayColumns
        self.numericColumns = numericColumns
        self.enumTypes = enumTypes
        self.indexes = indexes
        self.policies = policies
    }
}

/// The precision and scale of a `numeric(precision, scale)` column.
public struct NumericScale: Sendable, Hashable {
    public let precision: Int
    public let scale: Int

    public init(precision: Int, scale: Int) {
        self.precision = precision
        self.scale = scale
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
        /// The user whose id is in `ownerColumn` of the row this row's `via` column references (the owner of
        /// the property a membership belongs to).
        case referencedOwner(via: String, ownerColumn: String)
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

extension APISpec {
    /// The same spec served by a PostgREST engine over these tables.
    public func database(_ tables: [DatabaseTable]) -> APISpec {
        var copy = self
        copy.database = tables
        return copy
    }
}
