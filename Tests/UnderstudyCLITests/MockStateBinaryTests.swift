import Foundation
import Testing
import UnderstudyTestSupport

/// `understudy mock --state` as a process: what it acknowledged survives `kill -9`, and a second mock on the
/// same state refuses to start.
struct MockStateBinaryTests {

    static let activity = #"""
        {"sportType": "Running", "title": "Run %d", "location": "Parc de la Tête d'Or", "date": "2025-11-15",
         "time": "2025-11-15T14:30:00Z", "participants": 4, "level": "Beginner", "visibility": "public"}
        """#

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("mock-state-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func killNineLosesNoAcknowledgedWrite() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = ["mock", "--api", "fitness", "--port", "0", "--state", folder.appendingPathComponent("s.sqlite").path]
        let first = try RunningMock(arguments)
        let base = try #require(first.urls["fitness"])
        let token = try await LoopbackHTTP.token(at: base)
        let headers = ["Authorization": "Bearer \(token)"]
        let acknowledged = try await Self.createsUntilKilled(at: [base], headers: headers, killing: first)
        first.process.waitUntilExit()
        #expect(first.process.terminationReason == .uncaughtSignal)
        #expect(!acknowledged.isEmpty)

        let second = try RunningMock(arguments)
        defer { second.stop() }
        let restarted = try #require(second.urls["fitness"])
        let missing = try await Self.missing(acknowledged, at: restarted, headers: headers)
        #expect(missing == [], "\(missing.count) of \(acknowledged.count) acknowledged creates lost")
    }

    /// Creates in flight from 8 clients spread over `bases`; `victim` is killed while some are still unanswered.
    /// - Returns: the ids of the creates answered 201.
    static func createsUntilKilled(
        at bases: [String], headers: [String: String], killing victim: RunningMock
    ) async throws -> [String] {
        try await withThrowingTaskGroup(of: [String].self) { group in
            for client in 0..<8 {
                group.addTask {
                    var ids: [String] = []
                    for index in 0..<40 {
                        let body = String(format: Self.activity, client * 100 + index)
                        let base = bases[client % bases.count]
                        guard let reply = try? await LoopbackHTTP.send("POST", "\(base)/activities", headers: headers, text: body),
                            reply.status == 201
                        else { break }
                        let object = try JSONSerialization.jsonObject(with: reply.body) as? [String: Any]
                        if let id = object?["_id"] as? String { ids.append(id) }
                    }
                    return ids
                }
            }
            group.addTask {
                try await Task.sleep(for: .milliseconds(600))
                kill(victim.process.processIdentifier, SIGKILL)
                return []
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
    }

    /// The ids of `ids` that `base` does not answer 200 for.
    static func missing(_ ids: [String], at base: String, headers: [String: String]) async throws -> [String] {
        var missing: [String] = []
        for id in ids {
            let reply = try await LoopbackHTTP.send("GET", "\(base)/activities/\(id)", headers: headers)
            if reply.status != 200 { missing.append(id) }
        }
        return missing
    }

    /// Two mock processes on one PostgreSQL state (replicas behind a load balancer): writes through both, one
    /// killed with `kill -9` mid-stream; the other, and a restarted one, answer every acknowledged create.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["UNDERSTUDY_TEST_POSTGRES"] != nil, "needs PostgreSQL"))
    func replicasOnOnePostgresStateLoseNoAcknowledgedWrite() async throws {
        let server = try #require(ProcessInfo.processInfo.environment["UNDERSTUDY_TEST_POSTGRES"])
        let state = server + (server.contains("?") ? "&" : "?") + "sslmode=disable"
        let arguments = ["mock", "--api", "fitness", "--port", "0", "--state", state]
        let first = try RunningMock(arguments)
        let second = try RunningMock(arguments)
        defer { second.stop() }
        let (one, two) = (try #require(first.urls["fitness"]), try #require(second.urls["fitness"]))
        // The database outlives test runs: start from the seed, on both replicas.
        #expect(try await LoopbackHTTP.send("POST", "\(one)/__understudy/reset").status == 200)
        let headers = ["Authorization": "Bearer \(try await LoopbackHTTP.token(at: one))"]

        let acknowledged = try await Self.createsUntilKilled(at: [one, two], headers: headers, killing: first)
        first.process.waitUntilExit()
        #expect(first.process.terminationReason == .uncaughtSignal)
        #expect(acknowledged.count > 8)
        let lostOnSurvivor = try await Self.missing(acknowledged, at: two, headers: headers)
        #expect(lostOnSurvivor == [], "\(lostOnSurvivor.count) of \(acknowledged.count) acknowledged creates missing")

        let restarted = try RunningMock(arguments)
        defer { restarted.stop() }
        let three = try #require(restarted.urls["fitness"])
        let lostOnRestart = try await Self.missing(acknowledged, at: three, headers: headers)
        #expect(lostOnRestart == [], "\(lostOnRestart.count) of \(acknowledged.count) acknowledged creates missing")
    }

    @Test func aSecondMockOnTheSameStateRefusesToStart() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = folder.appendingPathComponent("s.sqlite").path
        let first = try RunningMock(["mock", "--api", "videgreniers", "--port", "0", "--state", state])
        defer { first.stop() }

        let refusal = try await UnderstudyBinary.run(["mock", "--api", "videgreniers", "--port", "0", "--state", state])
        #expect(refusal.status == 2)
        let file = folder.appendingPathComponent("s-videgreniers.sqlite").path
        #expect(
            refusal.stderr
                == "error: cannot start the mock: the state file \(file) is in use by another understudy mock "
                + "(it is locked); stop that mock, or give this one another --state file\n")
        #expect(first.process.isRunning)
    }

    /// The state folder removed under a running mock: a create is answered 503 in apinest's envelope, never
    /// 201 into a file no restart would find, and reads go on. A state file found empty at the next start is
    /// refused, and `--state-reset` starts it from the seed.
    @Test func aRemovedStateFolderIsAnswered503AndAnEmptyFileIsRefused() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = folder.appendingPathComponent("s.sqlite").path
        let arguments = ["mock", "--api", "fitness", "--port", "0", "--state", state]
        do {
            let mock = try RunningMock(arguments)
            defer { mock.stop() }
            let base = try #require(mock.urls["fitness"])
            let headers = ["Authorization": "Bearer \(try await LoopbackHTTP.token(at: base))"]
            let created = try await LoopbackHTTP.send(
                "POST", "\(base)/activities", headers: headers, text: String(format: Self.activity, 1))
            #expect(created.status == 201)
            try FileManager.default.removeItem(at: folder)
            let refused = try await LoopbackHTTP.send(
                "POST", "\(base)/activities", headers: headers, text: String(format: Self.activity, 2))
            #expect(refused.status == 503)
            let envelope = try JSONSerialization.jsonObject(with: refused.body) as? [String: Any]
            #expect(envelope?["statusCode"] as? Int == 503, "\(refused.text)")
            #expect((envelope?["message"] as? String)?.contains("was removed or replaced while the mock ran") == true)
            #expect(try await LoopbackHTTP.send("GET", "\(base)/activities", headers: headers).status == 200)
        }

        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("s-apinest.sqlite").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        let refusal = try await UnderstudyBinary.run(arguments)
        #expect(refusal.status == 2)
        #expect(refusal.stderr.hasPrefix("error: cannot start the mock: the state file \(file) is empty (0 bytes)"))

        let reset = try RunningMock(arguments + ["--state-reset"])
        defer { reset.stop() }
        let base = try #require(reset.urls["fitness"])
        let listed = try await LoopbackHTTP.send("GET", "\(base)/activities", headers: [
            "Authorization": "Bearer \(try await LoopbackHTTP.token(at: base))"
        ])
        #expect(listed.status == 200)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)).count > 0)
    }
}
