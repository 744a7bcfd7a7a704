import Foundation
import UnderstudyCore

extension EasyCo {
    /// A row of the `property_members` table: who lives in a property, as an iOS developer writes it from
    /// the table's columns (the document gives no model; see ``Property`` for the mapping conventions).
    public struct PropertyMember: Codable, Sendable, Hashable {
        public let id: UUID
        public let propertyId: UUID
        public let userId: UUID
        /// One of ``roles``.
        public let role: String
        /// One of ``statuses``.
        public let status: String
        public let moveInDate: String?
        public let moveOutDate: String?
        public let createdAt: String
        public let updatedAt: String

        enum CodingKeys: String, CodingKey {
            case id
            case propertyId = "property_id"
            case userId = "user_id"
            case role
            case status
            case moveInDate = "move_in_date"
            case moveOutDate = "move_out_date"
            case createdAt = "created_at"
            case updatedAt = "updated_at"
        }

        /// The values the `role` column accepts.
        public static let roles = ["resident", "tenant", "roommate"]

        /// The values the `status` column accepts.
        public static let statuses = ["active", "pending", "moved_out"]
    }
}

extension EasyCo.PropertyMember: SchemaRefining {
    public static func refineSchema(_ schema: inout ObjectSchema) {
        schema.refine("role") { $0 = .string(values: roles) }
        schema.refine("status") { $0 = .string(values: statuses) }
        for column in ["move_in_date", "move_out_date"] { schema.setFormat(.date, of: column) }
        schema.setFormat(.dateTime, of: "created_at")
        schema.setFormat(.dateTime, of: "updated_at")
    }
}
