import Foundation
import UnderstudyCore

extension VideGreniers {
    /// The user's profile, as the document declares it.
    public struct UserDto: Codable, Sendable, Hashable {
        public let id: UUID
        public let firstName: String
        public let lastName: String
        public let email: String
        public let phoneNumber: String?
        public let createdOnUtc: Date
        public let modifiedOnUtc: Date?

        // Computed
        public let fullName: String
        public let createdEventsCount: Int
        public let favoritesCount: Int

        public init(
            id: UUID, firstName: String, lastName: String, email: String, phoneNumber: String?, createdOnUtc: Date,
            modifiedOnUtc: Date?, fullName: String, createdEventsCount: Int, favoritesCount: Int
        ) {
            self.id = id
            self.firstName = firstName
            self.lastName = lastName
            self.email = email
            self.phoneNumber = phoneNumber
            self.createdOnUtc = createdOnUtc
            self.modifiedOnUtc = modifiedOnUtc
            self.fullName = fullName
            self.createdEventsCount = createdEventsCount
            self.favoritesCount = favoritesCount
        }
    }

    /// The body of `PUT /api/user/profile`.
    ///
    /// Written from the document's JSON example (it gives no Swift model). `firstName` and `lastName` are
    /// required like in ``UserDto``; every other field is optional. The example's `phone`, `bio`,
    /// `avatarUrl`, `preferredLanguage` and notification switches have no counterpart in ``UserDto``.
    public struct UpdateProfileRequest: Codable, Sendable, Hashable {
        public let firstName: String
        public let lastName: String
        public let phone: String?
        public let bio: String?
        public let avatarUrl: String?
        public let preferredLanguage: String?
        public let emailNotifications: Bool?
        public let pushNotifications: Bool?
        public let smsNotifications: Bool?

        public init(
            firstName: String,
            lastName: String,
            phone: String? = nil,
            bio: String? = nil,
            avatarUrl: String? = nil,
            preferredLanguage: String? = nil,
            emailNotifications: Bool? = nil,
            pushNotifications: Bool? = nil,
            smsNotifications: Bool? = nil
        ) {
            self.firstName = firstName
            self.lastName = lastName
            self.phone = phone
            self.bio = bio
            self.avatarUrl = avatarUrl
            self.preferredLanguage = preferredLanguage
            self.emailNotifications = emailNotifications
            self.pushNotifications = pushNotifications
            self.smsNotifications = smsNotifications
        }
    }

    /// The user's account statistics, as the document declares them.
    public struct UserStatsDto: Codable, Sendable, Hashable {
        public let totalFavorites: Int
        public let totalEventsCreated: Int
        public let totalNotifications: Int
        public let unreadNotifications: Int
        public let accountCreatedDate: Date
        public let lastLoginDate: Date?
        public let daysActive: Int

        public init(
            totalFavorites: Int, totalEventsCreated: Int, totalNotifications: Int, unreadNotifications: Int,
            accountCreatedDate: Date, lastLoginDate: Date?, daysActive: Int
        ) {
            self.totalFavorites = totalFavorites
            self.totalEventsCreated = totalEventsCreated
            self.totalNotifications = totalNotifications
            self.unreadNotifications = unreadNotifications
            self.accountCreatedDate = accountCreatedDate
            self.lastLoginDate = lastLoginDate
            self.daysActive = daysActive
        }
    }
}

extension VideGreniers.UpdateProfileRequest: SchemaRefining {
    /// ASP.NET's `[Required]` refuses a blank string; `[StringLength(100)]`.
    public static func refineSchema(_ schema: inout ObjectSchema) {
        for name in ["firstName", "lastName"] {
            schema.refine(name) { $0 = .string(maxLength: 100, pattern: VideGreniers.notBlank) }
        }
    }
}
