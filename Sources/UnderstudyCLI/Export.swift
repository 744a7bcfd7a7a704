import ArgumentParser
import Foundation
import UnderstudyCore
import UnderstudySpecs
import UnderstudyOpenAPI

/// `understudy export`: the canonical spec JSON of each API, the baseline committed under `specs/`, or
/// its OpenAPI 3.1 document (`specs/openapi/`).
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the canonical spec JSON (or OpenAPI 3.1 document) of each API, sorted and stable, into a folder."
    )

    @Option(help: "The API to export (\(Specs.selectorList)).")
    var api: APISelection = .all

    @Option(help: "The folder to write <api>.json (or .openapi.json, .openapi.yaml) files into; created if missing.")
    var out: String

    @Option(help: "What to write: canonical (the diff baseline), openapi (OpenAPI 3.1 JSON) or openapi-yaml.")
    var format: Format = .canonical

    /// The kinds of document `export` writes.
    enum Format: String, CaseIterable, ExpressibleByArgument {
        case canonical, openapi
        case openapiYAML = "openapi-yaml"
    }

    func run() throws {
        do {
            for path in try Self.write(api.specs, to: URL(fileURLWithPath: out), format: format) {
                print(path)
            }
        } catch {
            FileHandle.standardError.write(Data("error: cannot export to \(out): \(error)\n".utf8))
            throw ExitStatus.toolFailure
        }
    }

    /// Writes one file per spec; returns the paths written.
    static func write(_ specs: [APISpec], to folder: URL, format: Format = .canonical) throws -> [String] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try specs.map { spec in
            let (name, text) =
                switch format {
                case .canonical: ("\(spec.id).json", spec.canonicalJSON.serialized(.pretty))
                case .openapi: ("\(spec.id).openapi.json", try OpenAPIExport.json(spec))
                case .openapiYAML: ("\(spec.id).openapi.yaml", try OpenAPIExport.yaml(spec))
                }
            let file = folder.appendingPathComponent(name)
            try Data(text.utf8).write(to: file, options: .atomic)
            return file.path
        }
    }
}
