import UnderstudyCore

extension RuleID {
    /// An answer had more distinct findings than `--max-findings-per-response`; the rest are counted here.
    public static let findingsCapped: RuleID = "report.capped"
}

/// Findings as `check` and `proxy` report them: one per root cause, redacted, with the `curl` line of the
/// first request that showed it.
///
/// Findings with the same rule, endpoint and schema location (array indices collapsed: `/data/*/startDate`)
/// are one finding with an occurrence count and its first examples, however many elements, pages or
/// requests repeat it. One answer adds at most ``maximumPerResponse`` distinct findings; the rest become
/// one "and N more like this". Secrets learnt along the way (a token obtained by signing in, one seen in
/// traffic) are added to the redactor before anything that could contain them is recorded.
///
/// A finding that rests on an assumption of the spec (``Diagnostic/Basis``) is recorded as a warning at most, unless
/// the ledger is ``strict`` (`--strict`): a team can gate CI on what the documents say.
struct FindingLedger {
    var redactor: Redactor
    /// Whether findings that rest on an assumption keep their severity.
    var strict = false
    /// The most distinct findings one answer adds.
    var maximumPerResponse: Int
    /// Every finding, merged, in the order first seen.
    private(set) var findings: [Diagnostic] = []
    private var index: [Key: Int] = [:]

    struct Key: Hashable {
        var rule: RuleID
        var endpoint: String?
        var location: JSONPointer
        var basis: Diagnostic.Basis
        /// What a finding that judges no answer says (a note about the document, a skipped endpoint): such
        /// findings are told apart by their message, not merged.
        var statement: String?
    }

    init(redactor: Redactor = Redactor(), maximumPerResponse: Int = 20, strict: Bool = false) {
        self.redactor = redactor
        self.strict = strict
        self.maximumPerResponse = max(1, maximumPerResponse)
    }

    /// Records the findings of one answer; returns those that start a new group (the proxy streams them).
    mutating func record(_ findings: [Diagnostic], request: OutgoingRequest?) -> [Diagnostic] {
        let curl = request.map { Curl.command(for: $0, redactor: redactor) }
        var fresh: [Diagnostic] = []
        var capped: [Diagnostic] = []
        for finding in findings {
            var finding = redactor.redact(finding)
            // The decoder's own wording is already in the message; keeping it would repeat it.
            finding.context["decoder"] = nil
            if finding.basis != .document, !strict { finding.severity = min(finding.severity, .warning) }
            let key = Key(
                rule: finding.rule, endpoint: finding.endpoint, location: finding.pointer.collapsingIndices,
                basis: finding.basis, statement: request == nil ? finding.message : nil)
            if let position = index[key] {
                self.findings[position].absorb(finding)
            } else if fresh.count >= maximumPerResponse {
                capped.append(finding)
            } else {
                if let curl, finding.context["curl"] == nil { finding.context["curl"] = curl }
                index[key] = self.findings.count
                self.findings.append(finding)
                fresh.append(finding)
            }
        }
        if let first = capped.first {
            let severity = capped.map(\.severity).max()!
            let more = Diagnostic(
                severity, rule: .findingsCapped, endpoint: first.endpoint,
                message: "and \(capped.count) more like this in the same answer (--max-findings-per-response \(maximumPerResponse))",
                context: curl.map { ["curl": $0] } ?? [:])
            let key = Key(rule: .findingsCapped, endpoint: first.endpoint, location: .root, basis: .document)
            if let position = index[key] {
                self.findings[position].occurrences += capped.count
            } else {
                index[key] = self.findings.count
                var counted = more
                counted.occurrences = capped.count
                self.findings.append(counted)
                fresh.append(counted)
            }
        }
        return fresh
    }
}
