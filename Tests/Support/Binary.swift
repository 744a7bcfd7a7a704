import Foundation

/// The `understudy` binary built next to the test bundle, run as a user runs it: one way for every test that
/// launches it.
package enum UnderstudyBinary {
    /// Where `swift build` put it: beside the test bundle.
    package static var url: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("understudy")
    }

    /// What a run printed and how it ended.
    package struct Run: Sendable {
        package var status: Int32
        package var stdout: String
        package var stderr: String
    }

    /// Runs the binary until it exits, off the concurrency pool (an in-process mock it talks to needs the pool).
    /// - Throws: when the binary is not built or cannot be started.
    package static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> Run {
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw SupportError("the understudy binary is not built next to the test bundle (\(url.path))")
        }
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                let process = Process()
                process.executableURL = url
                process.arguments = arguments
                if !environment.isEmpty {
                    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
                }
                let out = Pipe()
                let err = Pipe()
                process.standardOutput = out
                process.standardError = err
                do {
                    try process.run()
                } catch {
                    continuation.resume(throwing: error)
                    return
                }
                // Both pipes are drained at once: a long report on one must not block the other.
                let group = DispatchGroup()
                nonisolated(unsafe) var stderr = Data()
                group.enter()
                DispatchQueue.global().async {
                    stderr = err.fileHandleForReading.readDataToEndOfFile()
                    group.leave()
                }
                let stdout = out.fileHandleForReading.readDataToEndOfFile()
                group.wait()
                process.waitUntilExit()
                continuation.resume(
                    returning: Run(
                        status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                        stderr: String(decoding: stderr, as: UTF8.self)))
            }
        }
    }
}

/// A running `understudy mock` (or `proxy`, `record`) and the base URL of each API its start-up table prints.
package final class RunningMock: @unchecked Sendable {
    package let process = Process()
    package private(set) var urls: [String: String] = [:]
    /// What it printed up to "Ready.".
    package private(set) var startup = ""

    /// Starts the binary and waits for "Ready.".
    /// - Throws: when it exits before it is ready.
    package init(_ arguments: [String] = ["mock", "--port", "0"]) throws {
        process.executableURL = UnderstudyBinary.url
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The table of base URLs comes first; "Ready." ends the start-up output.
        while !startup.contains("Ready.") {
            let chunk = out.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw SupportError("the mock exited before it was ready: \(startup)") }
            startup += String(decoding: chunk, as: UTF8.self)
        }
        for line in startup.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            if parts.count == 2, parts[1].hasPrefix("http://") { urls[String(parts[0])] = String(parts[1]) }
        }
    }

    package func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}

package struct SupportError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
