import UnderstudyCore

/// The `Prefer` header (RFC 7240) as PostgREST reads it.
package struct PostgrestPreferences {
    package enum Return: String { case minimal, headersOnly = "headers-only", representation }
    package enum Count: String { case exact, planned, estimated }
    package enum Resolution: String {
        case mergeDuplicates = "merge-duplicates", ignoreDuplicates = "ignore-duplicates"
    }

    package var returning: Return?
    package var count: Count?
    package var resolution: Resolution?
    package var strict = false
    package var maxAffected: Int?
    /// `missing=default`: a key an object of the body lacks takes the column's default rather than NULL.
    package var missingDefault = false
    /// The preferences honoured, for `Preference-Applied`.
    package private(set) var applied: [String] = []

    /// Parses the header; unknown or invalid preferences are ignored unless `handling=strict`.
    /// - Throws: PGRST122 for invalid preferences under `handling=strict`.
    package init(_ header: String?) throws(PostgrestError) {
        var invalid: [String] = []
        let parts = (header ?? "").split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
        for part in parts {
            // Empty pieces kept: `Prefer: =` is a preference with no name, not a trap.
            let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                .map { String($0).trimmingSpaces }
            let value = pair.count > 1 ? pair[1] : ""
            switch pair[0] {
            case "return":
                guard let parsed = Return(rawValue: value) else { invalid.append(part); continue }
                returning = parsed
            case "count":
                guard let parsed = Count(rawValue: value) else { invalid.append(part); continue }
                count = parsed
            case "resolution":
                guard let parsed = Resolution(rawValue: value) else { invalid.append(part); continue }
                resolution = parsed
            case "handling":
                guard value == "strict" || value == "lenient" else { invalid.append(part); continue }
                strict = value == "strict"
            case "max-affected":
                guard let parsed = Int(value), parsed >= 0 else { invalid.append(part); continue }
                maxAffected = parsed
            case "missing":
                guard value == "default" || value == "null" else { invalid.append(part); continue }
                missingDefault = value == "default"
            case "timezone", "tx", "params":
                continue
            default:
                invalid.append(part)
                continue
            }
            applied.append(part)
        }
        if strict && !invalid.isEmpty {
            throw PostgrestErrors.make(
                .badRequest, code: "PGRST122", "Invalid preferences given with handling=strict",
                details: "Invalid preferences: \(invalid.joined(separator: ", "))")
        }
    }

    /// `Preference-Applied`, when any preference was honoured.
    package var headers: [(name: String, value: String)] {
        applied.isEmpty ? [] : [("Preference-Applied", applied.joined(separator: ", "))]
    }
}

/// The rows a read asks for: the `Range` header intersected with `offset` / `limit`.
package struct PostgrestRange: Equatable {
    package var lower: Int
    /// Inclusive; `nil` for no upper bound.
    package var upper: Int?

    /// - Throws: PGRST103 (416) for a `Range` whose lower bound is above its upper bound.
    package init(header: String?, unit: String?, offset: Int, limit: Int?) throws(PostgrestError) {
        lower = offset
        // Saturating: `offset` and `limit` may each be Int.max, and a range past every row is simply empty.
        upper = limit.map { offset.addingSaturated($0 - 1) }
        guard unit == nil || unit == "items", let header, let parsed = Self.parse(header) else { return }
        if let headerUpper = parsed.upper, headerUpper < parsed.lower {
            throw PostgrestErrors.range(
                "The lower boundary must be lower than or equal to the upper boundary in the Range header.")
        }
        lower = max(lower, parsed.lower)
        switch (upper, parsed.upper) {
        case (let a?, let b?): upper = min(a, b)
        case (nil, let b): upper = b
        default: break
        }
    }

    /// `0-24`, `10-`, or `items=0-24`; anything else is ignored, as PostgREST ignores it.
    private static func parse(_ header: String) -> (lower: Int, upper: Int?)? {
        var text = Substring(header.trimmingSpaces)
        if text.hasPrefix("items=") { text = text.dropFirst(6) }
        let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let lower = Int(parts[0]), lower >= 0 else { return nil }
        if parts[1].isEmpty { return (lower, nil) }
        guard let upper = Int(parts[1]), upper >= 0 else { return nil }
        return (lower, upper)
    }

    /// The positions of `count` rows that fall in the range.
    package func slice(_ count: Int) -> Range<Int> {
        let start = min(lower, count)
        let end = upper.map { $0 >= count ? count : $0 + 1 } ?? count
        return start..<max(start, end)
    }
}

extension Int {
    /// `self + other`, or `Int.max` when the sum does not fit (`self` is never negative here).
    package func addingSaturated(_ other: Int) -> Int {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }
}
