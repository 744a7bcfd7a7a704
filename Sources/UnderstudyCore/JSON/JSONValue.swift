/// A JSON document as a contract sees it.
///
/// Unlike `JSONSerialization`, `JSONValue` keeps what matters when two programs must agree on bytes:
/// an integer stays distinct from a fractional number (the literal is kept exactly, so `2.00` and
/// `12345678901234567890` survive a round trip), `null` is a value while an absent key is not,
/// and strings are kept exactly as decoded.
///
/// ```swift
/// let value = try JSONValue(parsing: #"{"id": 1, "price": 2.00, "note": null}"#)
/// value["price"]?.numberLiteral   // "2.00"
/// value["note"] == .null           // true
/// value["missing"] == nil          // true
/// ```
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Creates a number from an integer.
    public static func integer(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }

    /// Creates a number from a floating-point value.
    public static func double(_ value: Double) -> JSONValue { .number(JSONNumber(value)) }

    /// The member named `key` when this is an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// The element at `index` when this is an array and the index is in range.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The JSON kind of this value, as used in messages (`object`, `array`, `string`, ...).
    public var kind: Kind {
        switch self {
        case .null: .null
        case .bool: .boolean
        case .number(let number): number.isInteger ? .integer : .number
        case .string: .string
        case .array: .array
        case .object: .object
        }
    }

    /// The string payload, if this is a string.
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The boolean payload, if this is a boolean.
    public var boolValue: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }

    /// The number payload, if this is a number.
    public var numberValue: JSONNumber? {
        if case .number(let number) = self { return number }
        return nil
    }

    /// The exact literal of a number, if this is a number.
    public var numberLiteral: String? { numberValue?.literal }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The members, if this is an object.
    public var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The kinds of JSON value, named as JSON Schema names them.
    public enum Kind: String, Sendable, Hashable, CustomStringConvertible {
        case null, boolean, integer, number, string, array, object
        public var description: String { rawValue }
    }
}

/// A JSON number, kept as its exact literal.
///
/// The literal decides whether the number is an integer (`42`) or fractional (`42.0`, `4.2e1`);
/// conversions to `Int`, `Double` and `Decimal` are computed on demand.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number exactly as written in the JSON text.
    public let literal: String

    /// Creates a number from a literal that is already valid JSON number syntax.
    package init(uncheckedLiteral literal: String) {
        self.literal = literal
    }

    /// Creates a number from an integer.
    public init(_ value: Int) {
        literal = String(value)
    }

    /// Creates a number from a floating-point value; integral values keep a `.0`-free literal
    /// only when they are written that way by `Double.description`.
    public init(_ value: Double) {
        literal = value.isFinite ? "\(value)" : "0"
    }

    /// Whether the literal has neither a fraction nor an exponent.
    public var isInteger: Bool {
        !literal.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }
    }

    /// Whether the number has no fractional part, however it is written (`2`, `2.0`, `2e0`).
    public var isIntegral: Bool {
        if isInteger { return true }
        guard let double = doubleValue else { return false }
        return double.rounded() == double
    }

    /// The value as `Int`, when it is integral and fits.
    public var intValue: Int? {
        if let int = Int(literal) { return int }
        // An integer literal `Int` refused is out of range: the `Double` near it (`-9223372036854775809` rounds
        // to `Int.min`) must not stand for it.
        guard !isInteger, let double = doubleValue, double.rounded() == double,
            double >= -9_223_372_036_854_775_808.0, double < 9_223_372_036_854_775_808.0
        else { return nil }
        return Int(double)
    }

    /// The value as `Double`.
    public var doubleValue: Double? { Double(literal) }

    public var description: String { literal }
}
