import ArgumentParser
import Testing
import UnderstudyCore

@testable import UnderstudyCLI

/// `understudy proxy`: parsing and validation.
struct ProxyCommandTests {
    @Test func parsesItsOptions() throws {
        let command = try #require(
            try Understudy.parseAsRoot([
                "proxy", "--api", "apinest", "--upstream", "https://staging.example.com", "--port", "0", "--format", "json",
                "--report", "report.json", "--fail-on", "warning",
            ]) as? Proxy)
        #expect(command.api == .apinest)
        #expect(command.port == 0)
        #expect(command.format == .json)
        #expect(command.report == "report.json")
        #expect(command.failOn == .warning)
    }

    @Test func rejectsBadUsage() {
        for arguments in [
            ["proxy", "--api", "fitness"],
            ["proxy", "--api", "all", "--upstream", "http://127.0.0.1:4010"],
            ["proxy", "--api", "fitness", "--upstream", "ftp://example.com"],
            ["proxy", "--api", "fitness", "--upstream", "http://127.0.0.1:4010", "--port", "70000"],
            ["proxy", "--api", "fitness", "--upstream", "http://127.0.0.1:4010", "--timeout", "0"],
        ] {
            #expect(throws: (any Error).self, "\(arguments)") { try Understudy.parseAsRoot(arguments) }
        }
    }
}
