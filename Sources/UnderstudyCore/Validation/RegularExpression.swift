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

    /// ECMA-262's WhiteSpace and LineTerminator code points, as ICU class members.
    private static let whitespace =
        #"\t\n\x{0B}\f\r\x{20}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}"#

    /// ICU's reading of an ECMA-262 pattern. ECMA's `.` is any character but `\n`, `\r`, U+2028 and U+2029, ICU's
    /// also stops at `\v`, `\f` and U+0085; ECMA's `$` is the end of the input (no `m` flag in a schema), ICU's also
    /// matches before a final line break; ECMA's `\d`, `\w` and `\s` are ASCII digits, ASCII word characters and its
    /// own whitespace list, ICU's are Unicode's (Bengali digits are `\d` there). Other escapes are left as they are.
    static func ecmaToICU(_ pattern: String) -> String {
        var translated = ""
        var inClass = false
        var escaped = false
        for character in pattern {
            if escaped {
                escaped = false
                switch (character, inClass) {
                case ("d", false): translated += "[0-9]"
                case ("D", false): translated += "[^0-9]"
                case ("w", false): translated += "[A-Za-z0-9_]"
                case ("W", false): translated += "[^A-Za-z0-9_]"
                case ("s", false): translated += "[" + whitespace + "]"
                case ("S", false): translated += "[^" + whitespace + "]"
                case ("d", true): translated += "0-9"
                case ("w", true): translated += "A-Za-z0-9_"
                case ("s", true): translated += whitespace
                default: translated += "\\" + String(character)
                }
                continue
            }
            switch character {
            case "\\":
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
        // A pattern ending in a lone backslash stays invalid: it then matches everything, as one ICU refuses.
        if escaped { translated += "\\" }
        return translated
    }
}
