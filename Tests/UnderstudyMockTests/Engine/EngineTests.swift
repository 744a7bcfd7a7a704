import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Testing
import UnderstudyCore
import UnderstudyMock
import UnderstudyMockServer

struct EngineTests {
    private func engine(_ configuration: MockConfiguration = MockConfiguration()) async throws -> (
        MockEngine, NotesMock
    ) {
        let mock = try await NotesMock()
        return (MockEngine(behaviour: mock, configuration: configuration), mock)
    }

    @Test func routesAndPrefersLiteralSegments() async throws {
        let (engine, _) = try await engine()
        #expect(await engine.send("GET", "/notes/latest").json?["title"] == "First")
        #expect(await engine.send("GET", "/notes/1").json?["title"] == "First")
        #expect(await engine.send("GET", "/notes/").status == 200)
    }

    /// The behaviour is an overlay: an endpoint it does not answer is answered from its descriptor (the example),
    /// validated and authenticated as every other.
    @Test func endpointsTheBehaviourLeavesAreAnsweredFromTheirDescriptor() async throws {
        let (engine, mock) = try await engine()
        let about = await engine.send("GET", "/about")
        #expect(about.status == 200)
        #expect(about.json == ["name": "Notes", "version": 2])
        #expect(about.response.header("Content-Type") == "application/json")
        #expect(mock.handled.withLock { $0 } == 1)
        // Prism's selection works on a fallback endpoint too: it documents no 404, so the answer says so.
        let chosen = await engine.send("GET", "/about", headers: ["Prefer": "code=404"])
        #expect(chosen.status == 500)
    }

    @Test func unknownRoutesAndMethodsAnswerInTheEnvelope() async throws {
        let (engine, _) = try await engine()
        let missing = await engine.send("GET", "/nope?x=1")
        #expect(missing.status == 404)
        #expect(missing.json == ["message": "no route for GET /nope", "status": 404])
        let wrongMethod = await engine.send("PUT", "/notes")
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.json?["message"] == "PUT is not allowed on /notes; allowed: GET, HEAD, POST, OPTIONS")
        #expect(wrongMethod.response.header("Allow") == "GET, HEAD, POST, OPTIONS")
        let brew = await engine.send("BREW", "/notes")
        #expect(brew.status == 405)
        #expect(brew.response.header("Allow") == "GET, HEAD, POST, OPTIONS")
        let trace = await engine.send("TRACE", "/nope")
        #expect(trace.status == 405)
        #expect(trace.json == ["message": "method TRACE is not supported", "status": 405])
        #expect(trace.response.header("Allow") == "")
    }

    @Test func authenticationAndRoles() async throws {
        let (engine, _) = try await engine()
        let anonymous = await engine.send("POST", "/notes", json: ["title": "Hello"])
        #expect(anonymous.status == 401)
        #expect(anonymous.json?["message"] == "authentication required: send Authorization: Bearer <token>")
        #expect(
            await engine.send("POST", "/notes", json: ["title": "Hello"], token: "forged").json?["message"]
                == "invalid token")
        #expect(await engine.send("DELETE", "/notes/1", token: "user").status == 403)
        #expect(await engine.send("DELETE", "/notes/1", token: "user").json?["message"] == "the admin role is required")
        #expect(await engine.send("DELETE", "/notes/1", token: "admin").status == 204)
    }

    @Test func invalidInputIsRefusedWithTheFieldNamedAndNothingStored() async throws {
        let (engine, mock) = try await engine()
        let cases: [(JSONValue?, [UInt8]?, String)] = [
            (["title": "Hi"], nil, "title: expected at least 3 characters, found 2"),
            (["title": 12], nil, "title: expected string, found integer 12"),
            ([:], nil, "title: required property is missing (expected string)"),
            (
                nil, Array(#"{"title": "#.utf8),
                "the body is not valid JSON: unexpected end of input at byte 10: the JSON text is truncated"
            ),
            (
                nil, Array(#"{"title": "ab"#.utf8) + [0xFF] + Array(#"c"}"#.utf8),
                "the body is not valid JSON: invalid UTF-8 in string at byte 13"
            ),
            (
                nil, Array((String(repeating: "[", count: 50_000) + String(repeating: "]", count: 50_000)).utf8),
                "the body is not valid JSON: nesting deeper than 512 levels at byte 512"
            ),
            (nil, [], "the request body is required (a JSON NewNote)"),
        ]
        for (json, bytes, message) in cases {
            let reply = await engine.send("POST", "/notes", json: json, bytes: bytes, token: "user")
            #expect(reply.status == 400, "\(message)")
            #expect(reply.json?["message"] == .string(message))
        }
        #expect(
            await engine.send("GET", "/notes/abc").json?["message"]
                == #"path parameter id: expected integer, found string "abc""#)
        #expect(
            await engine.send("GET", "/notes?limit=50").json?["message"]
                == "query parameter limit: expected at most 10, found 50")
        #expect(mock.store.read { $0.notes.count } == 1)
        #expect(mock.handled.withLock { $0 } == 0)
    }

    @Test func bodiesOverTheLimitAre413() async throws {
        let (engine, _) = try await engine(MockConfiguration(maximumBodyBytes: 1024))
        let reply = await engine.send("POST", "/notes", bytes: [UInt8](repeating: 0x20, count: 2048), token: "user")
        #expect(reply.status == 413)
        #expect(reply.json?["message"] == "the body is 2048 bytes, over the 1024-byte limit")
    }

    @Test func getAnswersAreCachedUntilTheStateChanges() async throws {
        let (engine, mock) = try await engine()
        _ = await engine.send("GET", "/notes")
        _ = await engine.send("GET", "/notes")
        #expect(mock.handled.withLock { $0 } == 1)
        _ = await engine.send("POST", "/notes", json: ["title": "Second"], token: "user")
        #expect(await engine.send("GET", "/notes").json?.arrayValue?.count == 2)
        #expect(mock.handled.withLock { $0 } == 3)
    }

    @Test func cachedAnswersVaryOnTheHeadersThatChangeThem() async throws {
        let (engine, mock) = try await engine()
        _ = await engine.send("GET", "/notes")
        _ = await engine.send("GET", "/notes", headers: ["Range": "0-0"])
        _ = await engine.send("GET", "/notes", headers: ["Prefer": "count=exact"])
        _ = await engine.send("GET", "/notes", headers: ["Range": "0-0"])
        _ = await engine.send("GET", "/notes", headers: ["User-Agent": "other"])
        #expect(mock.handled.withLock { $0 } == 3)
    }

    @Test func concurrentWritesLoseNothing() async throws {
        let (engine, mock) = try await engine()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<200 {
                group.addTask {
                    _ = await engine.send("POST", "/notes", json: ["title": .string("Note \(index)")], token: "user")
                }
            }
        }
        #expect(mock.store.read { $0.notes.count } == 201)
        #expect(Set(mock.store.read { $0.notes.map(\.id) }).count == 201)
    }

    @Test func stateIsPersistedAtomicallyAndReset() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-state-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("notes.json")
        do {
            let first = MockEngine(behaviour: try await NotesMock(file: file))
            _ = await first.send("POST", "/notes", json: ["title": "Kept"], token: "user")
            // While a mock runs on the file, it is locked: a second one is refused.
            await #expect(throws: StateFileError.self) { try await NotesMock(file: file) }
        }
        do {
            // A new mock on the same file (as after kill -9) sees the acknowledged write.
            let second = MockEngine(behaviour: try await NotesMock(file: file))
            #expect(await second.send("GET", "/notes").json?[1]?["title"] == "Kept")
            #expect(await second.send("POST", "/__understudy/reset").status == 200)
            #expect(await second.send("GET", "/notes").json?.arrayValue?.count == 1)
            // SQLite's write-ahead log is the only other file.
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            #expect(Set(files).isSubset(of: ["notes.json", "notes.json-wal"]))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["notes.json"])
        let garbage = Data("{not json".utf8)
        try garbage.write(to: file)
        await #expect(throws: StateFileError.self) { try await NotesMock(file: file) }
        #expect(try Data(contentsOf: file) == garbage)
    }

    @Test func faultsAreParsedAndInjectedDeterministically() async throws {
        #expect(
            try FaultRule(parsing: "GET /notes: latency=20ms, status=503").description
                == "GET /notes: latency=20ms, status=503, error-rate=1.0")
        #expect(try FaultRule(parsing: "*: drop").description == "*: drop=1.0")
        for (text, message) in [
            (
                "GET /notes latency",
                #"fault "GET /notes latency" has no ":"; write ROUTE: key=value, e.g. 'GET /activities: latency=200ms'"#
            ),
            ("/notes: drop", #"fault route "/notes" must be "METHOD /path" or "*""#),
            ("*: status=700", #"fault "status=700": status must be an HTTP status between 100 and 599"#),
            ("*: error-rate=2", #"fault "error-rate=2": the rate must be a number between 0 and 1"#),
            ("*: slow", #"fault "slow": unknown key "slow"; use latency, status, error-rate, drop or malformed"#),
        ] {
            #expect(throws: FaultRuleError(message)) { try FaultRule(parsing: text) }
        }

        let (engine, _) = try await engine(
            MockConfiguration(seed: 7, faults: [try FaultRule(parsing: "GET /notes: error-rate=0.5, status=503")]))
        var statuses: [Int] = []
        for _ in 0..<20 { statuses.append(await engine.send("GET", "/notes").status) }
        let (again, _) = try await self.engine(
            MockConfiguration(seed: 7, faults: [try FaultRule(parsing: "GET /notes: error-rate=0.5, status=503")]))
        var repeated: [Int] = []
        for _ in 0..<20 { repeated.append(await again.send("GET", "/notes").status) }
        #expect(statuses == repeated)
        #expect(Set(statuses) == [200, 503])
        #expect(await engine.send("GET", "/notes/1").status == 200)

        let admin = await engine.send("PUT", "/__understudy/faults", json: ["rules": ["*: malformed"]])
        #expect(admin.json == ["rules": ["*: malformed=1.0"]])
        let malformed = await engine.send("GET", "/notes/1")
        #expect(malformed.status == 200 && malformed.json == nil)
        #expect(await engine.send("PUT", "/__understudy/faults", json: ["rules": ["nonsense"]]).status == 400)
        _ = await engine.send("DELETE", "/__understudy/faults")
        #expect(engine.faultRules == [])
        let drop = MockEngine(
            behaviour: try await NotesMock(),
            configuration: MockConfiguration(faults: [try FaultRule(parsing: "*: drop")]))
        #expect(await drop.send("GET", "/notes").response.dropConnection)
    }

    @Test func rateLimitAnswers429WithRetryAfter() async throws {
        let clock = Locked(Date(timeIntervalSince1970: 1_000_000))
        let (engine, _) = try await engine(
            MockConfiguration(rateLimit: RateLimit(requests: 2, seconds: 1), now: { clock.withLock { $0 } }))
        #expect(await engine.send("GET", "/notes").status == 200)
        #expect(await engine.send("GET", "/notes").status == 200)
        let limited = await engine.send("GET", "/notes")
        #expect(limited.status == 429)
        #expect(limited.response.header("Retry-After") == "1")
        clock.withLock { $0 = $0.addingTimeInterval(1) }
        #expect(await engine.send("GET", "/notes").status == 200)
        #expect(RateLimit(parsing: "1200/h") == RateLimit(requests: 1200, seconds: 3600))
        #expect(RateLimit(parsing: "fast") == nil)
    }
}

/// The Hummingbird adapter over real loopback sockets.
struct LiveServerTests {
    @Test func servesOverLoopbackOnAFreePortAndStops() async throws {
        let server = try await MockServer.start(
            try await NotesMock(),
            configuration: MockConfiguration(
                maximumBodyBytes: 4096, faults: [try FaultRule(parsing: "GET /notes/latest: drop")]))
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: LiveMock.patient)
        defer { _ = client.shutdown() }
        #expect(server.baseURL.absoluteString.hasPrefix("http://127.0.0.1:"))
        #expect(server.port > 0)

        let list = try await client.execute(HTTPClientRequest(url: "\(server.baseURL)/notes"), timeout: .seconds(300))
        #expect(list.status.code == 200)
        #expect(list.headers.first(name: "Content-Type") == "application/json; charset=utf-8")
        #expect(String(buffer: try await list.body.collect(upTo: 1 << 20)) == #"[{"id":1,"title":"First"}]"#)

        var big = HTTPClientRequest(url: "\(server.baseURL)/notes")
        big.method = .POST
        big.headers.add(name: "Authorization", value: "Bearer user")
        big.body = .bytes(ByteBuffer(repeating: UInt8(ascii: " "), count: 10 << 20))
        let tooLarge = try await client.execute(big, timeout: .seconds(300))
        #expect(tooLarge.status.code == 413)
        #expect(String(buffer: try await tooLarge.body.collect(upTo: 1 << 20)).contains("over the 4096-byte limit"))

        await #expect(throws: (any Error).self) {
            let dropped = try await client.execute(
                HTTPClientRequest(url: "\(server.baseURL)/notes/latest"), timeout: .seconds(300))
            _ = try await dropped.body.collect(upTo: 1 << 20)
        }
        await server.stop()
        // AsyncHTTPClient retries refused connections until the deadline: a short one is enough.
        await #expect(throws: (any Error).self) {
            _ = try await client.execute(HTTPClientRequest(url: "\(server.baseURL)/notes"), timeout: .milliseconds(300))
        }
    }
}
