import Foundation
import UnderstudyCore
import UnderstudySpecs

/// The DTOs of the VideGreniers document as JSON, written the way an ASP.NET server with
/// System.Text.Json writes them: camelCase keys, every key present (`null` when empty), lower-case GUIDs,
/// and instants as the document's examples show them, ISO 8601 in UTC with whole seconds.
enum VideGreniersJSON {
    static func id(_ id: UUID) -> JSONValue { .string(id.uuidString.lowercased()) }

    static func id(_ id: UUID?) -> JSONValue { id.map(Self.id) ?? .null }

    /// `2023-09-15T08:00:00Z` for an instant in seconds since 2001.
    static func date(_ seconds: Double) -> JSONValue {
        .string(Date(timeIntervalSinceReferenceDate: seconds.rounded(.down)).formatted(wireDate))
    }

    private static let wireDate = Date.ISO8601FormatStyle()

    static func date(_ seconds: Double?) -> JSONValue { seconds.map(Self.date) ?? .null }

    static func string(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }

    /// A stored amount literal back as a JSON number.
    static func amount(_ literal: String?) -> JSONValue {
        guard let literal, let number = (try? JSONParser().parse(Array(literal.utf8)))?.numberValue else {
            return .null
        }
        return .number(number)
    }

    // MARK: Envelopes

    /// `{data, success: true, message: null, errors: null, timestamp}`.
    static func envelope(_ data: JSONValue, now: Double, message: String? = nil) -> JSONValue {
        ["data": data, "success": true, "message": string(message), "errors": nil, "timestamp": date(now)]
    }

    /// The API's error body, `{data: null, success: false, errors: [...], timestamp}`.
    static func failure(_ status: HTTPStatus, _ messages: [String], now: Double) -> JSONValue {
        let errors = messages.isEmpty ? [HTTPStatus.reason(status)] : messages
        return [
            "data": nil, "success": false, "message": nil,
            "errors": .array(errors.map(JSONValue.string)), "timestamp": date(now),
        ]
    }

    /// A page of `rows` with the `pagination` metadata of `PaginatedApiResponse`.
    static func page(_ rows: [JSONValue], page: Int, pageSize: Int, now: Double) -> JSONValue {
        let totalCount = rows.count
        let totalPages = (totalCount + pageSize - 1) / pageSize
        // A page past the last one is empty; checking first keeps `(page - 1) * pageSize` from overflowing.
        let start = page > totalPages ? totalCount : (page - 1) * pageSize
        let end = min(start + pageSize, totalCount)
        return [
            "data": .array(Array(rows[start..<end])), "success": true, "message": nil, "errors": nil,
            "timestamp": date(now),
            "pagination": [
                "page": .integer(page), "pageSize": .integer(pageSize), "totalPages": .integer(totalPages),
                "totalCount": .integer(totalCount), "hasPreviousPage": .bool(page > 1),
                "hasNextPage": .bool(page < totalPages),
            ],
        ]
    }

    // MARK: DTOs

    /// An `EventDto`; `isFavorite` is `null` for anonymous callers, `distanceKm` only set by nearby searches.
    static func event(
        _ event: VideGreniersMock.Event, in state: VideGreniersMock.State, caller: UUID?, distanceKm: Double? = nil
    ) -> JSONValue {
        let category = state.category(event.categoryId)
        return [
            "id": id(event.id),
            "title": .string(event.title),
            "description": .string(event.description),
            "location": [
                "street": .string(event.street), "city": .string(event.city), "postalCode": .string(event.postalCode),
                "country": .string(event.country), "state": string(event.state),
                "latitude": .double(event.latitude), "longitude": .double(event.longitude),
            ],
            "startDate": date(event.startDate),
            "endDate": date(event.endDate),
            "status": .integer(event.status.rawValue),
            "eventType": .integer(event.eventType.rawValue),
            "contactEmail": string(event.contactEmail),
            "contactPhone": string(event.contactPhone),
            "specialInstructions": string(event.specialInstructions),
            "entryFeeAmount": amount(event.entryFeeAmount),
            "entryFeeCurrency": string(event.entryFeeCurrency),
            "allowsEarlyBird": .bool(event.allowsEarlyBird),
            "earlyBirdTime": string(event.earlyBirdTime),
            "earlyBirdFeeAmount": amount(event.earlyBirdFeeAmount),
            "earlyBirdFeeCurrency": string(event.earlyBirdFeeCurrency),
            "publishedOnUtc": date(event.publishedOnUtc),
            "createdOnUtc": date(event.createdOnUtc),
            "modifiedOnUtc": date(event.modifiedOnUtc),
            "organizerName": string(event.organizerName),
            "categoryName": string(category?.name),
            "categoryIcon": string(category?.icon),
            "categoryColor": string(category?.color),
            "distanceKm": distanceKm.map { .double(($0 * 100).rounded() / 100) } ?? .null,
            "isFavorite": caller.map { .bool(state.isFavorite(event.id, of: $0)) } ?? .null,
            "favoriteCount": .integer(state.favoriteCount(of: event.id)),
        ]
    }

    static func favorite(_ favorite: VideGreniersMock.Favorite, in state: VideGreniersMock.State) -> JSONValue? {
        guard let event = state.event(favorite.eventId) else { return nil }
        return [
            "id": id(favorite.id),
            "userId": id(favorite.userId),
            "eventId": id(favorite.eventId),
            "event": self.event(event, in: state, caller: favorite.userId),
            "createdOnUtc": date(favorite.createdOnUtc),
            "status": .integer(favorite.status.rawValue),
        ]
    }

    static func notification(_ notification: VideGreniersMock.Notification, in state: VideGreniersMock.State)
        -> JSONValue
    {
        [
            "id": id(notification.id),
            "title": .string(notification.title),
            "message": .string(notification.message),
            "type": .integer(notification.type.rawValue),
            "status": .integer(notification.status.rawValue),
            "readOnUtc": date(notification.readOnUtc),
            "sentOnUtc": date(notification.sentOnUtc),
            "actionUrl": string(notification.actionUrl),
            "actionText": string(notification.actionText),
            "imageUrl": string(notification.imageUrl),
            "createdOnUtc": date(notification.createdOnUtc),
            "eventId": id(notification.eventId),
            "eventTitle": string(notification.eventId.flatMap { state.event($0)?.title } ?? notification.eventTitle),
            "isUnread": .bool(notification.readOnUtc == nil),
            "typeDisplayName": .string(typeDisplayName(notification.type)),
        ]
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

    static func activity(_ activity: VideGreniersMock.Activity, in state: VideGreniersMock.State) -> JSONValue {
        [
            "id": id(activity.id),
            "activityType": .integer(activity.activityType.rawValue),
            "eventId": id(activity.eventId),
            "eventTitle": string(activity.eventId.flatMap { state.event($0)?.title } ?? activity.eventTitle),
            "searchTerm": string(activity.searchTerm),
            "metadata": string(activity.metadata),
            "createdOnUtc": date(activity.createdOnUtc),
        ]
    }

    static func user(_ user: VideGreniersMock.User, in state: VideGreniersMock.State) -> JSONValue {
        [
            "id": id(user.id),
            "firstName": .string(user.firstName),
            "lastName": .string(user.lastName),
            "email": .string(user.email),
            "phoneNumber": string(user.phoneNumber),
            "createdOnUtc": date(user.createdOnUtc),
            "modifiedOnUtc": date(user.modifiedOnUtc),
            "fullName": .string(user.fullName),
            "createdEventsCount": .integer(state.events.count { $0.organizerId == user.id }),
            "favoritesCount": .integer(state.favorites.count { $0.userId == user.id }),
        ]
    }

    /// The `user` of an `AuthResponse`.
    static func authUser(_ user: VideGreniersMock.User) -> JSONValue {
        [
            "id": id(user.id), "email": .string(user.email),
            "firstName": user.firstName.isEmpty ? .null : .string(user.firstName),
            "lastName": user.lastName.isEmpty ? .null : .string(user.lastName),
        ]
    }

    static func auth(access: String, refresh: String, user: VideGreniersMock.User) -> JSONValue {
        [
            "accessToken": .string(access), "refreshToken": .string(refresh),
            "expiresIn": .integer(Int(VideGreniersMock.accessTokenLifetime)), "user": authUser(user),
        ]
    }
}
