import Foundation
import UnderstudyCore

extension VideGreniers {
    /// The body of `POST /api/events`.
    ///
    /// Not in the document: written from the facts of the project's inventory (ENDPOINTS.md), as an iOS
    /// developer would. Dates are `Date`, sent by the app's plain `JSONEncoder()` as numbers (seconds
    /// since 2001), consistently with how it decodes them; see the `event-command-dates` ambiguity.
    /// The rules that involve several fields are the schema's ``ObjectRule``s.
    public struct CreateEventCommand: Codable, Sendable, Hashable {
        /// 3 to 200 characters.
        public let title: String
        /// 10 to 2000 characters.
        public let description: String
        public let eventType: EventType
        public let startDate: Date
        /// After `startDate`.
        public let endDate: Date
        public let street: String
        public let city: String
        public let postalCode: String
        public let country: String
        public let state: String?
        public let latitude: Double?
        public let longitude: Double?
        public let contactEmail: String?
        public let contactPhone: String?
        public let specialInstructions: String?
        /// At least 0; `entryFeeCurrency` is required when it is set.
        public let entryFeeAmount: Decimal?
        /// Three letters (`EUR`).
        public let entryFeeCurrency: String?
        public let allowsEarlyBird: Bool
        /// `"HH:mm:ss"`; required when `allowsEarlyBird` is true.
        public let earlyBirdTime: String?
        /// Required when `allowsEarlyBird` is true.
        public let earlyBirdFeeAmount: Decimal?
        /// Required when `allowsEarlyBird` is true.
        public let earlyBirdFeeCurrency: String?
        public let categoryId: UUID?

        public init(
            title: String,
            description: String,
            eventType: EventType,
            startDate: Date,
            endDate: Date,
            street: String,
            city: String,
            postalCode: String,
            country: String,
            state: String? = nil,
            latitude: Double? = nil,
            longitude: Double? = nil,
            contactEmail: String? = nil,
            contactPhone: String? = nil,
            specialInstructions: String? = nil,
            entryFeeAmount: Decimal? = nil,
            entryFeeCurrency: String? = nil,
            allowsEarlyBird: Bool = false,
            earlyBirdTime: String? = nil,
            earlyBirdFeeAmount: Decimal? = nil,
            earlyBirdFeeCurrency: String? = nil,
            categoryId: UUID? = nil
        ) {
            self.title = title
            self.description = description
            self.eventType = eventType
            self.startDate = startDate
            self.endDate = endDate
            self.street = street
            self.city = city
            self.postalCode = postalCode
            self.country = country
            self.state = state
            self.latitude = latitude
            self.longitude = longitude
            self.contactEmail = contactEmail
            self.contactPhone = contactPhone
            self.specialInstructions = specialInstructions
            self.entryFeeAmount = entryFeeAmount
            self.entryFeeCurrency = entryFeeCurrency
            self.allowsEarlyBird = allowsEarlyBird
            self.earlyBirdTime = earlyBirdTime
            self.earlyBirdFeeAmount = earlyBirdFeeAmount
            self.earlyBirdFeeCurrency = earlyBirdFeeCurrency
            self.categoryId = categoryId
        }
    }

    /// The body of `PUT /api/events/{id}`: the fields of ``CreateEventCommand`` plus `id`.
    ///
    /// Not in the document: written from the facts of the project's inventory (ENDPOINTS.md). `id` must
    /// equal the `{id}` of the path (the mock checks it: no schema relates a body to its path).
    public struct UpdateEventCommand: Codable, Sendable, Hashable {
        public let id: UUID
        /// 3 to 200 characters.
        public let title: String
        /// 10 to 2000 characters.
        public let description: String
        public let eventType: EventType
        public let startDate: Date
        /// After `startDate`.
        public let endDate: Date
        public let street: String
        public let city: String
        public let postalCode: String
        public let country: String
        public let state: String?
        public let latitude: Double?
        public let longitude: Double?
        public let contactEmail: String?
        public let contactPhone: String?
        public let specialInstructions: String?
        /// At least 0; `entryFeeCurrency` is required when it is set.
        public let entryFeeAmount: Decimal?
        /// Three letters (`EUR`).
        public let entryFeeCurrency: String?
        public let allowsEarlyBird: Bool
        /// `"HH:mm:ss"`; required when `allowsEarlyBird` is true.
        public let earlyBirdTime: String?
        /// Required when `allowsEarlyBird` is true.
        public let earlyBirdFeeAmount: Decimal?
        /// Required when `allowsEarlyBird` is true.
        public let earlyBirdFeeCurrency: String?
        public let categoryId: UUID?

        public init(id: UUID, _ command: CreateEventCommand) {
            self.id = id
            title = command.title
            description = command.description
            eventType = command.eventType
            startDate = command.startDate
            endDate = command.endDate
            street = command.street
            city = command.city
            postalCode = command.postalCode
            country = command.country
            state = command.state
            latitude = command.latitude
            longitude = command.longitude
            contactEmail = command.contactEmail
            contactPhone = command.contactPhone
            specialInstructions = command.specialInstructions
            entryFeeAmount = command.entryFeeAmount
            entryFeeCurrency = command.entryFeeCurrency
            allowsEarlyBird = command.allowsEarlyBird
            earlyBirdTime = command.earlyBirdTime
            earlyBirdFeeAmount = command.earlyBirdFeeAmount
            earlyBirdFeeCurrency = command.earlyBirdFeeCurrency
            categoryId = command.categoryId
        }
    }

    /// The body of `POST /api/events/{id}/cancel`.
    ///
    /// Written from the document's JSON example (it gives no Swift model); `reason` has 10 to 500
    /// characters (ENDPOINTS.md).
    public struct CancelEventRequest: Codable, Sendable, Hashable {
        public let reason: String

        public init(reason: String) {
            self.reason = reason
        }
    }
}

extension VideGreniers.CreateEventCommand: SchemaRefining {
    public static func refineSchema(_ schema: inout ObjectSchema) {
        VideGreniers.refineEventCommand(&schema)
    }
}

extension VideGreniers.UpdateEventCommand: SchemaRefining {
    public static func refineSchema(_ schema: inout ObjectSchema) {
        VideGreniers.refineEventCommand(&schema)
    }
}

extension VideGreniers.CancelEventRequest: SchemaRefining {
    public static func refineSchema(_ schema: inout ObjectSchema) {
        // At least 10 characters once trimmed: from a non-space character to another, 8 or more between them.
        schema.refine("reason") { $0 = .string(minLength: 10, maxLength: 500, pattern: #"\S[\s\S]{8,}\S"#) }
    }
}

extension VideGreniers {
    /// The single-field rules shared by the create and update commands.
    static func refineEventCommand(_ schema: inout ObjectSchema) {
        schema.refine("title") { $0 = .string(minLength: 3, maxLength: 200, pattern: notBlank) }
        schema.refine("description") { $0 = .string(minLength: 10, maxLength: 2000, pattern: notBlank) }
        for name in ["street", "city", "postalCode", "country"] {
            schema.refine(name) { $0 = .string(pattern: notBlank) }
        }
        schema.refine("latitude") { $0 = .number(minimum: -90, maximum: 90) }
        schema.refine("longitude") { $0 = .number(minimum: -180, maximum: 180) }
        schema.setFormat(.email, of: "contactEmail")
        // .NET's decimal holds no more than 79228162514264337593543950335: a larger amount is a 400.
        for name in ["entryFeeAmount", "earlyBirdFeeAmount"] {
            schema.refine(name) { $0 = .decimal(minimum: 0, maximum: 79_228_162_514_264_337_593_543_950_335) }
        }
        for name in ["entryFeeCurrency", "earlyBirdFeeCurrency"] {
            schema.refine(name) { $0 = .string(minLength: 3, maxLength: 3, pattern: "^[A-Za-z]{3}$") }
        }
        schema.setFormat(.time, of: "earlyBirdTime")
        schema.rules = [
            .after("endDate", "startDate"),
            .requires("latitude", ["longitude"]), .requires("longitude", ["latitude"]),
            .requires("entryFeeAmount", ["entryFeeCurrency"]),
            .requires("allowsEarlyBird", ["earlyBirdTime", "earlyBirdFeeAmount", "earlyBirdFeeCurrency"]),
        ]
    }

    /// ASP.NET's `[Required]` refuses a string of spaces: at least one other character.
    static let notBlank = #"\S"#
}
