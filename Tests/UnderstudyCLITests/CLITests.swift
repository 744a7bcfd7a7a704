import ArgumentParser
import Foundation
import Testing
import UnderstudyCheck
import UnderstudyCore
import UnderstudyTestSupport
import UnderstudySpecs

@testable import UnderstudyCLI

/// The CLI at three levels: parsing and validation, the run functions on temporary folders, and the
/// built binary (stdout, stderr, exit code).
struct CLITests {
    // MARK: Parsing

    @Test func rejectsUnknownAPIsAndEndpoints() {
        #expect(throws: (any Error).self) { try Understudy.parseAsRoot(["list", "--api", "nope"]) }
        #expect(throws: (any Error).self) {
            try Understudy.parseAsRoot(["validate", "--api", "all", "--endpoint", "GET /activities", "x.json"])
        }
        do {
            _ = try Understudy.parseAsRoot(["validate", "--api", "fitness", "--endpoint", "GET /nope", "x.json"])
            Issue.record("an unknown endpoint was accepted")
        } catch {
            #expect(Understudy.message(for: error).hasPrefix("no endpoint \"GET /nope\" in fitness; known endpoints:\n  POST /activities"))
        }
    }

    @Test func probesAreOnUnlessNoProbesIsGiven() throws {
        let base = ["check", "--api", "fitness", "--base-url", "http://127.0.0.1:4010"]
        let on = try #require(try Understudy.parseAsRoot(base) as? Check)
        let off = try #require(try Understudy.parseAsRoot(base + ["--no-probes"]) as? Check)
        #expect(!on.noProbes)
        #expect(off.noProbes)
    }

    /// Another user's token asks for the items the run makes: without writes there are none, and the option is refused.
    @Test func anotherUsersTokenNeedsWrites() throws {
        let base = ["check", "--api", "intra42", "--base-url", "http://127.0.0.1:4014", "--other-token", "t2"]
        #expect { try Understudy.parseAsRoot(base) } throws: { error in
            Understudy.message(for: error) == "--other-token needs --allow-writes: it asks for the items the run makes"
        }
        let check = try #require(try Understudy.parseAsRoot(base + ["--allow-writes"]) as? Check)
        #expect(try check.makeCredentials().otherToken == "t2")
    }

    /// `format` is JSON Schema's annotation (a warning) unless `--format-assertion` makes it an error, on `validate`
    /// and on `check` alike.
    @Test func aFormatMismatchIsAWarningUnlessAsserted() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-format-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = folder.appendingPathComponent("dates.json")
        try Data(
            #"{"openapi": "3.1.0", "info": {"title": "Dates", "version": "1"}, "paths": {"/when": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object", "properties": {"at": {"type": "string", "format": "date-time"}}}}}}}}}}}"#
                .utf8
        ).write(to: document)
        let body = Array(#"{"at": "yesterday"}"#.utf8)
        let annotated = try #require(try Understudy.parseAsRoot(["validate", "--spec", document.path, "--endpoint", "GET /when", "-"]) as? Validate)
        let asserted = try #require(
            try Understudy.parseAsRoot(["validate", "--spec", document.path, "--endpoint", "GET /when", "--format-assertion", "-"])
                as? Validate)
        let warning = Validate.check(body, spec: try annotated.selectedSpecs()[0], endpoint: "GET /when", status: nil)
        #expect(warning.map(\.severity) == [.warning] && warning.map(\.rule) == [.formatMismatch])
        let error = Validate.check(body, spec: try asserted.selectedSpecs()[0], endpoint: "GET /when", status: nil)
        #expect(error.map(\.severity) == [.error] && error.first?.summary == #"/at: expected string in date-time format, found "yesterday""#)
        let check = try #require(
            try Understudy.parseAsRoot(["check", "--spec", document.path, "--base-url", "http://127.0.0.1:9", "--format-assertion"]) as? Check)
        #expect(try check.appSpecs().map(\.assertsFormats) == [true])
    }

    // MARK: Run functions

    @Test func listJSONHasEveryEndpoint() throws {
        let output = List.render(Specs.all, format: .json)
        let document = try JSONValue(parsing: output)
        #expect(document["formatVersion"] == 1)
        #expect(document["count"] == 67)
        let first = try #require(document["endpoints"]?[0])
        #expect(first["api"] == "fitness")
        #expect(first["method"] == "POST")
        #expect(first["path"] == "/activities")
        #expect(first["auth"] == "required")
        #expect(first["request"] == "Apinest.CreateActivityRequest")
        #expect(first["response"] == "Apinest.Activity")
        let text = List.render(APISelection.apinest.specs, format: .text)
        #expect(text.hasSuffix("13 endpoints\n"))
        #expect(text.contains("fitness       GET     /activities "))
    }

    @Test func exportWritesStableCanonicalFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-export-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let paths = try Export.write(Specs.all, to: folder)
        #expect(paths.map { URL(fileURLWithPath: $0).lastPathComponent } == [
            "fitness.json", "achievements.json", "videgreniers.json", "easyco.json", "intra42.json",
        ])
        let first = try Data(contentsOf: folder.appendingPathComponent("fitness.json"))
        _ = try Export.write(Specs.all, to: folder)
        #expect(try Data(contentsOf: folder.appendingPathComponent("fitness.json")) == first)
        let document = try JSONValue(parsing: Array(first))
        #expect(document["formatVersion"] == 1)
        #expect(document["api"] == "fitness")
    }

    /// Generated files are loaded back and judged, so a wrong fixture cannot pass.
    @Test func generatedFixturesLoadBackValidAndDecodable() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-generate-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let paths = try Generate.write(Specs.all, seed: 5, to: folder)
        #expect(paths.count == 67)
        for spec in Specs.all {
            for endpoint in spec.endpoints {
                let file = folder.appendingPathComponent(spec.id).appendingPathComponent(
                    EndpointFixture(endpoint: endpoint.id, request: nil, responses: [:]).fileName)
                let fixture = try EndpointFixture(json: try JSONValue(parsing: Array(try Data(contentsOf: file))))
                #expect(fixture.endpoint == endpoint.id)
                for (status, body) in fixture.responses where body != .null {
                    let findings = Validate.check(body.serializedBytes(), spec: spec, endpoint: endpoint.id, status: status)
                    #expect(findings.filter { $0.severity == .error }.isEmpty, "\(endpoint.id) \(status)")
                }
            }
        }
    }

    @Test func validateReportsFindingsWithTheEndpoint() {
        let findings = Validate.check(Array(#"[{"_id": 1}]"#.utf8), spec: Fitness.spec, endpoint: "GET /activities", status: nil)
        #expect(findings.allSatisfy { $0.endpoint == "GET /activities" })
        #expect(findings.first?.summary == "/0/_id: expected string in objectid format, found integer 1")
        #expect(findings.contains { $0.rule == .decodeTypeMismatch })
        let error = Validate.check(Array(#"{"message": "nope", "statusCode": 404}"#.utf8), spec: Fitness.spec, endpoint: "GET /activities/{id}", status: 404)
        #expect(error == [])
    }

    @Test func diffAgainstTheCommittedBaselineAndAModifiedCopy() throws {
        let specs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("specs").path
        #expect(try Diff.changes(old: nil, new: nil, baseline: specs, api: .all) == [])

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-diff-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try Export.write([Fitness.spec], to: folder)
        let file = folder.appendingPathComponent("fitness.json")
        var document = try JSONValue(parsing: Array(try Data(contentsOf: file))).objectValue!
        document["endpoints"] = .array(document["endpoints"]!.arrayValue!.filter { $0["id"] != "POST /activities/{id}/leave" })
        try Data(JSONValue.object(document).serialized(.pretty).utf8).write(to: file)
        let changes = try Diff.changes(old: specs, new: folder.path, baseline: nil, api: #require(APISelection(argument: "fitness")))
        #expect(changes.map(\.line) == ["breaking diff.endpoint-removed fitness POST /activities/{id}/leave: the endpoint was removed"])
        #expect(throws: (any Error).self) { try Diff.load(folder.appendingPathComponent("missing").path) }
    }

    // MARK: The binary

    @Test func binaryListsSixtySevenEndpoints() async throws {
        let result = try await UnderstudyBinary.run(["list", "--format", "json"])
        #expect(result.status == 0)
        #expect(try JSONValue(parsing: result.stdout)["count"] == 67)
    }

    /// `validate` and `check` look at the document while their options are checked and again when they run: it is
    /// imported once, and what OpenAPIKit refuses in it (here `items` given as an array) is said once.
    @Test func aDocumentsProblemsAreSaidOnce() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-once-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let document = folder.appendingPathComponent("tuples.json")
        try Data(
            #"{"openapi": "3.0.3", "info": {"title": "Tuples", "version": "1"}, "paths": {"/pairs": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "array", "items": [{"type": "string"}]}}}}}}}}}"#
                .utf8
        ).write(to: document)
        let body = folder.appendingPathComponent("body.json")
        try Data("[]".utf8).write(to: body)
        let validate = try await UnderstudyBinary.run(["validate", "--spec", document.path, "--endpoint", "GET /pairs", body.path])
        #expect(validate.status == 0)
        #expect(validate.stderr.components(separatedBy: "warning: ").count - 1 == 1, "\(validate.stderr)")
        let plan = try await UnderstudyBinary.run(["check", "--spec", document.path, "--base-url", "http://127.0.0.1:9", "--plan"])
        #expect(plan.stderr.components(separatedBy: "warning: ").count - 1 == 1, "\(plan.stderr)")
    }

    @Test func binaryValidateExitCodes() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-validate-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func file(_ name: String, _ bytes: [UInt8]) throws -> String {
            let url = folder.appendingPathComponent(name)
            try Data(bytes).write(to: url)
            return url.path
        }
        let endpoint = ["validate", "--api", "fitness", "--endpoint", "GET /activities"]

        let good = try file("good.json", Fitness.spec.fixture(for: Fitness.spec.endpoint("GET /activities")!, seed: 1).responses[200]!.serializedBytes())
        let clean = try await UnderstudyBinary.run(endpoint + [good])
        #expect(clean.status == 0)
        #expect(clean.stdout == "0 errors, 0 warnings, 0 notes\n")

        let html = try await UnderstudyBinary.run(endpoint + ["--format", "json", try file("html.json", Array("<html>".utf8))])
        #expect(html.status == 1)
        #expect(try JSONValue(parsing: html.stdout)["findings"]?[0]?["rule"] == "body.invalid-json")

        let truncated = try await UnderstudyBinary.run(endpoint + [try file("truncated.json", Array(#"[{"_id": "a"#.utf8))])
        #expect(truncated.status == 1)
        #expect(truncated.stdout.contains("the body is not JSON: unexpected end of input at byte 11: the JSON text is truncated"))

        let deep = try await UnderstudyBinary.run(endpoint + [try file("deep.json", Array((String(repeating: "[", count: 50_000) + String(repeating: "]", count: 50_000)).utf8))])
        #expect(deep.status == 1)
        #expect(deep.stdout.contains("nesting deeper than 512 levels at byte 512"))

        let huge = try file("huge.json", [UInt8](repeating: UInt8(ascii: " "), count: 100 << 20))
        let tooBig = try await UnderstudyBinary.run(endpoint + [huge])
        #expect(tooBig.status == 2)
        #expect(tooBig.stderr.contains("is larger than the 67108864-byte limit; raise --max-bytes to validate it"))

        let missing = try await UnderstudyBinary.run(endpoint + [folder.appendingPathComponent("missing.json").path])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no such readable file"))

        let usage = try await UnderstudyBinary.run(["validate", "--api", "fitness", "--endpoint", "GET /nope", good])
        #expect(usage.status == 64)
    }

    @Test func binaryDiffExitCodesAndFormats() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-diffbin-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let old = folder.appendingPathComponent("old")
        let new = folder.appendingPathComponent("new")
        _ = try Export.write([Fitness.spec], to: old)
        _ = try Export.write([Fitness.spec], to: new)
        let same = try await UnderstudyBinary.run(["diff", old.path, new.path])
        #expect(same.status == 0)
        #expect(same.stdout == "0 breaking, 0 warning, 0 compatible\n")

        let file = new.appendingPathComponent("fitness.json")
        var document = try JSONValue(parsing: Array(try Data(contentsOf: file))).objectValue!
        document["endpoints"] = .array(document["endpoints"]!.arrayValue!.map { endpoint in
            var endpoint = endpoint.objectValue!
            if endpoint["id"] == "GET /activities" { endpoint["success"] = 201 }
            return .object(endpoint)
        })
        try Data(JSONValue.object(document).serialized(.pretty).utf8).write(to: file)
        let breaking = try await UnderstudyBinary.run(["diff", old.path, new.path, "--format", "github"])
        #expect(breaking.status == 1)
        #expect(breaking.stdout.hasPrefix("::error title=diff.success-status-changed::fitness GET /activities status: the success status changed from 200 to 201\n"))
        #expect(try await UnderstudyBinary.run(["diff", old.path, new.path, "--fail-on", "never"]).status == 0)
        let json = try await UnderstudyBinary.run(["diff", old.path, new.path, "--format", "json"])
        #expect(try JSONValue(parsing: json.stdout)["summary"]?["breaking"] == 1)
        #expect(try await UnderstudyBinary.run(["diff", old.path]).status == 64)
        #expect(try await UnderstudyBinary.run(["diff", old.path, folder.appendingPathComponent("none").path]).status == 2)
    }

}
