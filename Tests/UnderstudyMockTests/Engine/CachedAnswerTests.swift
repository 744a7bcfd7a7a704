import Foundation
import HTTPTypes
import NIOCore
import NIOHTTPTypes
import Testing
import UnderstudyCore

@testable import UnderstudyMock
@testable import UnderstudyMockServer

/// The server's fast path: a GET answered from the engine's cache on the event loop is the answer Hummingbird
/// writes, in order, only while the credential lasts, and never while faults or rate limits are on.
struct CachedAnswerTests {
    static let request = "GET /activities HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: */*\r\n\r\n"

    /// The head without its `Date` line, which changes every second.
    static func withoutDate(_ head: String) -> String {
        head.split(separator: "\r\n", omittingEmptySubsequences: false)
            .filter { !$0.lowercased().hasPrefix("date:") }.joined(separator: "\r\n")
    }

    @Test func aCachedAnswerIsTheAnswerHummingbirdWrites() async throws {
        try await LiveMock.with(.apinest) { mock in
            let connection = try RawConnection(port: mock.server.port)
            try connection.send(Self.request)
            let first = try await connection.readResponse(patience: .seconds(120))
            #expect(mock.server.engine.cache.withLock { $0.count } == 1)
            try connection.send(Self.request)
            let second = try await connection.readResponse(patience: .seconds(120))
            #expect(first.head.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(Self.withoutDate(second.head) == Self.withoutDate(first.head))
            #expect(second.head.lowercased().contains("\r\ndate: "))
            #expect(second.body == first.body)
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        try await LiveMock.with(.apinest) { mock in
            let list = try await mock.send("GET", "/activities")
            let id = try #require(list.json?.arrayValue?.first?["_id"]?.stringValue)
            let connection = try RawConnection(port: mock.server.port)
            try connection.send(Self.request)
            _ = try await connection.readResponse(patience: .seconds(120))
            // The detail is not cached yet and goes to Hummingbird; the list behind it is, and must wait its turn.
            try connection.send("GET /activities/\(id) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" + Self.request)
            let detail = try await connection.readResponse(patience: .seconds(120))
            let again = try await connection.readResponse(patience: .seconds(120))
            #expect(detail.body.first == UInt8(ascii: "{"))
            #expect(again.body.first == UInt8(ascii: "["))
        }
    }

    @Test func anAnswerForATokenIsNotServedOnceTheTokenExpires() async throws {
        let clock = Locked(Date(timeIntervalSince1970: 1_763_217_000))
        let configuration = MockConfiguration(now: { clock.withLock { $0 } })
        try await LiveMock.with(.apinest, configuration: configuration) { mock in
            let token = try #require(try await mock.token()["accessToken"]?.stringValue)
            #expect(try await mock.send("GET", "/activities", token: token).status == 200)
            #expect(try await mock.send("GET", "/activities", token: token).status == 200)
            clock.withLock { $0 = $0.addingTimeInterval(16 * 60) }
            let expired = try await mock.send("GET", "/activities", token: token)
            #expect(expired.status == 401)
            #expect(expired.json?["message"]?.stringValue == "invalid token: the token has expired")
        }
    }

    /// A parameter no spec declares neither fills nor misses the cache of an API that ignores it; an API that reads
    /// every parameter (42 refuses an unknown `filter[...]`) keys by the whole query; and an answer that writes its
    /// query back (`Link`) answers only that query.
    @Test func anUndeclaredQueryParameterMakesNoNewAnswerWhereTheServerIgnoresIt() async throws {
        let videGreniers = MockEngine(
            behaviour: try await MockAPI.videgreniers.makeBehaviour(configuration: MockConfiguration()))
        let busted = RawRequest(method: "GET", target: "/api/events?page=2&nocache=1", headers: ["Host": "127.0.0.1"])
        #expect(await videGreniers.respond(to: busted).status == 200)
        let plain = RawRequest(method: "GET", target: "/api/events?page=2", headers: ["Host": "127.0.0.1"])
        let other = RawRequest(method: "GET", target: "/api/events?page=2&nocache=2", headers: ["Host": "127.0.0.1"])
        #expect(videGreniers.cachedAnswer(for: plain) != nil)
        #expect(videGreniers.cachedAnswer(for: other) === videGreniers.cachedAnswer(for: plain))
        #expect(videGreniers.cache.withLock { $0.count } == 1)
        #expect(
            videGreniers.cachedAnswer(
                for: RawRequest(method: "GET", target: "/api/events?page=3&nocache=1", headers: ["Host": "127.0.0.1"]))
                == nil)

        let intra = MockEngine(behaviour: try await MockAPI.intra42.makeBehaviour(configuration: MockConfiguration()))
        let token = try #require(try await intra.behaviour.issueToken(for: nil)["access_token"]?.stringValue)
        let headers = ["Host": "127.0.0.1", "Authorization": "Bearer \(token)"]
        let campus = RawRequest(method: "GET", target: "/v2/campus/1", headers: headers)
        #expect(await intra.respond(to: campus).status == 200)
        #expect(intra.cachedAnswer(for: campus) != nil)
        #expect(intra.cachedAnswer(for: RawRequest(method: "GET", target: "/v2/campus/1?x=1", headers: headers)) == nil)

        let linked = CachedAnswer(
            MockResponse(status: 200, headers: [("Link", #"</items?page=3&trace=9>; rel="next""#)], body: []),
            validUntil: nil, query: "page=2&trace=9")
        #expect(linked.answers(query: "page=2&trace=9"))
        #expect(!linked.answers(query: "page=2&trace=10"))
        #expect(CachedAnswer(MockResponse(status: 200, headers: [], body: []), validUntil: nil).answers(query: "x=1"))
    }

    @Test func faultsRateLimitsOtherHeadersAndWritesBypassTheCache() async throws {
        let behaviour = try await MockAPI.apinest.makeBehaviour(configuration: MockConfiguration())
        let engine = MockEngine(behaviour: behaviour)
        let raw = RawRequest(method: "GET", target: "/activities", headers: ["Host": "127.0.0.1"])
        #expect(engine.cachedAnswer(for: raw) == nil)
        #expect(await engine.respond(to: raw).status == 200)
        #expect(engine.cachedAnswer(for: raw)?.response.status == 200)
        #expect(
            engine.cachedAnswer(for: RawRequest(method: "GET", target: "/activities", headers: ["Host": "other"]))
                == nil)
        let agent = RawRequest(
            method: "GET", target: "/activities", headers: ["Host": "127.0.0.1", "User-Agent": "app"])
        #expect(engine.cachedAnswer(for: agent) != nil)
        // A declared parameter makes another answer; one no endpoint declares (a client's cache-buster) is
        // ignored by NestJS, so it reaches the same answer.
        #expect(
            engine.cachedAnswer(
                for: RawRequest(method: "GET", target: "/activities?visibility=public", headers: ["Host": "127.0.0.1"]))
                == nil)
        #expect(
            engine.cachedAnswer(
                for: RawRequest(method: "GET", target: "/activities?nocache=17", headers: ["Host": "127.0.0.1"]))
                === engine.cachedAnswer(for: raw))
        engine.setFaults([try FaultRule(parsing: "GET /activities: latency=1ms")])
        #expect(engine.cachedAnswer(for: raw) == nil)
        engine.setFaults([])
        #expect(engine.cachedAnswer(for: raw) != nil)
        let token = try #require(try await behaviour.issueToken(for: nil)["accessToken"]?.stringValue)
        let create = await engine.send(
            "POST", "/activities",
            json: [
                "sportType": "Football", "title": "Weekend Football Match", "description": "A friendly match",
                "location": "Central Park", "latitude": 40.78, "longitude": -73.96, "date": "2025-11-15",
                "time": "2025-11-15T14:30:00Z", "participants": 10, "level": "Intermediate", "visibility": "public",
            ], token: token)
        #expect(create.status == 201)
        #expect(engine.cachedAnswer(for: raw) == nil)

        let limited = MockEngine(
            behaviour: behaviour, configuration: MockConfiguration(rateLimit: RateLimit(requests: 100, seconds: 1)))
        #expect(await limited.respond(to: raw).status == 200)
        #expect(limited.cachedAnswer(for: raw) == nil)
    }
}

/// Deadlines of one connection, on instants given by the test.
struct ConnectionGuardStateMachineTests {
    typealias Machine = ConnectionGuard.StateMachine
    static func at(_ milliseconds: Int64) -> NIODeadline { .uptimeNanoseconds(UInt64(milliseconds) * 1_000_000) }
    static let head = HTTPRequestPart.head(.init(method: .get, scheme: nil, authority: nil, path: "/"))

    @Test func anIdleConnectionIsOverdueAfterTheIdleTimeout() {
        let machine = Machine(idleTimeout: .seconds(60), requestTimeout: .seconds(10), now: Self.at(0))
        #expect(!machine.isOverdue(at: Self.at(59_999)))
        #expect(machine.isOverdue(at: Self.at(60_000)))
    }

    @Test func bytesWithoutAPartStartTheRequestDeadline() {
        var machine = Machine(idleTimeout: .seconds(60), requestTimeout: .seconds(10), now: Self.at(0))
        machine.readComplete(now: Self.at(1_000))
        // Trickling bytes do not move the deadline.
        for second in 2...10 { machine.readComplete(now: Self.at(Int64(second) * 1_000)) }
        #expect(!machine.isOverdue(at: Self.at(10_999)))
        #expect(machine.isOverdue(at: Self.at(11_000)))
    }

    @Test func aRequestHasNoDeadlineWhileItIsAnsweredAndTheIdleClockRestartsAfterIt() {
        var machine = Machine(idleTimeout: .seconds(60), requestTimeout: .seconds(10), now: Self.at(0))
        machine.read(Self.head, now: Self.at(50_000))
        machine.read(.end(nil), now: Self.at(50_001))
        machine.readComplete(now: Self.at(50_001))
        #expect(!machine.isOverdue(at: Self.at(500_000)))
        machine.wroteEnd(now: Self.at(500_000))
        #expect(!machine.isOverdue(at: Self.at(559_999)))
        #expect(machine.isOverdue(at: Self.at(560_000)))
    }

    @Test func aBodyThatNeverEndsIsOverdueAfterTheRequestTimeout() {
        var machine = Machine(idleTimeout: .seconds(60), requestTimeout: .seconds(10), now: Self.at(0))
        machine.read(Self.head, now: Self.at(1_000))
        machine.readComplete(now: Self.at(1_000))
        machine.read(.body(ByteBuffer(string: "x")), now: Self.at(5_000))
        machine.readComplete(now: Self.at(5_000))
        #expect(machine.isOverdue(at: Self.at(11_000)))
    }
}
