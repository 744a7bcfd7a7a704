import Foundation

/// A JSON Pointer (RFC 6901) such as `/data/0/startDate`, the location of every finding.
public struct JSONPointer: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The unescaped reference tokens, from the root.
    public private(set) var tokens: [String]

    /// The pointer to the whole document (`""`).
    public static let root = JSONPointer(tokens: [])

    /// Creates a pointer from unescaped tokens.
    public init(tokens: [String]) {
        self.tokens = tokens
    }

    /// Parses the textual form (`/a/b~1c`); text that does not start with `/` is the root.
    public init(_ text: String) {
        guard text.hasPrefix("/") else {
            tokens = []
            return
        }
        tokens = text.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// This pointer extended by an object key.
    public func appending(_ key: String) -> JSONPointer {
        var copy = self
        copy.tokens.append(key)
        return copy
    }

    /// This pointer extended by an array index.
    public func appending(_ index: Int) -> JSONPointer {
        appending(String(index))
    }

    public var description: String {
        tokens.isEmpty ? "" : tokens.map { "/" + Self.escape($0) }.joined()
    }

    /// The textual form, with `/` standing for the root so a message never shows an empty location.
    public var displayString: String { tokens.isEmpty ? "/" : description }

    public static func < (lhs: JSONPointer, rhs: JSONPointer) -> Bool {
        lhs.tokens.lexicographicallyPrecedes(rhs.tokens) { left, right in
            if let l = Int(left), let r = Int(right) { return l < r }
            return left < right
        }
    }

    private static func escape(_ token: String) -> String {
        guard token.contains("~") || token.contains("/") else { return token }
        return token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}

extension JSONPointer: Codable {
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
