import Foundation
import UnderstudyCore
import UnderstudyMock

/// Runs `body` against a mock of `api` of its own: its seeded state, its journal, its base URL. Tests that run in
/// parallel each get theirs and share nothing. After `body`, a request the app sent that broke the contract fails
/// the call with ``ContractViolations``, naming each finding, unless `allowingViolations` (a test of how the app
/// meets a refusal sends a bad request on purpose).
///
/// ```swift
/// @Test func creatingAnEventSendsItOnce() async throws {
///     try await withMock(.videgreniers) { mock in
///         let client = EventsClient(baseURL: mock.baseURL, session: URLSession(configuration: mock.sessionConfiguration))
///         try await client.create(title: "Vide-grenier du quartier")
///         #expect(mock.journal.calls(to: VideGreniers.createEvent).count == 1)
///     }
/// }
/// ```
/// - Throws: what `body` throws; otherwise ``ContractViolations`` when a request broke the contract.
public func withMock<Result>(
    _ api: MockAPI, configuration: MockConfiguration = MockConfiguration(), allowingViolations: Bool = false,
    _ body: (MockURLStub) async throws -> Result
) async throws -> Result {
    let stub = try await MockURLStub.start(api, configuration: configuration)
    defer { stub.stop() }
    let result = try await body(stub)
    if !allowingViolations { try stub.verifyContract() }
    return result
}

extension MockURLStub {
    /// Throws ``ContractViolations`` when a request the app sent so far broke the contract: what ``withMock(_:configuration:allowingViolations:_:)``
    /// does after its closure, for an XCTest's `tearDown` (`try stub.verifyContract()`).
    public func verifyContract() throws {
        let violations = journal.entries.filter { !$0.violations.isEmpty }
        if !violations.isEmpty { throw ContractViolations(entries: violations) }
    }
}

/// The requests of a test that broke the contract, each with its findings.
public struct ContractViolations: Error, CustomStringConvertible {
    public let entries: [JournalEntry]

    public var description: String {
        let lines = entries.flatMap { entry in
            entry.violations.map { finding in
                let place = finding.pointer == .root ? "" : " \(finding.pointer.displayString)"
                return "  \(entry.method) \(entry.path)\(entry.query.isEmpty ? "" : "?" + entry.query)\(place): "
                    + "\(finding.message) [\(finding.rule)]"
            }
        }
        return "the app sent \(entries.count) request\(entries.count == 1 ? "" : "s") that break the contract:\n"
            + lines.joined(separator: "\n")
    }
}
