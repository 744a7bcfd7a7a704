import ArgumentParser
import Foundation
import UnderstudyCore
import UnderstudySpecs

/// `understudy lint`: where a document contradicts itself.
struct Lint: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List where an API's document contradicts itself, each contradiction once with what it touches.",
        discussion: """
            Examples that break the document's own models, examples the app contract cannot decode, JSON the \
            document's sample client cannot read, contradictions the spec records, and models no value can satisfy \
            (required members that lead back to the model without end). Exit status: 0 no error (warnings \
            allowed), 1 an error, 64 bad usage.
            """)

    @Option(
        help:
            "The API to lint (\(Specs.selectorList)). Default: all, or none with --spec."
    )
    var api: APISelection?

    @Option(help: "An OpenAPI 3 or Swagger 2 document (JSON or YAML) to lint, with --api's or alone. Repeatable.")
    var spec: [String] = []

    @Option(help: "Output format: text or json.")
    var format: OutputFormat = .text

    func run() throws {
        let results = try SpecFiles.specs(api: api, documents: spec).map { ($0, DocumentLint.contradictions(in: $0)) }
        print(Self.render(results, format: format), terminator: "")
        if results.contains(where: { $0.1.contains { $0.severity == .error } }) { throw ExitStatus.findings }
    }

    static func render(_ results: [(APISpec, [Contradiction])], format: OutputFormat) -> String {
        switch format {
        case .json: LintRenderer.json(results)
        case .text: LintRenderer.text(results)
        }
    }
}
