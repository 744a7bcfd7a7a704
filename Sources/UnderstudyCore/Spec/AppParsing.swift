import Foundation

/// A value the app parses itself after decoding, such as a timestamp kept as a `String` and read with
/// `ISO8601DateFormatter().date(from:)`: the decode succeeds, the parse may still return `nil`.
///
/// ```swift
/// AppParsing("/*/created_at", .iso8601DateFormatter)
/// ```
public struct AppParsing: Sendable, Hashable {
    /// How the app parses the value.
    public enum Parser: String, Sendable, Hashable {
        /// `ISO8601DateFormatter().date(from:)` with its default options (`.withInternetDateTime`): no
        /// fractional seconds, so PostgREST's `2025-12-04T10:15:30.123456+00:00` gives `nil`.
        case iso8601DateFormatter

        /// The call as the app writes it, for messages.
        public var call: String {
            switch self {
            case .iso8601DateFormatter: "ISO8601DateFormatter().date(from:)"
            }
        }

        /// Whether the app's parser returns a value for `text`.
        public func parses(_ text: String) -> Bool {
            switch self {
            case .iso8601DateFormatter: ISO8601DateFormatter().date(from: text) != nil
            }
        }
    }

    /// Where the value is: a JSON Pointer whose `*` tokens stand for any array index or member name
    /// (`/*/created_at`: the `created_at` of every row of a list).
    public let pattern: JSONPointer
    public let parser: Parser

    public init(_ pattern: JSONPointer, _ parser: Parser) {
        self.pattern = pattern
        self.parser = parser
    }

    /// The string values at the pattern in `body`, with their pointers, in document order.
    public func values(in body: JSONValue) -> [(pointer: JSONPointer, text: String)] {
        var found: [(pointer: JSONPointer, text: String)] = []
        func walk(_ value: JSONValue, at pointer: JSONPointer, rest: ArraySlice<String>) {
            guard let token = rest.first else {
                if case .string(let text) = value { found.append((pointer, text)) }
                return
            }
            switch value {
            case .array(let elements):
                for (index, element) in elements.enumerated() where token == "*" || token == String(index) {
                    walk(element, at: pointer.appending(String(index)), rest: rest.dropFirst())
                }
            case .object(let members):
                for key in members.keys.sorted() where token == "*" || token == key {
                    walk(members[key]!, at: pointer.appending(key), rest: rest.dropFirst())
                }
            default: break
            }
        }
        walk(body, at: .root, rest: pattern.tokens[...])
        return found
    }
}

extension APISpec {
    /// The spec with the values its app parses after decoding.
    public func parsing(_ fields: [AppParsing]) -> APISpec {
        var copy = self
        copy.appParsing = fields
        return copy
    }
}
