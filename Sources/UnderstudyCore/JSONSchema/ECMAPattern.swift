/// A `pattern` as ECMA-262 reads it, translated for ``RegularExpression`` (ICU).
///
/// ``RegularExpression/ecmaToICU(_:)`` reads ECMA-262's `.`, `$`, `\d`, `\w` and `\s` into ICU's syntax.
struct ECMAPattern: Sendable, Hashable {
    /// The pattern as the schema writes it, for messages.
    let source: String

    init(_ source: String) {
        self.source = source
    }

    func matches(_ string: String) -> Bool {
        RegularExpression.matches(string, pattern: source)
    }
}
