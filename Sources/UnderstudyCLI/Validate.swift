import ArgumentParser
import Foundation
import UnderstudyCore
import UnderstudyMock
import UnderstudySpecs

extension RuleID {
    /// A recorded fixture no longer holds against the descriptors: its endpoint is gone.
    static let recordingStale: RuleID = "recording.stale"
}

/// `understudy validate`: the findings for a captured response body, or for a folder of recordings.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate a captured response body against an endpoint's model, and decode it as the app does.",
        discussion: """
            Prints every schema violation and the app's decode failure, each with a JSON Pointer. With \
            --fixtures DIR, re-validates every fixture of DIR/<api>/ (as understudy record and understudy \
            generate write them) against the current descriptors: a recording that no longer holds (after a \
            breaking change, or of an endpoint that is gone) is named as stale. Exit status: 0 no errors, 1 \
            errors found (including a body that is not JSON), 2 the file cannot be read or is over --max-bytes, \
            64 bad usage.
            """)

    @Option(help: "The API (\(Specs.all.map(\.id).joined(separator: ", "))).")
    var api: APISelection?

    @Option(
        help: "An OpenAPI 3 or Swagger 2 document (JSON or YAML) whose endpoint to validate against, instead of --api.")
    var spec: String?

    @Option(help: "The endpoint, as `understudy list` shows it: \"GET /activities\".")
    var endpoint: String?

    @Option(help: "A folder of fixtures (DIR/<api>/*.json) to re-validate, instead of --endpoint and a file.")
    var fixtures: String?

    @Option(help: "The response status; error statuses are checked against the API's error envelope. Default: the success status.")
    var status: Int?

    @Option(help: "Output format: text or json.")
    var format: OutputFormat = .text

    @Option(help: "Refuse bodies larger than this many bytes.")
    var maxBytes: Int = 64 * 1024 * 1024

    @Flag(
        help: """
            Judge an OpenAPI document's `format` as an assertion (a date-time that is not one is an error), not as \
            JSON Schema's annotation (a warning).
            """)
    var formatAssertion = false

    @Argument(help: "The JSON file of the response body; - reads standard input.")
    var file: String?

    func validate() throws {
        if fixtures != nil {
            guard endpoint == nil, file == nil else { throw ValidationError("give --fixtures DIR, or --endpoint and a file") }
            return
        }
        guard let endpoint, file != nil else { throw ValidationError("give --endpoint and a file, or --fixtures DIR") }
        let specs = try SpecFiles.single(api: api, document: spec)
        guard specs.count == 1 else { throw ValidationError("--api must name one API, not \(api?.name ?? "")") }
        guard specs[0].endpoint(endpoint) != nil else {
            let known = specs[0].endpoints.map { "  \($0.id)" }.joined(separator: "\n")
            throw ValidationError("no endpoint \"\(endpoint)\" in \(specs[0].id); known endpoints:\n\(known)")
        }
        guard maxBytes > 0 else { throw ValidationError("--max-bytes must be positive") }
    }

    func run() throws {
        let result: [Diagnostic]
        do {
            if let fixtures {
                let specs = api == nil && spec == nil ? Specs.all : try selectedSpecs()
                result = try Self.checkRecordings(in: URL(fileURLWithPath: fixtures), specs: specs)
            } else {
                let bytes = try Self.read(file ?? "-", maxBytes: maxBytes)
                result = Self.check(bytes, spec: try selectedSpecs()[0], endpoint: endpoint ?? "", status: status)
            }
        } catch let error as ValidationError {
            throw error
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitStatus.toolFailure
        }
        switch format {
        case .text: print(TerminalDiagnosticRenderer().render(result), terminator: "")
        case .json: print(JSONDiagnosticRenderer().render(result), terminator: "")
        }
        if result.contains(where: { $0.severity == .error }) { throw ExitStatus.findings }
    }

    /// The specs `--api` or `--spec` names, asserting formats where `--format-assertion` says.
    func selectedSpecs() throws -> [APISpec] {
        try SpecFiles.single(api: api, document: spec).map { spec in
            var spec = spec
            spec.assertsFormats = formatAssertion
            return spec
        }
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
        } else if status == endpoint.success.rawValue || endpoint.documentedResponse(for: status) != nil {
            // Documented without a model (`204 No Content`, a text answer): there is nothing to judge the body by.
            return []
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

    /// Every fixture of `folder/<api>/` judged against the current descriptors: each recorded answer against its
    /// status's model, each recorded request against the request model. A finding names the file and says the
    /// recording is stale; an endpoint the spec no longer has is an error of its own.
    /// - Throws: when a fixture file cannot be read or is not a fixture.
    static func checkRecordings(in folder: URL, specs: [APISpec]) throws -> [Diagnostic] {
        var findings: [Diagnostic] = []
        for spec in specs {
            for (name, fixture) in try FixtureSource.files(in: folder, of: spec) {
                let file = "\(spec.id)/\(name)"
                guard let endpoint = spec.endpoint(fixture.endpoint) else {
                    findings.append(
                        Diagnostic(
                            .error, rule: .recordingStale, endpoint: fixture.endpoint,
                            message: "stale recording \(file): \(spec.id) has no endpoint \(fixture.endpoint) any more"))
                    continue
                }
                var judged: [Diagnostic] = []
                if let request = fixture.request, let model = endpoint.request {
                    judged += BodyCheck.findings(request.serializedBytes(), model: model, spec: spec, direction: .request).map { finding in
                        var finding = finding
                        finding.message = "request: " + finding.message
                        return finding
                    }
                }
                for (status, body) in fixture.responses.sorted(by: { $0.key < $1.key }) {
                    judged += check(body.serializedBytes(), spec: spec, endpoint: endpoint.id, status: status)
                }
                findings += judged.map { finding in
                    var finding = finding
                    finding.endpoint = endpoint.id
                    if finding.severity == .error { finding.message = "stale recording \(file): " + finding.message }
                    return finding
                }
            }
        }
        return findings
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
