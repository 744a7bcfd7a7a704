import ArgumentParser
import Foundation
import UnderstudyCore

/// `understudy export`: the canonical spec JSON of each API, the baseline committed under `specs/`.
struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the canonical spec JSON of each API (sorted, stable) into a folder.")

    @Option(help: "The API to export (fitness, achievements, apinest, videgreniers, easyco, intra42, all).")
    var api: APISelection = .all

    @Option(help: "The folder to write <api>.json files into; created if missing.")
    var out: String

    func run() throws {
        do {
            for path in try Self.write(api.specs, to: URL(fileURLWithPath: out)) {
                print(path)
            }
        } catch {
            FileHandle.standardError.write(Data("error: cannot export to \(out): \(error)\n".utf8))
            throw ExitStatus.toolFailure
        }
    }

    /// Writes one file per spec; returns the paths written.
    static func write(_ specs: [APISpec], to folder: URL) throws -> [String] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try specs.map { spec in
            let file = folder.appendingPathComponent("\(spec.id).json")
            try Data(spec.canonicalJSON.serialized(.pretty).utf8).write(to: file, options: .atomic)
            return file.path
        }
    }
}
