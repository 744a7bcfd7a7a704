import Foundation
import UnderstudyCore

extension VideGreniers {
    /// `check --login email:password` signs in through `POST /api/auth/login`.
    static let signIn = LoginDeclaration(
        endpoint: login.id, token: JSONPointer(tokens: ["data", "accessToken"]),
        refreshToken: JSONPointer(tokens: ["data", "refreshToken"]))

    /// Event: create → read → update → publish → favorite (status, toggle off and on, remove) → cancel.
    /// Profile: written back unchanged. Notifications: an administrator sends one to themself; one is marked read.
    /// Account: a throwaway user registers,
    /// reads itself, refreshes its token and deletes its account; the session opened with `--login` is logged
    /// out last.
    static let writeScenario = WriteScenario { session in
        await eventFlow(session)
        if let profile = await session.call(VideGreniers.profile)?["data"] {
            if let firstName = profile["firstName"]?.stringValue, let lastName = profile["lastName"]?.stringValue {
                let unchanged = UpdateProfileRequest(
                    firstName: firstName, lastName: lastName, phone: profile["phone"]?.stringValue,
                    bio: profile["bio"]?.stringValue, avatarUrl: profile["avatarUrl"]?.stringValue,
                    preferredLanguage: profile["preferredLanguage"]?.stringValue, emailNotifications: nil,
                    pushNotifications: nil, smsNotifications: nil)
                await session.call(updateProfile, body: unchanged)
            } else {
                session.skip(updateProfile, because: "the profile has no first and last name to write back")
            }
        }
        await adminNotification(session)
        if let id = await session.call(notifications)?["data"]?.arrayValue?.first?["id"]?.stringValue {
            await session.call(markNotificationRead, path: ["notificationId": id])
        }
        await throwawayAccount(session)
        // The session the checker opened with --login is closed last; a --token given by the user is left alone.
        if let refresh = session.refreshToken {
            await session.call(logout, body: LogoutRequest(refreshToken: refresh))
        }
    }

    /// An administrator sends a notification to themself (then marked read with the others).
    private static func adminNotification(_ session: any ScenarioSession) async {
        let roles = await session.call(currentUser)?["data"]?["roles"]?.arrayValue?.compactMap(\.stringValue) ?? []
        guard roles.contains(where: { $0.lowercased() == "admin" }) else {
            return session.skip(
                createNotification, because: "needs the admin role: run check with --login of an administrator")
        }
        let notification = CreateNotificationCommand(
            title: "Understudy check", message: "Sent by understudy check --allow-writes.", type: .system,
            userId: session.userID.flatMap(UUID.init(uuidString:)))
        await session.call(createNotification, body: notification)
    }

    private static func eventFlow(_ session: any ScenarioSession) async {
        let start = session.now.addingTimeInterval(14 * 86_400)
        let event = Self.event(
            description: "Created by understudy check --allow-writes.", start: start, end: start.addingTimeInterval(8 * 3600))
        guard let created = await session.call(createEvent, body: event),
            let id = created["data"]?["id"]?.stringValue
        else { return }
        await session.call(Self.event, path: ["id": id])
        if let uuid = UUID(uuidString: id) {
            let update = UpdateEventCommand(
                id: uuid, Self.event(description: "Updated by understudy check --allow-writes.", start: start, end: event.endDate))
            await session.call(updateEvent, path: ["id": id], body: update)
        } else {
            session.skip(updateEvent, because: "the created event's id \(id) is not a UUID")
        }
        await session.call(publishEvent, path: ["id": id])
        if await session.call(addFavorite, path: ["eventId": id]) != nil {
            await session.call(favoriteStatus, body: [id])
            await session.call(toggleFavorite, path: ["eventId": id])
            await session.call(toggleFavorite, path: ["eventId": id])
            await session.call(removeFavorite, path: ["eventId": id])
        }
        await session.call(cancelEvent, path: ["id": id], body: CancelEventRequest(reason: "Clean-up after understudy check."))
    }

    /// The event the scenario creates, then updates.
    private static func event(description: String, start: Date, end: Date) -> CreateEventCommand {
        CreateEventCommand(
            title: "Vide-grenier Understudy", description: description, eventType: .garageSale, startDate: start,
            endDate: end, street: "1 place de la Mairie", city: "Lyon", postalCode: "69001", country: "France",
            state: nil, latitude: 45.764, longitude: 4.8357, contactEmail: nil, contactPhone: nil,
            specialInstructions: nil, entryFeeAmount: nil, entryFeeCurrency: nil, allowsEarlyBird: false,
            earlyBirdTime: nil, earlyBirdFeeAmount: nil, earlyBirdFeeCurrency: nil, categoryId: nil)
    }

    private static func throwawayAccount(_ session: any ScenarioSession) async {
        let email = "understudy-\(session.seed)-\(Int(session.now.timeIntervalSince1970))@example.com"
        let password = "Understudy-\(UUID().uuidString.prefix(8))-pw1!"
        session.remember(secret: password, as: "UNDERSTUDY_PASSWORD")
        let registration = RegisterRequest(email: email, password: password, firstName: "Under", lastName: "Study")
        guard let registered = await session.call(register, body: registration, authenticated: false),
            let token = registered["data"]?["accessToken"]?.stringValue,
            let refreshToken = registered["data"]?["refreshToken"]?.stringValue
        else { return }
        session.remember(secret: token, as: "UNDERSTUDY_TOKEN")
        session.remember(secret: refreshToken, as: "UNDERSTUDY_REFRESH_TOKEN")
        await session.call(currentUser, headers: ["Authorization": "Bearer \(token)"])
        var current = token
        if let refreshed = await session.call(
            refresh, body: RefreshTokenRequest(accessToken: token, refreshToken: refreshToken), authenticated: false),
            let newToken = refreshed["data"]?["accessToken"]?.stringValue
        {
            session.remember(secret: newToken, as: "UNDERSTUDY_TOKEN")
            if let newRefresh = refreshed["data"]?["refreshToken"]?.stringValue {
                session.remember(secret: newRefresh, as: "UNDERSTUDY_REFRESH_TOKEN")
            }
            current = newToken
        }
        await session.call(deleteAccount, headers: ["Authorization": "Bearer \(current)"])
    }
}
