import ArgumentParser
import Foundation
import UnderstudyCore

/// `understudy diff`: breaking-change detection between spec versions.
struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare two spec versions and classify every change by what it does to the apps' Swift models.",
        discussion: """
            OLD and NEW are canonical spec files (`understudy export`) or folders of them. With --baseline DIR, \
            the current descriptors are compared with the committed baseline. Exit status: 0 when no change \
            reaches --fail-on, 1 when one does, 2 when a side cannot be read, 64 bad usage. To accept a \
            breaking change, update the baseline in the same commit: `swift run understudy export --api all --out specs`.
            """)

    @Argument(help: "The old spec: a canonical spec JSON file or a folder of them.")
    var old: String?

    @Argument(help: "The new spec: a canonical spec JSON file or a folder of them.")
    var new: String?

    @Option(help: "Compare the current descriptors with this folder of canonical specs (the committed baseline).")
    var baseline: String?

    @Option(help: "Limit to one API (fitness, achievements, apinest, videgreniers, easyco, intra42, all).")
    var api: APISelection = .all

    @Option(help: "Output format: text, json, github or markdown.")
    var format: SpecChangeRenderer.Format = .text

    @Option(help: "The lowest impact that fails the run: breaking, warning, compatible or never.")
    var failOn: FailOn = .breaking

    enum FailOn: String, CaseIterable, ExpressibleByArgument {
        case breaking, warning, compatible, never
    }

    func validate() throws {
        switch (baseline, old, new) {
        case (_?, nil, nil), (nil, _?, _?): break
        case (_?, _, _): throw ValidationError("give either --baseline DIR or OLD and NEW, not both")
        default: throw ValidationError("give OLD and NEW, or --baseline DIR")
        }
    }

    func run() throws {
        let changes: [SpecChange]
        do {
            changes = try Self.changes(old: old, new: new, baseline: baseline, api: api)
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitStatus.toolFailure
        }
        print(SpecChangeRenderer.render(changes, as: format), terminator: "")
        let threshold: SpecChange.Impact? = switch failOn {
        case .breaking: .breaking
        case .warning: .warning
        case .compatible: .compatible
        case .never: nil
        }
        if let threshold, changes.contains(where: { $0.impact <= threshold }) { throw ExitStatus.findings }
    }

    /// The changes between the two sides, restricted to the selected APIs.
    static func changes(old: String?, new: String?, baseline: String?, api: APISelection) throws -> [SpecChange] {
        let ids = Set(api.specs.map(\.id))
        let before: [String: JSONValue]
        let after: [String: JSONValue]
        if let baseline {
            before = try load(baseline)
            after = Dictionary(uniqueKeysWithValues: api.specs.map { ($0.id, $0.canonicalJSON) })
        } else {
            before = try load(old!)
            after = try load(new!)
        }
        let selected = { (documents: [String: JSONValue]) in
            api == .all ? documents : documents.filter { ids.contains($0.key) }
        }
        return SpecDiff.compare(old: selected(before), new: selected(after))
    }

    /// A canonical spec file, or every `*.json` file directly in a folder, keyed by API id.
    static func load(_ path: String) throws -> [String: JSONValue] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw DiffError("\(path) does not exist")
        }
        let files: [String]
        if isFolder.boolValue {
            files = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".json") }.sorted()
                .map { (path as NSString).appendingPathComponent($0) }
        } else {
            files = [path]
        }
        var documents: [String: JSONValue] = [:]
        for file in files {
            let document: JSONValue
            do {
                document = try JSONParser().parse(Array(try Data(contentsOf: URL(fileURLWithPath: file))))
            } catch {
                throw DiffError("\(file) is not JSON: \(error)")
            }
            guard let id = document["api"]?.stringValue, document["endpoints"]?.arrayValue != nil else {
                throw DiffError("\(file) is not a canonical spec (no \"api\" and \"endpoints\"); write one with `understudy export`")
            }
            documents[id] = document
        }
        return documents
    }

    struct DiffError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

extension SpecChangeRenderer.Format: ExpressibleByArgument {}
