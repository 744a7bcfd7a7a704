import UnderstudyCore

/// The query string of a PostgREST request, parsed: `select`, filters and logic trees, `order`,
/// `limit` and `offset`, at the top level and for each embed (`properties.status=eq.published`,
/// `applications.order=created_at.desc`).
package struct PostgrestQuery {
    /// The embed path of a parameter: `[]` for the top level, `["properties"]` for `properties.limit`.
    package typealias Path = [String]

    package var select: [PostgrestSelectItem] = [.star]
    package var conditions: [Path: [PostgrestCondition]] = [:]
    package var orders: [Path: [PostgrestOrderTerm]] = [:]
    package var limits: [Path: Int] = [:]
    package var offsets: [Path: Int] = [:]
    /// `columns=a,b`: the body keys an insert takes.
    package var columns: [String]?
    /// `on_conflict=a,b`: the unique key an upsert resolves on.
    package var onConflict: [String]?

    /// Parameters that are neither filters nor shaping.
    private static let ignored: Set<String> = ["apikey"]

    /// Parses every parameter.
    /// - Throws: PGRST100 for a parameter PostgREST cannot parse.
    package init(_ query: QueryItems) throws(PostgrestError) {
        for (name, value) in query.items where !Self.ignored.contains(name) {
            switch name {
            case "select": select = try PostgrestParser.select(value)
            case "columns": columns = Self.list(value)
            case "on_conflict": onConflict = Self.list(value)
            case "or", "and", "not.or", "not.and":
                conditions[[], default: []].append(try PostgrestParser.logic(key: name, value: value))
            default:
                var parts = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
                let last = parts.removeLast()
                switch last {
                case "order": orders[parts] = try PostgrestParser.order(value)
                case "limit": limits[parts] = try Self.count(name, value)
                case "offset": offsets[parts] = try Self.count(name, value)
                case "or", "and":
                    var key = last
                    if parts.last == "not" {
                        parts.removeLast()
                        key = "not." + last
                    }
                    conditions[parts, default: []].append(try PostgrestParser.logic(key: key, value: value))
                default:
                    conditions[parts, default: []].append(try PostgrestParser.filter(key: last, value: value))
                }
            }
        }
    }

    /// `a,b`, or `"a","b"` as supabase-js quotes the `columns` of an array insert.
    private static func list(_ value: String) -> [String] {
        value.split(separator: ",").map { item in
            let name = String(item).trimmingSpaces
            return name.count > 1 && name.hasPrefix("\"") && name.hasSuffix("\"")
                ? String(name.dropFirst().dropLast()) : name
        }.filter { !$0.isEmpty }
    }

    private static func count(_ name: String, _ value: String) throws(PostgrestError) -> Int {
        guard let count = Int(value), count >= 0 else {
            throw PostgrestErrors.make(
                .badRequest, code: "PGRST100", "\"failed to parse \(name) (\(value))\" (line 1, column 1)",
                details: "expecting a non-negative integer")
        }
        return count
    }

    /// Every embed path the parameters name, to check that each is embedded by `select`.
    package var paths: Set<Path> {
        Set(conditions.keys).union(orders.keys).union(limits.keys).union(offsets.keys).subtracting([[]])
    }
}
