/// Collects findings, optionally merging repeats of one root cause: one finding per rule and location with array
/// indices (and map entries) collapsed, its ``Diagnostic/occurrences`` counted and its first
/// ``Diagnostic/examplesKept`` other places absorbed.
///
/// A drifted field in a list of 100,000 elements is then one finding, and memory does not grow with the list:
/// once a finding holds its examples, a repeat only counts, and its texts are never built.
///
/// ```swift
/// var findings = FindingMerger(merging: true)
/// findings.add(.typeMismatch, severity: .error, location: ["data", nil, "id"]) { makeDiagnostic() }
/// ```
struct FindingMerger {
    /// Whether repeats are merged; otherwise every finding is kept.
    let merging: Bool
    private(set) var findings: [Diagnostic] = []
    /// Where each rule's finding at each collapsed location is in `findings`.
    private var positions: [Key: Int] = [:]

    struct Key: Hashable {
        let rule: RuleID
        /// The instance location's tokens, `nil` for an array index or a map entry.
        let location: [String?]
    }

    init(merging: Bool) {
        self.merging = merging
    }

    /// Adds the finding `make` builds, unless it is a repeat that only needs counting.
    /// - Parameters:
    ///   - location: the collapsed location (only read when merging).
    ///   - make: builds the finding; not called for a repeat past the kept examples.
    mutating func add(
        _ rule: RuleID, severity: Diagnostic.Severity, location: @autoclosure () -> [String?],
        _ make: () -> Diagnostic
    ) {
        guard merging else { return findings.append(make()) }
        let key = Key(rule: rule, location: location())
        guard let position = positions[key] else {
            positions[key] = findings.count
            return findings.append(make())
        }
        if findings[position].examples.count < Diagnostic.examplesKept || findings[position].severity < severity {
            findings[position].absorb(make())
        } else {
            findings[position].occurrences += 1
        }
    }
}
