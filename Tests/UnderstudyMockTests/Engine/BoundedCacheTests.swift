import Foundation
import Testing
import UnderstudyCore

@testable import UnderstudyMock

struct BoundedCacheTests {
    @Test func entriesAndBytesStayBoundedAndRecentlyUsedOnesSurvive() {
        var cache = BoundedCache<Int, String>(maximumEntries: 100, maximumBytes: 10_000)
        cache.insert("first", bytes: 10, for: -1)
        for key in 0..<2_000 {
            cache.insert("value \(key)", bytes: 50, for: key)
            // Reading the first entry keeps it among the recently used ones.
            #expect(cache.value(for: -1) == "first")
            #expect(cache.count <= 100)
            #expect(cache.bytes <= 10_000)
        }
        #expect(cache.value(for: 1_999) == "value 1999")
        #expect(cache.value(for: 0) == nil)
    }

    @Test func byteBoundEvictsBeforeTheEntryBound() {
        var cache = BoundedCache<Int, String>(maximumEntries: 1_000, maximumBytes: 10_000)
        for key in 0..<2_000 { cache.insert("\(key)", bytes: 1_000, for: key) }
        #expect(cache.count <= 10)
        #expect(cache.bytes <= 10_000)
        cache.insert("too big", bytes: 1_251, for: -1)
        #expect(cache.value(for: -1) == nil)
        cache.removeAll()
        #expect(cache.count == 0 && cache.bytes == 0)
    }

    @Test func twoThousandDistinctQueryStringsLeaveTheEngineCacheBounded() async throws {
        let behaviour = try await MockAPI.apinest.makeBehaviour(configuration: MockConfiguration())
        let engine = MockEngine(behaviour: behaviour)
        let first = await engine.send("GET", "/activities?x=0")
        #expect(first.status == 200)
        for index in 1..<2_000 {
            let reply = await engine.send("GET", "/activities?x=\(index)")
            #expect(reply.response.body == first.response.body)
        }
        let (count, bytes) = engine.cache.withLock { ($0.count, $0.bytes) }
        #expect(count <= 1_024)
        #expect(bytes <= 64 << 20)
        #expect(count > 0)
    }
}

struct RateLimiterMemoryTests {
    @Test func countersOfFinishedWindowsAreDropped() {
        let clock = Locked(Date(timeIntervalSince1970: 0))
        let limiter = RateLimiter(RateLimit(requests: 1, seconds: 1), now: { clock.withLock { $0 } })
        for client in 0..<10_000 { #expect(limiter.admit("Bearer \(client)") == nil) }
        #expect(limiter.admit("Bearer 0") == 1)
        #expect(limiter.clientCount <= 10_000)
        clock.withLock { $0 = $0.addingTimeInterval(2) }
        // Pruning happens when the counters reach twice what was running at the last prune (16,384 here):
        // the 10,000 finished windows go, the 7,000 running ones stay.
        for client in 0..<7_000 { _ = limiter.admit("Bearer new \(client)") }
        #expect(limiter.clientCount == 7_000)
    }
}
