import Foundation

/// JSON Schema's `pattern`: whether a regular expression matches somewhere in a string.
///
/// Patterns are compiled once and kept: a schema's patterns are few, and requests are validated against them again
/// and again. ICU's syntax (Foundation's `NSRegularExpression`) reads the ECMA-262 patterns documents use.
enum RegularExpression {
    private static let compiled = Locked<[String: NSRegularExpression?]>([:])

    /// Whether `pattern` matches in `string`; a pattern that does not compile matches everything (the document's
    /// lint reports it, and a mock must not refuse every request for it).
    static func matches(_ string: String, pattern: String) -> Bool {
        guard let expression = expression(pattern) else { return true }
        let range = NSRange(string.startIndex..<string.endIndex, in: string)
        return expression.firstMatch(in: string, range: range) != nil
    }

    private static func expression(_ pattern: String) -> NSRegularExpression? {
        if let known = compiled.withLock({ $0[pattern] }) { return known }
        let expression = try? NSRegularExpression(pattern: pattern)
        compiled.withLock { $0[pattern] = expression }
        return expression
    }
}
