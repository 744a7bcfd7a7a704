import Foundation
import UnderstudyCore

/// What `check --plan` prints: every request a run would send, in order, and the writes it would withhold, as a
/// rehearsal of the run (against a mock of the same document) recorded them in its ``CheckReport/journal``.
///
/// URLs are shown against the server the real run would call; secrets are replaced as in every other output.
///
/// ```swift
/// let rehearsal = await Checker(spec: spec, options: optionsAgainstTheMock).run()
/// print(CheckPlan(rehearsal, rehearsedAt: mockURL, server: "https://staging.example.com", redactor: redactor).text)
/// ```
public struct CheckPlan: Sendable {
    /// One line of the plan.
    public struct Step: Sendable, Hashable {
        public var method: HTTPMethod
        /// The URL against the real server, redacted.
        public var url: String
        /// The body's first characters, redacted, when it has one.
        public var body: String?
        public var endpoint: String
        public var probe: Bool
        public var withheld: String?
        /// What the rehearsal's mock answered.
        public var rehearsed: Int?
    }

    public let api: String
    public let server: String
    public let steps: [Step]

    /// The most characters of a body a step shows.
    static let bodyShown = 160

    /// - Parameters:
    ///   - rehearsal: the report of a run against `rehearsedAt`.
    ///   - rehearsedAt: the base URL the rehearsal called (the mock's).
    ///   - server: the base URL the real run calls.
    public init(_ rehearsal: CheckReport, rehearsedAt mock: String, server: String, redactor: Redactor) {
        api = rehearsal.api
        self.server = server
        steps = rehearsal.journal.map { entry in
            var url = entry.request.url
            if url.hasPrefix(mock) { url = server + url.dropFirst(mock.count) }
            let body = entry.request.body.map { bytes -> String in
                let text = String(decoding: bytes, as: UTF8.self)
                return text.count > Self.bodyShown ? String(text.prefix(Self.bodyShown)) + "…" : text
            }
            return Step(
                method: entry.request.method, url: redactor.redact(url), body: body.map(redactor.redact),
                endpoint: entry.endpoint, probe: entry.probe, withheld: entry.withheld, rehearsed: entry.status)
        }
    }

    /// The plan as text: a numbered line per request with the status the mock answered (`probe` marks the probes'
    /// requests, `withheld` the writes the run would not send, with the reason), then the counts.
    public var text: String {
        let width = String(steps.count).count
        var output = "\(api): \(steps.count) requests to \(server)\n"
        for (index, step) in steps.enumerated() {
            let number = String(repeating: " ", count: width - String(index + 1).count) + String(index + 1)
            let tag = step.withheld != nil ? "withheld " : step.probe ? "probe    " : "         "
            let status = step.rehearsed.map { "→\($0)" } ?? (step.withheld == nil ? "→ –" : "    ")
            var line = "  \(number)  \(tag)\(status) \(step.method.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)) \(step.url)"
            if let body = step.body, !body.isEmpty { line += "  \(body)" }
            if let reason = step.withheld { line += "\n" + String(repeating: " ", count: width + 18) + "not sent: \(reason)" }
            output += line + "\n"
        }
        let sent = steps.filter { $0.withheld == nil }
        let reads: Set<HTTPMethod> = [.get]
        let writes = sent.filter { !reads.contains($0.method) }
        output += "\(sent.count) would be sent (\(sent.count - writes.count) reads, \(writes.count) writes"
        output += ", \(sent.filter(\.probe).count) of them probes); \(steps.count - sent.count) withheld"
        output += steps.count == sent.count ? ".\n" : " (--destructive sends them).\n"
        return output
    }
}
