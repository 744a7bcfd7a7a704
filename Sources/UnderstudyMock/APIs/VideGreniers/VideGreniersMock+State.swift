import Foundation
import UnderstudyCore
import UnderstudySpecs

extension VideGreniersMock {
    /// Everything the VideGreniers mock remembers, persisted as one JSON file.
    ///
    /// Instants are seconds since 2001-01-01 (`timeIntervalSinceReferenceDate`); answers write them as
    /// ISO 8601 strings (``VideGreniersJSON/date(_:)``). Amounts keep their JSON literal (`"2.00"`),
    /// as a .NET `decimal` keeps its scale.
    struct State: Codable, Sendable {
        var users: [User]
        var categories: [Category]
        var events: [Event]
        var favorites: [Favorite]
        var notifications: [Notification]
        var activities: [Activity]
        var refreshTokens: [RefreshToken]
        /// `jti` → expiry of access tokens refused before they expire (logout, deleted accounts).
        var revokedAccessTokens: [String: Double]
        /// How many ids were handed out: new ids are derived from the seed and this counter, so the same
        /// requests in the same order give the same ids.
        var issuedIDs: UInt64
        let seed: UInt64

        /// A fresh id, deterministic for the seed and the number of ids issued before.
        mutating func nextID() -> UUID {
            issuedIDs += 1
            return VideGreniersMock.derivedID(seed: seed, salt: "id \(issuedIDs)")
        }

        func user(_ id: UUID) -> User? { users.first { $0.id == id } }

        func user(email: String) -> User? {
            let wanted = email.lowercased()
            return users.first { $0.email.lowercased() == wanted }
        }

        func event(_ id: UUID) -> Event? { events.first { $0.id == id } }

        func category(_ id: UUID?) -> Category? { id.flatMap { id in categories.first { $0.id == id } } }

        /// The events `caller` may see: every event but the drafts of other organisers.
        func isVisible(_ event: Event, to caller: UUID?) -> Bool {
            event.status != .draft || (caller != nil && event.organizerId == caller)
        }

        func favoriteCount(of event: UUID) -> Int { favorites.count { $0.eventId == event } }

        func isFavorite(_ event: UUID, of user: UUID) -> Bool {
            favorites.contains { $0.eventId == event && $0.userId == user }
        }

        /// Drops refresh tokens and revoked access-token ids that expired: they are refused anyway.
        mutating func prune(now: Double) {
            refreshTokens.removeAll { $0.expiresAt <= now }
            revokedAccessTokens = revokedAccessTokens.filter { $0.value > now }
        }

        mutating func record(
            _ type: VideGreniers.UserActivityType, user: UUID, event: Event? = nil, searchTerm: String? = nil,
            metadata: String? = nil, at now: Double
        ) {
            activities.append(
                Activity(
                    id: nextID(), userId: user, activityType: type, eventId: event?.id, eventTitle: event?.title,
                    searchTerm: searchTerm, metadata: metadata, createdOnUtc: now))
        }
    }

    struct User: Codable, Sendable, Hashable {
        var id: UUID
        var email: String
        /// Kept in clear: this is a mock, and the startup notes print the seeded passwords anyway.
        var password: String
        var firstName: String
        var lastName: String
        var phoneNumber: String?
        var roles: [String]
        var createdOnUtc: Double
        var modifiedOnUtc: Double?
        var lastLoginDate: Double?
        // Accepted by PUT /api/user/profile but not returned by UserDto.
        var bio: String?
        var avatarUrl: String?
        var preferredLanguage: String?
        var emailNotifications: Bool?
        var pushNotifications: Bool?
        var smsNotifications: Bool?

        var fullName: String { [firstName, lastName].filter { !$0.isEmpty }.joined(separator: " ") }
    }

    struct Category: Codable, Sendable, Hashable {
        var id: UUID
        var name: String
        var icon: String
        var color: String
    }

    struct Event: Codable, Sendable, Hashable {
        var id: UUID
        var organizerId: UUID?
        var organizerName: String?
        var title: String
        var description: String
        var street: String
        var city: String
        var postalCode: String
        var country: String
        var state: String?
        var latitude: Double
        var longitude: Double
        var startDate: Double
        var endDate: Double
        var status: VideGreniers.EventStatus
        var eventType: VideGreniers.EventType
        var contactEmail: String?
        var contactPhone: String?
        var specialInstructions: String?
        /// The JSON number literal, as received.
        var entryFeeAmount: String?
        var entryFeeCurrency: String?
        var allowsEarlyBird: Bool
        var earlyBirdTime: String?
        var earlyBirdFeeAmount: String?
        var earlyBirdFeeCurrency: String?
        var categoryId: UUID?
        var publishedOnUtc: Double?
        var createdOnUtc: Double
        var modifiedOnUtc: Double?
        var cancellationReason: String?
    }

    struct Favorite: Codable, Sendable, Hashable {
        var id: UUID
        var userId: UUID
        var eventId: UUID
        var createdOnUtc: Double
        var status: VideGreniers.FavoriteStatus
    }

    struct Notification: Codable, Sendable, Hashable {
        var id: UUID
        var userId: UUID
        var title: String
        var message: String
        var type: VideGreniers.NotificationType
        var status: VideGreniers.NotificationStatus
        var readOnUtc: Double?
        var sentOnUtc: Double?
        var actionUrl: String?
        var actionText: String?
        var imageUrl: String?
        var createdOnUtc: Double
        var eventId: UUID?
        /// The title when the notification was created, shown if the event is gone.
        var eventTitle: String?
    }

    struct Activity: Codable, Sendable, Hashable {
        var id: UUID
        var userId: UUID
        var activityType: VideGreniers.UserActivityType
        var eventId: UUID?
        var eventTitle: String?
        var searchTerm: String?
        var metadata: String?
        var createdOnUtc: Double
    }

    struct RefreshToken: Codable, Sendable, Hashable {
        var token: String
        var userId: UUID
        var expiresAt: Double
        /// Set when the token was used (rotated) or revoked by logout: it is refused afterwards.
        var revokedAt: Double?
    }

    /// A version-4 UUID derived from the seed and a salt.
    static func derivedID(seed: UInt64, salt: String) -> UUID {
        var random = SeededRandom(seed: seed).derived("videgreniers \(salt)")
        var bytes = (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
