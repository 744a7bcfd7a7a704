import ArgumentParser
import Foundation
import UnderstudyCore
import UnderstudySpecs
import UnderstudyOpenAPI

/// `understudy diff`: breaking-change detection between spec versions.
struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare two spec versions and classify every change by what it does to the apps' Swift models.",
        discussion: """
            OLD and NEW are each a canonical spec file (`understudy export`), an OpenAPI 3.0, 3.1 or Swagger 2.0 \
            document (JSON or YAML, such as `understudy export --format openapi` writes), or a folder of them (its \
            *.json, *.yaml and *.yml files; a document is recognised by its top-level `openapi` or `swagger` key; subfolders \
            are not read). With --baseline DIR, the current descriptors are compared with the committed baseline. Exit status: 0 when no change \
            reaches --fail-on, 1 when one does, 2 when a side cannot be read, 64 bad usage. To accept a \
            breaking change, update the baseline in the same commit: `swift run understudy export --api all --out specs`.
            """)

    @Argument(help: "The old spec: a canonical spec JSON file, an OpenAPI document, or a folder of them.")
    var old: String?

    @Argument(help: "The new spec: a canonical spec JSON file, an OpenAPI document, or a folder of them.")
    var new: String?

    @Option(help: "Compare the current descriptors with this folder of canonical specs (the committed baseline).")
    var baseline: String?

    @Option(help: "Limit to one API (\(Specs.selectorList)).")
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
        let before: [String: SpecVersion]
        let after: [String: SpecVersion]
        if let baseline {
            before = try load(baseline)
            after = Dictionary(uniqueKeysWithValues: api.specs.map { ($0.id, SpecVersion($0)) })
        } else {
            before = try load(old!)
            var loaded = try load(new!)
            // Two versions of one document (`petstore-v1.yaml`, `petstore-v2.yaml`) are one API, whatever each file
            // is named after: a file against a file compares their APIs when each holds one.
            if !isFolder(old!), !isFolder(new!), before.count == 1, loaded.count == 1, let id = before.keys.first,
                let (otherID, other) = loaded.first, otherID != id, case .object(var members) = other.canonical
            {
                var version = other
                members["api"] = .string(id)
                version.canonical = .object(members)
                loaded = [id: version]
            }
            after = loaded
        }
        let selected = { (documents: [String: SpecVersion]) in
            api == .all ? documents : documents.filter { ids.contains($0.key) }
        }
        return SpecDiff.compare(old: selected(before), new: selected(after))
    }

    private static func isFolder(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
    }

    /// A canonical spec or OpenAPI file, or every such file directly in a folder, keyed by API id.
    static func load(_ path: String) throws -> [String: SpecVersion] {
        guard FileManager.default.fileExists(atPath: path) else { throw DiffError("\(path) does not exist") }
        let files: [String]
        if isFolder(path) {
            let extensions = [".json", ".yaml", ".yml"]
            files = try FileManager.default.contentsOfDirectory(atPath: path)
                .filter { name in extensions.contains { name.hasSuffix($0) } }.sorted()
                .map { (path as NSString).appendingPathComponent($0) }
        } else {
            files = [path]
        }
        var documents: [String: SpecVersion] = [:]
        var sources: [String: String] = [:]
        for file in files {
            let document: JSONValue
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
            do {
                document =
                    file.hasSuffix(".json") ? try JSONParser().parse(bytes) : try OpenAPIImport.parse(bytes, source: file)
            } catch {
                throw DiffError("\(file) is not \(file.hasSuffix(".json") ? "JSON" : "YAML"): \(error)")
            }
            var version = SpecVersion(canonical: document)
            if OpenAPIImport.isOpenAPI(document) {
                let name = (file as NSString).lastPathComponent
                let stem = name.split(separator: ".").first.map(String.init) ?? name
                version = SpecVersion(try OpenAPIImport.spec(document: document, source: file, fallbackID: stem))
            }
            guard let id = version.canonical["api"]?.stringValue, version.canonical["endpoints"]?.arrayValue != nil else {
                throw DiffError(
                    "\(file) is neither a canonical spec (no \"api\" and \"endpoints\") nor an OpenAPI document "
                        + "(no \"openapi\"); write one with `understudy export`")
            }
            if let other = sources[id] {
                throw DiffError("\(other) and \(file) both describe API \(id); keep one of them in the folder")
            }
            sources[id] = file
            documents[id] = version
        }
        return documents
    }

    struct DiffError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}

extension SpecChangeRenderer.Format: ExpressibleByArgument {}
