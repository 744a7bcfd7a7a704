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

    /// `{data, success: true, message, errors: null, timestamp}`; `state` restores the events' amounts.
    static func ok<Data: Codable & Sendable>(
        _ data: Data?, in state: State? = nil, now: Double, status: Int = 200, message: String? = nil
    ) throws -> MockResponse {
        let envelope = VideGreniers.ApiResponse(
            data: data, success: true, message: message, errors: nil, timestamp: date(now))
        return .json(try wire(envelope, amountsFrom: state), status: status)
    }

    /// An answer without data: `{data: null, success: true, message, ...}`.
    static func done(_ message: String, now: Double) throws -> MockResponse {
        try ok(VideGreniers.EmptyData?.none, now: now, message: message)
    }

    /// A page of `rows` in a `PaginatedApiResponse`.
    static func page<Row: Codable & Sendable>(
        _ rows: [Row], page: Int, pageSize: Int, in state: State? = nil, now: Double
    ) throws -> MockResponse {
        let totalCount = rows.count
        let totalPages = (totalCount + pageSize - 1) / pageSize
        // A page past the last one is empty; checking first keeps `(page - 1) * pageSize` from overflowing.
        let start = page > totalPages ? totalCount : (page - 1) * pageSize
        let envelope = VideGreniers.PaginatedApiResponse(
            data: Array(rows[start..<min(start + pageSize, totalCount)]), success: true, message: nil, errors: nil,
            timestamp: date(now),
            pagination: VideGreniers.PaginationMetadata(
                page: page, pageSize: pageSize, totalPages: totalPages, totalCount: totalCount,
                hasPreviousPage: page > 1, hasNextPage: page < totalPages))
        return .json(try wire(envelope, amountsFrom: state))
    }

    private static func wire(_ model: some Encodable, amountsFrom state: State?) throws -> JSONValue {
        let json = try VideGreniers.spec.wireJSON(model)
        return state.map { restoringAmounts(json, from: $0) } ?? json
    }

    /// System.Text.Json writes a `decimal` with its scale (`2.50`, as the document's `2.00`), which
    /// Foundation's `Decimal` drops: every event's amounts are written back as the literals received.
    private static func restoringAmounts(_ value: JSONValue, from state: State) -> JSONValue {
        switch value {
        case .array(let elements): return .array(elements.map { restoringAmounts($0, from: state) })
        case .object(var members):
            for (key, member) in members { members[key] = restoringAmounts(member, from: state) }
            if members["entryFeeAmount"] != nil, let id = members["id"]?.stringValue.flatMap(UUID.init(uuidString:)),
                let event = state.event(id)
            {
                members["entryFeeAmount"] = amount(event.entryFeeAmount)
                members["earlyBirdFeeAmount"] = amount(event.earlyBirdFeeAmount)
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

    static func favorite(_ favorite: VideGreniersMock.Favorite, in state: State) -> VideGreniers.FavoriteDto? {
        guard let event = state.event(favorite.eventId) else { return nil }
        return VideGreniers.FavoriteDto(
            id: favorite.id, userId: favorite.userId, eventId: favorite.eventId,
            event: self.event(event, in: state, caller: favorite.userId), createdOnUtc: date(favorite.createdOnUtc),
            status: favorite.status)
    }

    static func notification(_ notification: VideGreniersMock.Notification, in state: State)
        -> VideGreniers.NotificationDto
    {
        VideGreniers.NotificationDto(
            id: notification.id, title: notification.title, message: notification.message, type: notification.type,
            status: notification.status, readOnUtc: date(notification.readOnUtc),
            sentOnUtc: date(notification.sentOnUtc), actionUrl: notification.actionUrl,
            actionText: notification.actionText, imageUrl: notification.imageUrl,
            createdOnUtc: date(notification.createdOnUtc), eventId: notification.eventId,
            eventTitle: notification.eventId.flatMap { state.event($0)?.title } ?? notification.eventTitle,
            isUnread: notification.readOnUtc == nil, typeDisplayName: typeDisplayName(notification.type))
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

    static func activity(_ activity: VideGreniersMock.Activity, in state: State) -> VideGreniers.UserActivityDto {
        VideGreniers.UserActivityDto(
            id: activity.id, activityType: activity.activityType, eventId: activity.eventId,
            eventTitle: activity.eventId.flatMap { state.event($0)?.title } ?? activity.eventTitle,
            searchTerm: activity.searchTerm, metadata: activity.metadata, createdOnUtc: date(activity.createdOnUtc))
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
