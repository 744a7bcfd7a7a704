import Foundation

/// A rule between the properties of one object, which JSON Schema's per-property keywords cannot state: checked
/// by the ``Validator`` (so by the mocks and `check`), exported as `x-understudy-rules` and compared by `diff`.
///
/// ```swift
/// schema.rules = [
///     .after("endDate", "startDate"),
///     .requires("entryFeeAmount", ["entryFeeCurrency"]),
/// ]
/// ```
public enum ObjectRule: Sendable, Hashable {
    /// When both are present and not null, `property` is later than `other`: date-times (any offset), dates, or
    /// numbers.
    case after(String, String)
    /// When `property` is present and neither null nor `false`, every one of `properties` is present and not null.
    case requires(String, [String])

    /// The key exported documents list an object's rules under.
    public static let extensionName = "x-understudy-rules"

    /// The rule as `x-understudy-rules` writes it: `{"after": ["endDate", "startDate"]}`,
    /// `{"requires": ["entryFeeAmount", ["entryFeeCurrency"]]}`.
    public var json: JSONValue {
        switch self {
        case .after(let property, let other): ["after": [.string(property), .string(other)]]
        case .requires(let property, let properties):
            ["requires": [.string(property), .array(properties.map { .string($0) })]]
        }
    }

    /// The rule `json` writes; `nil` for anything else.
    public init?(json: JSONValue) {
        if let pair = json["after"]?.arrayValue?.compactMap(\.stringValue), pair.count == 2 {
            self = .after(pair[0], pair[1])
        } else if let parts = json["requires"]?.arrayValue, parts.count == 2, let property = parts[0].stringValue,
            let properties = parts[1].arrayValue?.compactMap(\.stringValue)
        {
            self = .requires(property, properties)
        } else {
            return nil
        }
    }
}

extension ObjectRule {
    /// Whether `value` is later than `bound`: two numbers, or two RFC 3339 date-times or dates; `nil` for anything
    /// else (a value of the wrong type is its property's own finding).
    static func isAfter(_ value: JSONValue, _ bound: JSONValue) -> Bool? {
        switch (value, bound) {
        case (.number(let value), .number(let bound)):
            guard let later = value.doubleValue, let earlier = bound.doubleValue else { return nil }
            return later > earlier
        case (.string(let value), .string(let bound)):
            guard let later = Date(iso8601: value), let earlier = Date(iso8601: bound) else { return nil }
            return later > earlier
        default:
            return nil
        }
    }

    /// A value just after `value`, in its own form: a number plus one, a date-time a quarter hour later (generated
    /// times stay on quarter hours), a date a day later; `value` itself when it is neither.
    static func later(_ value: JSONValue) -> JSONValue {
        switch value {
        case .number(let number): return number.doubleValue.map { .number(JSONNumber($0 + 1)) } ?? value
        case .string(let text):
            guard let date = Date(iso8601: text) else { return value }
            let formatter = ISO8601DateFormatter()
            if text.count == 10 {
                formatter.formatOptions = [.withFullDate]
                return .string(formatter.string(from: date.addingTimeInterval(86_400)))
            }
            formatter.formatOptions = text.contains(".") ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
            return .string(formatter.string(from: date.addingTimeInterval(900)))
        default: return value
        }
    }
}
