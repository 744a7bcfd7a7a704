import UnderstudyCore

/// The SQL type of a column, as far as filters, casts and ordering care.
package enum PostgrestType: Sendable, Hashable {
    case uuid, text, integer, numeric, double, boolean, timestamp, date, jsonb, textArray

    /// The PostgreSQL name, as error messages write it.
    package var sqlName: String {
        switch self {
        case .uuid: "uuid"
        case .text: "text"
        case .integer: "integer"
        case .numeric: "numeric"
        case .double: "double precision"
        case .boolean: "boolean"
        case .timestamp: "timestamp with time zone"
        case .date: "date"
        case .jsonb: "jsonb"
        case .textArray: "text[]"
        }
    }
}

/// One column of a table.
package struct PostgrestColumn: Sendable, Hashable {
    package let name: String
    package let type: PostgrestType
    package let nullable: Bool
    /// The values a text column accepts (its model's enumeration), `nil` for any.
    package var values: [String]? = nil
    /// The bounds of a number column's `CHECK` (its model's minimum and maximum), `nil` for none.
    package var bounds: NumberConstraints? = nil

    /// Whether a value meets the column's bounds; `NULL` does, as in SQL.
    package func allows(_ value: Double?) -> Bool {
        guard let value, let bounds else { return true }
        if let minimum = bounds.minimum, value < minimum { return false }
        if let minimum = bounds.exclusiveMinimum, value <= minimum { return false }
        if let maximum = bounds.maximum, value > maximum { return false }
        return true
    }
}

/// A many-to-one foreign key: `table.column` references `referencedTable.id`.
package struct PostgrestForeignKey: Sendable, Hashable {
    package let table: String
    package let column: String
    package let referencedTable: String

    /// PostgreSQL's default constraint name, which PostgREST accepts as an embedding hint.
    package var name: String { "\(table)_\(column)_fkey" }
}

/// What the engine knows about one table: its columns (from the spec's row model) and its declaration.
package struct PostgrestTableInfo: Sendable {
    package let name: String
    package let columns: [PostgrestColumn]
    package let columnsByName: [String: PostgrestColumn]
    package let facts: DatabaseTable
    /// Every column with its default as the column stores it (`0` in `numeric(10,2)` is `0.00`), or `null`.
    package private(set) var defaults: PostgrestRow = [:]

    package init(name: String, columns: [PostgrestColumn], facts: DatabaseTable) {
        self.name = name
        self.columns = columns
        columnsByName = Dictionary(columns.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.facts = facts
        for column in columns {
            let value = facts.defaults[column.name] ?? .null
            guard let stored = try? PostgrestInput.stored(value, column: column, in: self) else {
                preconditionFailure("the default of \(name).\(column.name) is not a value of the column")
            }
            defaults[column.name] = stored
        }
    }

    package func column(_ name: String) -> PostgrestColumn? { columnsByName[name] }

    /// The columns a btree index orders: the `id` primary key and the declared indexes (``DatabaseTable/indexes``).
    package var orderedColumns: [PostgrestExtractor] {
        (["id"] + facts.indexes).compactMap { try? PostgrestExtractor(PostgrestField(column: $0), in: self) }
    }

    /// The policies that cover an operation.
    package func policies(for operation: RowPolicy.Operation) -> [RowPolicy] {
        facts.policies.filter { $0.operations.contains(operation) }
    }
}

/// The schema cache of a PostgREST API: the tables its spec declares (``APISpec/database``), their columns
/// and foreign keys.
///
/// Columns come from the row models of the spec (one source of truth): the model of each table's reads,
/// without the embeds a query adds (`Application.property`).
package struct PostgrestCatalog: Sendable {
    package let tables: [String: PostgrestTableInfo]
    package let foreignKeys: [PostgrestForeignKey]

    package init(spec: APISpec) {
        var tables: [String: PostgrestTableInfo] = [:]
        for table in spec.database {
            guard case .object(let object) = spec.definitions[table.model]?.resolvingReferences(in: spec.definitions)
            else {
                preconditionFailure("the \(spec.id) spec has no object model \(table.model) for table \(table.name)")
            }
            let columns = object.properties.filter { !table.embeds.contains($0.name) }.map { property in
                PostgrestColumn(
                    name: property.name,
                    type: Self.type(of: property.schema, textArray: table.textArrayColumns.contains(property.name)),
                    nullable: property.schema.acceptsNull, values: Self.values(of: property.schema),
                    bounds: Self.bounds(of: property.schema))
            }
            tables[table.name] = PostgrestTableInfo(name: table.name, columns: columns, facts: table)
        }
        self.tables = tables
        foreignKeys = spec.database.flatMap { table in
            table.references.sorted { $0.key < $1.key }.map {
                PostgrestForeignKey(table: table.name, column: $0.key, referencedTable: $0.value)
            }
        }
    }

    package func table(_ name: String) -> PostgrestTableInfo? { tables[name] }

    /// The many-to-one keys from `table`.
    package func keys(from table: String) -> [PostgrestForeignKey] { foreignKeys.filter { $0.table == table } }

    /// The many-to-one keys pointing at `table`.
    package func keys(to table: String) -> [PostgrestForeignKey] { foreignKeys.filter { $0.referencedTable == table } }

    /// A number column's bounds, from its model (integers as numbers).
    private static func bounds(of schema: Schema) -> NumberConstraints? {
        switch schema.nonNull {
        case .integer(let constraints) where constraints.minimum != nil || constraints.maximum != nil:
            NumberConstraints(
                minimum: constraints.minimum.map(Double.init), maximum: constraints.maximum.map(Double.init))
        case .number(let constraints),
            .decimal(let constraints)
        where constraints.minimum != nil || constraints.maximum != nil || constraints.exclusiveMinimum != nil:
            constraints
        default: nil
        }
    }

    private static func values(of schema: Schema) -> [String]? {
        guard case .string(let constraints) = schema.nonNull else { return nil }
        return constraints.values
    }

    private static func type(of schema: Schema, textArray: Bool) -> PostgrestType {
        switch schema.nonNull {
        case .string(let constraints):
            switch constraints.format {
            case .uuid: return .uuid
            case .dateTime, .dateTimeWithFraction, .dateTimeWithoutFraction: return .timestamp
            case .date: return .date
            default: return .text
            }
        case .integer: return .integer
        // A model's `Double` is a `double precision` column, its `Decimal` a `numeric` one.
        case .number: return .double
        case .decimal: return .numeric
        case .boolean: return .boolean
        case .array: return textArray ? .textArray : .jsonb
        default: return .jsonb
        }
    }
}
