import Foundation
import ArgumentParser
import UnderstudyCore
import UnderstudySpecs

/// `understudy list`: every endpoint with its auth and models.
struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List every endpoint: API, method, path, auth, request and response models.")

    @Option(help: "The API to list (\(Specs.selectorList)). Default: all, or none with --spec.")
    var api: APISelection?

    @Option(help: "An OpenAPI 3 or Swagger 2 document (JSON or YAML) to list, with --api's or alone. Repeatable.")
    var spec: [String] = []

    @Option(help: "Output format: text or json.")
    var format: OutputFormat = .text

    @Flag(
        help: """
            List the resources instead: each collection with its item path, identifier (path parameter <-> body \
            member), parent, item model, what they were inferred from, and the role of each operation.
            """)
    var resources = false

    func run() throws {
        let specs = try SpecFiles.specs(api: api, documents: spec)
        let output = resources ? Self.renderResources(specs, format: format) : Self.render(specs, format: format)
        print(output, terminator: "")
    }

    /// The resource graph of every spec.
    static func renderResources(_ specs: [APISpec], format: OutputFormat) -> String {
        let graphs = specs.map { ($0.id, ResourceGraph(spec: $0)) }
        switch format {
        case .json:
            let document: JSONValue = ["formatVersion": 1, "apis": .array(graphs.map { $1.json(api: $0) })]
            return document.serialized(.pretty)
        case .text:
            return graphs.map { $1.text(api: $0) }.joined(separator: "\n")
        }
    }

    /// The listing of `specs`, one line (or JSON object) per endpoint in inventory order.
    static func render(_ specs: [APISpec], format: OutputFormat) -> String {
        let rows = specs.flatMap { spec in
            spec.endpoints.map { endpoint in
                Row(
                    api: spec.id, method: endpoint.method.rawValue, path: endpoint.path.template,
                    auth: endpoint.auth.description, request: endpoint.request?.name ?? "-",
                    response: endpoint.response?.name ?? "-", success: endpoint.success.rawValue,
                    available: endpoint.availability == .available)
            }
        }
        switch format {
        case .json:
            let document: JSONValue = [
                "formatVersion": 1,
                "count": .integer(rows.count),
                "endpoints": .array(rows.map(\.json)),
            ]
            return document.serialized(.pretty)
        case .text:
            let header = Row(api: "API", method: "METHOD", path: "PATH", auth: "AUTH", request: "REQUEST", response: "RESPONSE", success: 0, available: true)
            let all = [header] + rows
            let widths = (0..<5).map { column in all.map { $0.cells[column].count }.max()! }
            var output = ""
            for row in all {
                let cells = row.cells
                output += (0..<5).map { cells[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ")
                output += "  " + cells[5] + "\n"
            }
            output += "\(rows.count) endpoints\n"
            return output
        }
    }

    private struct Row {
        var api, method, path, auth, request, response: String
        var success: Int
        var available: Bool

        var cells: [String] { [api, method, path + (available ? "" : " (announced)"), auth, request, response] }

        var json: JSONValue {
            [
                "api": .string(api), "method": .string(method), "path": .string(path), "auth": .string(auth),
                "request": request == "-" ? .null : .string(request), "response": response == "-" ? .null : .string(response),
                "success": .integer(success), "available": .bool(available),
            ]
        }
    }
}
