import UnderstudyCore
import UnderstudySpecs

/// The SQL type of a column, as far as filters, casts and ordering care.
enum PostgrestType: Sendable, Hashable {
    case uuid, text, integer, numeric, boolean, timestamp, date, jsonb, textArray

    /// The PostgreSQL name, as error messages write it.
    var sqlName: String {
        switch self {
        case .uuid: "uuid"
        case .text: "text"
        case .integer: "integer"
        case .numeric: "numeric"
        case .boolean: "boolean"
        case .timestamp: "timestamp with time zone"
        case .date: "date"
        case .jsonb: "jsonb"
        case .textArray: "text[]"
        }
    }
}

/// One column of a table.
struct PostgrestColumn: Sendable, Hashable {
    let name: String
    let type: PostgrestType
    let nullable: Bool
}

/// A many-to-one foreign key: `table.column` references `referencedTable.id`.
struct PostgrestForeignKey: Sendable, Hashable {
    let table: String
    let column: String
    let referencedTable: String

    /// PostgreSQL's default constraint name, which PostgREST accepts as an embedding hint.
    var name: String { "\(table)_\(column)_fkey" }
}

/// What the mock knows about one table: its columns (from the spec's row model) and its migration facts.
struct PostgrestTableInfo: Sendable {
    let name: String
    let columns: [PostgrestColumn]
    let columnsByName: [String: PostgrestColumn]
    let facts: EasyCo.Table

    func column(_ name: String) -> PostgrestColumn? { columnsByName[name] }

    /// The policies that cover an operation.
    func policies(for operation: EasyCo.RowPolicy.Operation) -> [EasyCo.RowPolicy] {
        facts.policies.filter { $0.operations.contains(operation) }
    }
}

/// The schema cache of the EasyCo database: tables, columns and foreign keys.
///
/// Columns come from the row models of the spec (one source of truth): the model of each table's reads,
/// without the embeds a query adds (`Application.property`).
struct PostgrestCatalog: Sendable {
    let tables: [String: PostgrestTableInfo]
    let foreignKeys: [PostgrestForeignKey]

    static let easyCo = PostgrestCatalog(spec: EasyCo.spec)

    /// The row model of each table, and the keys of that model that are not columns.
    private static let models: [(table: String, model: String, embeds: Set<String>)] = [
        ("properties", "EasyCo.Property", []),
        ("property_members", "EasyCo.PropertyMember", []),
        ("transactions", "EasyCo.Transaction", []),
        ("payment_schedules", "EasyCo.PaymentSchedule", []),
        ("applications", "EasyCo.Application", ["property"]),
        ("favorites", "EasyCo.Favorite", []),
    ]

    /// The migrations declare `images` as `text[]`; the other array columns are `jsonb`.
    private static let textArrayColumns: Set<String> = ["images"]

    init(spec: APISpec) {
        var tables: [String: PostgrestTableInfo] = [:]
        for (name, model, embeds) in Self.models {
            guard case .object(let object) = spec.definitions[model]?.resolvingReferences(in: spec.definitions),
                let facts = EasyCo.tables.first(where: { $0.name == name })
            else {
                preconditionFailure("the easyco spec has no object model \(model) for table \(name)")
            }
            let columns = object.properties.filter { !embeds.contains($0.name) }.map { property in
                PostgrestColumn(
                    name: property.name, type: Self.type(of: property.schema, column: property.name),
                    nullable: property.schema.acceptsNull)
            }
            tables[name] = PostgrestTableInfo(
                name: name, columns: columns,
                columnsByName: Dictionary(columns.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }),
                facts: facts)
        }
        self.tables = tables
        foreignKeys = ["applications", "favorites", "property_members", "transactions", "payment_schedules"].map {
            PostgrestForeignKey(table: $0, column: "property_id", referencedTable: "properties")
        }
    }

    func table(_ name: String) -> PostgrestTableInfo? { tables[name] }

    /// The many-to-one keys from `table`.
    func keys(from table: String) -> [PostgrestForeignKey] { foreignKeys.filter { $0.table == table } }

    /// The many-to-one keys pointing at `table`.
    func keys(to table: String) -> [PostgrestForeignKey] { foreignKeys.filter { $0.referencedTable == table } }

    private static func type(of schema: Schema, column: String) -> PostgrestType {
        switch schema.nonNull {
        case .string(let constraints):
            switch constraints.format {
            case .uuid: return .uuid
            case .dateTime, .dateTimeWithFraction, .dateTimeWithoutFraction: return .timestamp
            case .date: return .date
            default: return .text
            }
        case .integer: return .integer
        case .number, .decimal: return .numeric
        case .boolean: return .boolean
        case .array: return textArrayColumns.contains(column) ? .textArray : .jsonb
        default: return .jsonb
        }
    }
}
