import UnderstudyCore

extension RuleID {
    public static let appParseFailed: RuleID = "app.parse-failed"
}

/// Runs the parsers the app applies after decoding (``AppParsing``) over a success body: a value that
/// decodes but does not parse breaks the app as surely as a failed decode.
enum AppParsingCheck {
    /// One warning per declared field whose parser returns `nil` for some value in `bytes`; the finding
    /// sits at the field's pattern, so every response of an endpoint reports it once.
    /// - Parameter body: `bytes` parsed, when they were already.
    static func findings(_ bytes: [UInt8], parsed body: JSONValue?, spec: APISpec) -> [Diagnostic] {
        guard !spec.appParsing.isEmpty, let body = body ?? (try? JSONParser().parse(bytes)) else { return [] }
        return spec.appParsing.compactMap { field in
            let values = field.values(in: body)
            let failures = values.filter { !field.parser.parses($0.text) }
            guard let first = failures.first else { return nil }
            let name = field.pattern.tokens.last ?? field.pattern.displayString
            return Diagnostic(
                .warning, rule: .appParseFailed, at: field.pattern,
                message: "the app reads \(name) with \(field.parser.call), which returns nil for its value",
                expected: field.parser.expectation,
                // The value and the count differ from one page to the next; in the context they do not
                // split the one finding per field.
                context: [
                    "example": "\(first.pointer.displayString) = \(Render.quoted(first.text))",
                    "count": "\(failures.count) of \(values.count) values",
                ])
        }
    }
}

extension AppParsing.Parser {
    /// What the parser accepts, for "expected".
    var expectation: String {
        switch self {
        case .iso8601DateFormatter:
            "an ISO 8601 date-time without fractional seconds, such as 2025-12-04T10:15:30+00:00"
        }
    }
}
