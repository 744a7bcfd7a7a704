import UnderstudyCore

/// PostgREST's error answers, `{code, message, details, hint}`, with the codes and texts PostgREST and
/// PostgreSQL use.
enum PostgrestErrors {
    /// An error with a complete PostgREST body.
    static func make(
        _ status: HTTPStatus, code: String, _ message: String, details: String? = nil, hint: String? = nil,
        headers: [(name: String, value: String)] = []
    ) -> MockError {
        MockError(
            status, message,
            body: [
                "code": .string(code), "message": .string(message), "details": details.map(JSONValue.string) ?? .null,
                "hint": hint.map(JSONValue.string) ?? .null,
            ],
            headers: headers)
    }

    /// 42703: a column the table does not have.
    static func unknownColumn(_ table: String, _ column: String) -> MockError {
        make(.badRequest, code: "42703", "column \(table).\(column) does not exist")
    }

    /// PGRST200: an embed that no foreign key supports.
    static func noRelationship(_ table: String, _ target: String) -> MockError {
        make(
            .badRequest, code: "PGRST200",
            "Could not find a relationship between '\(table)' and '\(target)' in the schema cache",
            details:
                "Searched for a foreign key relationship between '\(table)' and '\(target)' in the schema 'public', "
                + "but no matches were found.",
            hint: nil)
    }

    /// 22P02: a filter value that is not valid for the column's type.
    static func invalidInput(_ type: PostgrestType, _ text: String) -> MockError {
        make(.badRequest, code: "22P02", "invalid input syntax for type \(type.sqlName): \"\(text)\"")
    }

    /// 42883: an operator the column's type does not have (PostgREST maps it to 404; the spec documents 400).
    static func noOperator(_ type: PostgrestType, _ symbol: String) -> MockError {
        make(
            .badRequest, code: "42883", "operator does not exist: \(type.sqlName) \(symbol) unknown",
            hint: "No operator matches the given name and argument types. You might need to add explicit type casts.")
    }

    /// PGRST103: a range outside the rows; with the total known, `Content-Range: */<total>` as PostgREST sends.
    static func range(_ details: String, total: Int? = nil) -> MockError {
        make(
            .rangeNotSatisfiable, code: "PGRST103", "Requested range not satisfiable", details: details,
            headers: total.map { [("Content-Range", "*/\($0)")] } ?? [])
    }

    /// 42501: row-level security refused the rows (403 for a user, 401 for the anonymous role).
    static func rowSecurity(_ table: String, anonymous: Bool) -> MockError {
        make(
            anonymous ? .unauthorized : .forbidden, code: "42501",
            "new row violates row-level security policy for table \"\(table)\"")
    }

    /// 23505: a duplicate of a unique key.
    /// PGRST204: a write names a column the table does not have.
    static func unknownColumn(_ column: String, of table: String) -> MockError {
        make(.badRequest, code: "PGRST204", "Could not find the '\(column)' column of '\(table)' in the schema cache")
    }

    /// 42P01: a table the schema does not have.
    static func unknownTable(_ table: String) -> MockError {
        make(.notFound, code: "42P01", "relation \"public.\(table)\" does not exist")
    }

    static func duplicate(_ table: String, columns: [String], values: [String]) -> MockError {
        make(
            .conflict, code: "23505",
            "duplicate key value violates unique constraint \"\(table)_\(columns.joined(separator: "_"))_key\"",
            details: "Key (\(columns.joined(separator: ", ")))=(\(values.joined(separator: ", "))) already exists.")
    }

    /// 23503: a reference to a row that does not exist.
    static func missingReference(_ table: String, column: String, value: String, referenced: String) -> MockError {
        make(
            .conflict, code: "23503",
            "insert or update on table \"\(table)\" violates foreign key constraint \"\(table)_\(column)_fkey\"",
            details: "Key (\(column))=(\(value)) is not present in table \"\(referenced)\".")
    }
}
