import Foundation
import UnderstudyCore

extension EasyCo {
    /// A row of the `favorites` table, as `POST /rest/v1/favorites` returns it with
    /// `Prefer: return=representation`.
    ///
    /// Not in the document: written from the table's columns (see ``Property`` for the mapping conventions).
    public struct Favorite: Codable, Sendable, Hashable {
        public let id: UUID
        public let userId: UUID
        public let propertyId: UUID
        public let createdAt: String

        enum CodingKeys: String, CodingKey {
            case id
            case userId = "user_id"
            case propertyId = "property_id"
            case createdAt = "created_at"
        }
    }

    /// The body the app posts to add a favorite, as the document shows it.
    ///
    /// Not declared as Swift in the document: written from its body example. PostgREST rejects columns the
    /// table does not have, so unknown members are errors.
    public struct NewFavorite: Codable, Sendable, Hashable {
        public let userId: UUID
        public let propertyId: UUID

        public init(userId: UUID, propertyId: UUID) {
            self.userId = userId
            self.propertyId = propertyId
        }

        enum CodingKeys: String, CodingKey {
            case userId = "user_id"
            case propertyId = "property_id"
        }
    }

    /// A row of `GET /rest/v1/favorites?select=property_id,properties(*)`: the favorite property's id and
    /// the whole property, embedded under the table's name.
    ///
    /// Not in the document: written from the query. `properties` is optional because PostgREST embeds
    /// `null` when row-level security hides the property (no longer published and available, not owned).
    public struct FavoriteProperty: Codable, Sendable, Hashable {
        public let propertyId: UUID
        public let properties: Property?

        enum CodingKeys: String, CodingKey {
            case propertyId = "property_id"
            case properties
        }
    }
}

extension EasyCo.Favorite: SchemaRefining {
    public static func refineSchema(_ schema: inout ObjectSchema) {
        schema.setFormat(.dateTime, of: "created_at")
    }
}

extension EasyCo.NewFavorite: SchemaRefining {
    public static func refineSchema(_ schema: inout ObjectSchema) {
        schema.additionalProperties = .forbidden
    }
}
