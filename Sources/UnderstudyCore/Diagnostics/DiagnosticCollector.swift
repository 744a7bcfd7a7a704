import Synchronization

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
    private let storage = Mutex<[Diagnostic]>([])

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
public struct TerminalDiagnosticRenderer: Sendable {
    public var useColor: Bool

    public init(useColor: Bool = false) {
        self.useColor = useColor
    }

    public func render(_ diagnostics: [Diagnostic]) -> String {
        var output = ""
        let groups = Dictionary(grouping: diagnostics) { $0.endpoint ?? "" }
        for endpoint in groups.keys.sorted() {
            if !endpoint.isEmpty { output += paint(endpoint, "1") + "\n" }
            for diagnostic in groups[endpoint]! {
                let indent = endpoint.isEmpty ? "" : "  "
                let label = paint(diagnostic.severity.rawValue, color(diagnostic.severity))
                output += "\(indent)\(label) \(diagnostic.summary) [\(diagnostic.rule)]\n"
                for key in diagnostic.context.keys.sorted() where key != "decoder" {
                    output += "\(indent)    \(key): \(diagnostic.context[key]!)\n"
                }
            }
        }
        output += DiagnosticSummary(diagnostics).sentence + "\n"
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
    /// Bumped whenever the shape of the output changes.
    public static let formatVersion = 1

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
        ]
        if let endpoint = diagnostic.endpoint { object["endpoint"] = .string(endpoint) }
        if let expected = diagnostic.expected { object["expected"] = .string(expected) }
        if let found = diagnostic.found { object["found"] = .string(found) }
        if !diagnostic.context.isEmpty { object["context"] = .object(diagnostic.context.mapValues { .string($0) }) }
        return .object(object)
    }
}
