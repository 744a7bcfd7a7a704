import Foundation
import UnderstudyCore

extension VideGreniers {
    /// A flea market, garage sale or other sale event, as the document declares it.
    public struct EventDto: Codable, Sendable, Hashable {
        public let id: UUID
        public let title: String
        public let description: String
        public let location: LocationDto
        public let startDate: Date
        public let endDate: Date
        public let status: EventStatus
        public let eventType: EventType
        public let contactEmail: String?
        public let contactPhone: String?
        public let specialInstructions: String?
        public let entryFeeAmount: Decimal?
        public let entryFeeCurrency: String?
        public let allowsEarlyBird: Bool
        /// `"HH:mm:ss"`.
        public let earlyBirdTime: String?
        public let earlyBirdFeeAmount: Decimal?
        public let earlyBirdFeeCurrency: String?
        public let publishedOnUtc: Date?
        public let createdOnUtc: Date
        public let modifiedOnUtc: Date?

        // Navigation properties
        public let organizerName: String?
        public let categoryName: String?
        public let categoryIcon: String?
        public let categoryColor: String?

        // Computed properties
        /// Only in nearby searches.
        public let distanceKm: Double?
        /// Only when the caller is authenticated.
        public let isFavorite: Bool?
        public let favoriteCount: Int

        public init(
            id: UUID, title: String, description: String, location: LocationDto, startDate: Date, endDate: Date,
            status: EventStatus, eventType: EventType, contactEmail: String?, contactPhone: String?,
            specialInstructions: String?, entryFeeAmount: Decimal?, entryFeeCurrency: String?, allowsEarlyBird: Bool,
            earlyBirdTime: String?, earlyBirdFeeAmount: Decimal?, earlyBirdFeeCurrency: String?, publishedOnUtc: Date?,
            createdOnUtc: Date, modifiedOnUtc: Date?, organizerName: String?, categoryName: String?,
            categoryIcon: String?, categoryColor: String?, distanceKm: Double?, isFavorite: Bool?, favoriteCount: Int
        ) {
            self.id = id
            self.title = title
            self.description = description
            self.location = location
            self.startDate = startDate
            self.endDate = endDate
            self.status = status
            self.eventType = eventType
            self.contactEmail = contactEmail
            self.contactPhone = contactPhone
            self.specialInstructions = specialInstructions
            self.entryFeeAmount = entryFeeAmount
            self.entryFeeCurrency = entryFeeCurrency
            self.allowsEarlyBird = allowsEarlyBird
            self.earlyBirdTime = earlyBirdTime
            self.earlyBirdFeeAmount = earlyBirdFeeAmount
            self.earlyBirdFeeCurrency = earlyBirdFeeCurrency
            self.publishedOnUtc = publishedOnUtc
            self.createdOnUtc = createdOnUtc
            self.modifiedOnUtc = modifiedOnUtc
            self.organizerName = organizerName
            self.categoryName = categoryName
            self.categoryIcon = categoryIcon
            self.categoryColor = categoryColor
            self.distanceKm = distanceKm
            self.isFavorite = isFavorite
            self.favoriteCount = favoriteCount
        }
    }

    /// Where an event takes place, as the document declares it.
    public struct LocationDto: Codable, Sendable, Hashable {
        public let street: String
        public let city: String
        public let postalCode: String
        public let country: String
        public let state: String?
        public let latitude: Double
        public let longitude: Double

        public init(
            street: String, city: String, postalCode: String, country: String, state: String?, latitude: Double,
            longitude: Double
        ) {
            self.street = street
            self.city = city
            self.postalCode = postalCode
            self.country = country
            self.state = state
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    /// The life cycle of an event, as the document declares it.
    public enum EventStatus: Int, Codable, CaseIterable, Sendable {
        case draft = 0  // Brouillon
        case published = 1  // Publié
        case active = 2  // En cours
        case completed = 3  // Terminé
        case cancelled = 4  // Annulé
        case postponed = 5  // Reporté
    }

    /// The kind of sale, as the document declares it.
    public enum EventType: Int, Codable, CaseIterable, Sendable {
        case garageSale = 0  // Vide-grenier particulier
        case fleaMarket = 1  // Brocante organisée
        case estateSale = 2  // Vente de succession
        case churchSale = 3  // Vente paroissiale
        case schoolSale = 4  // Vente école
        case movingSale = 5  // Vente déménagement
        case communityWide = 6  // Vide-grenier communal
        case specialized = 7  // Vente spécialisée
        case other = 99  // Autre
    }
}

extension VideGreniers.EventDto: SchemaRefining {
    public static func refineSchema(_ schema: inout ObjectSchema) {
        // The only format the document states for an event; its example ("07:30:00") follows it.
        schema.setFormat(.time, of: "earlyBirdTime")
    }
}
