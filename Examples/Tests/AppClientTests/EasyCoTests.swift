import AppClient
import Foundation
import Testing
import UnderstudySpecs
import UnderstudyTesting

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct EasyCoTests {
    @Test func aSignedInUserFavoritesAPublishedListing() async throws {
        try await withMock(.easyco) { mock in
            let app = EasyCoClient(
                baseURL: mock.baseURL, session: URLSession(configuration: mock.sessionConfiguration),
                anonKey: try #require(try await mock.apiKey()))
            // A seeded user, with the password every seeded user has.
            try await app.signIn(email: "camille.martin@example.com", password: "understudy-password")
            let favorites = try await app.favoriteProperties()
            let listing = try #require(try await app.publishedProperties().first { !favorites.contains($0.id) })

            try await app.addFavorite(listing.id)

            #expect(try await app.favoriteProperties().contains(listing.id))
            let row = try #require(mock.journal.calls(to: EasyCo.addFavorite).first)
            #expect(try row.body(as: EasyCo.NewFavorite.self, in: EasyCo.spec).propertyId == listing.id)
        }
    }

    @Test func aWrongPasswordIsRefused() async throws {
        try await withMock(.easyco) { mock in
            let app = EasyCoClient(
                baseURL: mock.baseURL, session: URLSession(configuration: mock.sessionConfiguration),
                anonKey: try #require(try await mock.apiKey()))
            await #expect(throws: APIError.self) {
                try await app.signIn(email: "camille.martin@example.com", password: "not-the-password")
            }
        }
    }
}
