import Foundation
import UnderstudyCore
import UnderstudySpecs

extension VideGreniersMock {
    /// Everything the VideGreniers mock remembers, persisted row by row.
    ///
    /// Instants are seconds since 2001-01-01 (`timeIntervalSinceReferenceDate`); answers write them as
    /// ISO 8601 strings (``VideGreniersAnswers/date(_:)``). Amounts keep their JSON literal (`"2.00"`),
    /// as a .NET `decimal` keeps its scale.
    struct State: StoredState {
        var users = StateTable<User>(groups: { [State.emailGroup($0.email)] })
        var categories = StateTable<Category>()
        /// Drafts are grouped (``visibleEventCount(to:)``); the events are kept in each `sortBy` order but
        /// `FavoriteCount`, which other rows change.
        var events = StateTable<Event>(groups: { State.draftGroups($0) }, orders: VideGreniersMock.eventOrders)
        var favorites = StateTable<Favorite>(groups: {
            [State.favoriteGroup(event: $0.eventId), State.favoriteGroup(event: $0.eventId, user: $0.userId)]
        })
        /// The resources the generic engine serves: every user's notifications, as `GET /api/notifications` shows
        /// them.
        var resources = ResourceState(
            spec: VideGreniers.spec, graph: ResourceGraph(spec: VideGreniers.spec),
            resources: [State.notifications, State.activities])
        var refreshTokens = StateTable<RefreshToken>()
        /// Access tokens refused before they expire (logout, deleted accounts), by `jti`.
        var revokedAccessTokens = StateTable<RevokedToken>()
        /// How many ids were handed out: new ids are derived from the seed and this counter, so the same
        /// requests in the same order give the same ids.
        var issuedIDs: StateValue<UInt64>
        let seed: UInt64

        init(
            users: [User], categories: [Category], events: [Event], favorites: [Favorite], seed: UInt64
        ) {
            for user in users { self.users.append(user) }
            self.categories = StateTable(categories)
            for event in events { self.events.append(event) }
            for favorite in favorites { self.favorites.append(favorite) }
            issuedIDs = StateValue(0)
            self.seed = seed
        }

        mutating func visit(_ visitor: inout StateVisitor) {
            visitor.visit("users", &users)
            visitor.visit("categories", &categories)
            visitor.visit("events", &events)
            visitor.visit("favorites", &favorites)
            resources.visit(&visitor)
            visitor.visit("refreshTokens", &refreshTokens)
            visitor.visit("revokedAccessTokens", &revokedAccessTokens)
            visitor.visit("issuedIDs", &issuedIDs)
        }

        static func emailGroup(_ email: String) -> String { email.lowercased() }

        static func favoriteGroup(event: UUID, user: UUID? = nil) -> String {
            user.map { "\(event) \($0)" } ?? event.uuidString
        }

        /// A fresh id, deterministic for the seed and the number of ids issued before.
        mutating func nextID() -> UUID {
            issuedIDs.value += 1
            return VideGreniersMock.derivedID(seed: seed, salt: "id \(issuedIDs.value)")
        }

        /// A draft belongs to the drafts and to its organiser's drafts.
        static func draftGroups(_ event: Event) -> [String] {
            event.status == .draft ? ["draft", "draft \(event.organizerId?.uuidString ?? "")"] : []
        }

        /// How many events `caller` may see (``isVisible(_:to:)``), counted from the groups.
        func visibleEventCount(to caller: UUID?) -> Int {
            let mine = caller.map { events.positions(in: "draft \($0.uuidString)").count } ?? 0
            return events.count - events.positions(in: "draft").count + mine
        }

        func user(_ id: UUID) -> User? { users[key: id] }

        func user(email: String) -> User? { users.rows(in: Self.emailGroup(email)).first }

        func event(_ id: UUID) -> Event? { events[key: id] }

        func category(_ id: UUID?) -> Category? { id.flatMap { categories[key: $0] } }

        /// The events `caller` may see: every event but the drafts of other organisers.
        func isVisible(_ event: Event, to caller: UUID?) -> Bool {
            event.status != .draft || (caller != nil && event.organizerId == caller)
        }

        func favoriteCount(of event: UUID) -> Int { favorites.positions(in: Self.favoriteGroup(event: event)).count }

        /// The position of `user`'s favorite of `event`.
        func favorite(_ event: UUID, of user: UUID) -> Int? {
            favorites.positions(in: Self.favoriteGroup(event: event, user: user)).first
        }

        func isFavorite(_ event: UUID, of user: UUID) -> Bool { favorite(event, of: user) != nil }

        /// Drops refresh tokens and revoked access-token ids that expired: they are refused anyway.
        mutating func prune(now: Double) {
            refreshTokens.sweep { $0.expiresAt <= now }
            revokedAccessTokens.sweep { $0.expiresAt <= now }
        }

        /// The resources of the notifications and of the activity log.
        static let notifications = "notifications"
        static let activities = "user-activities"

        /// A user's items of a resource (their notifications, their activities).
        func items(of resource: String, ownedBy user: UUID) -> [ResourceRow] {
            resources.tables[resource]?.rows(in: ResourceRow.ownerGroup(Self.owner(user))) ?? []
        }

        /// Removes a user's items of a resource.
        mutating func removeItems(of resource: String, ownedBy user: UUID) {
            for row in items(of: resource, ownedBy: user) { resources.tables[resource]?[key: row.key] = nil }
        }

        /// The owner of a user's items: the subject of their tokens.
        static func owner(_ user: UUID) -> String { user.uuidString.lowercased() }

        /// Sends a notification to a user, unread (or read at `readAt`), about an event when it names one.
        @discardableResult
        mutating func notify(
            _ user: UUID, title: String, message: String, type: VideGreniers.NotificationType, at now: Double,
            readAt: Double? = nil, event: Event? = nil, actionUrl: String? = nil, actionText: String? = nil,
            imageUrl: String? = nil, id: UUID? = nil
        ) throws -> VideGreniers.NotificationDto {
            let notification = VideGreniers.NotificationDto(
                id: id ?? nextID(), title: title, message: message, type: type, status: readAt == nil ? .sent : .read,
                readOnUtc: VideGreniersAnswers.date(readAt), sentOnUtc: VideGreniersAnswers.date(now),
                actionUrl: actionUrl, actionText: actionText, imageUrl: imageUrl,
                createdOnUtc: VideGreniersAnswers.date(now), eventId: event?.id, eventTitle: event?.title,
                isUnread: readAt == nil, typeDisplayName: VideGreniersAnswers.typeDisplayName(type))
            let key = notification.id.uuidString.lowercased()
            resources.tables[Self.notifications]?.append(
                ResourceRow(
                    parent: [:], id: key, item: try VideGreniers.spec.wireJSON(notification), owner: Self.owner(user)))
            return notification
        }

        /// Shows an event's new title in the notifications and the activities about it.
        mutating func retitle(_ event: Event) {
            let id = JSONValue.string(event.id.uuidString.lowercased())
            for resource in [Self.notifications, Self.activities] {
                for var row in resources.tables[resource] ?? StateTable() where row.item["eventId"] == id {
                    guard row.item["eventTitle"] != .string(event.title) else { continue }
                    row.item[pointer: "/eventTitle"] = .string(event.title)
                    resources.tables[resource]?.append(row)
                }
            }
        }

        /// Logs what a user did, as `GET /api/user-activities` shows it.
        mutating func record(
            _ type: VideGreniers.UserActivityType, user: UUID, event: Event? = nil, searchTerm: String? = nil,
            metadata: String? = nil, at now: Double, id: UUID? = nil
        ) throws {
            let activity = VideGreniers.UserActivityDto(
                id: id ?? nextID(), activityType: type, eventId: event?.id, eventTitle: event?.title,
                searchTerm: searchTerm, metadata: metadata, createdOnUtc: VideGreniersAnswers.date(now))
            resources.tables[Self.activities]?.append(
                ResourceRow(
                    parent: [:], id: activity.id.uuidString.lowercased(), item: Self.item(activity),
                    owner: Self.owner(user)))
        }

        /// The activity as ``APISpec/wireJSON(_:)`` writes it (`VideGreniersMockTests.anActivityIsWrittenAsItsModel`
        /// holds the two together), built directly: every event create, favorite and search logs one under the
        /// state's lock, where the encoder's round trip was a seventh of a create's time.
        static func item(_ activity: VideGreniers.UserActivityDto) -> JSONValue {
            func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
            return [
                "id": .string(activity.id.uuidString.lowercased()),
                "activityType": .integer(activity.activityType.rawValue),
                "eventId": text(activity.eventId?.uuidString.lowercased()), "eventTitle": text(activity.eventTitle),
                "searchTerm": text(activity.searchTerm), "metadata": text(activity.metadata),
                "createdOnUtc": .string(FixtureGenerator.isoDate(activity.createdOnUtc, fraction: false)),
            ]
        }
    }

    struct User: StateRow, Hashable {
        var id: UUID
        var key: UUID { id }
        var email: String
        /// Kept in clear: this is a mock, and the startup notes print the seeded passwords anyway.
        var password: String
        var firstName: String
        var lastName: String
        var phoneNumber: String?
        var roles: [String]
        var createdOnUtc: Double
        var modifiedOnUtc: Double?
        var lastLoginDate: Double?
        // Accepted by PUT /api/user/profile but not returned by UserDto.
        var bio: String?
        var avatarUrl: String?
        var preferredLanguage: String?
        var emailNotifications: Bool?
        var pushNotifications: Bool?
        var smsNotifications: Bool?

        var fullName: String { [firstName, lastName].filter { !$0.isEmpty }.joined(separator: " ") }
    }

    struct Category: StateRow, Hashable {
        var id: UUID
        var key: UUID { id }
        var name: String
        var icon: String
        var color: String
    }

    struct Event: StateRow, Hashable {
        var id: UUID
        var key: UUID { id }
        var organizerId: UUID?
        var organizerName: String?
        var title: String
        var description: String
        var street: String
        var city: String
        var postalCode: String
        var country: String
        var state: String?
        var latitude: Double
        var longitude: Double
        var startDate: Double
        var endDate: Double
        var status: VideGreniers.EventStatus
        var eventType: VideGreniers.EventType
        var contactEmail: String?
        var contactPhone: String?
        var specialInstructions: String?
        /// The JSON number literal, as received.
        var entryFeeAmount: String?
        var entryFeeCurrency: String?
        var allowsEarlyBird: Bool
        var earlyBirdTime: String?
        var earlyBirdFeeAmount: String?
        var earlyBirdFeeCurrency: String?
        var categoryId: UUID?
        var publishedOnUtc: Double?
        var createdOnUtc: Double
        var modifiedOnUtc: Double?
        var cancellationReason: String?
    }

    struct Favorite: StateRow, Hashable {
        var id: UUID
        var key: UUID { id }
        var userId: UUID
        var eventId: UUID
        var createdOnUtc: Double
        var status: VideGreniers.FavoriteStatus
    }

    struct RefreshToken: StateRow, Hashable {
        var token: String
        var key: String { token }
        var userId: UUID
        var expiresAt: Double
        /// Set when the token was used (rotated) or revoked by logout: it is refused afterwards.
        var revokedAt: Double?
    }

    /// An access token refused until it expires.
    struct RevokedToken: StateRow, Hashable {
        var jti: String
        var key: String { jti }
        var expiresAt: Double
    }

    /// A version-4 UUID derived from the seed and a salt.
    static func derivedID(seed: UInt64, salt: String) -> UUID {
        var random = SeededRandom(seed: seed).derived("videgreniers \(salt)")
        var bytes = (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
