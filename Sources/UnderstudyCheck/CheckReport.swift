import Foundation
import UnderstudyCore

/// The result of checking one API: every finding, and what was checked or skipped per endpoint.
public struct CheckReport: Sendable {
    /// What happened to one endpoint.
    public struct EndpointRecord: Sendable, Hashable {
        /// `METHOD /path`.
        public var endpoint: String
        public var requests: Int
        /// Seconds spent in its requests.
        public var seconds: Double
        /// Why it was not checked, when it was not.
        public var skipped: String?
        /// The statuses the server answered it with, probes included.
        public var elicited: Set<Int> = []
        /// The statuses its document gives it (`nil` for `default`, which any status meets).
        public var documented: [Int?] = []
    }

    public var api: String
    public var baseURL: String
    public var findings: [Diagnostic]
    public var endpoints: [EndpointRecord]
    /// Wall-clock seconds of the whole check.
    public var seconds: Double
    /// Every request the run sent or withheld, probes included, in the order it came to them (secrets included:
    /// print them through ``CheckPlan``, which redacts).
    public var journal: [JournalEntry] = []
    /// The run's own requests that were sent (probes and withheld writes left out), in order.
    public var sent: [OutgoingRequest] { journal.filter { !$0.probe && $0.withheld == nil }.map(\.request) }
    /// The app contract the `decode.*` verdicts followed, echoed in every report.
    public var app: AppContract?

    /// One request the run came to: sent, or withheld by the write policy.
    public struct JournalEntry: Sendable, Hashable {
        public var request: OutgoingRequest
        /// `METHOD /path` of the endpoint it calls.
        public var endpoint: String
        /// Whether a probe sent it (a request a conforming server refuses, a list's semantics), not the app's call.
        public var probe: Bool
        /// Why it was not sent (``WritePolicy``), when it was not.
        public var withheld: String?
        /// The status it was answered with, when an answer came.
        public var status: Int?
    }

    public var requests: Int { endpoints.reduce(0) { $0 + $1.requests } }

    /// The findings sorted for output: errors first, then by endpoint, pointer and rule.
    public var sortedFindings: [Diagnostic] {
        findings.sorted {
            (-$0.severity.order, $0.endpoint ?? "", $0.pointer.description, $0.rule.rawValue, $0.message)
                < (-$1.severity.order, $1.endpoint ?? "", $1.pointer.description, $1.rule.rawValue, $1.message)
        }
    }

    /// `videgreniers: app decoder dates: iso8601, keys: useDefaultKeys (spec)`.
    public var appLine: String? {
        app.map { "\(api): app decoder \($0.decoder.summary) (\($0.origin))" }
    }
}

/// Renders check reports: JSON (`formatVersion` 1), JUnit XML and GitHub Actions annotations; the terminal
/// form is ``TerminalDiagnosticRenderer``.
public enum CheckReportRenderer {
    /// `{"formatVersion": 1, "summary": {...}, "apis": [...], "findings": [...]}`.
    public static func json(_ reports: [CheckReport]) -> String {
        let findings = reports.flatMap(\.sortedFindings)
        var document = JSONDiagnosticRenderer().document(findings)
        guard case .object(var object) = document, case .object(var summary)? = object["summary"] else {
            return document.serialized(.pretty)
        }
        summary["requests"] = .integer(reports.reduce(0) { $0 + $1.requests })
        summary["endpointsChecked"] = .integer(reports.reduce(0) { $0 + $1.endpoints.filter { $0.skipped == nil }.count })
        summary["endpointsSkipped"] = .integer(reports.reduce(0) { $0 + $1.endpoints.filter { $0.skipped != nil }.count })
        let coverage = reports.map(\.coverage)
        summary["coverage"] = [
            "operations": .integer(coverage.reduce(0) { $0 + $1.operations }),
            "reached": .integer(coverage.reduce(0) { $0 + $1.reached }),
            "documentedStatuses": .integer(coverage.reduce(0) { $0 + $1.statuses }),
            "elicitedStatuses": .integer(coverage.reduce(0) { $0 + $1.elicited }),
        ]
        object["summary"] = .object(summary)
        object["apis"] = .array(
            reports.map { report in
                var entry: [String: JSONValue] = [
                    "api": .string(report.api), "baseURL": .string(report.baseURL),
                    "requests": .integer(report.requests),
                    "endpoints": .array(
                        report.endpoints.map { record in
                            var entry = CheckReport.coverageJSON(record)
                            entry["endpoint"] = .string(record.endpoint)
                            entry["requests"] = .integer(record.requests)
                            if let skipped = record.skipped { entry["skipped"] = .string(skipped) }
                            return .object(entry)
                        }),
                ]
                if let app = report.app { entry["app"] = appJSON(app) }
                return .object(entry)
            })
        document = .object(object)
        return document.serialized(.pretty)
    }

    /// JUnit XML: one test suite per API, one test case per endpoint; errors (and warnings when `failOn` is
    /// `.warning` or lower) are failures, skipped endpoints are `<skipped>`, notes go to `<system-out>`.
    public static func junit(_ reports: [CheckReport], failOn: Diagnostic.Severity) -> String {
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        let failures = reports.map { report in
            report.endpoints.filter { record in
                report.findings.contains { $0.endpoint == record.endpoint && $0.severity >= failOn }
            }.count
        }
        let total = reports.reduce(0) { $0 + $1.endpoints.count }
        xml += #"<testsuites name="understudy check" tests="\#(total)" failures="\#(failures.reduce(0, +))">"# + "\n"
        for (report, failed) in zip(reports, failures) {
            let skipped = report.endpoints.filter { $0.skipped != nil }.count
            xml += "  <testsuite name=\"\(escape(report.api))\" tests=\"\(report.endpoints.count)\" failures=\"\(failed)\" "
            xml += "skipped=\"\(skipped)\" time=\"\(seconds(report.seconds))\">\n"
            for record in report.endpoints {
                let findings = report.sortedFindings.filter { $0.endpoint == record.endpoint }
                xml += "    <testcase classname=\"\(escape(report.api))\" name=\"\(escape(record.endpoint))\" "
                xml += "time=\"\(seconds(record.seconds))\""
                let failing = findings.filter { $0.severity >= failOn }
                let others = findings.filter { $0.severity < failOn }
                if record.skipped == nil && failing.isEmpty && others.isEmpty {
                    xml += "/>\n"
                    continue
                }
                xml += ">\n"
                if let reason = record.skipped { xml += "      <skipped message=\"\(escape(reason))\"/>\n" }
                if !failing.isEmpty {
                    let message = "\(failing.count) finding\(failing.count == 1 ? "" : "s"): " + failing[0].summary
                    xml += "      <failure message=\"\(escape(message))\" type=\"\(escape(failing[0].rule.rawValue))\">"
                    xml += escape(failing.map(line).joined(separator: "\n")) + "</failure>\n"
                }
                if !others.isEmpty {
                    xml += "      <system-out>" + escape(others.map(line).joined(separator: "\n")) + "</system-out>\n"
                }
                xml += "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
            xml += coverageSuite(report)
        }
        return xml + "</testsuites>\n"
    }

    /// The coverage as a test suite: one case per operation and documented status, skipped when the run did not
    /// elicit it (or did not reach the operation).
    private static func coverageSuite(_ report: CheckReport) -> String {
        let cases = report.endpoints.flatMap { record in record.documentedStatuses.map { (record, $0) } }
        let skipped = cases.filter { !$0.0.elicited.contains($0.1) }.count
        var xml = "  <testsuite name=\"\(escape(report.api)) coverage\" tests=\"\(cases.count)\" failures=\"0\" "
        xml += "skipped=\"\(skipped)\">\n"
        for (record, status) in cases {
            xml += "    <testcase classname=\"\(escape(report.api)).coverage\" name=\"\(escape("\(record.endpoint) \(status)"))\""
            if record.elicited.contains(status) {
                xml += "/>\n"
            } else {
                let reason = record.skipped.map { "operation not reached: \($0)" } ?? "status not elicited"
                xml += ">\n      <skipped message=\"\(escape(reason))\"/>\n    </testcase>\n"
            }
        }
        return xml + "  </testsuite>\n"
    }

    /// One `::error`/`::warning`/`::notice` workflow command per finding, then the summary.
    public static func github(_ reports: [CheckReport]) -> String {
        let findings = reports.flatMap(\.sortedFindings)
        var output = ""
        for finding in findings {
            let level = finding.severity == .error ? "error" : finding.severity == .warning ? "warning" : "notice"
            let place = [finding.endpoint, finding.location].compactMap { $0 }.joined(separator: " ")
            let count = (finding.occurrences > 1 ? " (×\(finding.occurrences))" : "")
                + (finding.basis == .document ? "" : " (\(finding.basis))")
            output += "::\(level) title=\(SpecChangeRenderer.escape(finding.rule.rawValue))::"
            output += SpecChangeRenderer.escape(place + ": " + finding.message + count) + "\n"
        }
        for report in reports {
            output += "::notice title=coverage::\(SpecChangeRenderer.escape("\(report.api): \(report.coverage.sentence)"))\n"
        }
        return output + DiagnosticSummary(findings).sentence + "\n"
    }

    /// `{"dates": ..., "keys": ..., "sampleClient"?: ..., "origin": ...}`: the app contract a report followed.
    static func appJSON(_ app: AppContract) -> JSONValue {
        guard case .object(var object) = app.canonicalJSON else { return app.canonicalJSON }
        object["origin"] = .string(app.origin)
        return .object(object)
    }

    /// `error /data/0/id: message [rule] expected …, found …`, with the curl line.
    static func line(_ finding: Diagnostic) -> String {
        var text = "\(finding.severity) \(finding.summary) \(finding.tag)"
        if finding.occurrences > 1 { text += " ×\(finding.occurrences)" }
        if !finding.examples.isEmpty { text += "\n  e.g. \(finding.examples.joined(separator: "; "))" }
        if let expected = finding.expected { text += "\n  expected: \(expected)" }
        if let found = finding.found { text += "\n  found: \(found)" }
        if let curl = finding.context["curl"] { text += "\n  curl: \(curl)" }
        return text
    }

    static func escape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\n", "\t", "\r": result.unicodeScalars.append(scalar)
            // XML 1.0 forbids other control characters, even escaped.
            case _ where scalar.value < 0x20: result += "?"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func seconds(_ value: Double) -> String {
        String(format: "%.3f", value)
    }
}
