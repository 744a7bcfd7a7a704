import Foundation
import UnderstudyCore
import UnderstudySpecs

/// The answers of the VideGreniers document as its own DTOs, written as an ASP.NET server with
/// System.Text.Json writes them (``APISpec/wireJSON(_:)``): camelCase keys, every key present (`null` when
/// empty), lower-case GUIDs, instants as the document's examples show them, ISO 8601 in UTC with whole seconds.
enum VideGreniersAnswers {
    typealias State = VideGreniersMock.State

    /// An instant of the state (seconds since 2001) with whole seconds.
    static func date(_ seconds: Double) -> Date { Date(timeIntervalSinceReferenceDate: seconds.rounded(.down)) }

    static func date(_ seconds: Double?) -> Date? { seconds.map(date) }

    // MARK: Envelopes

    /// The amounts of the events an answer shows, as they were received (`2.50`), by event id: System.Text.Json
    /// writes a `decimal` with its scale (the document's `2.00`), which Foundation's `Decimal` drops. Taken under
    /// the state's lock with the answer's data, so that encoding happens after the lock is released.
    typealias Amounts = [UUID: (entry: String?, earlyBird: String?)]

    static func amounts(of events: some Sequence<VideGreniersMock.Event>) -> Amounts {
        Dictionary(
            events.lazy.map { ($0.id, ($0.entryFeeAmount, $0.earlyBirdFeeAmount)) },
            uniquingKeysWith: { first, _ in first })
    }

    /// `{data, success: true, message, errors: null, timestamp}`.
    static func ok<Data: Codable & Sendable>(
        _ data: Data?, amounts: Amounts = [:], now: Double, status: Int = 200, message: String? = nil
    ) throws -> MockResponse {
        let envelope = VideGreniers.ApiResponse(
            data: data, success: true, message: message, errors: nil, timestamp: date(now))
        return .json(try wire(envelope, amounts: amounts), status: status)
    }

    /// An answer without data: `{data: null, success: true, message, ...}`.
    static func done(_ message: String, now: Double) throws -> MockResponse {
        try ok(VideGreniers.EmptyData?.none, now: now, message: message)
    }

    /// Page `number` of some rows (a page past the last one is empty), taken under the state's lock so that only
    /// its rows become answers.
    struct Page<Row> {
        var rows: [Row]
        let number: Int
        let size: Int
        let totalCount: Int

        /// The page of the rows of a collection, reached by its indices (an order's skips whole chunks).
        init(_ all: some Collection<Row>, number: Int, size: Int) {
            totalCount = all.count
            rows = Array(all.dropFirst(Self.start(number: number, size: size, total: totalCount)).prefix(size))
            (self.number, self.size) = (number, size)
        }

        /// The page of `total` rows given in order, read only up to the page's end.
        init(_ all: some Sequence<Row>, total: Int, number: Int, size: Int) {
            totalCount = total
            rows = Array(all.dropFirst(Self.start(number: number, size: size, total: total)).prefix(size))
            (self.number, self.size) = (number, size)
        }

        /// How many rows come before page `number`.
        private static func start(number: Int, size: Int, total: Int) -> Int {
            // Checking first keeps `(number - 1) * size` from overflowing.
            number > (total + size - 1) / size ? total : (number - 1) * size
        }

        func map<Answer>(_ transform: (Row) throws -> Answer) rethrows -> Page<Answer> {
            Page<Answer>(rows: try rows.map(transform), number: number, size: size, totalCount: totalCount)
        }

        private init(rows: [Row], number: Int, size: Int, totalCount: Int) {
            (self.rows, self.number, self.size, self.totalCount) = (rows, number, size, totalCount)
        }
    }

    /// A page in a `PaginatedApiResponse`.
    static func page<Row: Codable & Sendable>(_ page: Page<Row>, amounts: Amounts = [:], now: Double) throws
        -> MockResponse
    {
        let totalPages = (page.totalCount + page.size - 1) / page.size
        let envelope = VideGreniers.PaginatedApiResponse(
            data: page.rows, success: true, message: nil, errors: nil, timestamp: date(now),
            pagination: VideGreniers.PaginationMetadata(
                page: page.number, pageSize: page.size, totalPages: totalPages, totalCount: page.totalCount,
                hasPreviousPage: page.number > 1, hasNextPage: page.number < totalPages))
        return .json(try wire(envelope, amounts: amounts))
    }

    private static func wire(_ model: some Encodable, amounts: Amounts) throws -> JSONValue {
        let json = try VideGreniers.spec.wireJSON(model)
        return amounts.isEmpty ? json : restoringAmounts(json, from: amounts)
    }

    /// Every event's amounts written back as the literals received.
    private static func restoringAmounts(_ value: JSONValue, from amounts: Amounts) -> JSONValue {
        switch value {
        case .array(let elements): return .array(elements.map { restoringAmounts($0, from: amounts) })
        case .object(var members):
            for (key, member) in members { members[key] = restoringAmounts(member, from: amounts) }
            if members["entryFeeAmount"] != nil, let id = members["id"]?.stringValue.flatMap(UUID.init(uuidString:)),
                let literals = amounts[id]
            {
                members["entryFeeAmount"] = amount(literals.entry)
                members["earlyBirdFeeAmount"] = amount(literals.earlyBird)
            }
            return .object(members)
        default: return value
        }
    }

    /// A stored amount literal back as a JSON number.
    private static func amount(_ literal: String?) -> JSONValue {
        guard let literal, let number = (try? JSONParser().parse(Array(literal.utf8)))?.numberValue else {
            return .null
        }
        return .number(number)
    }

    // MARK: DTOs

    /// An `EventDto`; `isFavorite` is `null` for anonymous callers, `distanceKm` only set by nearby searches.
    static func event(
        _ event: VideGreniersMock.Event, in state: State, caller: UUID?, distanceKm: Double? = nil
    ) -> VideGreniers.EventDto {
        let category = state.category(event.categoryId)
        return VideGreniers.EventDto(
            id: event.id, title: event.title, description: event.description,
            location: VideGreniers.LocationDto(
                street: event.street, city: event.city, postalCode: event.postalCode, country: event.country,
                state: event.state, latitude: event.latitude, longitude: event.longitude),
            startDate: date(event.startDate), endDate: date(event.endDate), status: event.status,
            eventType: event.eventType, contactEmail: event.contactEmail, contactPhone: event.contactPhone,
            specialInstructions: event.specialInstructions,
            entryFeeAmount: event.entryFeeAmount.flatMap { Decimal(string: $0) },
            entryFeeCurrency: event.entryFeeCurrency, allowsEarlyBird: event.allowsEarlyBird,
            earlyBirdTime: event.earlyBirdTime,
            earlyBirdFeeAmount: event.earlyBirdFeeAmount.flatMap { Decimal(string: $0) },
            earlyBirdFeeCurrency: event.earlyBirdFeeCurrency, publishedOnUtc: date(event.publishedOnUtc),
            createdOnUtc: date(event.createdOnUtc), modifiedOnUtc: date(event.modifiedOnUtc),
            organizerName: event.organizerName, categoryName: category?.name, categoryIcon: category?.icon,
            categoryColor: category?.color, distanceKm: distanceKm.map { ($0 * 100).rounded() / 100 },
            isFavorite: caller.map { state.isFavorite(event.id, of: $0) },
            favoriteCount: state.favoriteCount(of: event.id))
    }

    static func favorite(_ favorite: VideGreniersMock.Favorite, of event: VideGreniersMock.Event, in state: State)
        -> VideGreniers.FavoriteDto
    {
        VideGreniers.FavoriteDto(
            id: favorite.id, userId: favorite.userId, eventId: favorite.eventId,
            event: self.event(event, in: state, caller: favorite.userId), createdOnUtc: date(favorite.createdOnUtc),
            status: favorite.status)
    }

    /// The French names of the document's `NotificationType` comments.
    static func typeDisplayName(_ type: VideGreniers.NotificationType) -> String {
        switch type {
        case .system: "Système"
        case .event: "Événement"
        case .eventReminder: "Rappel"
        case .favorite: "Favoris"
        case .account: "Compte"
        case .marketing: "Marketing"
        }
    }

    static func user(_ user: VideGreniersMock.User, in state: State) -> VideGreniers.UserDto {
        VideGreniers.UserDto(
            id: user.id, firstName: user.firstName, lastName: user.lastName, email: user.email,
            phoneNumber: user.phoneNumber, createdOnUtc: date(user.createdOnUtc),
            modifiedOnUtc: date(user.modifiedOnUtc), fullName: user.fullName,
            createdEventsCount: state.events.count { $0.organizerId == user.id },
            favoritesCount: state.favorites.count { $0.userId == user.id })
    }

    static func auth(access: String, refresh: String, user: VideGreniersMock.User) -> VideGreniers.AuthResponse {
        VideGreniers.AuthResponse(
            accessToken: access, refreshToken: refresh, expiresIn: Int(VideGreniersMock.accessTokenLifetime),
            user: VideGreniers.AuthUserDto(
                id: user.id, email: user.email, firstName: user.firstName.isEmpty ? nil : user.firstName,
                lastName: user.lastName.isEmpty ? nil : user.lastName))
    }
}
