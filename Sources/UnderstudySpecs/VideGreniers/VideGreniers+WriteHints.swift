import Foundation
import UnderstudyCore

extension VideGreniers {
    /// `check --login email:password` signs in through `POST /api/auth/login`.
    static let signIn = LoginDeclaration(
        endpoint: login.id, token: JSONPointer(tokens: ["data", "accessToken"]),
        refreshToken: JSONPointer(tokens: ["data", "refreshToken"]))

    /// What the document leaves to prose, for the explorer: an event starts in the future and ends after it starts; a
    /// profile is written back as it is; only an administrator sends a notification; a favorite is added to an event,
    /// toggled off and on and removed; the account flow uses a throwaway account (never the `--login` one), and the
    /// session opened with `--login` is logged out last (a `--token` given by the user is left alone).
    static let writeHints = WriteHints()
        .body(createEvent) { session in
            let start = session.now.addingTimeInterval(14 * 86_400)
            return event(description: "Created by understudy check --allow-writes.", start: start)
        }
        .body(updateEvent) { session in
            // The explorer writes the created event's id in `id`.
            let start = session.now.addingTimeInterval(14 * 86_400)
            return UpdateEventCommand(
                id: UUID(), event(description: "Updated by understudy check --allow-writes.", start: start))
        }
        .body(updateProfile) { session in
            guard let profile = await session.call(VideGreniers.profile)?["data"],
                let firstName = profile["firstName"]?.stringValue, let lastName = profile["lastName"]?.stringValue
            else {
                session.skip(updateProfile, because: "the profile has no first and last name to write back")
                return nil
            }
            return UpdateProfileRequest(
                firstName: firstName, lastName: lastName, phone: profile["phone"]?.stringValue,
                bio: profile["bio"]?.stringValue, avatarUrl: profile["avatarUrl"]?.stringValue,
                preferredLanguage: profile["preferredLanguage"]?.stringValue, emailNotifications: nil,
                pushNotifications: nil, smsNotifications: nil)
        }
        .body(createNotification) { session in
            let roles =
                await session.call(currentUser)?["data"]?["roles"]?.arrayValue?.compactMap(\.stringValue) ?? []
            guard roles.contains(where: { $0.lowercased() == "admin" }) else {
                session.skip(
                    createNotification, because: "needs the admin role: run check with --login of an administrator")
                return nil
            }
            return CreateNotificationCommand(
                title: "Understudy check", message: "Sent by understudy check --allow-writes.", type: .system,
                userId: session.userID.flatMap(UUID.init(uuidString:)))
        }
        .body(favoriteStatus) { session in
            (await session.call(events)?["data"]?.arrayValue ?? []).prefix(2).compactMap { $0["id"]?.stringValue }
        }
        .acting(
            [addFavorite.id, toggleFavorite.id, toggleFavorite.id, removeFavorite.id],
            because: "needs an event the user has not made a favorite yet"
        ) { session in
            let favorites = Set(
                (await session.call(VideGreniers.favorites)?["data"]?.arrayValue ?? []).compactMap {
                    $0["eventId"]?.stringValue
                })
            return (await session.call(events)?["data"]?.arrayValue ?? []).lazy.compactMap { $0["id"]?.stringValue }
                .first { !favorites.contains($0) }
        }
        .body(logout) { session in
            guard let refresh = session.refreshToken else {
                session.skip(logout, because: "the run signed in with no refresh token (--token): its session is not the check's to close")
                return nil
            }
            return LogoutRequest(refreshToken: refresh)
        }
        .flow(covering: [register.id, refresh.id, deleteAccount.id], throwawayAccount)

    /// The event the explorer creates, then updates.
    private static func event(description: String, start: Date) -> CreateEventCommand {
        CreateEventCommand(
            title: "Vide-grenier Understudy", description: description, eventType: .garageSale, startDate: start,
            endDate: start.addingTimeInterval(8 * 3600), street: "1 place de la Mairie", city: "Lyon",
            postalCode: "69001", country: "France", state: nil, latitude: 45.764, longitude: 4.8357, contactEmail: nil,
            contactPhone: nil, specialInstructions: nil, entryFeeAmount: nil, entryFeeCurrency: nil,
            allowsEarlyBird: false, earlyBirdTime: nil, earlyBirdFeeAmount: nil, earlyBirdFeeCurrency: nil,
            categoryId: nil)
    }

    /// A throwaway user registers, reads itself, refreshes its token and deletes its account.
    private static let throwawayAccount = WriteScenario { session in
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
