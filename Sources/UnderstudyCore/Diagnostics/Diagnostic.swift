/// A finding: a contract violation, a decode failure the app would hit, or a note.
///
/// Findings are values, not failures: they are collected and rendered (terminal, JSON, ...),
/// and only a tool failure is thrown.
///
/// ```swift
/// Diagnostic(.error, rule: .typeMismatch, at: "/data/0/id",
///            message: "expected string, found integer 12", expected: "string", found: "integer 12")
/// ```
public struct Diagnostic: Sendable, Hashable {
    /// How serious a finding is; ordered `note < warning < error`.
    public enum Severity: String, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
        case note, warning, error

        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }

        public var description: String { rawValue }
    }

    /// What a finding rests on: what the document says, or what the spec assumes where no document says it.
    public enum Basis: Sendable, Hashable, CustomStringConvertible {
        /// The document, or a fact recorded beside it (ENDPOINTS.md, a migration).
        case document
        /// An assumption of the spec, named by the ``Ambiguity/id`` that records it (`error-statuses`).
        case assumption(String)

        /// `document` or `assumed`, as JSON reports write it.
        public var name: String {
            switch self {
            case .document: "document"
            case .assumption: "assumed"
            }
        }

        /// `assumed: error-statuses`, as text reports write it; empty for the document.
        public var description: String {
            switch self {
            case .document: ""
            case .assumption(let ambiguity): "assumed: \(ambiguity)"
            }
        }
    }

    public var severity: Severity
    public var rule: RuleID
    /// What the finding rests on; a check caps findings that rest on an assumption at warnings but with `--strict`.
    public var basis: Basis = .document
    /// Where in the JSON document the finding is.
    public var pointer: JSONPointer
    /// The endpoint (`METHOD /path`) the finding is about, when there is one.
    public var endpoint: String?
    /// One sentence, without the location (renderers put the location first).
    public var message: String
    public var expected: String?
    public var found: String?
    /// Extra facts, such as a `curl` line to reproduce; rendered sorted by key.
    public var context: [String: String]
    /// How many times the same rule fired at the same schema location (array indices collapsed), when
    /// findings are merged by root cause.
    public var occurrences: Int = 1
    /// The first other places and values a merged finding was seen with (`/data/7/startDate: found ...`).
    public var examples: [String] = []

    public init(
        _ severity: Severity, rule: RuleID, at pointer: JSONPointer = .root, endpoint: String? = nil,
        message: String, expected: String? = nil, found: String? = nil, context: [String: String] = [:]
    ) {
        self.severity = severity
        self.rule = rule
        self.pointer = pointer
        self.endpoint = endpoint
        self.message = message
        self.expected = expected
        self.found = found
        self.context = context
    }

    /// How many examples a merged finding keeps.
    public static let examplesKept = 3

    /// Counts `other`, the same root cause seen again, into this finding: its occurrences, the higher
    /// severity, and its place as an example while fewer than ``examplesKept`` are kept.
    public mutating func absorb(_ other: Diagnostic) {
        occurrences += other.occurrences
        if severity < other.severity { severity = other.severity }
        let example = other.example
        if example != self.example, examples.count < Self.examplesKept, !examples.contains(example) {
            examples.append(example)
        }
    }

    /// `/data/3/startDate: expected string in date-time format, found "2023-09-15T08:00:00"`: where, and what
    /// the message says, with what was found when the message does not say it.
    var example: String {
        let what = found.map { message.contains($0) ? message : "\(message) (found: \($0))" } ?? message
        return pointer.displayString + ": " + what
    }

    /// The finding resting on `assumption` (an ``Ambiguity/id``) when there is one, else unchanged.
    public func assuming(_ assumption: String?) -> Diagnostic {
        guard let assumption else { return self }
        var copy = self
        copy.basis = .assumption(assumption)
        return copy
    }

    /// `[rule]`, or `[rule, assumed: error-statuses]`: how reports tag a finding.
    public var tag: String {
        basis == .document ? "[\(rule)]" : "[\(rule), \(basis)]"
    }

    /// `pointer: message`, the one-line form used in terminal output and tests.
    public var summary: String { "\(location): \(message)" }

    /// The pointer as reports show it: array indices collapsed (`/data/*/startDate`) once the finding stands
    /// for several places.
    public var location: String { (occurrences > 1 ? pointer.collapsingIndices : pointer).displayString }
}

/// A stable identifier of the rule behind a finding, such as `schema.type-mismatch`.
///
/// Rule ids never change once published: CI configurations and suppressions refer to them.
public struct RuleID: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public var description: String { rawValue }
    public static func < (lhs: RuleID, rhs: RuleID) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension RuleID {
    // Schema validation.
    public static let typeMismatch: RuleID = "schema.type-mismatch"
    public static let requiredMissing: RuleID = "schema.required-missing"
    public static let nullNotAllowed: RuleID = "schema.null-not-allowed"
    public static let enumUnknown: RuleID = "schema.enum-unknown"
    public static let formatMismatch: RuleID = "schema.format-mismatch"
    public static let belowMinimum: RuleID = "schema.minimum"
    public static let aboveMaximum: RuleID = "schema.maximum"
    public static let tooShort: RuleID = "schema.min-length"
    public static let tooLong: RuleID = "schema.max-length"
    public static let patternMismatch: RuleID = "schema.pattern"
    public static let objectRuleBroken: RuleID = "schema.object-rule"
    public static let tooFewItems: RuleID = "schema.min-items"
    public static let tooManyItems: RuleID = "schema.max-items"
    public static let unknownProperty: RuleID = "schema.unknown-property"
    public static let forbiddenProperty: RuleID = "schema.additional-property"
    public static let invalidKey: RuleID = "schema.invalid-key"
    public static let oddPairs: RuleID = "schema.pairs-odd-count"
    public static let noAlternative: RuleID = "schema.one-of"
    public static let unresolvedReference: RuleID = "schema.unresolved-reference"
    // App decoding.
    public static let decodeTypeMismatch: RuleID = "decode.type-mismatch"
    public static let decodeKeyNotFound: RuleID = "decode.key-not-found"
    public static let decodeValueNotFound: RuleID = "decode.value-not-found"
    public static let decodeDataCorrupted: RuleID = "decode.data-corrupted"
    // Body.
    public static let invalidJSON: RuleID = "body.invalid-json"
}
