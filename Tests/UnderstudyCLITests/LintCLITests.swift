import ArgumentParser
import Foundation
import Testing
import UnderstudyCore
import UnderstudyTestSupport
import UnderstudyMock
import UnderstudyMockServer
import UnderstudyTesting

@testable import UnderstudyCLI

/// `understudy lint` and the app decoder settings of `understudy check`, parsed and through the built binary.
struct LintCLITests {
    @Test func lintExitsOneOnADocumentWithErrorsAndZeroWithout() async throws {
        let videgreniers = try await UnderstudyBinary.run(["lint", "--api", "videgreniers"])
        #expect(videgreniers.status == 1)
        #expect(videgreniers.stdout.hasSuffix("2 errors, 2 warnings, 0 notes\n"))
        #expect(videgreniers.stdout.contains("[lint.sample-client]"))
        let achievements = try await UnderstudyBinary.run(["lint", "--api", "achievements", "--format", "json"])
        #expect(achievements.status == 0)
        let document = try JSONValue(parsing: achievements.stdout)
        #expect(document["formatVersion"] == 1)
        #expect(document["apis"]?[0]?["app"] == ["dates": "iso8601", "keys": "useDefaultKeys"])
        #expect(document["apis"]?[0]?["contradictions"] == [])
        let usage = try await UnderstudyBinary.run(["lint", "--api", "nope"])
        #expect(usage.status == 64)
    }

    @Test func decoderSettingsParseAndValidate() throws {
        let check = try Check.parse([
            "--api", "videgreniers", "--base-url", "http://127.0.0.1:1", "--date-strategy", "iso8601-fractions",
            "--key-strategy", "snake-case",
        ])
        let spec = try #require(try check.appSpecs().first)
        #expect(spec.app.decoder == DecoderSettings(dates: .iso8601WithFractionalSeconds, keys: .convertFromSnakeCase))
        #expect(spec.app.origin == "--date-strategy, --key-strategy")
        #expect(spec.wire == DecoderSettings(dates: .iso8601))
        #expect(throws: (any Error).self) {
            try Check.parse(["--api", "fitness", "--base-url", "http://127.0.0.1:1", "--date-strategy", "rfc"])
        }
        #expect(throws: (any Error).self) {
            try Check.parse([
                "--api", "fitness", "--base-url", "http://127.0.0.1:1", "--max-findings-per-response", "0",
            ])
        }
    }

    @Test func aConfigFileSetsEachAPIsAppDecoder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("understudy.json")
        try Data(#"{"apps": {"apinest": {"dates": "iso8601-fractions"}, "videgreniers": {"dates": "deferred"}}}"#.utf8)
            .write(to: file)
        let check = try Check.parse(["--api", "apinest", "--base-url", "http://127.0.0.1:1", "--config", file.path])
        let specs = try check.appSpecs()
        #expect(specs.map(\.app.decoder.dates) == [.iso8601WithFractionalSeconds, .iso8601WithFractionalSeconds])
        #expect(specs.allSatisfy { $0.app.origin == file.path })
        let override = try Check.parse([
            "--api", "videgreniers", "--base-url", "http://127.0.0.1:1", "--config", file.path, "--date-strategy",
            "iso8601",
        ])
        #expect(try override.appSpecs().first?.app.decoder.dates == .iso8601)

        try Data(#"{"apps": {"videgreniers": {"dates": "sometimes"}}}"#.utf8).write(to: file)
        #expect(throws: (any Error).self) {
            try Check.parse(["--api", "videgreniers", "--base-url", "http://127.0.0.1:1", "--config", file.path])
        }
        try Data(#"{"apps": {"nope": {}}}"#.utf8).write(to: file)
        #expect(throws: (any Error).self) {
            try Check.parse(["--api", "videgreniers", "--base-url", "http://127.0.0.1:1", "--config", file.path])
        }
    }

    @Test func theReportEchoesTheAppDecoderAndHidesNotesUnlessAsked() async throws {
        try await CheckCLITests.withMock { server, token in
            let base = server.baseURL.absoluteString
            let arguments = ["check", "--timeout", "300", "--api", "fitness", "--base-url", base, "--token", token]
            let plain = try await UnderstudyBinary.run(arguments + ["--date-strategy", "deferred"])
            #expect(
                plain.stdout.hasPrefix(
                    "fitness: app decoder dates: deferredToDate, keys: useDefaultKeys (--date-strategy)\n"))
            #expect(!plain.stdout.contains("note "))
            #expect(plain.stdout.contains("(notes not shown: --notes)"))
            let notes = try await UnderstudyBinary.run(arguments + ["--notes"])
            #expect(notes.stdout.contains("note "))
            #expect(notes.status == 0)
        }
    }
}
