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
        let expression = try? NSRegularExpression(pattern: ecmaToICU(pattern))
        compiled.withLock { $0[pattern] = expression }
        return expression
    }

    /// ICU's reading of an ECMA-262 pattern's `.` and `$`. ECMA's `.` is any character but `\n`, `\r`, U+2028 and
    /// U+2029, ICU's also stops at `\v`, `\f` and U+0085; ECMA's `$` is the end of the input (no `m` flag in a
    /// schema), ICU's also matches before a final line break. Escapes and character classes are left as they are.
    static func ecmaToICU(_ pattern: String) -> String {
        var translated = ""
        var inClass = false
        var escaped = false
        for character in pattern {
            if escaped {
                translated.append(character)
                escaped = false
                continue
            }
            switch character {
            case "\\":
                translated.append(character)
                escaped = true
            case "[" where !inClass:
                inClass = true
                translated.append(character)
            case "]" where inClass:
                inClass = false
                translated.append(character)
            case "." where !inClass: translated += #"[^\n\r\u2028\u2029]"#
            case "$" where !inClass: translated += #"\z"#
            default: translated.append(character)
            }
        }
        return translated
    }
}
