/// What an action does to the items it acts on (`x-understudy-effect`): members it sets, and members it sets only
/// where they have no value yet. An action on an item changes that item; an action on the collection
/// (`POST /notifications/read-all`) changes every item the caller may act on.
///
/// ```swift
/// ActionEffect(set: ["/status": "read"], defaults: ["/readAt": .now])
/// ```
public struct ActionEffect: Sendable, Hashable {
    /// The value a member takes.
    public enum Value: Sendable, Hashable {
        /// This value.
        case value(JSONValue)
        /// The clock's time, in the member's format (a date-time, a date, epoch seconds).
        case now

        /// The form the exported documents write: the value, or `"$now"`.
        public var json: JSONValue {
            switch self {
            case .value(let value): value
            case .now: "$now"
            }
        }

        public init(json: JSONValue) {
            self = json == "$now" ? .now : .value(json)
        }
    }

    /// Members set, whatever they held.
    public var set: [JSONPointer: Value]
    /// Members set where they are absent or `null` (a read's time is the first read's).
    public var defaults: [JSONPointer: Value]

    public init(set: [JSONPointer: Value] = [:], defaults: [JSONPointer: Value] = [:]) {
        self.set = set
        self.defaults = defaults
    }

    /// The name of the OpenAPI extension.
    public static let extensionName = "x-understudy-effect"

    /// `{"set": {"/isRead": true}, "default": {"/readAt": "$now"}}`, keys sorted.
    public var json: JSONValue {
        func object(_ values: [JSONPointer: Value]) -> JSONValue {
            .object(Dictionary(uniqueKeysWithValues: values.map { ($0.key.description, $0.value.json) }))
        }
        var members: [String: JSONValue] = [:]
        if !set.isEmpty { members["set"] = object(set) }
        if !defaults.isEmpty { members["default"] = object(defaults) }
        return .object(members)
    }

    /// Reads ``json``; `nil` when it sets nothing.
    public init?(json: JSONValue) {
        func values(_ member: JSONValue?) -> [JSONPointer: Value] {
            var values: [JSONPointer: Value] = [:]
            for (key, value) in member?.objectValue ?? [:] where key.hasPrefix("/") {
                values[JSONPointer(key)] = Value(json: value)
            }
            return values
        }
        self.init(set: values(json["set"]), defaults: values(json["default"]))
        if set.isEmpty && defaults.isEmpty { return nil }
    }
}

extension ActionEffect.Value: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
    public init(booleanLiteral value: Bool) { self = .value(.bool(value)) }
    public init(integerLiteral value: Int) { self = .value(.integer(value)) }
    public init(stringLiteral value: String) { self = .value(.string(value)) }
}
