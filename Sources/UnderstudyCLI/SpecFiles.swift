import ArgumentParser
import Foundation
import UnderstudyCore
import UnderstudyOpenAPI

/// `--spec FILE`: a user's OpenAPI 3 or Swagger 2 document (JSON or YAML) as a spec, named after the file
/// (`petstore.yaml` → `petstore`).
enum SpecFiles {
    /// The documents this process has read, by path, with the bytes they were read from.
    private static let loaded = Locked<[String: (bytes: Data, spec: APISpec)]>([:])

    /// Reads each document, saying what is wrong with it on standard error.
    /// - Parameter servingMeanwhile: whether OpenAPIKit's check of a document's structure is said when it ends,
    ///   rather than waited for (a mock is ready to serve sooner).
    /// - Throws: ``ExitStatus/toolFailure`` (exit 2) after saying why, when one cannot be read or is not
    ///   OpenAPI 3.0 / 3.1 or Swagger 2.0.
    static func load(_ paths: [String], servingMeanwhile: Bool = false) throws -> [APISpec] {
        try paths.map { path in
            do {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
                // A command that looks at its document while its options are checked, and again when it runs,
                // imports it (and says what is wrong with it) once.
                if let read = loaded.withLock({ $0[path] }), read.bytes == bytes { return read.spec }
                let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
                let warn: @Sendable ([String]) -> Void = { problems in
                    for problem in problems {
                        FileHandle.standardError.write(
                            Data("warning: \(path): \(problem) (read all the same; that part is ignored)\n".utf8))
                    }
                }
                let (spec, problems) =
                    servingMeanwhile
                    ? try OpenAPIImport.read(Array(bytes), source: path, fallbackID: stem, structureProblems: warn)
                    : try OpenAPIImport.read(Array(bytes), source: path, fallbackID: stem)
                warn(problems)
                loaded.withLock { $0[path] = (bytes, spec) }
                return spec
            } catch let error as OpenAPIImportError {
                FileHandle.standardError.write(Data("error: \(error)\n".utf8))
                throw ExitStatus.toolFailure
            } catch {
                FileHandle.standardError.write(Data("error: cannot read \(path): \(error.localizedDescription)\n".utf8))
                throw ExitStatus.toolFailure
            }
        }
    }

    /// The specs of a command that serves or reads built-in APIs and documents together: `--api` names the
    /// built-in ones (all of them when neither option is given), `--spec` adds documents.
    static func specs(api: APISelection?, documents: [String]) throws -> [APISpec] {
        let builtIn = api ?? (documents.isEmpty ? .all : nil)
        return (builtIn?.specs ?? []) + (try load(documents))
    }

    /// The one spec of a command that judges one API (`check`, `validate`): `--api` or `--spec`, not both.
    static func single(api: APISelection?, document: String?) throws -> [APISpec] {
        switch (api, document) {
        case (nil, nil): throw ValidationError("give --api NAME or --spec FILE")
        case (_?, _?): throw ValidationError("give --api or --spec, not both: this command judges one API")
        case (let api?, nil): return api.specs
        case (nil, let document?): return try load([document])
        }
    }
}
