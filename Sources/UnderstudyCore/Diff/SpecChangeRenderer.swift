import Foundation

/// Renders spec changes as text lines, JSON, GitHub Actions annotations or a Markdown table for a PR comment.
public enum SpecChangeRenderer {
    /// The output formats of `understudy diff`.
    public enum Format: String, Sendable, CaseIterable {
        case text, json, github, markdown
    }

    /// Bumped whenever the JSON shape changes.
    public static let formatVersion = 1

    public static func render(_ changes: [SpecChange], as format: Format) -> String {
        let counts = Dictionary(grouping: changes, by: \.impact).mapValues(\.count)
        let summary = SpecChange.Impact.allCases.map { "\(counts[$0] ?? 0) \($0.rawValue)" }.joined(separator: ", ")
        switch format {
        case .text:
            return rootCauses(changes).map(\.text).joined() + summary + "\n"
        case .json:
            let document: JSONValue = [
                "formatVersion": .integer(formatVersion),
                "summary": .object(Dictionary(uniqueKeysWithValues: SpecChange.Impact.allCases.map { ($0.rawValue, .integer(counts[$0] ?? 0)) })),
                "changes": .array(changes.map { change in
                    var object: [String: JSONValue] = [
                        "impact": .string(change.impact.rawValue), "rule": .string(change.rule.rawValue),
                        "api": .string(change.api), "message": .string(change.message),
                    ]
                    if let endpoint = change.endpoint { object["endpoint"] = .string(endpoint) }
                    if let location = change.location { object["location"] = .string(location) }
                    return .object(object)
                }),
            ]
            return document.serialized(.pretty)
        case .github:
            return changes.map { change in
                let level = change.impact == .breaking ? "error" : change.impact == .warning ? "warning" : "notice"
                let place = [change.api, change.endpoint, change.location].compactMap { $0 }.joined(separator: " ")
                return "::\(level) title=\(escape(change.rule.rawValue))::\(escape(place + ": " + change.message))\n"
            }.joined() + summary + "\n"
        case .markdown:
            var output = "### Spec changes: \(summary)\n\n"
            guard !changes.isEmpty else { return output + "No changes.\n" }
            output += "| impact | rule | API | endpoint | location | change |\n|---|---|---|---|---|---|\n"
            for change in changes {
                let cells = [
                    change.impact == .breaking ? "**breaking**" : change.impact.rawValue, "`\(change.rule)`", change.api,
                    change.endpoint.map { "`\($0)`" } ?? "", change.location.map { "`\($0)`" } ?? "", change.message,
                ]
                output += "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |\n"
            }
            return output
        }
    }

    /// The changes grouped by root cause: one rule and message at one field (the location's last member, on
    /// the same side) across endpoints is one cause, such as a shared model's date that changed type. Each
    /// group in the order of its first change.
    static func rootCauses(_ changes: [SpecChange]) -> [RootCause] {
        var groups: [RootCause] = []
        var index: [String: Int] = [:]
        for change in changes {
            let key = [change.impact.rawValue, change.rule.rawValue, change.api, change.message, RootCause.field(change)]
                .joined(separator: "\u{1}")
            if let position = index[key] {
                groups[position].changes.append(change)
            } else {
                index[key] = groups.count
                groups.append(RootCause(changes: [change]))
            }
        }
        return groups
    }

    /// One cause and the places it shows.
    struct RootCause {
        var changes: [SpecChange]

        /// `response …/startDate`: the side and the last member of a location; `nil` without a location.
        static func field(_ change: SpecChange) -> String {
            guard let location = change.location, let member = location.split(separator: "/").last,
                location.contains("/")
            else { return change.location.map { "\($0) at \(change.endpoint ?? "")" } ?? change.endpoint ?? "" }
            return "\(location.split(separator: " ").first ?? "") …/\(member)"
        }

        /// The change's line when it is alone; else one line with the count, then where (the first five).
        var text: String {
            guard changes.count > 1, let first = changes.first else { return changes[0].line + "\n" }
            let endpoints = Set(changes.compactMap(\.endpoint)).count
            var text = "\(first.impact.rawValue) \(first.rule.rawValue) \(first.api) \(Self.field(first)), "
                + "\(changes.count) places on \(endpoints) endpoint\(endpoints == 1 ? "" : "s"): \(first.message)\n"
            let places = changes.map { [$0.endpoint, $0.location].compactMap { $0 }.joined(separator: " ") }
            text += "    " + places.prefix(5).joined(separator: "; ")
                + (places.count > 5 ? "; and \(places.count - 5) more" : "") + "\n"
            return text
        }
    }

    /// GitHub workflow commands need `%`, CR and LF escaped.
    package static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }
}
