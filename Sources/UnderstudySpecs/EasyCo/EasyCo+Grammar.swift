import Foundation
import UnderstudyCore

/// PostgREST's query grammar as far as the app uses it, stated as patterns built from each table's columns, so a
/// document reader (Schemathesis, a client generator) knows which `select`, `order` and filter values are valid.
///
/// PostgREST's whole grammar (casts, JSON paths, nested embeds, spread) is not regular: the patterns state a part of
/// it (columns, one level of embeds through the table's foreign keys, the comparison operators with values of the
/// column's type). The mock does not enforce them (``MockBehaviour/parsesQuery``): its PostgREST parser accepts
/// and refuses what PostgREST does (docs.postgrest.org, references/api/tables_views.rst).
///
/// ```swift
/// EasyCo.Grammar.order(Favorite.self)   // "^(id|user_id|property_id|created_at)(\\.(asc|desc))?…$"
/// ```
extension EasyCo {
    enum Grammar {
        /// `*`, columns, and `alias:table(columns)` embeds through the table's foreign keys.
        static func select(_ model: any Decodable.Type, embedding references: [any Decodable.Type] = []) -> String {
            let embeds = references.map { target in
                let columns = "(\\*|\(names(target)))"
                return "([a-z_]+:)?\(table(of: target).name)\\(\(columns)(,\(columns))*\\)"
            }
            let item = (["\\*", names(model)] + embeds).joined(separator: "|")
            return "^(\(item))(,(\(item)))*$"
        }

        /// Columns with a direction and a place for NULLs: `created_at.desc`, `status.asc.nullslast,id`.
        static func order(_ model: any Decodable.Type) -> String {
            let term = "(\(scalarNames(model)))(\\.(asc|desc))?(\\.(nullsfirst|nullslast))?"
            return "^\(term)(,\(term))*$"
        }

        /// A horizontal filter on `column`: a comparison, `in.(…)` or `is.null`, maybe negated, with values of
        /// the column's type (`eq.published`, `in.(pending,reviewing)`, `not.is.null`).
        static func filter(_ model: any Decodable.Type, _ column: String) -> String {
            guard let value = values(model)[column] else { preconditionFailure("no filterable column \(column)") }
            return "^(not\\.)?\(condition(value))$"
        }

        /// `or=(…)`: conditions on any filterable column, joined by OR (`(payer_id.eq.…,payee_id.eq.…)`).
        static func or(_ model: any Decodable.Type) -> String {
            let conditions = values(model).sorted { $0.key < $1.key }.map { column, value in
                "\(column)\\.(not\\.)?\(condition(value))"
            }
            let term = "(\(conditions.joined(separator: "|")))"
            return "^\\(\(term)(,\(term))*\\)$"
        }

        private static func condition(_ value: String) -> String {
            "((eq|neq|gt|gte|lt|lte)\\.\(value)|in\\.\\(\(value)(,\(value))*\\)|is\\.null)"
        }

        /// The columns of a row model: its properties but the embedded rows it decodes (``DatabaseTable/embeds``).
        private static func columns(_ model: any Decodable.Type) -> [UnderstudyCore.Property] {
            var inference = SchemaInference()
            guard case .object(let object)? = try? open(model, &inference) else {
                preconditionFailure("\(model) is not a row model")
            }
            let embeds = table(of: model).embeds
            return object.properties.filter { !embeds.contains($0.name) }
        }

        private static func open<T: Decodable>(_ model: T.Type, _ inference: inout SchemaInference) throws -> Schema {
            try inference.resolvedSchema(for: model)
        }

        private static func names(_ model: any Decodable.Type) -> String {
            columns(model).map(\.name).joined(separator: "|")
        }

        /// Columns of one value (not arrays or JSON), which `order` takes.
        private static func scalarNames(_ model: any Decodable.Type) -> String {
            columns(model).filter { column in
                switch column.schema.nonNull {
                case .string, .integer, .number, .boolean: true
                default: false
                }
            }.map(\.name).joined(separator: "|")
        }

        /// The pattern of a value each filterable column takes: uuids, the listed values of a text column, booleans,
        /// numbers, instants and days. Free text columns are left out (their values would need PostgREST's quoting).
        private static func values(_ model: any Decodable.Type) -> [String: String] {
            var values: [String: String] = [:]
            for column in columns(model) {
                switch column.schema.nonNull {
                case .string(let constraints):
                    if let listed = constraints.values {
                        values[column.name] = "(\(listed.joined(separator: "|")))"
                    } else if constraints.format == .uuid {
                        values[column.name] = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
                    } else if constraints.format == .dateTime {
                        values[column.name] = "\(day)T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]Z"
                    } else if constraints.format == .date {
                        values[column.name] = day
                    }
                case .integer: values[column.name] = "[0-9]{1,6}"
                case .number: values[column.name] = "[0-9]{1,6}(\\.[0-9]{1,2})?"
                case .boolean: values[column.name] = "(true|false)"
                default: break
                }
            }
            return values
        }

        /// A day of any month (the 29th to 31st left out, so every match is a date).
        private static let day = "20[0-9]{2}-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])"

        /// The table a row model is stored in.
        private static func table(of model: any Decodable.Type) -> Table {
            let name = SchemaInference.name(of: model)
            guard let table = tables.first(where: { $0.model == name }) else {
                preconditionFailure("no table of \(name)")
            }
            return table
        }
    }
}
