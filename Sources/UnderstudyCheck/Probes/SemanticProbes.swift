import Foundation
import UnderstudyCore

extension RuleID {
    public static let semanticsQueryFailed: RuleID = "semantics.query-failed"
    public static let semanticsOrder: RuleID = "semantics.order-ignored"
    public static let semanticsFilter: RuleID = "semantics.filter-ignored"
    public static let semanticsLimit: RuleID = "semantics.limit-ignored"
    public static let semanticsEmbedAlias: RuleID = "semantics.embed-alias-missing"
    public static let semanticsCount: RuleID = "semantics.count-mismatch"
    public static let semanticsWindow: RuleID = "semantics.window-ignored"
}

/// A list must do what was asked, judged on conditions built from the items the server itself returned,
/// so every verdict holds for any data.
///
/// For PostgREST tables (pagination `.range`): rows come back in the requested `order`, every row satisfies
/// `eq`, `not.eq`, `in.(…)` and `or=(…)`, `limit` is honoured, a documented embed alias
/// (`property:properties(id,title)`) names the embedded object, and `Prefer: count=exact` agrees with
/// `Content-Range`. For other lists, each query parameter whose meaning the spec declares
/// (``QueryMeaning``: fitness `visibility`, VideGreniers `eventType`, `sortBy`, `daysAhead`, 42's
/// `filter[active]`, `filter[future]`, `range[begin_at]`) does what it says.
struct SemanticProbes {
    let session: CheckSession

    func run() async {
        let lists = session.spec.endpoints.filter {
            $0.method == .get && session.canCall($0) && session.reachedPathValues(for: $0) != nil
                && ($0.pagination == .range || $0.parameters.contains { $0.location == .query && $0.meaning != nil })
        }
        await session.forEach(lists) { endpoint in await ListSemantics(session: session, endpoint: endpoint).run() }
    }
}

/// The semantic probes of one list endpoint.
struct ListSemantics {
    let session: CheckSession
    let endpoint: AnyEndpoint

    /// An item (a row) as the checks see it.
    typealias Row = [String: JSONValue]

    func run() async {
        if endpoint.pagination == .range {
            await postgrest()
        } else {
            await declaredMeanings()
        }
    }

    // MARK: Other lists

    /// Each declared meaning, asked with a value chosen from the items of the plain read so that the answer
    /// cannot be empty by chance.
    private func declaredMeanings() async {
        guard let items = await fetch([], check: { _, _ in [] }) else { return }
        let now = session.options.now()
        // Query parameters only: a path parameter's value is the one the run reached, not one to vary.
        for parameter in endpoint.parameters where parameter.location == .query {
            let name = parameter.name
            switch parameter.meaning {
            case .equals(let place)?:
                guard let value = items.lazy.compactMap({ Self.value(at: place, in: $0) }).first(where: \.isScalar)
                else { continue }
                let text = CheckSession.text(value)
                await keeps([(name, text)], "only items whose \(place.member) is \(Self.render(value))", place) {
                    $0 == nil || $0 == value
                }
            case .contains(let place)?:
                // A part of an item's text, in capitals: the match ignores case.
                guard let text = items.lazy.compactMap({ Self.value(at: place, in: $0)?.stringValue }).first(where: {
                    $0.count >= 2
                }) else { continue }
                let part = String(text.dropFirst(text.count / 3).prefix(3)).uppercased()
                await keeps(
                    [(name, part)], "only items whose \(place.member) contains \(part), ignoring case", place,
                    shown: .string(text)
                ) { $0?.stringValue?.lowercased().contains(part.lowercased()) == true }
            case .isNull(let place)?:
                await keeps([(name, "true")], "only items whose \(place.member) is null", place) { $0 == nil || $0 == .null }
                await keeps([(name, "false")], "only items with a \(place.member)", place) { $0 != nil && $0 != .null }
            case .whenTrue(let place, let value)?:
                await keeps([(name, "true")], "only items whose \(place.member) is \(Self.render(value))", place) {
                    ($0 ?? .null) == value
                }
            case .isFuture(let place)?:
                await keeps([(name, "true")], "only items whose \(place.member) is after now", place) {
                    Self.instant($0).map { $0 > now } ?? true
                }
                await keeps([(name, "false")], "only items whose \(place.member) is not after now", place) {
                    Self.instant($0).map { $0 <= now } ?? true
                }
            case .between(let place)?:
                // A day either side of an item's own instant.
                guard let instant = items.lazy.compactMap({ Self.instant(Self.value(at: place, in: $0)) }).first else {
                    continue
                }
                let (lower, upper) = (instant.addingTimeInterval(-86_400), instant.addingTimeInterval(86_400))
                let value = "\(Self.iso(lower)),\(Self.iso(upper))"
                await keeps([(name, value)], "only items whose \(place.member) lies within \(value)", place) {
                    Self.instant($0).map { (lower...upper).contains($0) } ?? true
                }
            case .withinDays(let place)?:
                // A few minutes' slack for the two clocks.
                let window = now.addingTimeInterval(-300)...now.addingTimeInterval(86_400 + 300)
                await keeps([(name, "1")], "only items whose \(place.member) lies within the next day", place,
                    rule: .semanticsWindow) { Self.instant($0).map { window.contains($0) } ?? true }
            case .notBefore(let place)?, .notAfter(let place)?:
                // The instant of an item between the first and the last: the answer keeps some and leaves others.
                let instants = items.compactMap { Self.instant(Self.value(at: place, in: $0)) }.sorted()
                guard instants.count >= 2 else { continue }
                let bound = instants[instants.count / 2]
                let before = if case .notAfter? = parameter.meaning { true } else { false }
                await keeps(
                    [(name, Self.iso(bound))],
                    "only items whose \(place.member) is \(before ? "not after" : "not before") \(Self.iso(bound))", place
                ) { Self.instant($0).map { before ? $0 <= bound : $0 >= bound } ?? true }
            case .sortKey(let keys, let descending)?:
                for key in keys.keys.sorted() {
                    let place = keys[key]!
                    let values = items.compactMap { Self.value(at: place, in: $0) }.filter { $0 != .null }
                    guard Set(values).count >= 2, zip(values, values.dropFirst()).allSatisfy({ Self.compare($0, $1) != nil })
                    else { continue }
                    for direction in ["false", "true"] {
                        await fetch([(name, key), (descending, direction)]) { items, _ in
                            orderFinding(
                                items.compactMap { Self.value(at: place, in: $0) },
                                asked: "\(name)=\(key)&\(descending)=\(direction)", column: place.member,
                                descending: direction == "true")
                        }
                    }
                }
            case nil:
                continue
            }
        }
    }

    /// Sends `query` and checks every item's value at `place` satisfies `holds` (`nil` when absent), and, given the
    /// value `shown` of an item the plain read showed and `holds` keeps, that the answer is not empty.
    private func keeps(
        _ query: [(String, String)], _ expected: String, _ place: JSONPointer, rule: RuleID = .semanticsFilter,
        shown: JSONValue? = nil, holds: @escaping (JSONValue?) -> Bool
    ) async {
        let asked = query.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        await fetch(query) { items, _ in
            if let shown, items.isEmpty {
                return [
                    finding(
                        rule, "\(asked) returned no item, where the list holds one with \(place.member) \(Self.render(shown))",
                        expected: expected, found: "no item")
                ]
            }
            guard let index = items.firstIndex(where: { !holds(Self.value(at: place, in: $0)) }) else { return [] }
            return [
                finding(
                    rule, "\(asked) returned item \(index), which does not match it", expected: expected,
                    found: "\(place.member) \(Self.render(Self.value(at: place, in: items[index]) ?? .null))")
            ]
        }
    }

    private static func value(at place: JSONPointer, in item: Row) -> JSONValue? {
        DecodeVerdict.value(at: place, in: .object(item))
    }

    private static func instant(_ value: JSONValue?) -> Date? {
        value?.stringValue.flatMap(instant)
    }

    private static func iso(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions.insert(.withFractionalSeconds)
        return formatter.string(from: date)
    }

    // MARK: PostgREST

    private func postgrest() async {
        // The rows every other probe is built from, counted.
        guard let rows = await fetch([], headers: ["Prefer": "count=exact"], check: countAgrees), rows.count >= 2 else {
            return
        }
        if let column = Self.orderColumn(rows) {
            for direction in ["desc", "asc"] {
                await fetch([("order", "\(column).\(direction)")]) { rows, _ in
                    orderFinding(
                        rows.compactMap { $0[column] }, asked: "order=\(column).\(direction)", column: column,
                        descending: direction == "desc")
                }
            }
        }
        let columns = Self.filterColumns(rows)
        if let best = columns.first {
            let (column, first, second) = (best.0, best.1[0], best.1[1])
            await filter([(column, "eq.\(first)")], on: [column]) { $0[column]?.stringValue == first }
            await filter([(column, "not.eq.\(first)")], on: [column]) { $0[column]?.stringValue != first }
            await filter([(column, "in.(\(first),\(second))")], on: [column]) { row in
                row[column]?.stringValue.map { [first, second].contains($0) } ?? false
            }
            // Across two columns where there are two: the shape of the app's or=(payer_id.eq.X,payee_id.eq.X).
            let (otherColumn, otherValue) = columns.dropFirst().first.map { ($0.0, $0.1[0]) } ?? (column, second)
            await filter(
                [("or", "(\(column).eq.\(first),\(otherColumn).eq.\(otherValue))")], on: [column, otherColumn]
            ) {
                $0[column]?.stringValue == first || $0[otherColumn]?.stringValue == otherValue
            }
        }
        await fetch([("limit", "1")]) { rows, _ in
            rows.count <= 1
                ? []
                : [
                    finding(
                        .semanticsLimit, "limit=1 returned \(rows.count) rows", expected: "at most 1 row",
                        found: "\(rows.count) rows")
                ]
        }
        for (select, alias, table) in Self.aliasedEmbeds(in: endpoint.examples.queries) {
            await fetch([("select", select)]) { rows, _ in
                guard let row = rows.first(where: { $0[alias] == nil || (alias != table && $0[table] != nil) }) else {
                    return []
                }
                return [
                    finding(
                        .semanticsEmbedAlias, "select=\(select) returned the embed without its alias \(alias)",
                        expected: "a member \(alias)",
                        found: row[alias] == nil ? "no member \(alias)" : "a member \(table) next to \(alias)")
                ]
            }
        }
    }

    // MARK: Requests

    /// Sends the list's read with `query` added and judges its items with `check`.
    /// - Returns: the first hundred items (for PostgREST, rows), when the answer has a list of objects.
    @discardableResult
    private func fetch(
        _ query: [(String, String)], headers: HeaderFields = [:], check: ([Row], RecordedResponse) -> [Diagnostic]
    ) async -> [Row]? {
        let base = session.queryValues(for: endpoint).filter { name, _ in !query.contains { $0.0 == name } }
        let request = session.request(
            endpoint, path: session.reachedPathValues(for: endpoint) ?? [:], query: base + query, headers: headers)
        let asked = query.isEmpty ? "the plain read" : query.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        // A value no document lists (`sortBy=FavoriteCount`) makes every verdict on its answer an assumption's.
        let assumption = query.lazy.compactMap { session.spec.assumption(parameter: $0.0, value: $0.1) }.first
        var rows: [Row]?
        await session.probe(endpoint, request) { response in
            guard (200..<300).contains(response.status) else {
                return [
                    finding(
                        .semanticsQueryFailed, "\(asked) was answered with \(response.status)",
                        expected: "2xx with the rows",
                        found: String(response.status)
                    ).assuming(assumption)
                ]
            }
            guard let body = try? JSONParser().parse(response.body),
                let parsed = PaginationWalk.items(in: body)?.compactMap(\.objectValue)
            else { return [] }
            // Later probes choose their values from these; the first hundred are plenty, and keeping no
            // more lets a huge answer's tree go before the next request.
            rows = Array(parsed.prefix(100))
            return check(parsed, response).map { $0.assuming(assumption) }
        }
        return rows
    }

    /// Sends a filter and checks every row satisfies `holds`; a row that does not is shown by `columns`.
    private func filter(_ query: [(String, String)], on columns: [String], holds: (Row) -> Bool) async {
        let asked = query.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
        await fetch(query) { rows, _ in
            guard let index = rows.firstIndex(where: { !holds($0) }) else { return [] }
            let shown = columns.map { "\($0) \(Self.render(rows[index][$0] ?? .null))" }.joined(separator: ", ")
            return [
                finding(
                    .semanticsFilter, "\(asked) returned row \(index), which does not match it",
                    expected: "only rows where \(asked)", found: shown)
            ]
        }
    }

    private func finding(_ rule: RuleID, _ message: String, expected: String, found: String) -> Diagnostic {
        Diagnostic(.error, rule: rule, message: message, expected: expected, found: found)
    }

    // MARK: Verdicts

    /// `Content-Range` counts the rows in the body, and its total (`count=exact`) is at least that.
    private func countAgrees(_ rows: [Row], _ response: RecordedResponse) -> [Diagnostic] {
        guard let header = response.headers["Content-Range"], let range = ContentRange(header) else { return [] }
        let counted = range.range.map { $0.count } ?? 0
        guard counted != rows.count || (range.total.map { $0 < rows.count } ?? false) else { return [] }
        return [
            finding(
                .semanticsCount,
                "Content-Range \(header) (Prefer: count=exact) does not match the \(rows.count) rows in the body",
                expected: rows.isEmpty ? "*/0" : "0-\(rows.count - 1)/\(max(rows.count, range.total ?? 0))",
                found: header)
        ]
    }

    /// The first pair of `values` (one per item, in the answer's order) out of the asked order.
    private func orderFinding(_ values: [JSONValue], asked: String, column: String, descending: Bool) -> [Diagnostic] {
        let values = values.filter { $0 != .null }
        for index in values.indices.dropFirst() {
            guard let order = Self.compare(values[index - 1], values[index]) else { continue }
            if descending ? order == .orderedAscending : order == .orderedDescending {
                return [
                    finding(
                        .semanticsOrder,
                        "\(asked) returned \(Self.render(values[index])) after \(Self.render(values[index - 1]))",
                        expected: "items by \(column), \(descending ? "descending" : "ascending")",
                        found: "\(column) \(Self.render(values[index - 1])), then \(Self.render(values[index]))")
                ]
            }
        }
        return []
    }

    // MARK: Choosing columns

    /// `created_at` when the rows have it, else the first column of numbers or timestamps whose values differ.
    static func orderColumn(_ rows: [Row]) -> String? {
        let columns = rows[0].keys.sorted()
        let ordered = ["created_at"] + columns.filter { $0 != "created_at" }
        return ordered.first { column in
            let values = rows.compactMap { $0[column] }.filter { $0 != .null }
            return Set(values).count >= 2 && zip(values, values.dropFirst()).allSatisfy { compare($0, $1) != nil }
        }
    }

    /// Text columns with at least two values that need no quoting in a filter, each with its distinct values
    /// in row order; the most varied first.
    static func filterColumns(_ rows: [Row]) -> [(String, [String])] {
        let candidates = rows[0].keys.sorted().compactMap { column -> (String, [String])? in
            var values: [String] = []
            for row in rows {
                guard let text = row[column]?.stringValue, text.count <= 64, text.allSatisfy(isPlain) else { continue }
                if !values.contains(text) { values.append(text) }
            }
            return values.count >= 2 ? (column, values) : nil
        }
        return candidates.sorted { $0.1.count > $1.1.count }
    }

    /// Letters, digits, `-` and `_`: values PostgREST reads without quotes in `in.(…)` and `or=(…)`.
    private static func isPlain(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "-" || character == "_")
    }

    /// The documented `select=` values with an aliased embed (`*,property:properties(id,title)`), with the
    /// alias and the table.
    static func aliasedEmbeds(in queries: [String]) -> [(select: String, alias: String, table: String)] {
        queries.flatMap { FormURLEncoding.pairs($0) }.filter { $0.name == "select" }.compactMap { pair in
            let pattern = /(?:^|,)([A-Za-z_][A-Za-z0-9_]*):([A-Za-z_][A-Za-z0-9_]*)(?:![A-Za-z0-9_]+)?\(/
            guard let match = pair.value.firstMatch(of: pattern) else { return nil }
            return (pair.value, String(match.1), String(match.2))
        }
    }

    /// Two values in the order PostgREST sorts them: numbers by value, timestamps by instant; `nil` for
    /// anything else (text sorts by the database's collation, which the checker cannot know).
    static func compare(_ lhs: JSONValue, _ rhs: JSONValue) -> ComparisonResult? {
        switch (lhs, rhs) {
        case (.number(let left), .number(let right)):
            guard let left = Double(left.literal), let right = Double(right.literal) else { return nil }
            return left < right ? .orderedAscending : left > right ? .orderedDescending : .orderedSame
        case (.string(let left), .string(let right)):
            guard let left = instant(left), let right = instant(right) else { return nil }
            return left < right ? .orderedAscending : left > right ? .orderedDescending : .orderedSame
        default:
            return nil
        }
    }

    private static func instant(_ text: String) -> Date? {
        guard text.count >= 20, text.dropFirst(10).first == "T" else { return nil }
        let formatter = ISO8601DateFormatter()
        if text.contains(".") { formatter.formatOptions.insert(.withFractionalSeconds) }
        return formatter.date(from: text)
    }

    private static func render(_ value: JSONValue) -> String {
        value.serialized()
    }
}

extension JSONValue {
    /// A string, number or boolean: a value a query can ask for.
    fileprivate var isScalar: Bool {
        switch self {
        case .string, .number, .bool: true
        default: false
        }
    }
}

extension JSONPointer {
    /// The member a place names, as a reader says it: `event.startDate`.
    fileprivate var member: String { tokens.joined(separator: ".") }
}
