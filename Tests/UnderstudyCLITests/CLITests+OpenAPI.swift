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

    /// Two versions of one document in files of different names are one API (oasdiff's way, and the README's
    /// example): before, the API was named after each file's stem, so every such diff said "the API is no longer
    /// described" whatever changed.
    @Test func twoVersionsOfADocumentUnderDifferentNamesAreOneAPI() throws {
        let folder = try Self.temporaryFolder("openapi-versions")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Documents/petstore.yaml")
        let text = try String(contentsOf: source, encoding: .utf8)
        let old = folder.appendingPathComponent("petstore-v1.yaml")
        let new = folder.appendingPathComponent("petstore-v2.yaml")
        try Data(text.utf8).write(to: old)
        // The second version no longer has `GET /health`.
        var lines = text.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: "  /health:"))
        var end = start + 1
        while end < lines.count, lines[end].hasPrefix("   ") || lines[end].isEmpty { end += 1 }
        lines.removeSubrange(start..<end)
        try Data(lines.joined(separator: "\n").utf8).write(to: new)
        let changes = try Diff.changes(old: old.path, new: new.path, baseline: nil, api: .all)
        #expect(changes.map(\.rule) == ["diff.endpoint-removed"], "\(changes)")
        #expect(changes.first?.api == "petstore-v1")
        #expect(try Diff.changes(old: old.path, new: old.path, baseline: nil, api: .all) == [])
    }

    /// A `readOnly` property is never sent, a `writeOnly` one never answered: whether the first is required changes
    /// nothing in requests, the second nothing in answers (oasdiff's `TestBreaking_ReadOnlyNewRequiredProperty` and
    /// `TestBreaking_WriteOnlyPropertyRequiredDisabled` assert no change).
    @Test func readOnlyAndWriteOnlyRequiredPropertiesAreJudgedByDirection() throws {
        let folder = try Self.temporaryFolder("openapi-access")
        defer { try? FileManager.default.removeItem(at: folder) }
        func document(_ name: String, required: [String]) throws -> String {
            let url = folder.appendingPathComponent(name)
            let text = """
                {"openapi": "3.0.3", "info": {"title": "Groups", "version": "1"}, "paths": {"/groups": {"post": {
                  "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Group"}}}},
                  "responses": {"201": {"description": "made", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Group"}}}}}}}},
                  "components": {"schemas": {"Group": {"type": "object", "required": [\(required.map { "\"\($0)\"" }.joined(separator: ", "))], "properties": {
                    "name": {"type": "string"}, "id": {"type": "string", "readOnly": true},
                    "secret": {"type": "string", "writeOnly": true}}}}}}
                """
            try Data(text.utf8).write(to: url)
            return url.path
        }
        // The readOnly `id` becomes required (only answers must carry it), the writeOnly `secret` optional (only
        // requests carried it).
        let old = try document("groups-v1.json", required: ["name", "secret"])
        let new = try document("groups-v2.json", required: ["name", "id"])
        #expect(try Diff.changes(old: old, new: new, baseline: nil, api: .all).map(\.line) == [
            "compatible diff.property-optional groups-v1 POST /groups request /secret: the property became optional",
            "compatible diff.property-required groups-v1 POST /groups response /id: the property is now always present",
        ])
        // The other way, the app must now send `secret`, and may get no `id`: both break.
        #expect(try Diff.changes(old: new, new: old, baseline: nil, api: .all).map(\.line) == [
            "breaking diff.property-required groups-v2 POST /groups request /secret: the property became required, and the app may omit it",
            "breaking diff.property-optional groups-v2 POST /groups response /id: the property may now be absent, which the app's non-optional property cannot decode",
        ])
    }

    /// `/books/{bookId}` → `/books/{id}` is the same URL: one warning, not an endpoint removed and one added, nor its
    /// path parameter removed and a required one added.
    @Test func aRenamedPathParameterIsARename() throws {
        let folder = try Self.temporaryFolder("openapi-rename")
        defer { try? FileManager.default.removeItem(at: folder) }
        func document(_ name: String, parameter: String) throws -> String {
            let url = folder.appendingPathComponent(name)
            let text = """
                {"openapi": "3.0.3", "info": {"title": "Books", "version": "1"}, "paths": {"/books/{\(parameter)}": {"get": {
                  "parameters": [{"name": "\(parameter)", "in": "path", "required": true, "schema": {"type": "integer"}}],
                  "responses": {"200": {"description": "the book", "content": {"application/json": {"schema": {"type": "object"}}}}}}}}}
                """
            try Data(text.utf8).write(to: url)
            return url.path
        }
        let changes = try Diff.changes(
            old: try document("books-v1.json", parameter: "bookId"), new: try document("books-v2.json", parameter: "id"),
            baseline: nil, api: .all)
        #expect(changes.map(\.line) == [
            "warning diff.path-parameter-renamed books-v1 GET /books/{id} path: was GET /books/{bookId}: {bookId} is now {id}; the URL is the same, a client that names the parameter (a generated one) changes"
        ])
    }

    @Test func helpShowsTheAPIDefaultByItsName() {
        for help in [Understudy.helpMessage(for: Diff.self), Understudy.helpMessage(for: Export.self)] {
            #expect(help.contains("default: all)"))
            #expect(!help.contains("APISpec("))
        }
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
