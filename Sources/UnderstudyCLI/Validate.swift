import ArgumentParser
import Foundation
import UnderstudyCore
import UnderstudySpecs

/// `understudy validate`: the findings for a captured response body.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate a captured response body against an endpoint's model, and decode it as the app does.",
        discussion: """
            Prints every schema violation and the app's decode failure, each with a JSON Pointer. \
            Exit status: 0 no errors, 1 errors found (including a body that is not JSON), 2 the file \
            cannot be read or is over --max-bytes, 64 bad usage.
            """)

    @Option(help: "The API (\(Specs.all.map(\.id).joined(separator: ", "))).")
    var api: APISelection?

    @Option(help: "An OpenAPI 3.0 or 3.1 document (JSON or YAML) whose endpoint to validate against, instead of --api.")
    var spec: String?

    @Option(help: "The endpoint, as `understudy list` shows it: \"GET /activities\".")
    var endpoint: String

    @Option(help: "The response status; error statuses are checked against the API's error envelope. Default: the success status.")
    var status: Int?

    @Option(help: "Output format: text or json.")
    var format: OutputFormat = .text

    @Option(help: "Refuse bodies larger than this many bytes.")
    var maxBytes: Int = 64 * 1024 * 1024

    @Argument(help: "The JSON file of the response body; - reads standard input.")
    var file: String

    func validate() throws {
        let specs = try SpecFiles.single(api: api, document: spec)
        guard specs.count == 1 else { throw ValidationError("--api must name one API, not \(api?.name ?? "")") }
        guard specs[0].endpoint(endpoint) != nil else {
            let known = specs[0].endpoints.map { "  \($0.id)" }.joined(separator: "\n")
            throw ValidationError("no endpoint \"\(endpoint)\" in \(specs[0].id); known endpoints:\n\(known)")
        }
        guard maxBytes > 0 else { throw ValidationError("--max-bytes must be positive") }
    }

    func run() throws {
        let bytes: [UInt8]
        do {
            bytes = try Self.read(file, maxBytes: maxBytes)
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitStatus.toolFailure
        }
        let result = Self.check(bytes, spec: try SpecFiles.single(api: api, document: spec)[0], endpoint: endpoint, status: status)
        switch format {
        case .text: print(TerminalDiagnosticRenderer().render(result), terminator: "")
        case .json: print(JSONDiagnosticRenderer().render(result), terminator: "")
        }
        if result.contains(where: { $0.severity == .error }) { throw ExitStatus.findings }
    }

    /// The findings for a body of `endpoint` answered with `status`.
    static func check(_ bytes: [UInt8], spec: APISpec, endpoint id: String, status: Int?) -> [Diagnostic] {
        guard let endpoint = spec.endpoint(id) else { return [] }
        let status = status ?? endpoint.success.rawValue
        let model: ModelReference
        if let declared = endpoint.documentedResponse(for: status), let response = declared.model {
            model = response
        } else if status == endpoint.success.rawValue, let response = endpoint.response {
            model = response
        } else if status >= 400 {
            model = spec.errorEnvelope.model
        } else {
            return [
                Diagnostic(
                    .error, rule: "status.undocumented", endpoint: id,
                    message: "status \(status) is not documented for \(id) (expected \(endpoint.success.rawValue))",
                    expected: String(endpoint.success.rawValue), found: String(status))
            ]
        }
        return BodyCheck.findings(bytes, model: model, spec: spec).map { finding in
            var finding = finding
            finding.endpoint = id
            return finding
        }
    }

    /// Reads a file (or standard input for `-`), refusing more than `maxBytes`.
    static func read(_ path: String, maxBytes: Int) throws -> [UInt8] {
        let handle: FileHandle
        if path == "-" {
            handle = .standardInput
        } else {
            guard let opened = FileHandle(forReadingAtPath: path) else { throw ReadError("cannot read \(path): no such readable file") }
            handle = opened
        }
        defer { try? handle.close() }
        var bytes: [UInt8] = []
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            bytes.append(contentsOf: chunk)
            if bytes.count > maxBytes {
                throw ReadError("\(path) is larger than the \(maxBytes)-byte limit; raise --max-bytes to validate it")
            }
        }
        return bytes
    }

    struct ReadError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
