import Foundation
import UnderstudyCore

extension VideGreniers {
    /// An event the user marked as a favorite, as the document declares it.
    public struct FavoriteDto: Codable, Sendable, Hashable {
        public let id: UUID
        public let userId: UUID
        public let eventId: UUID
        public let event: EventDto
        public let createdOnUtc: Date
        public let status: FavoriteStatus

        public init(id: UUID, userId: UUID, eventId: UUID, event: EventDto, createdOnUtc: Date, status: FavoriteStatus)
        {
            self.id = id
            self.userId = userId
            self.eventId = eventId
            self.event = event
            self.createdOnUtc = createdOnUtc
            self.status = status
        }
    }

    /// Whether a favorite is current, as the document declares it (`CaseIterable` added so its values are known).
    public enum FavoriteStatus: Int, Codable, CaseIterable, Sendable {
        case active = 0  // Actif
        case archived = 1  // Archivé
    }

    /// The payload of `PATCH /api/favorites/{eventId}/toggle`.
    ///
    /// Written from the document's JSON example (it gives no Swift model).
    public struct FavoriteToggleDto: Codable, Sendable, Hashable {
        public let eventId: UUID
        public let isFavorite: Bool
        public let action: FavoriteAction

        public init(eventId: UUID, isFavorite: Bool, action: FavoriteAction) {
            self.eventId = eventId
            self.isFavorite = isFavorite
            self.action = action
        }
    }

    /// What a toggle did: the document's example says `"added" // or "removed"`.
    public enum FavoriteAction: String, Codable, CaseIterable, Sendable {
        case added
        case removed
    }
}
