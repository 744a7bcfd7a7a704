import ArgumentParser
import Foundation
import Testing
import UnderstudyCore
import UnderstudyTestSupport
import UnderstudySpecs

@testable import UnderstudyCLI

/// `export --format openapi` and `diff` with OpenAPI (JSON and YAML) sides.
extension CLITests {
    static func temporaryFolder(_ name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-\(name)-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func exportFormatsParse() throws {
        let command = try #require(
            try Understudy.parseAsRoot(["export", "--format", "openapi-yaml", "--out", "x"]) as? Export)
        #expect(command.format == .openapiYAML)
        #expect(throws: (any Error).self) {
            try Understudy.parseAsRoot(["export", "--format", "swagger", "--out", "x"])
        }
    }

    @Test func exportWritesOpenAPIDocumentsThatDiffCleanAgainstTheBaseline() throws {
        let folder = try Self.temporaryFolder("openapi")
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = try Export.write(Specs.all, to: folder, format: .openapi)
        let yaml = try Export.write([Intra42.spec], to: folder.appendingPathComponent("yaml"), format: .openapiYAML)
        #expect(
            json.map { URL(fileURLWithPath: $0).lastPathComponent } == [
                "fitness.openapi.json", "achievements.openapi.json", "videgreniers.openapi.json", "easyco.openapi.json",
                "intra42.openapi.json",
            ])
        #expect(yaml.map { URL(fileURLWithPath: $0).lastPathComponent } == ["intra42.openapi.yaml"])
        let first = try Data(contentsOf: URL(fileURLWithPath: json[0]))
        _ = try Export.write(Specs.all, to: folder, format: .openapi)
        #expect(try Data(contentsOf: URL(fileURLWithPath: json[0])) == first)

        let specs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("specs").path
        #expect(try Diff.changes(old: specs, new: folder.path, baseline: nil, api: .all) == [])
        #expect(try Diff.changes(old: yaml[0], new: specs, baseline: nil, api: #require(APISelection(argument: "intra42"))) == [])
    }

    @Test func binaryDiffReadsOpenAPIDocuments() async throws {
        let folder = try Self.temporaryFolder("openapi-diff")
        defer { try? FileManager.default.removeItem(at: folder) }
        let old = try Export.write([Fitness.spec], to: folder.appendingPathComponent("old"), format: .openapiYAML)[0]
        let new = try Export.write([Fitness.spec], to: folder.appendingPathComponent("new"), format: .openapi)[0]
        #expect(try await UnderstudyBinary.run(["diff", old, new]).stdout == "0 breaking, 0 warning, 0 compatible\n")

        var document = try JSONValue(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: new)))).objectValue!
        var paths = document["paths"]!.objectValue!
        paths["/activities/{id}/leave"] = nil
        document["paths"] = .object(paths)
        try Data(JSONValue.object(document).serialized(.pretty).utf8).write(to: URL(fileURLWithPath: new))
        let breaking = try await UnderstudyBinary.run(["diff", old, new])
        #expect(breaking.status == 1)
        #expect(
            breaking.stdout == """
                breaking diff.endpoint-removed fitness POST /activities/{id}/leave: the endpoint was removed
                1 breaking, 0 warning, 0 compatible

                """)
        #expect(try await UnderstudyBinary.run(["diff", old, new, "--fail-on", "never"]).status == 0)

        let notOpenAPI = folder.appendingPathComponent("notes.yaml")
        try Data("title: not a spec\n".utf8).write(to: notOpenAPI)
        let unreadable = try await UnderstudyBinary.run(["diff", notOpenAPI.path, new])
        #expect(unreadable.status == 2)
        #expect(unreadable.stderr.contains("notes.yaml is neither a canonical spec"))

        let both = folder.appendingPathComponent("both")
        _ = try Export.write([Fitness.spec], to: both)
        _ = try Export.write([Fitness.spec], to: both, format: .openapi)
        let twice = try await UnderstudyBinary.run(["diff", both.path, new])
        #expect(twice.status == 2)
        #expect(twice.stderr.contains("both describe API fitness; keep one of them in the folder"))
    }
}
