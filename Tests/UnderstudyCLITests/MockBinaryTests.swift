import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The built `understudy mock` binary against the requests that used to kill it: each is answered, and the
/// process still serves every API afterwards.
struct MockBinaryTests {
    /// A running `understudy mock --port 0` and the base URL of each API it serves.
    final class RunningMock: @unchecked Sendable {
        let process = Process()
        private(set) var urls: [String: String] = [:]

        init(_ arguments: [String] = ["mock", "--port", "0"]) throws {
            let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
                .appendingPathComponent("understudy")
            process.executableURL = binary
            process.arguments = arguments
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            var text = ""
            // The table of base URLs comes first; "Ready." ends the start-up output.
            while !text.contains("Ready.") {
                let chunk = out.fileHandleForReading.availableData
                guard !chunk.isEmpty else { throw MockBinaryError("the mock exited before it was ready: \(text)") }
                text += String(decoding: chunk, as: UTF8.self)
            }
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: " ", omittingEmptySubsequences: true)
                if parts.count == 2, parts[1].hasPrefix("http://") { urls[String(parts[0])] = String(parts[1]) }
            }
        }

        func stop() {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
    }

    struct MockBinaryError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Sends one request and returns its status, or throws when the connection fails (a dead process).
    static func send(
        _ method: String, _ url: String, headers: [String: String] = [:], body: String? = nil
    ) async throws -> (status: Int, body: String) {
        var request = URLRequest(url: URL(string: url)!, timeoutInterval: 300)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        return try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: request) { data, response, error in
                guard let response = response as? HTTPURLResponse else {
                    continuation.resume(throwing: error ?? MockBinaryError("no response from \(method) \(url)"))
                    return
                }
                continuation.resume(returning: (response.statusCode, String(decoding: data ?? Data(), as: UTF8.self)))
            }.resume()
        }
    }

    @Test func theKillerRequestsAreAnsweredAndTheProcessLives() async throws {
        let mock = try RunningMock()
        defer { mock.stop() }
        let videgreniers = try #require(mock.urls["videgreniers"])
        let easyco = try #require(mock.urls["easyco"])
        let fitness = try #require(mock.urls["fitness"])
        let huge = "9223372036854775807"
        let tokenReply = try await Self.send("POST", "\(easyco)/__understudy/token", body: "{}")
        let apikey = try #require(
            tokenReply.body.split(separator: "\"").drop { $0 != "apikey" }.dropFirst(2).first.map(String.init))
        let anon = ["apikey": apikey, "Authorization": "Bearer \(apikey)"]
        let deep = String(repeating: "or(", count: 10_500) + "title.eq.x" + String(repeating: ")", count: 10_500)

        let killers: [(method: String, url: String, headers: [String: String], body: String?, status: Int)] = [
            ("GET", "\(videgreniers)/api/events?page=\(huge)", [:], nil, 400),
            ("GET", "\(easyco)/rest/v1/properties?offset=\(huge)", anon, nil, 200),
            ("GET", "\(easyco)/rest/v1/properties?limit=\(huge)", anon, nil, 200),
            ("GET", "\(easyco)/rest/v1/properties", anon.merging(["Range": "0-\(huge)"]) { $1 }, nil, 200),
            ("GET", "\(easyco)/rest/v1/properties?or=(\(deep.dropFirst(3))", anon, nil, 400),
            (
                "GET", "\(easyco)/rest/v1/properties?title=match.(.*)(.*)(.*)(.*)(.*)(.*)(.*)(.*)x$", anon, nil,
                500
            ),
            ("PUT", "\(fitness)/__understudy/faults", [:], #"{"rules": ["*: latency=1e300s"]}"#, 400),
            ("PUT", "\(fitness)/__understudy/faults", [:], #"{"rules": ["*: latency=\#(huge)ms"]}"#, 400),
        ]
        for killer in killers {
            let reply = try await Self.send(killer.method, killer.url, headers: killer.headers, body: killer.body)
            #expect(reply.status == killer.status, "\(killer.method) \(killer.url.prefix(120)): \(reply.body.prefix(300))")
        }
        #expect(mock.process.isRunning)
        for (label, url) in mock.urls.sorted(by: { $0.key < $1.key }) {
            let path = ["videgreniers": "/health", "easyco": "/rest/v1/properties", "intra42": "/v2/campus"][label]
            guard let path else { continue }
            let reply = try await Self.send("GET", url + path, headers: label == "easyco" ? anon : [:])
            #expect(reply.status < 500, "\(label) after the killers: \(reply.status)")
        }
        let read = try await Self.send("GET", "\(fitness)/activities")
        #expect(read.status == 200)
    }

    @Test func anAbsurdFaultLatencyIsAUsageError() async throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("understudy")
        let process = Process()
        process.executableURL = binary
        process.arguments = ["mock", "--port", "0", "--fault", "*: latency=1e300s"]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 64)
        #expect(stderr.contains(#"fault "latency=1e300s": latency must be between 0 and 3600s (1 hour)"#))
    }
}
