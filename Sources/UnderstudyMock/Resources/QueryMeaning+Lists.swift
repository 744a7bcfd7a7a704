import Foundation
import UnderstudyCore

/// What a declared ``QueryMeaning`` does to a list, as the server it is declared for does it: the generic resource
/// engine applies every meaning a list's parameters declare (`x-understudy-meaning` in a document), and overlays
/// apply those of their own lists with it rather than each with its own filter.
extension QueryMeaning {
    /// Whether `item` is kept when the parameter carries `asked`; `nil` when this meaning keeps every item for that
    /// value (a sort key, or a value it does not read, as `filter[active]=maybe`).
    func keeps(_ item: JSONValue, asked: String, now: Date) -> Bool? {
        switch self {
        case .equals(let place):
            return item[pointer: place].map { ListCriteria.matches($0, asked) } ?? false
        case .contains(let place):
            guard !asked.isEmpty else { return nil }
            return item[pointer: place]?.stringValue?.lowercased().contains(asked.lowercased()) ?? false
        case .isNull(let place):
            guard let flag = Bool(asked.lowercased()) else { return nil }
            return ((item[pointer: place] ?? .null) == .null) == flag
        case .whenTrue(let place, let value):
            guard let flag = Bool(asked.lowercased()) else { return nil }
            return !flag || (item[pointer: place] ?? .null) == value
        case .isFuture(let place):
            guard let flag = Bool(asked.lowercased()) else { return nil }
            // An item without the instant has not begun.
            return ((Self.instant(item[pointer: place]) ?? .distantPast) > now) == flag
        case .between(let place):
            guard let range = Self.range(asked) else { return nil }
            return Self.instant(item[pointer: place]).map(range.contains) ?? false
        case .withinDays(let place):
            guard let days = Int(asked), days >= 0 else { return nil }
            guard let instant = Self.instant(item[pointer: place]) else { return false }
            return instant >= now && instant <= now.addingTimeInterval(Double(days) * 86_400)
        case .notBefore(let place):
            guard let bound = Date(iso8601: asked) else { return nil }
            return Self.instant(item[pointer: place]).map { $0 >= bound } ?? false
        case .notAfter(let place):
            guard let bound = Date(iso8601: asked) else { return nil }
            return Self.instant(item[pointer: place]).map { $0 <= bound } ?? false
        case .sortKey:
            return nil
        }
    }

    /// `lower,upper`: two ISO 8601 instants or dates; a reversed range keeps nothing, as SQL's `BETWEEN` does.
    /// `nil` when the text is not two instants.
    static func range(_ text: String) -> ClosedRange<Date>? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
        guard parts.count == 2, let lower = Date(iso8601: parts[0]), let upper = Date(iso8601: parts[1]) else {
            return nil
        }
        return lower <= upper ? lower...upper : Date.distantFuture...Date.distantFuture
    }

    /// The items in the order a sort key asks (`sortBy=StartDate&sortDescending=true`): by the member the key
    /// names (instants by instant, numbers by value, text as text, items without it last), ties kept in their
    /// order; the items as they are when the key is none the meaning names.
    func sorted<Row>(_ rows: [Row], by item: (Row) -> JSONValue, query: QueryItems, parameter: Parameter) -> [Row] {
        guard case .sortKey(let keys, let descendingName) = self,
            let asked = query[parameter.name] ?? parameter.defaultValue?.stringValue,
            let place = keys[asked] ?? keys.first(where: { $0.key.lowercased() == asked.lowercased() })?.value
        else { return rows }
        let descending = query[descendingName]?.lowercased() == "true"
        return Self.ordered(rows, by: [SortKey(place, descending: descending)], item: item)
    }

    /// The rows ordered by the keys in turn (instants by instant, numbers by value, text as text, rows without the
    /// member last whatever the direction), ties kept in their order.
    static func ordered<Row>(_ rows: [Row], by keys: [SortKey], item: (Row) -> JSONValue) -> [Row] {
        let keyed = rows.enumerated().map { offset, row in
            (offset: offset, row: row, values: keys.map { item(row)[pointer: $0.place] ?? .null })
        }
        return keyed.sorted { lhs, rhs in
            precedes(lhs.values, rhs.values, by: keys) ?? (lhs.offset < rhs.offset)
        }.map(\.row)
    }

    /// Whether an item comes before another by the keys; `nil` when they do not tell them apart.
    static func precedes(_ lhs: JSONValue, _ rhs: JSONValue, by keys: [SortKey]) -> Bool? {
        precedes(keys.map { lhs[pointer: $0.place] ?? .null }, keys.map { rhs[pointer: $0.place] ?? .null }, by: keys)
    }

    /// ``precedes(_:_:by:)`` on the keys' values, taken once.
    private static func precedes(_ lhs: [JSONValue], _ rhs: [JSONValue], by keys: [SortKey]) -> Bool? {
        for (index, key) in keys.enumerated() {
            let (left, right) = (lhs[index], rhs[index])
            if (left == .null) != (right == .null) { return right == .null }
            switch order(left, right) {
            case .orderedSame: continue
            case .orderedAscending: return !key.descending
            case .orderedDescending: return key.descending
            }
        }
        return nil
    }

    /// Two members' order: absent and `null` after any value, instants by instant, numbers by value, text as text.
    private static func order(_ lhs: JSONValue?, _ rhs: JSONValue?) -> ComparisonResult {
        switch (lhs ?? .null, rhs ?? .null) {
        case (.null, .null): return .orderedSame
        case (.null, _): return .orderedDescending
        case (_, .null): return .orderedAscending
        case (.number(let left), .number(let right)):
            let (a, b) = (Double(left.literal) ?? 0, Double(right.literal) ?? 0)
            return a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame
        case (.string(let left), .string(let right)):
            // Instants written alike sort as their text does, with no parse (a table's kept order compares its new
            // item with about log2(n) others on every create).
            if writtenAlike(left, right) {
                return left < right ? .orderedAscending : left > right ? .orderedDescending : .orderedSame
            }
            if let a = Date(iso8601: left), let b = Date(iso8601: right) {
                return a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame
            }
            return left < right ? .orderedAscending : left > right ? .orderedDescending : .orderedSame
        case (.bool(let left), .bool(let right)):
            return left == right ? .orderedSame : left ? .orderedDescending : .orderedAscending
        default: return .orderedSame
        }
    }

    /// Whether two texts are UTC instants written alike (`2025-11-15T14:30:00Z`, `2025-11-15T14:30:00.125Z`): the same
    /// length, digits in the same places, the separators of RFC 3339 and `Z`. Their text order is then their time order.
    static func writtenAlike(_ lhs: String, _ rhs: String) -> Bool {
        let (left, right) = (lhs.utf8, rhs.utf8)
        guard left.count == right.count, left.count >= 20, left.last == UInt8(ascii: "Z"), right.last == left.last else {
            return false
        }
        for (offset, (a, b)) in zip(left, right).enumerated() {
            let digit = (48...57).contains(a)
            guard digit == (48...57).contains(b), digit || a == b else { return false }
            switch offset {
            case 4, 7: guard a == UInt8(ascii: "-") else { return false }
            case 10: guard a == UInt8(ascii: "T") else { return false }
            case 13, 16: guard a == UInt8(ascii: ":") else { return false }
            case 0..<19: guard digit else { return false }
            default: continue
            }
        }
        return true
    }

    private static func instant(_ value: JSONValue?) -> Date? {
        value?.stringValue.flatMap { Date(iso8601: $0) }
    }
}
