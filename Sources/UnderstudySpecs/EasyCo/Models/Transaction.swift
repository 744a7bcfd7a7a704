import Foundation
import UnderstudyCore

extension EasyCo {
    /// A row of the `transactions` table: a payment between two users, as an iOS developer writes it from
    /// the table's columns (the document gives no model; see ``Property`` for the mapping conventions).
    public struct Transaction: Codable, Sendable, Hashable {
        public let id: UUID
        public let payerId: UUID?
        public let payeeId: UUID?
        public let propertyId: UUID?
        /// Never negative.
        public let amount: Decimal
        /// One of ``currencies``.
        public let currency: String
        /// One of ``transactionTypes``.
        public let transactionType: String
        /// One of ``statuses``.
        public let status: String
        public let paymentMethod: String?
        public let description: String?
        public let dueDate: String?
        public let paidAt: String?
        /// A JSON object column with free content.
        public let metadata: [String: JSONValue]
        public let createdAt: String
        public let updatedAt: String

        enum CodingKeys: String, CodingKey {
            case id
            case payerId = "payer_id"
            case payeeId = "payee_id"
            case propertyId = "property_id"
            case amount
            case currency
            case transactionType = "transaction_type"
            case status
            case paymentMethod = "payment_method"
            case description
            case dueDate = "due_date"
            case paidAt = "paid_at"
            case metadata
            case createdAt = "created_at"
            case updatedAt = "updated_at"
        }

        /// The values the `currency` column accepts.
        public static let currencies = ["EUR", "USD", "GBP"]

        /// The values the `transaction_type` column accepts.
        public static let transactionTypes = [
            "rent_payment", "security_deposit", "application_fee", "service_fee", "refund", "damage_charge",
            "utility_payment", "other",
        ]

        /// The values the `status` column accepts.
        public static let statuses = ["pending", "processing", "completed", "failed", "cancelled", "refunded"]
    }
}

extension EasyCo.Transaction: SchemaRefining {
    public static func refineSchema(_ schema: inout ObjectSchema) {
        schema.refine("amount") { $0 = .decimal(minimum: 0) }
        schema.refine("currency") { $0 = .string(values: currencies) }
        schema.refine("transaction_type") { $0 = .string(values: transactionTypes) }
        schema.refine("status") { $0 = .string(values: statuses) }
        schema.setFormat(.date, of: "due_date")
        for column in ["paid_at", "created_at", "updated_at"] { schema.setFormat(.dateTime, of: column) }
    }
}
