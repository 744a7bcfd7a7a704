import Foundation
import UnderstudyCore

extension RuleID {
    /// The run reached fewer operations than `--min-coverage` asks.
    public static let coverageBelowMinimum: RuleID = "check.coverage-below-minimum"
}

/// What a check reached: operations called at least once with a request meant to succeed, and the statuses the
/// document gives them that the server answered (probes included).
public struct CheckCoverage: Sendable, Hashable {
    public var operations: Int
    public var reached: Int
    /// The statuses the documents give the operations (`default` aside).
    public var statuses: Int
    /// Those the server answered.
    public var elicited: Int

    /// The share of operations reached, 1 for none.
    public var fraction: Double { operations == 0 ? 1 : Double(reached) / Double(operations) }

    /// `189 of 205 operations reached (92%), 241 of 412 documented statuses elicited`.
    public var sentence: String {
        "\(reached) of \(operations) operations reached (\(Int((fraction * 100).rounded(.down)))%), "
            + "\(elicited) of \(statuses) documented statuses elicited"
    }
}

extension CheckReport.EndpointRecord {
    /// Whether a request meant to succeed was sent.
    public var reached: Bool { skipped == nil }

    /// The statuses the document gives the endpoint, `default` aside, in order.
    public var documentedStatuses: [Int] { documented.compactMap { $0 }.sorted() }
}

extension CheckReport {
    /// What the run reached.
    public var coverage: CheckCoverage {
        CheckCoverage(
            operations: endpoints.count, reached: endpoints.filter(\.reached).count,
            statuses: endpoints.reduce(0) { $0 + $1.documentedStatuses.count },
            elicited: endpoints.reduce(0) { total, record in
                total + record.documentedStatuses.filter(record.elicited.contains).count
            })
    }

    /// The coverage table: one line per operation, its documented statuses marked elicited (`✓`) or not (`·`),
    /// the undocumented ones it answered (`+418`), or why it was not reached.
    ///
    /// ```
    /// coverage: 5 of 6 operations reached (83%), 7 of 11 documented statuses elicited
    ///   GET    /pets            200 ✓  401 ✓  404 ·
    ///   DELETE /pets/{petId}    not reached: deletes only items the check made, and POST /pets made none
    /// ```
    public var coverageTable: String {
        var output = "\(api) coverage: \(coverage.sentence)\n"
        let methodWidth = endpoints.map { $0.endpoint.split(separator: " ").first?.count ?? 0 }.max() ?? 0
        let pathWidth = endpoints.map { $0.endpoint.split(separator: " ", maxSplits: 1).last?.count ?? 0 }.max() ?? 0
        for record in endpoints {
            let parts = record.endpoint.split(separator: " ", maxSplits: 1).map(String.init)
            var line = "  " + (parts.first ?? "").padding(toLength: methodWidth, withPad: " ", startingAt: 0) + " "
            line += (parts.count > 1 ? parts[1] : "").padding(toLength: pathWidth, withPad: " ", startingAt: 0)
            if let reason = record.skipped {
                line += "  not reached: \(reason)"
            } else {
                var marks = record.documentedStatuses.map { "\($0) \(record.elicited.contains($0) ? "✓" : "·")" }
                if record.documented.contains(where: { $0 == nil }) { marks.append("default") }
                let documented = Set(record.documentedStatuses)
                marks += record.elicited.filter { !documented.contains($0) }.sorted().map { "+\($0)" }
                line += "  " + marks.joined(separator: "  ")
            }
            output += line + "\n"
        }
        return output
    }

    /// The record's entries for JSON reports.
    static func coverageJSON(_ record: EndpointRecord) -> [String: JSONValue] {
        [
            "reached": .bool(record.reached),
            "documentedStatuses": .array(record.documentedStatuses.map(JSONValue.integer)),
            "documentsDefault": .bool(record.documented.contains { $0 == nil }),
            "elicitedStatuses": .array(record.elicited.sorted().map(JSONValue.integer)),
        ]
    }

    /// The finding that fails a run reaching fewer operations than `minimum` (a share, 0 to 1); `nil` otherwise.
    func coverageFinding(minimum: Double) -> Diagnostic? {
        guard coverage.fraction < minimum else { return nil }
        let unreached = endpoints.filter { !$0.reached }.map { "\($0.endpoint) (\($0.skipped ?? ""))" }
        return Diagnostic(
            .error, rule: .coverageBelowMinimum,
            message: "\(coverage.sentence), below --min-coverage \(Int((minimum * 100).rounded()))%",
            expected: "at least \(Int((minimum * 100).rounded()))% of the operations reached",
            found: "\(Int((coverage.fraction * 100).rounded(.down)))%",
            context: ["unreached": unreached.joined(separator: "; ")])
    }
}
