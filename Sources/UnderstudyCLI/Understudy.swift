import ArgumentParser

/// The `understudy` command: stands in for REST APIs and checks that they keep their contract.
///
/// Exit codes: 0 clean, 1 findings at or above the failure threshold, 2 the tool failed, 64 bad usage.
public struct Understudy: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "understudy",
        abstract: "Mock, check and diff the REST APIs of the five apps against their documented contracts.",
        subcommands: [
            Mock.self, Check.self, Proxy.self, Record.self, Lint.self, List.self, Export.self, Generate.self, Validate.self, Diff.self,
        ]
    )

    public init() {}
}

/// Exit codes shared by every subcommand.
public enum ExitStatus {
    /// Findings reached the failure threshold.
    public static let findings = ExitCode(1)
    /// The tool could not do its job (unreadable file, I/O error).
    public static let toolFailure = ExitCode(2)
}
