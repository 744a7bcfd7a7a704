import ArgumentParser
import Foundation
import UnderstudyCore
import UnderstudySpecs

/// `understudy generate`: seeded fixtures for every endpoint.
struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write deterministic fixtures (request and response bodies) for every endpoint of an API.",
        discussion: """
            Each endpoint gets <out>/<api>/<METHOD>_<path>.json with "request" and "responses" by status. \
            Document examples are used verbatim when they validate and decode; other bodies are generated \
            from the schema. The same seed always writes the same bytes.
            """)

    @Option(help: "The API (\(Specs.selectorList)).")
    var api: APISelection?

    @Option(help: "An OpenAPI 3 or Swagger 2 document (JSON or YAML) to write fixtures for, with --api's or alone. Repeatable.")
    var spec: [String] = []

    func validate() throws {
        guard api != nil || !spec.isEmpty else { throw ValidationError("give --api NAME or --spec FILE") }
    }

    @Option(help: "The seed of the generator.")
    var seed: UInt64 = 1

    @Option(help: "The folder to write into; created if missing.")
    var out: String

    func run() throws {
        let specs = try SpecFiles.specs(api: api, documents: spec)
        do {
            let written = try Self.write(specs, seed: seed, to: URL(fileURLWithPath: out))
            print("\(written.count) fixture files written to \(out)")
        } catch {
            FileHandle.standardError.write(Data("error: cannot write fixtures to \(out): \(error)\n".utf8))
            throw ExitStatus.toolFailure
        }
    }

    /// Writes the fixtures of each spec; returns the paths written.
    static func write(_ specs: [APISpec], seed: UInt64, to folder: URL) throws -> [String] {
        var written: [String] = []
        for spec in specs {
            let apiFolder = folder.appendingPathComponent(spec.id)
            try FileManager.default.createDirectory(at: apiFolder, withIntermediateDirectories: true)
            for fixture in spec.fixtures(seed: seed) {
                let file = apiFolder.appendingPathComponent(fixture.fileName)
                try Data(fixture.jsonValue.serialized(.pretty).utf8).write(to: file, options: .atomic)
                written.append(file.path)
            }
        }
        return written
    }
}
