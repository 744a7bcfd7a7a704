/// What a query parameter asks of the items of a list, declared with the parameter so that `check` can
/// verify a server honours it (rules `semantics.*`) and the exported documents carry it
/// (`x-understudy-meaning`). A path parameter may declare one too (`equals`): it then filters the list's items
/// rather than naming their parent.
///
/// Places are pointers into one item (`/event/startDate`); instants are ISO 8601 strings.
public enum QueryMeaning: Sendable, Hashable, CustomStringConvertible {
    /// Items whose member equals the value (`visibility=public`, `eventType=2`).
    case equals(JSONPointer)
    /// Items whose text member contains the value, ignoring case; an empty value keeps every item (42's
    /// `search[login]`).
    case contains(JSONPointer)
    /// `true` keeps the items whose member is null or absent, `false` the others (42's `filter[active]`:
    /// a session without `end_at` yet).
    case isNull(JSONPointer)
    /// `true` keeps the items whose instant lies after now, `false` the others (42's `filter[future]`).
    case isFuture(JSONPointer)
    /// `true` keeps the items whose member has the value (absent counts as `null`), `false` keeps every item
    /// (`unreadOnly=true`: the items whose `isRead` is `false`).
    case whenTrue(JSONPointer, equals: JSONValue)
    /// `lower,upper` (two instants): items whose instant lies between them (42's `range[begin_at]`).
    case between(JSONPointer)
    /// `n`: items whose instant lies between now and n days from now (VideGreniers' `daysAhead`).
    case withinDays(JSONPointer)
    /// An instant: items whose instant is that one or later (VideGreniers' `startDate` of the activity log).
    case notBefore(JSONPointer)
    /// An instant: items whose instant is that one or earlier (VideGreniers' `endDate`).
    case notAfter(JSONPointer)
    /// The value names the member the items are sorted by; the boolean parameter `descending` turns the
    /// order around (VideGreniers' `sortBy` and `sortDescending`).
    case sortKey([String: JSONPointer], descending: String)

    /// `equals /visibility`, `sort-key sortDescending EndDate=/endDate StartDate=/startDate`: the form the
    /// exported documents carry, read back by ``init(_:)``.
    public var description: String {
        switch self {
        case .equals(let pointer): "equals \(pointer)"
        case .contains(let pointer): "contains \(pointer)"
        case .isNull(let pointer): "is-null \(pointer)"
        case .isFuture(let pointer): "is-future \(pointer)"
        case .whenTrue(let pointer, let value): "when-true \(pointer) \(value.serialized())"
        case .between(let pointer): "between \(pointer)"
        case .withinDays(let pointer): "within-days \(pointer)"
        case .notBefore(let pointer): "not-before \(pointer)"
        case .notAfter(let pointer): "not-after \(pointer)"
        case .sortKey(let keys, let descending):
            (["sort-key", descending] + keys.keys.sorted().map { "\($0)=\(keys[$0]!)" }).joined(separator: " ")
        }
    }

    /// Reads the ``description`` form; `nil` for anything else.
    public init?(_ text: String) {
        let words = text.split(separator: " ").map(String.init)
        guard words.count >= 2 else { return nil }
        let pointer = JSONPointer(words[1])
        switch words[0] {
        case "equals": self = .equals(pointer)
        case "contains": self = .contains(pointer)
        case "is-null": self = .isNull(pointer)
        case "is-future": self = .isFuture(pointer)
        case "when-true":
            guard words.count >= 3, let value = try? JSONValue(parsing: Array(words[2...].joined(separator: " ").utf8))
            else { return nil }
            self = .whenTrue(pointer, equals: value)
        case "between": self = .between(pointer)
        case "within-days": self = .withinDays(pointer)
        case "not-before": self = .notBefore(pointer)
        case "not-after": self = .notAfter(pointer)
        case "sort-key":
            var keys: [String: JSONPointer] = [:]
            for word in words.dropFirst(2) {
                let parts = word.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { return nil }
                keys[String(parts[0])] = JSONPointer(String(parts[1]))
            }
            self = .sortKey(keys, descending: words[1])
        default: return nil
        }
    }
}
