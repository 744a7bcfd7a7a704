import AppClient
import Foundation
import Testing
import UnderstudySpecs
import UnderstudyTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct ApinestTests {
    @Test func completingAnActivityEarnsXP() async throws {
        try await withMock(.apinest) { mock in
            let app = ApinestClient(
                baseURL: mock.baseURL, session: URLSession(configuration: mock.sessionConfiguration),
                token: try await mock.token())
            let before = try await app.summary().level.totalXp

            let run = try await app.create(.init(title: "Footing du dimanche", date: "2026-12-06", time: "2026-12-06T09:00:00Z"))
            try await app.complete(run.id, minutes: 60)

            // The backend's rules: +10 XP for creating, +50 and +1 per 10 minutes for completing (badges may add more).
            #expect(try await app.summary().level.totalXp >= before + 66)
            let sent = try #require(mock.journal.calls(to: Fitness.createActivity).first)
            #expect(try sent.body(as: Apinest.CreateActivityRequest.self, in: Fitness.spec).title == "Footing du dimanche")
        }
    }

    @Test func joiningAnotherUsersActivityListsTheUser() async throws {
        try await withMock(.apinest) { mock in
            let app = ApinestClient(
                baseURL: mock.baseURL, session: URLSession(configuration: mock.sessionConfiguration),
                token: try await mock.token())
            // The creator of an activity is its first participant: the app learns its user id so.
            let mine = try await app.create(.init(title: "Fractionné", date: "2026-12-02", time: "2026-12-02T18:30:00Z"))
            let me = try #require(mine.participantIds.first)
            let open = try #require(try await app.activities().first { !$0.participantIds.contains(me) && !$0.isCompleted })

            #expect(try await app.join(open.id).participantIds.contains(me))
            #expect(mock.journal.calls(to: Fitness.joinActivity).map(\.status) == [200])
        }
    }
}
