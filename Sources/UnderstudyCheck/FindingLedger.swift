import UnderstudyCore

/// Findings as they are reported by `check` and `proxy`: each once, redacted, with the `curl` line of the
/// request that produced it.
///
/// Secrets learnt along the way (a token obtained by signing in, one seen in traffic) are added to the
/// redactor before anything that could contain them is recorded.
struct FindingLedger {
    var redactor: Redactor
    private var seen: Set<Diagnostic> = []

    init(redactor: Redactor = Redactor()) {
        self.redactor = redactor
    }

    /// The findings not recorded before, redacted and with `request`'s curl line.
    mutating func record(_ findings: [Diagnostic], request: OutgoingRequest?) -> [Diagnostic] {
        let curl = request.map { Curl.command(for: $0, redactor: redactor) }
        var fresh: [Diagnostic] = []
        for finding in findings {
            var finding = finding
            if let curl, finding.context["curl"] == nil { finding.context["curl"] = curl }
            // The decoder's own wording is already in the message; keeping it would repeat it.
            finding.context["decoder"] = nil
            let redacted = redactor.redact(finding)
            // The same finding from another request (a page walk, a repeated app request) says nothing new.
            var key = redacted
            key.context = [:]
            if seen.insert(key).inserted { fresh.append(redacted) }
        }
        return fresh
    }
}
