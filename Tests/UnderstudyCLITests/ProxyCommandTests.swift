import ArgumentParser
import Testing
import UnderstudyCore

@testable import UnderstudyCLI

/// `understudy proxy` and `understudy record`: parsing and validation.
struct ProxyCommandTests {
    @Test func parsesItsOptions() throws {
        let command = try #require(
            try Understudy.parseAsRoot([
                "proxy", "--api", "apinest", "--upstream", "https://staging.example.com", "--port", "0", "--format", "json",
                "--report", "report.json", "--fail-on", "warning",
            ]) as? Proxy)
        #expect(command.proxy.api == .apinest)
        #expect(command.proxy.port == 0)
        #expect(command.proxy.format == .json)
        #expect(command.proxy.report == "report.json")
        #expect(command.proxy.failOn == .warning)
    }

    /// `understudy record` is the proxy with a folder to write into, which it requires.
    @Test func recordTakesTheProxysOptionsAndAFolder() throws {
        let command = try #require(
            try Understudy.parseAsRoot([
                "record", "--api", "videgreniers", "--upstream", "https://staging.example.com", "--out", "fixtures",
            ]) as? Record)
        #expect(command.proxy.api?.name == "videgreniers")
        #expect(command.out == "fixtures")
        #expect(throws: (any Error).self) {
            try Understudy.parseAsRoot(["record", "--api", "videgreniers", "--upstream", "https://staging.example.com"])
        }
    }

    @Test func rejectsBadUsage() {
        for arguments in [
            ["proxy", "--api", "fitness"],
            ["proxy", "--api", "all", "--upstream", "http://127.0.0.1:4010"],
            ["proxy", "--api", "fitness", "--upstream", "ftp://example.com"],
            ["proxy", "--api", "fitness", "--upstream", "http://127.0.0.1:4010", "--port", "70000"],
            ["proxy", "--api", "fitness", "--upstream", "http://127.0.0.1:4010", "--timeout", "0"],
            ["proxy", "--upstream", "http://127.0.0.1:4010"],
            ["proxy", "--api", "fitness", "--spec", "shop.yaml", "--upstream", "http://127.0.0.1:4010"],
        ] {
            #expect(throws: (any Error).self, "\(arguments)") { try Understudy.parseAsRoot(arguments) }
        }
    }
}
