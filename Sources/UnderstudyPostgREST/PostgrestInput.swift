import Foundation
import UnderstudyCore

/// A written row's values as PostgreSQL stores them, and the constraints it then checks.
///
/// PostgREST inserts `SELECT cols FROM json_populate_recordset(null::t, $body)` (PostgREST/postgrest#1118), so each
/// JSON value goes through its column type's input function: a JSON string or number is the text the type reads
/// (`"12"` is an integer, `1.5` is not), and the value is stored, then rendered, as the type writes it (uuids
/// lower-cased, `numeric(p,s)` rounded, timestamps as `2025-12-04T10:15:30.5+00:00`). Codes and messages are
/// PostgreSQL 15's, checked by `PostgresDifferentialTests`.
package enum PostgrestInput {
    /// A body value as its column stores it.
    /// - Throws: 22P02 for text the type cannot read (uuid, integer, boolean, numeric, array, enum), 22007 / 22008
    ///   for a date or timestamp that is malformed / out of range, 22003 for an integer out of range or a numeric
    ///   overflow.
    package static func stored(_ value: JSONValue, column: PostgrestColumn, in info: PostgrestTableInfo)
        throws(PostgrestError)
        -> JSONValue
    {
        if value == .null { return .null }
        if let numeric = info.facts.numericColumns[column.name] {
            let literal = text(value)
            guard Double(literal.trimmingSpaces) != nil else { throw PostgrestErrors.invalidInput(.numeric, literal) }
            guard let stored = PostgrestNumeric.stored(literal.trimmingSpaces, numeric) else {
                throw PostgrestNumeric.overflow(numeric)
            }
            return .number(JSONNumber(uncheckedLiteral: stored))
        }
        switch column.type {
        case .jsonb:
            return value
        case .text:
            let string = text(value)
            if let type = info.facts.enumTypes[column.name], let values = column.values, !values.contains(string) {
                throw PostgrestErrors.make(
                    .badRequest, code: "22P02", "invalid input value for enum \(type): \"\(string)\"")
            }
            return .string(string)
        case .uuid:
            let string = text(value)
            guard let uuid = PostgrestLiteral.canonicalUUID(string) else {
                throw PostgrestErrors.invalidInput(.uuid, string)
            }
            return .string(uuid)
        case .integer:
            return .integer(try integer(text(value)))
        case .numeric, .double:
            let literal = text(value)
            guard let double = Double(literal.trimmingSpaces), double.isFinite else {
                throw PostgrestErrors.invalidInput(column.type, literal)
            }
            // numeric keeps the digits; float8 keeps the value, written in its shortest form (`0.40` is `0.4`).
            if column.type == .double {
                return .number(JSONNumber(uncheckedLiteral: PostgrestValue.number(double).text))
            }
            if case .number = value { return value }
            return .number(JSONNumber(uncheckedLiteral: literal.trimmingSpaces))
        case .boolean:
            let string = text(value)
            guard let bool = PostgrestLiteral.boolean(string) else {
                throw PostgrestErrors.invalidInput(.boolean, string)
            }
            return .bool(bool)
        case .date:
            let string = text(value)
            _ = try instant(string, type: .date)
            return .string(String(string.trimmingSpaces.prefix(10)))
        case .timestamp:
            return .string(PostgrestTime.timestamp(try instant(text(value), type: .timestamp)))
        case .textArray:
            if case .array(let elements) = value {
                return .array(elements.map { $0 == .null ? .null : .string(text($0)) })
            }
            let string = text(value)
            guard let elements = PostgrestLiteral.arrayLiteral(string) else {
                throw PostgrestErrors.make(
                    .badRequest, code: "22P02", "malformed array literal: \"\(string)\"",
                    details: "Array value must start with \"{\" or dimension information.")
            }
            return .array(elements.map(JSONValue.string))
        }
    }

    /// A row's constraints once its values are stored, in PostgreSQL's order (`ExecConstraints`): NOT NULL by
    /// column (23502), then the CHECKs by constraint name (23514): a number's bounds, and the values a text column
    /// lists.
    package static func check(_ row: PostgrestRow, info: PostgrestTableInfo) throws(PostgrestError) {
        if let missing = info.columns.first(where: { !$0.nullable && (row[$0.name] ?? .null) == .null }) {
            throw PostgrestErrors.make(
                .badRequest, code: "23502",
                "null value in column \"\(missing.name)\" of relation \"\(info.name)\" violates not-null constraint")
        }
        var failed: [String] = []
        for column in info.columns where !column.allows(row[column.name]?.numberLiteral.flatMap(Double.init)) {
            failed.append(column.name)
        }
        for column in info.columns where info.facts.enumTypes[column.name] == nil {
            guard let values = column.values, let value = row[column.name]?.stringValue else { continue }
            if !values.contains(value) { failed.append(column.name) }
        }
        if let column = failed.min() {
            throw PostgrestErrors.make(
                .badRequest, code: "23514",
                "new row for relation \"\(info.name)\" violates check constraint \"\(info.name)_\(column)_check\"")
        }
    }

    /// The instant a date or timestamp text names, in microseconds since 1970.
    /// - Throws: 22007 for a malformed one, 22008 for one out of range, as PostgreSQL's date/time input.
    package static func instant(_ text: String, type: PostgrestType) throws(PostgrestError) -> Int64 {
        switch PostgrestTime.read(text.trimmingSpaces) {
        case .valid(let microseconds): return microseconds
        case .outOfRange:
            throw PostgrestErrors.make(.badRequest, code: "22008", "date/time field value out of range: \"\(text)\"")
        case .invalid:
            throw PostgrestErrors.make(
                .badRequest, code: "22007", "invalid input syntax for type \(type.sqlName): \"\(text)\"")
        }
    }

    /// An `integer` (int4) as PostgreSQL reads its text: digits with an optional sign, spaces around.
    /// - Throws: 22P02 for anything else (`1.5`, `1e3`, `true`), 22003 beyond 32 bits.
    package static func integer(_ text: String) throws(PostgrestError) -> Int {
        let trimmed = text.trimmingSpaces
        let digits = trimmed.hasPrefix("-") || trimmed.hasPrefix("+") ? trimmed.dropFirst() : Substring(trimmed)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
            throw PostgrestErrors.invalidInput(.integer, text)
        }
        guard let value = Int(trimmed), Int(Int32.min)...Int(Int32.max) ~= value else {
            throw PostgrestErrors.make(
                .badRequest, code: "22003", "value \"\(text)\" is out of range for type integer")
        }
        return value
    }

    /// The text the input function of a column's type reads: a JSON string's content, otherwise the JSON itself.
    private static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let string): string
        case .number(let number): number.literal
        case .bool(let bool): bool ? "true" : "false"
        default: value.serialized()
        }
    }
}
