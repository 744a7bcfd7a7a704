import Foundation
import UnderstudyCore

extension EasyCo {
    /// A row of the `properties` table, as an iOS developer writes it from the table's columns.
    ///
    /// Not in the document: it names a `Property` model ("Mapping automatique JSON → `Property` model")
    /// without declaring it, so this struct follows the columns of the project's migrations (ENDPOINTS.md).
    /// Keys are mapped with explicit `CodingKeys`; timestamps stay `String`s that the app parses with
    /// `ISO8601DateFormatter().date(from:)`; `decimal` columns are `Decimal`s the app converts with
    /// `Double(truncating:)`; enumerated columns are `String`s the app maps to Swift enums after decoding.
    ///
    /// A column is optional where the migration (`030_create_properties_table.sql`) does not say `NOT NULL`, a
    /// `DEFAULT` alone included: `country`, `furnished`, `charges`, `is_available`, `amenities`, `images`,
    /// `status` and the three counters take their default when an insert leaves them out, but an insert or a
    /// fixture may store NULL there, and PostgreSQL keeps it.
    ///
    /// ```swift
    /// let rows = try JSONDecoder().decode([EasyCo.Property].self, from: data)
    /// ```
    public struct Property: Codable, Sendable, Hashable {
        public let id: UUID
        public let ownerId: UUID
        public let title: String
        public let description: String?
        /// One of ``propertyTypes``.
        public let propertyType: String
        public let address: String
        public let city: String
        public let neighborhood: String?
        public let postalCode: String
        /// `France` when the row was inserted without one.
        public let country: String?
        public let latitude: Double?
        public let longitude: Double?
        public let bedrooms: Int
        public let bathrooms: Int
        public let surfaceArea: Int?
        public let furnished: Bool?
        public let monthlyRent: Decimal
        public let charges: Decimal?
        public let deposit: Decimal?
        /// A `date` column, `YYYY-MM-DD`.
        public let availableFrom: String?
        public let isAvailable: Bool?
        /// A JSON array column, read as amenity names (see the `amenities-element-type` ambiguity).
        public let amenities: [String]?
        /// A `text[]` column.
        public let images: [String]?
        public let mainImage: String?
        /// One of ``statuses``.
        public let status: String?
        public let viewsCount: Int?
        public let applicationsCount: Int?
        public let favoritesCount: Int?
        public let createdAt: String
        public let updatedAt: String
        public let publishedAt: String?

        enum CodingKeys: String, CodingKey {
            case id
            case ownerId = "owner_id"
            case title
            case description
            case propertyType = "property_type"
            case address
            case city
            case neighborhood
            case postalCode = "postal_code"
            case country
            case latitude
            case longitude
            case bedrooms
            case bathrooms
            case surfaceArea = "surface_area"
            case furnished
            case monthlyRent = "monthly_rent"
            case charges
            case deposit
            case availableFrom = "available_from"
            case isAvailable = "is_available"
            case amenities
            case images
            case mainImage = "main_image"
            case status
            case viewsCount = "views_count"
            case applicationsCount = "applications_count"
            case favoritesCount = "favorites_count"
            case createdAt = "created_at"
            case updatedAt = "updated_at"
            case publishedAt = "published_at"
        }

        /// The values the `property_type` column accepts.
        public static let propertyTypes = [
            "apartment", "house", "studio", "coliving", "shared_room", "private_room", "entire_place",
        ]

        /// The values the `status` column accepts; `draft` by default.
        public static let statuses = ["draft", "published", "archived", "rented", "under_review"]
    }

    /// The `property:properties(id,title)` embed of the owner dashboard's applications query.
    ///
    /// Not in the document: written from the query's column list.
    public struct PropertySummary: Codable, Sendable, Hashable {
        public let id: UUID
        public let title: String
    }
}

extension EasyCo.Property: SchemaRefining {
    public static func refineSchema(_ schema: inout ObjectSchema) {
        schema.refine("property_type") { $0 = .string(values: propertyTypes) }
        // 030_create_properties_table.sql's CHECKs: a studio has no 60 bathrooms.
        schema.refine("bedrooms") { $0 = .integer(minimum: 0, maximum: 20) }
        schema.refine("bathrooms") { $0 = .integer(minimum: 0, maximum: 10) }
        schema.refine("surface_area") { $0 = .integer(minimum: 1, maximum: 10_000) }
        schema.refine("monthly_rent") { $0 = .decimal(minimum: 0, maximum: 1_000_000) }
        for column in ["charges", "deposit"] { schema.refine(column) { $0 = .decimal(minimum: 0) } }
        for column in ["views_count", "applications_count", "favorites_count"] {
            schema.refine(column) { $0 = .integer(minimum: 0) }
        }
        schema.refine("status") { $0 = .string(values: statuses) }
        schema.setFormat(.date, of: "available_from")
        for column in ["created_at", "updated_at", "published_at"] { schema.setFormat(.dateTime, of: column) }
    }
}
