/// The query string as ordered name/value pairs, percent-decoded, `+` as space.
public struct QueryItems: Sendable, Hashable {
    public let items: [(name: String, value: String)]
    /// The raw query string, without `?`.
    public let raw: String

    public init(_ raw: String) {
        self.raw = raw
        items = FormURLEncoding.pairs(raw)
    }

    /// The first value of a parameter.
    public subscript(name: String) -> String? { items.first { $0.name == name }?.value }

    /// Every value of a parameter, in order.
    public func all(_ name: String) -> [String] { items.filter { $0.name == name }.map(\.value) }

    public static func == (lhs: QueryItems, rhs: QueryItems) -> Bool { lhs.raw == rhs.raw }
    public func hash(into hasher: inout Hasher) { hasher.combine(raw) }

    package static func decode(_ text: Substring) -> String { FormURLEncoding.decode(text) }
}

extension String {
    /// The string without leading and trailing spaces (not tabs or newlines: HTTP's optional whitespace here).
    package var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
