import UnderstudyCore

/// A PostgREST error answer: its status, PostgREST's `{code, message, details, hint}` body, and headers
/// (`Content-Range` on a 416). The mock answers it as it is, without the API's own envelope.
public struct PostgrestError: Error, Sendable {
    public var status: HTTPStatus
    /// The `message` member.
    public var message: String
    public var body: JSONValue
    public var headers: [(name: String, value: String)]

    package init(_ status: HTTPStatus, _ message: String, body: JSONValue, headers: [(name: String, value: String)]) {
        self.status = status
        self.message = message
        self.body = body
        self.headers = headers
    }
}

/// PostgREST's error answers, `{code, message, details, hint}`, with the codes and texts PostgREST and
/// PostgreSQL use.
package enum PostgrestErrors {
    /// An error with a complete PostgREST body.
    package static func make(
        _ status: HTTPStatus, code: String, _ message: String, details: String? = nil, hint: String? = nil,
        headers: [(name: String, value: String)] = []
    ) -> PostgrestError {
        PostgrestError(
            status, message,
            body: [
                "code": .string(code), "message": .string(message), "details": details.map(JSONValue.string) ?? .null,
                "hint": hint.map(JSONValue.string) ?? .null,
            ],
            headers: headers)
    }

    /// 42703: a column the table does not have.
    package static func unknownColumn(_ table: String, _ column: String) -> PostgrestError {
        make(.badRequest, code: "42703", "column \(table).\(column) does not exist")
    }

    /// PGRST200: an embed that no foreign key supports.
    package static func noRelationship(_ table: String, _ target: String) -> PostgrestError {
        make(
            .badRequest, code: "PGRST200",
            "Could not find a relationship between '\(table)' and '\(target)' in the schema cache",
            details:
                "Searched for a foreign key relationship between '\(table)' and '\(target)' in the schema 'public', "
                + "but no matches were found.",
            hint: nil)
    }

    /// 22P02: a filter value that is not valid for the column's type.
    package static func invalidInput(_ type: PostgrestType, _ text: String) -> PostgrestError {
        make(.badRequest, code: "22P02", "invalid input syntax for type \(type.sqlName): \"\(text)\"")
    }

    /// 42883: an operator the column's type does not have (PostgREST maps it to 404; the spec documents 400).
    package static func noOperator(_ type: PostgrestType, _ symbol: String) -> PostgrestError {
        make(
            .badRequest, code: "42883", "operator does not exist: \(type.sqlName) \(symbol) unknown",
            hint: "No operator matches the given name and argument types. You might need to add explicit type casts.")
    }

    /// PGRST103: a range outside the rows; with the total known, `Content-Range: */<total>` as PostgREST sends.
    package static func range(_ details: String, total: Int? = nil) -> PostgrestError {
        make(
            .rangeNotSatisfiable, code: "PGRST103", "Requested range not satisfiable", details: details,
            headers: total.map { [("Content-Range", "*/\($0)")] } ?? [])
    }

    /// 42501: row-level security refused the rows (403 for a user, 401 for the anonymous role).
    package static func rowSecurity(_ table: String, anonymous: Bool) -> PostgrestError {
        make(
            anonymous ? .unauthorized : .forbidden, code: "42501",
            "new row violates row-level security policy for table \"\(table)\"")
    }

    /// 23505: a duplicate of a unique key.
    /// PGRST204: a write names a column the table does not have.
    package static func unknownColumn(_ column: String, of table: String) -> PostgrestError {
        make(.badRequest, code: "PGRST204", "Could not find the '\(column)' column of '\(table)' in the schema cache")
    }

    /// 42P01: a table the schema does not have.
    package static func unknownTable(_ table: String) -> PostgrestError {
        make(.notFound, code: "42P01", "relation \"public.\(table)\" does not exist")
    }

    package static func duplicate(_ table: String, columns: [String], values: [String]) -> PostgrestError {
        make(
            .conflict, code: "23505",
            "duplicate key value violates unique constraint \"\(table)_\(columns.joined(separator: "_"))_key\"",
            details: "Key (\(columns.joined(separator: ", ")))=(\(values.joined(separator: ", "))) already exists.")
    }

    /// 23503: a reference to a row that does not exist.
    package static func missingReference(_ table: String, column: String, value: String, referenced: String)
        -> PostgrestError
    {
        make(
            .conflict, code: "23503",
            "insert or update on table \"\(table)\" violates foreign key constraint \"\(table)_\(column)_fkey\"",
            details: "Key (\(column))=(\(value)) is not present in table \"\(referenced)\".")
    }
}
