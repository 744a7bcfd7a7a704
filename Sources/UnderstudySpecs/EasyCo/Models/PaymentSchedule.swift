import Foundation
import UnderstudyCore

extension EasyCo {
    /// A row of the `payment_schedules` table: a recurring payment, as an iOS developer writes it from the
    /// table's columns (the document gives no model; see ``Property`` for the mapping conventions).
    public struct PaymentSchedule: Codable, Sendable, Hashable {
        public let id: UUID
        public let payerId: UUID
        public let payeeId: UUID?
        public let propertyId: UUID?
        /// Strictly positive.
        public let amount: Decimal
        /// The migrations give no list of values for this column (unlike `transactions.currency`).
        public let currency: String
        /// One of ``frequencies``.
        public let frequency: String
        /// One of ``paymentTypes``.
        public let paymentType: String
        public let startDate: String
        public let endDate: String?
        public let nextPaymentDate: String
        public let dayOfMonth: Int?
        public let autoPayEnabled: Bool
        public let isActive: Bool
        public let description: String?
        public let createdAt: String
        public let updatedAt: String

        enum CodingKeys: String, CodingKey {
            case id
            case payerId = "payer_id"
            case payeeId = "payee_id"
            case propertyId = "property_id"
            case amount
            case currency
            case frequency
            case paymentType = "payment_type"
            case startDate = "start_date"
            case endDate = "end_date"
            case nextPaymentDate = "next_payment_date"
            case dayOfMonth = "day_of_month"
            case autoPayEnabled = "auto_pay_enabled"
            case isActive = "is_active"
            case description
            case createdAt = "created_at"
            case updatedAt = "updated_at"
        }

        /// The values the `frequency` column accepts.
        public static let frequencies = ["weekly", "biweekly", "monthly", "quarterly", "yearly"]

        /// The values the `payment_type` column accepts.
        public static let paymentTypes = ["rent", "utilities", "service_fee", "other"]
    }
}

extension EasyCo.PaymentSchedule: SchemaRefining {
    public static func refineSchema(_ schema: inout ObjectSchema) {
        schema.refine("amount") { $0 = .decimal(exclusiveMinimum: 0) }
        schema.refine("frequency") { $0 = .string(values: frequencies) }
        schema.refine("payment_type") { $0 = .string(values: paymentTypes) }
        for column in ["start_date", "end_date", "next_payment_date"] { schema.setFormat(.date, of: column) }
        schema.setFormat(.dateTime, of: "created_at")
        schema.setFormat(.dateTime, of: "updated_at")
    }
}
