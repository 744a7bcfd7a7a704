import Foundation
import UnderstudyCore

extension VideGreniers {
    /// One tracked user action, as the document declares it.
    public struct UserActivityDto: Codable, Sendable, Hashable {
        public let id: UUID
        public let activityType: UserActivityType
        public let eventId: UUID?
        public let eventTitle: String?
        public let searchTerm: String?
        public let metadata: String?
        public let createdOnUtc: Date

        public init(
            id: UUID, activityType: UserActivityType, eventId: UUID?, eventTitle: String?, searchTerm: String?,
            metadata: String?, createdOnUtc: Date
        ) {
            self.id = id
            self.activityType = activityType
            self.eventId = eventId
            self.eventTitle = eventTitle
            self.searchTerm = searchTerm
            self.metadata = metadata
            self.createdOnUtc = createdOnUtc
        }
    }

    /// Activity counts over a period, as the document declares them.
    ///
    /// `activityCounts` is the object `{"0": 45, "7": 8}` the document shows. The document's enum does not
    /// adopt `CodingKeyRepresentable`, so its model, as written, reads the dictionary from a flat array
    /// `[key, value, ...]` and fails on that object; the app contract adopts it (``UserActivityType``) and
    /// lint says so once (the `activity-counts-wire-shape` contradiction).
    public struct UserActivityStatisticsDto: Codable, Sendable, Hashable {
        public let totalActivities: Int
        public let activityCounts: [UserActivityType: Int]
        public let eventsViewed: Int
        public let eventsFavorited: Int
        public let eventsCreated: Int
        public let searchesPerformed: Int
        public let topSearchTerms: [String]
        public let lastActivityDate: Date?
        public let periodStart: Date
        public let periodEnd: Date

        public init(
            totalActivities: Int, activityCounts: [UserActivityType: Int], eventsViewed: Int, eventsFavorited: Int,
            eventsCreated: Int, searchesPerformed: Int, topSearchTerms: [String], lastActivityDate: Date?,
            periodStart: Date, periodEnd: Date
        ) {
            self.totalActivities = totalActivities
            self.activityCounts = activityCounts
            self.eventsViewed = eventsViewed
            self.eventsFavorited = eventsFavorited
            self.eventsCreated = eventsCreated
            self.searchesPerformed = searchesPerformed
            self.topSearchTerms = topSearchTerms
            self.lastActivityDate = lastActivityDate
            self.periodStart = periodStart
            self.periodEnd = periodEnd
        }

        // Helper computed properties
        public var averageActivitiesPerDay: Double {
            let days = Calendar.current.dateComponents([.day], from: periodStart, to: periodEnd).day ?? 1
            return Double(totalActivities) / Double(max(days, 1))
        }

        public var mostFrequentActivity: UserActivityType? {
            activityCounts.max(by: { $0.value < $1.value })?.key
        }
    }

    /// The kinds of tracked user action, as the document declares them, plus `CodingKeyRepresentable` so a
    /// `[UserActivityType: Int]` decodes from the object the document's JSON sends.
    public enum UserActivityType: Int, Codable, CaseIterable, Sendable, CodingKeyRepresentable {
        case eventViewed = 0  // Événement consulté
        case eventFavorited = 1  // Événement mis en favoris
        case eventUnfavorited = 2  // Événement retiré des favoris
        case eventCreated = 3  // Événement créé
        case eventUpdated = 4  // Événement mis à jour
        case eventPublished = 5  // Événement publié
        case eventCancelled = 6  // Événement annulé
        case eventSearched = 7  // Recherche d'événements
        case userLogin = 8  // Connexion utilisateur
        case userLogout = 9  // Déconnexion utilisateur
        case profileUpdated = 10  // Profil mis à jour
        case searchSaved = 11  // Recherche sauvegardée
        case savedSearchExecuted = 12  // Recherche sauvegardée exécutée

        public var displayName: String {
            switch self {
            case .eventViewed: return "Événement consulté"
            case .eventFavorited: return "Ajout aux favoris"
            case .eventUnfavorited: return "Retrait des favoris"
            case .eventCreated: return "Événement créé"
            case .eventUpdated: return "Événement modifié"
            case .eventPublished: return "Événement publié"
            case .eventCancelled: return "Événement annulé"
            case .eventSearched: return "Recherche effectuée"
            case .userLogin: return "Connexion"
            case .userLogout: return "Déconnexion"
            case .profileUpdated: return "Profil mis à jour"
            case .searchSaved: return "Recherche sauvée"
            case .savedSearchExecuted: return "Recherche sauvée exécutée"
            }
        }

        public var isEventRelated: Bool {
            switch self {
            case .eventViewed, .eventFavorited, .eventUnfavorited,
                .eventCreated, .eventUpdated, .eventPublished, .eventCancelled:
                return true
            default:
                return false
            }
        }
    }
}
