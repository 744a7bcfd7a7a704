import UnderstudyCore

/// How `understudy proxy` streams findings: a text block for stderr, or one JSON object per line.
public enum ProxyOutput {
    /// `error GET /activities /data/0/id: message [rule]`, then expected, found and the curl line indented.
    public static func text(_ finding: Diagnostic) -> String {
        let line = CheckReportRenderer.line(finding)
        guard let endpoint = finding.endpoint else { return line + "\n" }
        let severity = finding.severity.rawValue
        return severity + " " + endpoint + line.dropFirst(severity.count) + "\n"
    }

    /// The finding as one line of JSON, in the shape of the `findings` of `check --format json`.
    public static func jsonLine(_ finding: Diagnostic) -> String {
        let document = JSONDiagnosticRenderer().document([finding])
        return (document["findings"]?.arrayValue?.first ?? document).serialized() + "\n"
    }

    /// The closing line of a JSON stream: `{"formatVersion":1,"summary":{...,"requests":N}}`.
    public static func jsonSummary(_ reports: [CheckReport]) -> String {
        let findings = reports.flatMap(\.findings)
        let summary = DiagnosticSummary(findings)
        let document: JSONValue = [
            "formatVersion": .integer(JSONDiagnosticRenderer.formatVersion),
            "summary": [
                "errors": .integer(summary.errors), "warnings": .integer(summary.warnings),
                "notes": .integer(summary.notes),
                "requests": .integer(reports.reduce(0) { $0 + $1.requests }),
            ],
        ]
        return document.serialized() + "\n"
    }
}
