import AppClient
import Foundation
import Testing
import UnderstudySpecs
import UnderstudyTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct IntraTests {
    /// Tuesday 18 November 2025, 10:20 UTC.
    let clock = MockClock(start: Date(timeIntervalSince1970: 1_763_461_200))

    @Test func aSlotOpensOnlyHalfAnHourAhead() async throws {
        try await withMock(.intra42, configuration: MockConfiguration(now: clock.read)) { mock in
            let app = IntraClient(
                baseURL: mock.baseURL, session: URLSession(configuration: mock.sessionConfiguration),
                token: try await mock.token())
            let me = try await app.me()
            let eleven = clock.now + 40 * 60

            let opened = try await app.openSlot(for: me.id, from: eleven, to: eleven + 15 * 60)
            #expect(try await app.slots().map(\.id).contains(opened[0].id))

            clock.advance(by: 30 * 60)    // 10:50: a slot at 11:15 is 25 minutes ahead
            await #expect(throws: APIError.self) {
                try await app.openSlot(for: me.id, from: eleven + 15 * 60, to: eleven + 30 * 60)
            }
            #expect(mock.journal.calls(to: Intra42.createSlot).map(\.status) == [201, 422])
        }
    }
}
