import Foundation
import Testing
import UnderstudyCore
import UnderstudyTestSupport
import UnderstudyMock
import UnderstudyMockServer
import UnderstudyTesting

/// `understudy check` through the built binary against a mock on a loopback port: exit codes, output
/// formats, the JUnit file, and that secrets never reach stdout or stderr.
struct CheckCLITests {
    /// The apinest mock on a free loopback port, with a token for its default user.
    static func withMock<T>(_ body: (MockServer, String) async throws -> T) async throws -> T {
        try await withMockServer(.apinest) { server in
            let token = try #require(try await server.engine.behaviour.issueToken(for: nil)["accessToken"]?.stringValue)
            return try await body(server, token)
        }
    }

    @Test func aCleanServerExitsZeroAndAFaultyOneExitsOne() async throws {
        try await Self.withMock { server, token in
            let base = server.baseURL.absoluteString
            let clean = try await UnderstudyBinary.run([
                "check", "--timeout", "300", "--api", "achievements", "--base-url", base, "--token", token, "--format",
                "json",
            ])
            #expect(clean.status == 0, "\(clean.stderr)")
            let document = try JSONValue(parsing: clean.stdout)
            #expect(document["formatVersion"] == 2)
            #expect(document["summary"]?["errors"] == 0)
            #expect(document["summary"]?["warnings"] == 0)
            #expect(document["summary"]?["endpointsChecked"] == 5)
            #expect(document["apis"]?[0]?["api"] == "achievements")

            server.engine.setFaults([try FaultRule(parsing: "GET /achievements/summary: status=503")])
            let faulty = try await UnderstudyBinary.run([
                "check", "--timeout", "300", "--api", "achievements", "--base-url", base, "--token", token,
            ])
            #expect(faulty.status == 1)
            #expect(
                faulty.stdout.contains(
                    "GET /achievements/summary\n  error /: the server failed with 503 [status.server-error]"))
            #expect(faulty.stdout.contains(#"-H "Authorization: Bearer $UNDERSTUDY_TOKEN""#))
            let github = try await UnderstudyBinary.run([
                "check", "--timeout", "300", "--api", "achievements", "--base-url", base, "--token", token, "--format",
                "github",
            ])
            #expect(
                github.stdout.hasPrefix(
                    "::error title=status.server-error::GET /achievements/summary /: the server failed with 503\n"))
            for output in [clean.stdout, clean.stderr, faulty.stdout, faulty.stderr, github.stdout] {
                #expect(!output.contains(token))
            }
        }
    }

    @Test func failOnWarningAndTheJUnitFile() async throws {
        try await Self.withMock { server, token in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-junit-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let junit = folder.appendingPathComponent("report.xml").path
            let base = server.baseURL.absoluteString
            // Without a token the authenticated endpoints are skipped (notes): clean at error, clean at warning,
            // failing at note.
            let lenient = try await UnderstudyBinary.run([
                "check", "--timeout", "300", "--api", "fitness", "--base-url", base, "--junit", junit, "--fail-on",
                "warning",
            ])
            #expect(lenient.status == 0)
            let xml = try String(contentsOfFile: junit, encoding: .utf8)
            #expect(xml.contains(#"<testsuite name="fitness" tests="6" failures="0" skipped="4""#))
            #expect(xml.contains(#"<testcase classname="fitness" name="GET /activities/{id}""#))
            #expect(xml.contains(#"<skipped message="changes data: runs only with --allow-writes"/>"#))
            let strict = try await UnderstudyBinary.run([
                "check", "--timeout", "300", "--api", "fitness", "--base-url", base, "--fail-on", "note",
            ])
            #expect(strict.status == 1)
            _ = token
        }
    }

    @Test func usageErrorsExit64AndToolFailuresExit2() async throws {
        let badURL = try await UnderstudyBinary.run([
            "check", "--timeout", "300", "--api", "fitness", "--base-url", "ftp://example.com",
        ])
        #expect(badURL.status == 64)
        #expect(badURL.stderr.contains("--base-url must be an http or https URL"))
        let badLogin = try await UnderstudyBinary.run([
            "check", "--timeout", "300", "--api", "fitness", "--base-url", "http://127.0.0.1:9", "--login", "a:b",
        ])
        #expect(badLogin.status == 64)
        let badEndpoint = try await UnderstudyBinary.run([
            "check", "--timeout", "300", "--api", "fitness", "--base-url", "http://127.0.0.1:9", "--endpoint",
            "GET /nope",
        ])
        #expect(badEndpoint.status == 64)
        try await Self.withMock { server, _ in
            let unwritable = try await UnderstudyBinary.run([
                "check", "--timeout", "300", "--api", "fitness", "--base-url", server.baseURL.absoluteString, "--junit",
                "/nonexistent/dir/report.xml",
            ])
            #expect(unwritable.status == 2)
            #expect(unwritable.stderr.contains("cannot write the JUnit report"))
        }
    }

    @Test func theTokenCanComeFromTheEnvironment() async throws {
        try await Self.withMock { server, token in
            let run = try await UnderstudyBinary.run(
                ["check", "--timeout", "300", "--api", "achievements", "--base-url", server.baseURL.absoluteString],
                environment: ["UNDERSTUDY_TOKEN": token])
            #expect(run.status == 0, "\(run.stdout)")
            #expect(!run.stdout.contains("needs a credential"))
            #expect(!run.stdout.contains(token))
        }
    }

    @Test func anUnreachableServerIsAFindingNotACrash() async throws {
        let run = try await UnderstudyBinary.run([
            "check", "--timeout", "300", "--api", "fitness", "--base-url", "http://127.0.0.1:9", "--format", "json",
            "--token", "secret-token-value",
        ])
        #expect(run.status == 1)
        let document = try JSONValue(parsing: run.stdout)
        #expect(document["findings"]?[0]?["rule"] == "transport.connection-refused")
        #expect(!run.stdout.contains("secret-token-value"))
    }
}
