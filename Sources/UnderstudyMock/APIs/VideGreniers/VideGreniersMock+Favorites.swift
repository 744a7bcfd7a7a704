import Foundation
import UnderstudyCore
import UnderstudySpecs

extension VideGreniersMock {
    func favorites(_ request: MockRequest, now: Double) throws -> MockResponse {
        let caller = try caller(request)
        let (page, pageSize) = Self.paging(request)
        let (shown, amounts) = store.read { state in
            let favorites = state.favorites
                .filter { $0.userId == caller }
                .sorted {
                    $0.createdOnUtc != $1.createdOnUtc
                        ? $0.createdOnUtc > $1.createdOnUtc : $0.id < $1.id
                }
                .compactMap { favorite in state.event(favorite.eventId).map { (favorite, event: $0) } }
            let shown = VideGreniersAnswers.Page(favorites, number: page, size: pageSize)
            return (
                shown.map { VideGreniersAnswers.favorite($0.0, of: $0.event, in: state) },
                VideGreniersAnswers.amounts(of: shown.rows.map(\.event))
            )
        }
        return try VideGreniersAnswers.page(shown, amounts: amounts, now: now)
    }

    func addFavorite(_ request: MockRequest, now: Double) async throws -> MockResponse {
        let caller = try caller(request)
        let eventId = try Self.pathID(request, "eventId")
        let (shown, amounts) = try await store.write { state in
            let event = try Self.visibleEvent(eventId, to: caller, in: state)
            guard !state.isFavorite(eventId, of: caller) else {
                throw MockError(.conflict, "eventId: event \(eventId.uuidString.lowercased()) is already a favorite")
            }
            let favorite = Favorite(
                id: state.nextID(), userId: caller, eventId: eventId, createdOnUtc: now, status: .active)
            state.favorites.append(favorite)
            try state.record(.eventFavorited, user: caller, event: event, at: now)
            return (
                VideGreniersAnswers.favorite(favorite, of: event, in: state), VideGreniersAnswers.amounts(of: [event])
            )
        }
        return try VideGreniersAnswers.ok(shown, amounts: amounts, now: now, status: 201)
    }

    func removeFavorite(_ request: MockRequest, now: Double) async throws -> MockResponse {
        let caller = try caller(request)
        let eventId = try Self.pathID(request, "eventId")
        try await store.write { state in
            guard let index = state.favorite(eventId, of: caller) else {
                throw MockError(.notFound, "event \(eventId.uuidString.lowercased()) is not one of your favorites")
            }
            state.favorites.remove(at: index)
            try state.record(.eventUnfavorited, user: caller, event: state.event(eventId), at: now)
        }
        return try VideGreniersAnswers.done("Removed from favorites", now: now)
    }

    func toggleFavorite(_ request: MockRequest, now: Double) async throws -> MockResponse {
        let caller = try caller(request)
        let eventId = try Self.pathID(request, "eventId")
        let added = try await store.write { state -> Bool in
            let event = try Self.visibleEvent(eventId, to: caller, in: state)
            if let index = state.favorite(eventId, of: caller) {
                state.favorites.remove(at: index)
                try state.record(.eventUnfavorited, user: caller, event: event, at: now)
                return false
            }
            state.favorites.append(
                Favorite(id: state.nextID(), userId: caller, eventId: eventId, createdOnUtc: now, status: .active))
            try state.record(.eventFavorited, user: caller, event: event, at: now)
            return true
        }
        let toggle = VideGreniers.FavoriteToggleDto(
            eventId: eventId, isFavorite: added, action: added ? .added : .removed)
        return try VideGreniersAnswers.ok(toggle, now: now)
    }

    /// For each id of the body, whether it is one of the caller's favorites; ids that are not UUIDs (the
    /// document's `"event-uuid-1"`) are simply not favorites.
    func favoriteStatus(_ request: MockRequest, now: Double) throws -> MockResponse {
        let caller = try caller(request)
        let ids = try request.body(as: [String].self, in: VideGreniers.spec)
        let statuses = store.read { state in
            Dictionary(ids.map { ($0, UUID(uuidString: $0).map { state.isFavorite($0, of: caller) } ?? false) }) {
                first, _ in first
            }
        }
        return try VideGreniersAnswers.ok(statuses, now: now)
    }

    /// The caller's favorites whose event starts between now and `daysAhead` days from now, soonest
    /// first; cancelled events are left out.
    func upcomingFavorites(_ request: MockRequest, now: Double) throws -> MockResponse {
        let caller = try caller(request)
        let days = request.query["daysAhead"].flatMap { Int($0) } ?? 7
        let horizon = now + Double(days) * 86_400
        let (shown, amounts) = store.read { state in
            var found: [(favorite: Favorite, event: Event)] = []
            for favorite in state.favorites where favorite.userId == caller {
                guard let event = state.event(favorite.eventId), event.status != .cancelled else { continue }
                if event.startDate >= now && event.startDate <= horizon { found.append((favorite, event)) }
            }
            found.sort { lhs, rhs in
                lhs.event.startDate != rhs.event.startDate
                    ? lhs.event.startDate < rhs.event.startDate
                    : lhs.favorite.id < rhs.favorite.id
            }
            return (
                found.map { VideGreniersAnswers.favorite($0.favorite, of: $0.event, in: state) },
                VideGreniersAnswers.amounts(of: found.map(\.event))
            )
        }
        return try VideGreniersAnswers.ok(shown, amounts: amounts, now: now)
    }

    /// An event the caller may see, or 404.
    static func visibleEvent(_ id: UUID, to caller: UUID, in state: State) throws -> Event {
        guard let event = state.event(id), state.isVisible(event, to: caller) else {
            throw MockError(.notFound, "event \(id.uuidString.lowercased()) does not exist")
        }
        return event
    }
}
