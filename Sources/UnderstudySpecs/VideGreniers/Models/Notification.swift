import Foundation
import UnderstudyCore

extension VideGreniers {
    /// A notification sent to the user, as the document declares it.
    public struct NotificationDto: Codable, Sendable, Hashable {
        public let id: UUID
        public let title: String
        public let message: String
        public let type: NotificationType
        public let status: NotificationStatus
        public let readOnUtc: Date?
        public let sentOnUtc: Date?
        public let actionUrl: String?
        public let actionText: String?
        public let imageUrl: String?
        public let createdOnUtc: Date

        // Navigation
        public let eventId: UUID?
        public let eventTitle: String?

        // Computed
        public let isUnread: Bool
        public let typeDisplayName: String

        public init(
            id: UUID, title: String, message: String, type: NotificationType, status: NotificationStatus,
            readOnUtc: Date?, sentOnUtc: Date?, actionUrl: String?, actionText: String?, imageUrl: String?,
            createdOnUtc: Date, eventId: UUID?, eventTitle: String?, isUnread: Bool, typeDisplayName: String
        ) {
            self.id = id
            self.title = title
            self.message = message
            self.type = type
            self.status = status
            self.readOnUtc = readOnUtc
            self.sentOnUtc = sentOnUtc
            self.actionUrl = actionUrl
            self.actionText = actionText
            self.imageUrl = imageUrl
            self.createdOnUtc = createdOnUtc
            self.eventId = eventId
            self.eventTitle = eventTitle
            self.isUnread = isUnread
            self.typeDisplayName = typeDisplayName
        }
    }

    /// The kind of a notification, as the document declares it (`CaseIterable` added so its values are known).
    public enum NotificationType: Int, Codable, CaseIterable, Sendable {
        case system = 0  // Système
        case event = 1  // Événement
        case eventReminder = 2  // Rappel
        case favorite = 3  // Favoris
        case account = 4  // Compte
        case marketing = 5  // Marketing
    }

    /// The delivery state of a notification, as the document declares it (`CaseIterable` added).
    public enum NotificationStatus: Int, Codable, CaseIterable, Sendable {
        case pending = 0  // En attente
        case sent = 1  // Envoyé
        case read = 2  // Lu
        case failed = 3  // Échec
    }

    /// The body of `POST /api/notifications` (admin only).
    ///
    /// Not in the document, which names the endpoint without a body: written from the settable fields
    /// of ``NotificationDto``, as an iOS developer would. A `nil` `userId` is read as "no single
    /// recipient"; see the `create-notification-body` ambiguity.
    public struct CreateNotificationCommand: Codable, Sendable, Hashable {
        public let title: String
        public let message: String
        public let type: NotificationType
        public let userId: UUID?
        public let eventId: UUID?
        public let actionUrl: String?
        public let actionText: String?
        public let imageUrl: String?

        public init(
            title: String,
            message: String,
            type: NotificationType,
            userId: UUID? = nil,
            eventId: UUID? = nil,
            actionUrl: String? = nil,
            actionText: String? = nil,
            imageUrl: String? = nil
        ) {
            self.title = title
            self.message = message
            self.type = type
            self.userId = userId
            self.eventId = eventId
            self.actionUrl = actionUrl
            self.actionText = actionText
            self.imageUrl = imageUrl
        }
    }
}

extension VideGreniers.CreateNotificationCommand: SchemaRefining {
    /// ASP.NET's `[Required]` refuses a blank string.
    public static func refineSchema(_ schema: inout ObjectSchema) {
        for name in ["title", "message"] { schema.refine(name) { $0 = .string(pattern: VideGreniers.notBlank) } }
    }
}
