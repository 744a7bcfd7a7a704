import Foundation
import UnderstudyCore
import UnderstudySpecs

extension VideGreniersMock {
    static let demoEmail = "demo@videgreniers.test"
    static let adminEmail = "admin@videgreniers.test"
    static let organizerEmail = "mairie@videgreniers.test"
    /// The seeded accounts and their passwords (printed by ``startupNotes()``).
    static let seededPasswords = [demoEmail: "Passw0rd!", adminEmail: "Adm1nPassw0rd!", organizerEmail: "Mairie2025!"]
    static var seededEmails: String { [demoEmail, adminEmail, organizerEmail].joined(separator: ", ") }

    /// The categories events are filed under (the document shows "Brocante", 🏛️, #4CAF50).
    static let categoryNames: [(name: String, icon: String, color: String)] = [
        ("Brocante", "🏛️", "#4CAF50"), ("Vide-grenier", "🏠", "#FF9800"), ("Antiquités", "🏺", "#795548"),
        ("Vêtements", "👕", "#2196F3"), ("Jouets", "🧸", "#E91E63"), ("Livres", "📚", "#9C27B0"),
    ]

    /// At least this many events are seeded: the fixture's rows, then generated ones.
    static let seededEventCount = 16

    /// The initial state: the success fixtures of `GET /api/events`, `GET /api/notifications` and
    /// `GET /api/user-activities` (files of `--fixtures` when given, generated otherwise), padded with
    /// generated rows and made coherent: three known users, categories, dates around `now`, owners,
    /// statuses, fees and favorites that agree with each other.
    ///
    /// Deterministic for a seed and a clock: dates are whole-day offsets from the start of `now`'s day
    /// (UTC), so the seeded upcoming events stay upcoming whenever the mock starts.
    static func seedState(fixtures: FixtureSource, seed: UInt64, now: Double) throws -> State {
        let spec = VideGreniers.spec
        let day = 86_400.0
        let today = (now / day).rounded(.down) * day
        var random = SeededRandom(seed: seed).derived("videgreniers seed")
        func id(_ salt: String) -> UUID { derivedID(seed: seed, salt: salt) }

        let demo = User(
            id: id("user demo"), email: demoEmail, password: seededPasswords[demoEmail]!, firstName: "Camille",
            lastName: "Martin", phoneNumber: "+33612345678", roles: ["User"], createdOnUtc: today - 234 * day + 37_800,
            modifiedOnUtc: today - 20 * day + 51_600, lastLoginDate: today - day + 29_700)
        let admin = User(
            id: id("user admin"), email: adminEmail, password: seededPasswords[adminEmail]!, firstName: "Louis",
            lastName: "Bernard", phoneNumber: nil, roles: ["User", "Admin"], createdOnUtc: today - 400 * day + 32_400,
            modifiedOnUtc: nil, lastLoginDate: today - 2 * day + 36_000)
        let organizer = User(
            id: id("user organizer"), email: organizerEmail, password: seededPasswords[organizerEmail]!,
            firstName: "Mairie", lastName: "du Village", phoneNumber: "+33123456789", roles: ["User"],
            createdOnUtc: today - 300 * day + 43_200, modifiedOnUtc: nil, lastLoginDate: today - 3 * day + 39_600)
        let categories = categoryNames.enumerated().map { index, category in
            Category(id: id("category \(index)"), name: category.name, icon: category.icon, color: category.color)
        }

        // Events: the fixture's rows first, generated ones after. Rows from a fixture file keep their texts;
        // generated rows get flea-market texts (the generator's are shared by every API).
        var eventRows = fixtures.body("GET /api/events", in: spec)["data"]?.arrayValue ?? []
        let eventFileRows = isGenerated("GET /api/events", fixtures: fixtures) ? 0 : eventRows.count
        var eventGenerator = fixtures.generator(for: spec, purpose: "seed events")
        while eventRows.count < seededEventCount {
            eventRows.append(eventGenerator.value(for: .ref("VideGreniers.EventDto")))
        }
        var events: [Event] = []
        var usedIDs: Set<UUID> = []
        let count = eventRows.count
        for (index, row) in eventRows.enumerated() {
            let dto = try decodeRow(VideGreniers.EventDto.self, row, endpoint: "GET /api/events", index: index)
            let text =
                index < eventFileRows
                ? (dto.title, dto.description, dto.specialInstructions, dto.location.state)
                : (
                    VideGreniersSeedTexts.titles[index % VideGreniersSeedTexts.titles.count],
                    VideGreniersSeedTexts.descriptions[index % VideGreniersSeedTexts.descriptions.count],
                    VideGreniersSeedTexts.instructions[index % VideGreniersSeedTexts.instructions.count], nil
                )
            let eventID = usedIDs.insert(dto.id).inserted ? dto.id : id("event \(index)")
            usedIDs.insert(eventID)
            // The last five rows get the roles the flows need; the others are published by the town hall
            // (every fourth by the admin), one every three days from tomorrow.
            let owner: User
            let status: VideGreniers.EventStatus
            let offsetDays: Double
            switch count - index {
            case 1: (owner, status, offsetDays) = (demo, .draft, 30)
            case 2: (owner, status, offsetDays) = (demo, .draft, 40)
            case 3: (owner, status, offsetDays) = (demo, .published, 4)
            case 4: (owner, status, offsetDays) = (organizer, .completed, -12)
            case 5: (owner, status, offsetDays) = (organizer, .cancelled, 8)
            default:
                (owner, status, offsetDays) = (index % 4 == 3 ? admin : organizer, .published, 1 + 3 * Double(index))
            }
            let start = today + offsetDays * day + 8 * 3600
            let created = min(start, today) - 20 * day + 50_400
            let published: Double? = status == .draft ? nil : created + 2 * day
            let centre = cityCentres[folded(dto.location.city)]
            let fees = ["2.00", "3.00", "1.50", "5.00"]
            let category =
                categories.first { folded($0.name) == dto.categoryName.map(folded) }
                ?? categories[index % categories.count]
            events.append(
                Event(
                    id: eventID, organizerId: owner.id, organizerName: owner.fullName, title: text.0,
                    description: text.1, street: dto.location.street, city: dto.location.city,
                    postalCode: centre?.postalCode ?? dto.location.postalCode, country: dto.location.country,
                    state: text.3,
                    latitude: centre.map { $0.latitude + Double(random.int(in: -400...400)) / 10_000 }
                        ?? dto.location.latitude,
                    longitude: centre.map { $0.longitude + Double(random.int(in: -400...400)) / 10_000 }
                        ?? dto.location.longitude,
                    startDate: start, endDate: start + 10 * 3600, status: status, eventType: dto.eventType,
                    contactEmail: dto.contactEmail, contactPhone: dto.contactPhone,
                    specialInstructions: text.2,
                    entryFeeAmount: dto.entryFeeAmount == nil ? nil : fees[index % fees.count],
                    entryFeeCurrency: dto.entryFeeAmount == nil ? nil : "EUR", allowsEarlyBird: dto.allowsEarlyBird,
                    earlyBirdTime: dto.allowsEarlyBird ? dto.earlyBirdTime ?? "07:00:00" : nil,
                    earlyBirdFeeAmount: dto.allowsEarlyBird ? "5.00" : nil,
                    earlyBirdFeeCurrency: dto.allowsEarlyBird ? "EUR" : nil, categoryId: category.id,
                    publishedOnUtc: published, createdOnUtc: created, modifiedOnUtc: published,
                    cancellationReason: status == .cancelled ? "Météo défavorable annoncée" : nil))
        }

        // Favorites: two of the demo user's start within a week (GET /api/favorites/upcoming), one later.
        var favorites: [Favorite] = []
        func favorite(_ user: User, _ index: Int, daysAgo: Double) {
            let eventID = events[index].id
            favorites.append(
                Favorite(
                    id: id("favorite \(user.email) \(eventID)"), userId: user.id, eventId: eventID,
                    createdOnUtc: today - daysAgo * day + 46_800, status: .active))
        }
        favorite(demo, 0, daysAgo: 6)
        favorite(demo, 1, daysAgo: 5)
        favorite(demo, 5, daysAgo: 3)
        favorite(admin, 0, daysAgo: 9)
        favorite(admin, 2, daysAgo: 8)
        favorite(organizer, 0, daysAgo: 12)
        favorite(organizer, count - 3, daysAgo: 2)

        // Notifications: the fixture's rows, padded, for the demo user; two unread.
        var notificationRows = fixtures.body("GET /api/notifications", in: spec)["data"]?.arrayValue ?? []
        let notificationFileRows =
            isGenerated("GET /api/notifications", fixtures: fixtures) ? 0 : notificationRows.count
        var notificationGenerator = fixtures.generator(for: spec, purpose: "seed notifications")
        while notificationRows.count < 6 {
            notificationRows.append(notificationGenerator.value(for: .ref("VideGreniers.NotificationDto")))
        }
        var notifications: [(dto: VideGreniers.NotificationDto, event: Event?, generated: Bool)] = []
        for (index, row) in notificationRows.enumerated() {
            let dto = try decodeRow(
                VideGreniers.NotificationDto.self, row, endpoint: "GET /api/notifications", index: index)
            let event: Event? = [.event, .eventReminder, .favorite].contains(dto.type) ? events[index % 3] : nil
            notifications.append((dto, event, index >= notificationFileRows))
        }

        // Activities: the fixture's rows, padded, for the demo user, within the last 30 days.
        var activityRows = fixtures.body("GET /api/user-activities", in: spec)["data"]?.arrayValue ?? []
        let activityFileRows = isGenerated("GET /api/user-activities", fixtures: fixtures) ? 0 : activityRows.count
        var activityGenerator = fixtures.generator(for: spec, purpose: "seed activities")
        while activityRows.count < 10 {
            activityRows.append(activityGenerator.value(for: .ref("VideGreniers.UserActivityDto")))
        }
        let searchTerms = ["brocante", "vintage", "antiquités", "brocante"]
        let searchTypes: [VideGreniers.UserActivityType] = [.eventSearched, .searchSaved, .savedSearchExecuted]
        var state = State(
            users: [demo, admin, organizer], categories: categories, events: events, favorites: favorites, seed: seed)
        for (index, row) in activityRows.enumerated() {
            let dto = try decodeRow(
                VideGreniers.UserActivityDto.self, row, endpoint: "GET /api/user-activities", index: index)
            try state.record(
                dto.activityType, user: demo.id,
                event: dto.activityType.isEventRelated ? events[index % (count - 5)] : nil,
                searchTerm: searchTypes.contains(dto.activityType) ? searchTerms[index % searchTerms.count] : nil,
                metadata: index < activityFileRows ? dto.metadata : nil,
                at: today - Double(index * 2 + 1) * day + 36_000, id: id("activity \(index)"))
        }
        for (index, term) in searchTerms.enumerated() {
            try state.record(
                .eventSearched, user: demo.id, searchTerm: term, at: today - Double(index + 1) * day + 54_000,
                id: id("activity search \(index)"))
        }
        for favorite in favorites where favorite.userId == demo.id {
            try state.record(
                .eventFavorited, user: demo.id, event: events.first { $0.id == favorite.eventId },
                at: favorite.createdOnUtc, id: id("activity favorite \(favorite.id)"))
        }
        // Two unread, the others read an hour after they came.
        for (index, notification) in notifications.enumerated() {
            let (dto, event) = (notification.dto, notification.event)
            let created = today - Double(index * 2 + 1) * day + 32_400
            let text =
                notification.generated
                ? VideGreniersSeedTexts.notification(dto.type, event: event?.title) : (dto.title, dto.message)
            let link = event.map { "videgreniers://events/\($0.id.uuidString.lowercased())" }
            try state.notify(
                demo.id, title: text.0, message: text.1, type: dto.type, at: created,
                readAt: index >= 2 ? created + 3600 : nil, event: event,
                actionUrl: notification.generated ? link : dto.actionUrl,
                actionText: notification.generated ? link.map { _ in "Voir l'événement" } : dto.actionText,
                imageUrl: notification.generated ? nil : dto.imageUrl, id: id("notification \(index)"))
        }
        try state.notify(
            admin.id, title: "Bienvenue", message: "Votre compte administrateur est prêt.", type: .system,
            at: today - 30 * day, id: id("notification admin"))
        return state
    }

    /// Whether an endpoint's fixture was generated (no `--fixtures` file for it).
    static func isGenerated(_ endpointID: String, fixtures: FixtureSource) -> Bool {
        let spec = VideGreniers.spec
        guard let endpoint = spec.endpoint(endpointID) else { return true }
        return fixtures.fixture(endpointID, in: spec).responses
            == spec.fixture(for: endpoint, seed: fixtures.seed).responses
    }

    /// One fixture row decoded as the server's JSON (the wire contract).
    /// - Throws: ``FixtureError`` naming the endpoint and the row.
    static func decodeRow<T: Decodable>(_ type: T.Type, _ row: JSONValue, endpoint: String, index: Int) throws -> T {
        do {
            return try VideGreniers.spec.wire.makeDecoder().decode(T.self, from: Data(row.serializedBytes()))
        } catch {
            throw FixtureError(
                description: "the \(endpoint) fixture's data[\(index)] does not decode as \(T.self): \(error)")
        }
    }
}

/// French flea-market texts for generated seed rows.
enum VideGreniersSeedTexts {
    static let titles = [
        "Grande Brocante du Village", "Vide-grenier de printemps", "Marché aux puces du dimanche",
        "Braderie de la Croix-Rousse", "Vide-grenier de l'école Jules Ferry", "Brocante des Quais",
        "Vente de succession de la maison Durand", "Vente paroissiale Saint-Michel", "Bourse aux jouets",
        "Vide-dressing solidaire", "Brocante vintage et vinyles", "Vide-grenier du comité des fêtes",
        "Foire à tout du quartier", "Vide-grenier nocturne", "Salon des antiquaires",
        "Vide-maison avant déménagement",
    ]
    static let descriptions = [
        "Vide-grenier annuel avec plus de 50 exposants.",
        "Plus de 120 exposants, buvette et petite restauration sur place.",
        "Meubles, vaisselle, livres et vêtements : venez chiner en famille.",
        "Jouets, puériculture et vêtements d'enfants, au profit de la coopérative scolaire.",
        "Disques, platines, luminaires et mobilier des années 60 à 80.",
    ]
    static let instructions: [String?] = [
        "Parking gratuit disponible.", nil, "Installation des exposants dès 6 h.",
        "Emplacements de 3 m réservés en mairie.",
    ]

    /// A title and a message that fit a notification's type.
    static func notification(_ type: VideGreniers.NotificationType, event: String?) -> (String, String) {
        let name = event ?? "un événement"
        switch type {
        case .system: return ("Maintenance prévue", "L'application sera indisponible dimanche de 2 h à 4 h.")
        case .event: return ("Nouvel événement près de chez vous", "\(name) vient d'être publié.")
        case .eventReminder: return ("Rappel", "\(name) commence bientôt : pensez à préparer votre visite.")
        case .favorite: return ("Un favori a changé", "Les informations de \(name) ont été mises à jour.")
        case .account: return ("Bienvenue sur VideGreniers", "Votre compte est prêt : ajoutez vos premiers favoris.")
        case .marketing:
            return ("Les brocantes du week-end", "Découvrez la sélection des vide-greniers près de chez vous.")
        }
    }
}
