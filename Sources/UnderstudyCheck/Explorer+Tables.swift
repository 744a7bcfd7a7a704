import Foundation
import UnderstudyCore

extension RuleID {
    /// A second row with the same values of a declared unique key was accepted.
    public static let uniqueNotEnforced: RuleID = "resource.unique-not-enforced"
}

/// `check --allow-writes` on a PostgREST API, whose tables the spec declares (``APISpec/database``). PostgREST names
/// rows by filters, not paths, so each table with an insert is explored through its collection: a row of the
/// check's own, made with a generated body whose user columns are the caller's (the token's `sub`) and whose foreign
/// keys name existing rows (other users' first, never one the caller already holds in a unique key), is inserted
/// with `Prefer: return=representation`, inserted again where a declared unique key makes the second one a 409,
/// read back with `id=eq.…` (what was written is what is read), and deleted
/// with that filter alone where the API deletes, then read again to see it gone. A delete never carries another
/// filter: on PostgREST it removes every row it matches.
extension Explorer {
    func exploreTables() async {
        for table in spec.database { await explore(table) }
    }

    /// The table's endpoint for `method` (`POST /rest/v1/favorites`).
    private func endpoint(_ method: HTTPMethod, of table: DatabaseTable) -> AnyEndpoint? {
        spec.endpoints.first { $0.method == method && $0.path.segments.last == .literal(table.name) }
    }

    private func explore(_ table: DatabaseTable) async {
        guard let insert = endpoint(.post, of: table), explores(insert) else { return }
        let caller = session.token.flatMap(JWTClaims.subject)
        if !table.userColumns.isEmpty, caller == nil {
            return session.skip(insert, because: "the token carries no user id (sub claim) for \(table.userColumns[0])")
        }
        guard case .object(var body)? = session.requestBody(for: insert) else { return }
        for column in table.userColumns where body[column] != nil || isColumn(column, of: insert) {
            body[column] = caller.map(JSONValue.string) ?? .null
        }
        for (column, referenced) in table.references.sorted(by: { $0.key < $1.key }) {
            let taken = await heldInUniqueKeys(column, of: table, by: caller)
            guard let row = await existingRow(of: referenced, excluding: taken, caller: caller) else {
                return session.skip(insert, because: "no \(referenced) row left for \(column)")
            }
            body[column] = row
        }
        let request = session.request(
            insert, query: session.queryValues(for: insert), headers: ["Prefer": "return=representation"],
            body: .object(body))
        let (exchange, answer) = await send(insert, request, path: PathValues(values: [:]))
        guard let status = exchange.response?.status, (200..<300).contains(status),
            let id = (answer?.arrayValue?.first ?? answer)?["id"].flatMap(CheckSession.scalar)
        else { return }
        let duplicate = await insertAgain(request, into: table, through: insert, written: body)
        let list = endpoint(.get, of: table)
        if let list, session.canCall(list) {
            let reading = filtered(list, id: id)
            let read = await session.perform(list, reading, expecting: list.expectedStatuses()).body
            // Each column the insert wrote must come back equal, as for other resources.
            if case .object(let columns)? = read?.arrayValue?.first {
                reportNotKept(
                    body.keys.sorted().filter { columns[$0] != nil }, written: body, read: columns,
                    at: JSONPointer(tokens: ["0"]), writer: insert.id, reader: list.id, request: reading)
            }
        }
        guard let delete = endpoint(.delete, of: table), explores(delete) else {
            return session.note(insert.id, "the \(table.name) row \(id) stays: the API has no delete for it")
        }
        if let duplicate {
            await session.perform(delete, filtered(delete, id: duplicate), expecting: delete.expectedStatuses())
        }
        let (removal, _) = await session.perform(delete, filtered(delete, id: id), expecting: delete.expectedStatuses())
        guard let removed = removal.response?.status, (200..<300).contains(removed), let list, session.canCall(list)
        else { return }
        await session.probe(list, filtered(list, id: id)) { response in
            let rows = (try? JSONValue(parsing: response.body))?.arrayValue ?? []
            guard (200..<300).contains(response.status), !rows.isEmpty else { return [] }
            return [
                Diagnostic(
                    .error, rule: .resourceNotDeleted,
                    message: "\(delete.id) with id=eq.\(id) answered \(removed), and the row is still read",
                    expected: "[]", found: "\(rows.count) row(s)")
            ]
        }
    }

    /// Sends the insert again where the table declares a unique key the row fills (`user_id, property_id` of a
    /// favorite): PostgreSQL refuses the second row, which PostgREST answers 409 (`23505`). A second row accepted is
    /// an error; its `id` is returned so that it is deleted with the first.
    private func insertAgain(
        _ request: OutgoingRequest, into table: DatabaseTable, through insert: AnyEndpoint, written: [String: JSONValue]
    ) async -> String? {
        guard let key = table.uniqueKeys.first(where: { $0.allSatisfy { written[$0] != nil } }) else { return nil }
        var second: String?
        let what = "a second \(table.name) row with the same \(key.joined(separator: ", "))"
        await session.probe(insert, request) { response in
            func finding(_ rule: RuleID, _ message: String) -> [Diagnostic] {
                [Diagnostic(.error, rule: rule, message: message, expected: "409", found: String(response.status))]
            }
            guard (200..<300).contains(response.status) else {
                guard response.status != 409 else { return [] }
                return finding(
                    .statusUnexpected,
                    "\(what) was refused with \(response.status); PostgreSQL's unique violation is 409")
            }
            let rows = (try? JSONValue(parsing: response.body))
            second = (rows?.arrayValue?.first ?? rows)?["id"].flatMap(CheckSession.scalar)
            return finding(
                .uniqueNotEnforced, "\(what) was accepted (\(response.status)); the table declares them unique")
        }
        return second
    }

    /// The request naming one row by its primary key, and nothing else.
    private func filtered(_ endpoint: AnyEndpoint, id: String) -> OutgoingRequest {
        session.request(endpoint, query: [("id", "eq.\(id)")])
    }

    /// Whether the insert's model has the column.
    private func isColumn(_ column: String, of endpoint: AnyEndpoint) -> Bool {
        guard case .object(let object)? = endpoint.request?.schema.resolved(in: spec.definitions) else { return false }
        return object[column] != nil
    }

    /// The values of `column` the caller already holds in a unique key of the table whose other columns are theirs
    /// (a second favorite of the same property is 409).
    private func heldInUniqueKeys(_ column: String, of table: DatabaseTable, by caller: String?) async -> Set<JSONValue>
    {
        guard let caller, let list = endpoint(.get, of: table), session.canCall(list) else { return [] }
        var held: Set<JSONValue> = []
        for key in table.uniqueKeys where key.contains(column) {
            let owners = key.filter { table.userColumns.contains($0) }
            guard !owners.isEmpty else { continue }
            let request = session.request(list, query: owners.map { ($0, "eq.\(caller)") })
            let rows = await session.perform(list, request, expecting: list.expectedStatuses()).body?.arrayValue ?? []
            held.formUnion(rows.compactMap { $0[column] })
        }
        return held
    }

    /// The `id` of a row of `table` not in `excluding`: one another user holds first (a row the caller owns may be
    /// one they cannot act on, as applying to their own property).
    private func existingRow(of table: String, excluding: Set<JSONValue>, caller: String?) async -> JSONValue? {
        guard let declared = spec.database.first(where: { $0.name == table }), let list = endpoint(.get, of: declared),
            session.canCall(list)
        else { return nil }
        // A hundred rows are enough to choose from, on a table of any size.
        let request = session.request(list, query: [("limit", "100")])
        let rows = await session.perform(list, request, expecting: list.expectedStatuses()).body?.arrayValue ?? []
        let candidates = rows.filter { row in row["id"].map { !excluding.contains($0) } ?? false }
        let others = candidates.filter { row in
            declared.userColumns.allSatisfy { row[$0]?.stringValue?.lowercased() != caller?.lowercased() }
        }
        return (others.first ?? candidates.first)?["id"]
    }
}
