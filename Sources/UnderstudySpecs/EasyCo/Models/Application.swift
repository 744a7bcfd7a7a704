import Foundation
import UnderstudyCore

extension EasyCo {
    /// A row of the `applications` table: a rental application, as an iOS developer writes it from the
    /// table's columns (the document gives no model; see ``Property`` for the mapping conventions).
    ///
    /// `property` is the `property:properties(id,title)` embed of the owner dashboard's query; the rows a
    /// `POST` returns with `Prefer: return=representation` have no embed, so it is optional.
    public struct Application: Codable, Sendable, Hashable {
        public let id: UUID
        public let propertyId: UUID
        public let applicantId: UUID
        /// One of ``statuses``; `pending` by default.
        public let status: String
        public let applicantName: String
        public let applicantEmail: String
        public let applicantPhone: String?
        public let occupation: String?
        public let monthlyIncome: Decimal?
        public let message: String?
        public let desiredMoveInDate: String?
        public let createdAt: String
        public let updatedAt: String
        /// Present only when the query selects `property:properties(id,title)`.
        public let property: PropertySummary?

        enum CodingKeys: String, CodingKey {
            case id
            case propertyId = "property_id"
            case applicantId = "applicant_id"
            case status
            case applicantName = "applicant_name"
            case applicantEmail = "applicant_email"
            case applicantPhone = "applicant_phone"
            case occupation
            case monthlyIncome = "monthly_income"
            case message
            case desiredMoveInDate = "desired_move_in_date"
            case createdAt = "created_at"
            case updatedAt = "updated_at"
            case property
        }

        /// The values the `status` column accepts.
        public static let statuses = ["pending", "reviewing", "approved", "rejected", "withdrawn", "expired"]
    }

    /// The body the app posts to submit an application, as the document shows it.
    ///
    /// Not declared as Swift in the document: written from its body example. `message` is left out when the
    /// applicant wrote none. PostgREST rejects columns the table does not have, so unknown members are errors.
    public struct NewApplication: Codable, Sendable, Hashable {
        public let applicantId: UUID
        public let propertyId: UUID
        public let applicantName: String
        public let applicantEmail: String
        /// `pending` in the app; the column accepts every ``Application/statuses`` value.
        public let status: String
        public let message: String?

        enum CodingKeys: String, CodingKey {
            case applicantId = "applicant_id"
            case propertyId = "property_id"
            case applicantName = "applicant_name"
            case applicantEmail = "applicant_email"
            case status
            case message
        }
    }
}

extension EasyCo.Application: SchemaRefining {
    public static func refineSchema(_ schema: inout ObjectSchema) {
        schema.refine("status") { $0 = .string(values: statuses) }
        schema.setFormat(.date, of: "desired_move_in_date")
        schema.setFormat(.dateTime, of: "created_at")
        schema.setFormat(.dateTime, of: "updated_at")
    }
}

extension EasyCo.NewApplication: SchemaRefining {
    public static func refineSchema(_ schema: inout ObjectSchema) {
        schema.refine("status") { $0 = .string(values: EasyCo.Application.statuses) }
        schema.additionalProperties = .forbidden
    }
}
