import AppClient    // the app's own API client (Examples/Sources/AppClient): it knows nothing of Understudy
import Foundation
import Testing
import UnderstudySpecs    // the API's descriptors and models: to arrange, and to read what the app sent
import UnderstudyTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct UpcomingFavoritesTests {
    /// The mock's clock, which the test moves: Monday 1 December 2025, 09:00 UTC.
    let clock = MockClock(start: Date(timeIntervalSince1970: 1_764_579_600))

    @Test func aFavoriteIsUpcomingUntilItsEventStarts() async throws {
        // A mock of this test's own (tests run in parallel share nothing), stopped after the closure; a request the
        // app sends that breaks the contract fails the test there, naming the finding.
        try await withMock(.videgreniers, configuration: MockConfiguration(now: clock.read)) { mock in
            // Arrange: an event another user organizes, published, three days ahead — through the API's own rules.
            let organizer = "admin@videgreniers.test"
            let created = try await mock.arrange(
                VideGreniers.createEvent, body: .garageSale(startingAt: clock.now + 3 * 86_400), as: organizer)
            let event = try #require(created.data).id
            try await mock.arrange(VideGreniers.publishEvent, path: ["id": event.uuidString], as: organizer)

            // Act: the app signs in and adds it to its favorites, with its own client, on a session that reaches the
            // mock in process.
            let app = VideGreniersClient(baseURL: mock.baseURL, session: URLSession(configuration: mock.sessionConfiguration))
            try await app.signIn(email: "demo@videgreniers.test", password: "Passw0rd!")
            try await app.addFavorite(event)

            // Assert: what the app shows, and what it sent.
            #expect(try await app.upcomingFavorites().map(\.id).contains(event))
            #expect(mock.journal.calls(to: VideGreniers.addFavorite).count == 1)

            // Control: four days later the event has begun, and the 15-minute access token has long expired: the
            // app refreshes it once and no longer lists the event.
            clock.advance(by: 4 * 86_400)
            #expect(try await !app.upcomingFavorites().map(\.id).contains(event))
            #expect(mock.journal.calls(to: VideGreniers.refresh).count == 1)
        }
    }

    @Test func theEventsListFailsWhenTheServerDoes() async throws {
        try await withMock(.videgreniers) { mock in
            mock.fail(VideGreniers.events, with: 503)    // this endpoint, this test only
            let app = VideGreniersClient(baseURL: mock.baseURL, session: URLSession(configuration: mock.sessionConfiguration))
            await #expect(throws: APIError.self) { try await app.events() }
        }
    }
}

extension VideGreniers.CreateEventCommand {
    /// A garage sale in Lyon from `start`, for six hours.
    static func garageSale(startingAt start: Date) -> Self {
        Self(
            title: "Vide-grenier de la Croix-Rousse", description: "Une centaine d'exposants.", eventType: .garageSale,
            startDate: start, endDate: start + 6 * 3600, street: "Boulevard de la Croix-Rousse", city: "Lyon",
            postalCode: "69004", country: "France", state: nil, latitude: 45.774, longitude: 4.832,
            contactEmail: nil, contactPhone: nil, specialInstructions: nil, entryFeeAmount: nil, entryFeeCurrency: nil,
            allowsEarlyBird: false, earlyBirdTime: nil, earlyBirdFeeAmount: nil, earlyBirdFeeCurrency: nil,
            categoryId: nil)
    }
}
