
/// Receives findings as they are produced.
public protocol DiagnosticCollector: Sendable {
    func collect(_ diagnostic: Diagnostic)
}

/// Keeps every finding in memory, safe to share between tasks.
///
/// ```swift
/// let collector = DiagnosticBuffer()
/// collector.collect(finding)
/// let report = JSONDiagnosticRenderer().render(collector.diagnostics)
/// ```
public final class DiagnosticBuffer: DiagnosticCollector {
    private let storage = Locked<[Diagnostic]>([])

    public init() {}

    public func collect(_ diagnostic: Diagnostic) {
        storage.withLock { $0.append(diagnostic) }
    }

    /// The findings so far, in the order they were collected.
    public var diagnostics: [Diagnostic] {
        storage.withLock { $0 }
    }
}

/// Counts of findings by severity.
public struct DiagnosticSummary: Sendable, Hashable {
    public var errors = 0
    public var warnings = 0
    public var notes = 0

    public init(_ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics {
            switch diagnostic.severity {
            case .error: errors += 1
            case .warning: warnings += 1
            case .note: notes += 1
            }
        }
    }

    /// `2 errors, 0 warnings, 1 note`.
    public var sentence: String {
        func count(_ value: Int, _ noun: String) -> String { "\(value) \(noun)\(value == 1 ? "" : "s")" }
        return [count(errors, "error"), count(warnings, "warning"), count(notes, "note")].joined(separator: ", ")
    }
}

/// Renders findings for a terminal: grouped by endpoint, location first, colour only when asked.
///
/// A merged finding shows its count (`×94876`) and its array indices collapsed (`/data/*/startDate`), with
/// its first examples. Findings about one model field (context `field`, such as `EventDto.startDate`)
/// seen on several endpoints are shown once, under the field, with one line per endpoint. Notes can be
/// left out (they are still counted).
public struct TerminalDiagnosticRenderer: Sendable {
    public var useColor: Bool
    public var showNotes: Bool

    public init(useColor: Bool = false, showNotes: Bool = true) {
        self.useColor = useColor
        self.showNotes = showNotes
    }

    public func render(_ diagnostics: [Diagnostic]) -> String {
        var output = ""
        let shown = showNotes ? diagnostics : diagnostics.filter { $0.severity != .note }
        // One model field's findings across endpoints: the same rule on the same field in two or more places.
        let byField = Dictionary(grouping: shown.filter { $0.context["field"] != nil && $0.endpoint != nil }) {
            "\($0.context["field"]!) \($0.rule)"
        }.filter { Set($0.value.compactMap(\.endpoint)).count > 1 }
        let grouped = Set(byField.values.joined())
        for key in byField.keys.sorted() {
            let findings = byField[key]!
            let field = findings[0].context["field"]!
            output += paint("\(field) \(findings[0].tag), on \(findings.count) endpoints", "1") + "\n"
            for finding in findings {
                output += "  \(label(finding)) \(finding.endpoint!) \(finding.summary)\(count(finding))\n"
            }
            output += details(findings[0], indent: "    ")
        }
        // One cause across endpoints: the same rule, severity and basis, at the same place, saying the same thing
        // but for its values (`the 404 answer to an unknown login "…"`), on two or more endpoints.
        let byCause = Dictionary(grouping: shown.filter { !grouped.contains($0) && $0.endpoint != nil }) {
            Cause(rule: $0.rule, severity: $0.severity, basis: $0.basis, location: $0.location, shape: Self.shape($0.message))
        }.filter { Set($0.value.compactMap(\.endpoint)).count > 1 }
        let caused = Set(byCause.values.joined())
        for findings in byCause.values.sorted(by: { Self.precedes($0[0], $1[0]) }) {
            let first = findings[0]
            let endpoints = Set(findings.compactMap(\.endpoint)).sorted()
            output += "\(label(first)) \(first.summary) \(first.tag)"
            output += paint(", on \(endpoints.count) endpoints", "1") + "\n"
            for endpoint in endpoints {
                let count = findings.filter { $0.endpoint == endpoint }.reduce(0) { $0 + $1.occurrences }
                output += "  \(endpoint)\(count > 1 ? " ×\(count)" : "")\n"
            }
            output += details(first, indent: "    ")
        }
        let groups = Dictionary(grouping: shown.filter { !grouped.contains($0) && !caused.contains($0) }) {
            $0.endpoint ?? ""
        }
        for endpoint in groups.keys.sorted() {
            if !endpoint.isEmpty { output += paint(endpoint, "1") + "\n" }
            let indent = endpoint.isEmpty ? "" : "  "
            for diagnostic in groups[endpoint]! {
                output += "\(indent)\(label(diagnostic)) \(diagnostic.summary) \(diagnostic.tag)"
                output += count(diagnostic) + "\n"
                output += details(diagnostic, indent: indent + "    ")
            }
        }
        let summary = DiagnosticSummary(diagnostics)
        output += summary.sentence
        if !showNotes, summary.notes > 0 { output += " (notes not shown: --notes)" }
        return output + "\n"
    }

    /// What makes findings on several endpoints one cause.
    private struct Cause: Hashable {
        let rule: RuleID
        let severity: Diagnostic.Severity
        let basis: Diagnostic.Basis
        let location: String
        let shape: String
    }

    /// A message without its values: quoted text, paths and numbers but three-digit statuses become `…`, so
    /// `an unknown login "x1" (/v2/users/x1)` and `an unknown id "42" (/v2/campus/42)` read the same.
    package static func shape(_ message: String) -> String {
        message.replacing(/"[^"]*"|`[^`]*`|'[^']*'/, with: "…")
            .replacing(/(^|[\s(])\/[^\s,;)]*/) { "\($0.output.1)…" }
            .replacing(/\b(\d{1,2}|\d{4,})(\.\d+)?\b/, with: "…")
    }

    /// Errors first, then by rule and message.
    private static func precedes(_ lhs: Diagnostic, _ rhs: Diagnostic) -> Bool {
        (-lhs.severity.order, lhs.rule.rawValue, lhs.message) < (-rhs.severity.order, rhs.rule.rawValue, rhs.message)
    }

    private func label(_ diagnostic: Diagnostic) -> String {
        paint(diagnostic.severity.rawValue, color(diagnostic.severity))
    }

    private func count(_ diagnostic: Diagnostic) -> String {
        diagnostic.occurrences > 1 ? " ×\(diagnostic.occurrences)" : ""
    }

    /// Examples, then the context but the decoder's wording (already in the message) and the model field
    /// (the grouping says it).
    private func details(_ diagnostic: Diagnostic, indent: String) -> String {
        var output = ""
        if !diagnostic.examples.isEmpty { output += "\(indent)e.g. \(diagnostic.examples.joined(separator: "; "))\n" }
        for key in diagnostic.context.keys.sorted() where key != "decoder" && key != "field" {
            output += "\(indent)\(key): \(diagnostic.context[key]!)\n"
        }
        return output
    }

    private func color(_ severity: Diagnostic.Severity) -> String {
        switch severity {
        case .error: "31"
        case .warning: "33"
        case .note: "36"
        }
    }

    private func paint(_ text: String, _ code: String) -> String {
        useColor ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}

/// Renders findings as `{"formatVersion": 1, "summary": {...}, "findings": [...]}`.
public struct JSONDiagnosticRenderer: Sendable {
    /// Bumped whenever the shape of the output changes (2: `occurrences` and `examples`); members are added
    /// without a bump (`basis`, `assumption`).
    public static let formatVersion = 2

    public init() {}

    public func render(_ diagnostics: [Diagnostic]) -> String {
        document(diagnostics).serialized(.pretty)
    }

    public func document(_ diagnostics: [Diagnostic]) -> JSONValue {
        let summary = DiagnosticSummary(diagnostics)
        return [
            "formatVersion": .integer(Self.formatVersion),
            "summary": [
                "errors": .integer(summary.errors), "warnings": .integer(summary.warnings),
                "notes": .integer(summary.notes),
            ],
            "findings": .array(diagnostics.map(Self.json)),
        ]
    }

    static func json(_ diagnostic: Diagnostic) -> JSONValue {
        var object: [String: JSONValue] = [
            "severity": .string(diagnostic.severity.rawValue),
            "rule": .string(diagnostic.rule.rawValue),
            "pointer": .string(diagnostic.pointer.description),
            "message": .string(diagnostic.message),
            "basis": .string(diagnostic.basis.name),
        ]
        if case .assumption(let ambiguity) = diagnostic.basis { object["assumption"] = .string(ambiguity) }
        if let endpoint = diagnostic.endpoint { object["endpoint"] = .string(endpoint) }
        if let expected = diagnostic.expected { object["expected"] = .string(expected) }
        if let found = diagnostic.found { object["found"] = .string(found) }
        if !diagnostic.context.isEmpty { object["context"] = .object(diagnostic.context.mapValues { .string($0) }) }
        object["occurrences"] = .integer(diagnostic.occurrences)
        if !diagnostic.examples.isEmpty { object["examples"] = .array(diagnostic.examples.map(JSONValue.string)) }
        return .object(object)
    }
}
