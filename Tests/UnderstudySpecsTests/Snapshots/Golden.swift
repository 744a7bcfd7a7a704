import Foundation
import Testing

/// Golden files under the top-level `snapshots/` folder.
///
/// A mismatch fails and shows the first differing lines. A missing file fails too; golden files are
/// written only when `UNDERSTUDY_RECORD_SNAPSHOTS=1` is set (never in CI: `.ci/run` does not set it):
/// `UNDERSTUDY_RECORD_SNAPSHOTS=1 swift test --filter DecodingSnapshotTests`, then review and commit.
enum Golden {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("snapshots")

    static var recording: Bool { ProcessInfo.processInfo.environment["UNDERSTUDY_RECORD_SNAPSHOTS"] == "1" }

    static func assert(_ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let file = folder.appendingPathComponent(name)
        if recording {
            try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? Data(text.utf8).write(to: file)
            return
        }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            Issue.record(
                "no golden file snapshots/\(name); record it with UNDERSTUDY_RECORD_SNAPSHOTS=1 swift test --filter DecodingSnapshotTests",
                sourceLocation: sourceLocation)
            return
        }
        let expected = String(decoding: data, as: UTF8.self)
        guard expected != text else { return }
        Issue.record("snapshots/\(name) differs:\n\(difference(expected, text))", sourceLocation: sourceLocation)
    }

    /// The first differing lines, `-` golden and `+` actual, with line numbers.
    static func difference(_ expected: String, _ actual: String) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var lines: [String] = []
        for index in 0..<max(old.count, new.count) where lines.count < 24 {
            let left = index < old.count ? String(old[index]) : nil
            let right = index < new.count ? String(new[index]) : nil
            guard left != right else { continue }
            if let left { lines.append("\(index + 1) - \(left)") }
            if let right { lines.append("\(index + 1) + \(right)") }
        }
        return lines.joined(separator: "\n")
    }
}
