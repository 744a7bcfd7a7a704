import Foundation
import UnderstudyCore
import UnderstudySpecs

extension VideGreniersMock {
    /// The `sortBy` values understood, compared without case: the spec's ``VideGreniers/eventSortKeys``.
    static let sortFields: [String] = {
        guard case .sortKey(let keys, _) = VideGreniers.eventSortKeys else { return [] }
        return keys.keys.sorted()
    }()

    func events(_ request: MockRequest, now: Double) throws -> MockResponse {
        let caller = optionalCaller(request)
        let (page, pageSize) = Self.paging(request)
        let query = request.query
        let from = try Self.queryDate(request, "startDate")
        let until = try Self.queryDate(request, "endDate")
        // The engine has checked `sortBy` against the descriptor's pattern: one of the keys, in any case.
        let sortBy = (query["sortBy"] ?? "StartDate").lowercased()
        let sortField = Self.sortFields.first { $0.lowercased() == sortBy } ?? "StartDate"
        let descending = query["sortDescending"] == "true"
        let categoryId = query["categoryId"].flatMap { UUID(uuidString: $0) }
        let eventType = query["eventType"].flatMap { Int($0) }
        let search = query["searchTerm"].map(Self.folded).flatMap { $0.isEmpty ? nil : $0 }
        let city = query["city"].map(Self.folded).flatMap { $0.isEmpty ? nil : $0 }
        let hasEntryFee = query["hasEntryFee"].map { $0 == "true" }

        let filtered =
            [search, city].contains { $0 != nil } || [from, until].contains { $0 != nil }
            || categoryId != nil || eventType != nil || hasEntryFee != nil
        let (shown, amounts) = store.read { state in
            func matches(_ event: Event) -> Bool {
                guard state.isVisible(event, to: caller) else { return false }
                if let search, !Self.folded(event.title).contains(search),
                    !Self.folded(event.description).contains(search)
                {
                    return false
                }
                if let categoryId, event.categoryId != categoryId { return false }
                if let eventType, event.eventType.rawValue != eventType { return false }
                if let city, !Self.folded(event.city).contains(city) { return false }
                if let from, event.startDate < from { return false }
                if let until, event.startDate > until { return false }
                if let hasEntryFee, Self.hasFee(event) != hasEntryFee { return false }
                return true
            }
            let shown: VideGreniersAnswers.Page<Event>
            if let order = state.events.positions(orderedBy: sortField) {
                // The state keeps this order: the list walks it, and without a filter reads only the page's rows.
                let walk = descending ? AnySequence(order.byDescendingKey()) : AnySequence(order)
                if filtered {
                    shown = .init(walk.map { state.events[$0] }.filter(matches), number: page, size: pageSize)
                } else {
                    // Positions are skipped up to the page, and only its events read; when the caller sees every
                    // event, none is read to skip it.
                    let total = state.visibleEventCount(to: caller)
                    let positions: VideGreniersAnswers.Page<Int> =
                        switch (total == state.events.count, descending) {
                        case (true, false): .init(order, number: page, size: pageSize)
                        case (true, true): .init(walk, total: total, number: page, size: pageSize)
                        case (false, _):
                            .init(
                                walk.lazy.filter { state.isVisible(state.events[$0], to: caller) }, total: total,
                                number: page, size: pageSize)
                        }
                    shown = positions.map { state.events[$0] }
                }
            } else {
                // Each event's sort key is taken once: the sort moves small keys, not whole events (measured:
                // sorting 3,000 events moved and copied them for most of a list's time).
                var found: [(key: StateOrderKey, id: UUID, position: Int)] = []
                for position in state.events.indices {
                    let event = state.events[position]
                    if matches(event) {
                        found.append((Self.sortKey(event, by: sortField, in: state), event.id, position))
                    }
                }
                found.sort { lhs, rhs in
                    if lhs.key == rhs.key { return lhs.id < rhs.id }
                    return descending ? lhs.key > rhs.key : lhs.key < rhs.key
                }
                shown = VideGreniersAnswers.Page(found, number: page, size: pageSize).map { state.events[$0.position] }
            }
            return (
                shown.map { VideGreniersAnswers.event($0, in: state, caller: caller) },
                VideGreniersAnswers.amounts(of: shown.rows)
            )
        }
        return try VideGreniersAnswers.page(shown, amounts: amounts, now: now)
    }

    func event(_ request: MockRequest, now: Double) throws -> MockResponse {
        let caller = optionalCaller(request)
        let id = try Self.pathID(request, "id")
        let (shown, amounts) = try store.read { state in
            guard let event = state.event(id), state.isVisible(event, to: caller) else {
                throw MockError(.notFound, "event \(id.uuidString.lowercased()) does not exist")
            }
            return (
                VideGreniersAnswers.event(event, in: state, caller: caller), VideGreniersAnswers.amounts(of: [event])
            )
        }
        return try VideGreniersAnswers.ok(shown, amounts: amounts, now: now)
    }

    func nearbyEvents(_ request: MockRequest, now: Double) throws -> MockResponse {
        let caller = optionalCaller(request)
        // The engine has checked both against the descriptor's ranges.
        let latitude = request.query["latitude"].flatMap { Double($0) } ?? 0
        let longitude = request.query["longitude"].flatMap { Double($0) } ?? 0
        let radius = Double(request.query["radiusKm"].flatMap { Int($0) } ?? 10)
        let limit = request.query["limit"].flatMap { Int($0) } ?? 20
        let (shown, amounts) = store.read { state in
            var found: [(event: Event, distance: Double)] = []
            for event in state.events where state.isVisible(event, to: caller) {
                let distance = Self.distanceKm(latitude, longitude, event.latitude, event.longitude)
                if distance <= radius { found.append((event, distance)) }
            }
            found.sort { lhs, rhs in
                lhs.distance != rhs.distance ? lhs.distance < rhs.distance : lhs.event.startDate < rhs.event.startDate
            }
            let nearest = found.prefix(limit)
            return (
                nearest.map { VideGreniersAnswers.event($0.event, in: state, caller: caller, distanceKm: $0.distance) },
                VideGreniersAnswers.amounts(of: nearest.map(\.event))
            )
        }
        return try VideGreniersAnswers.ok(shown, amounts: amounts, now: now)
    }

    func createEvent(_ request: MockRequest, now: Double) async throws -> MockResponse {
        let caller = try caller(request)
        let command = try request.body(as: VideGreniers.CreateEventCommand.self, in: VideGreniers.spec)
        let details = VideGreniersEventDetails(command, json: request.json)
        let (shown, amounts) = try await store.write { state in
            try details.validate(in: state)
            guard let organizer = state.user(caller) else {
                throw MockError(.unauthorized, "user \(caller) does not exist")
            }
            var event = Event(
                id: state.nextID(), organizerId: caller,
                organizerName: organizer.fullName.isEmpty ? organizer.email : organizer.fullName,
                title: "", description: "", street: "", city: "", postalCode: "", country: "", latitude: 0,
                longitude: 0,
                startDate: 0, endDate: 0, status: .draft, eventType: .other, allowsEarlyBird: false, createdOnUtc: now)
            details.apply(to: &event)
            state.events.append(event)
            try state.record(.eventCreated, user: caller, event: event, at: now)
            return (
                VideGreniersAnswers.event(event, in: state, caller: caller), VideGreniersAnswers.amounts(of: [event])
            )
        }
        return try VideGreniersAnswers.ok(shown, amounts: amounts, now: now, status: 201)
    }

    func updateEvent(_ request: MockRequest, now: Double) async throws -> MockResponse {
        let caller = try caller(request)
        let id = try Self.pathID(request, "id")
        let command = try request.body(as: VideGreniers.UpdateEventCommand.self, in: VideGreniers.spec)
        let details = VideGreniersEventDetails(command, json: request.json)
        let (shown, amounts) = try await store.write { state in
            // The body's id equals the path's: the endpoint's declared rule, refused before this runs.
            let problems = details.problems(in: state)
            if !problems.isEmpty { throw MockError(.badRequest, messages: problems) }
            let index = try Self.ownedEvent(id, by: caller, in: state, action: "update")
            let status = state.events[index].status
            guard status != .cancelled && status != .completed else {
                throw MockError(.badRequest, "status: a \(Self.statusName(status)) event cannot be updated")
            }
            details.apply(to: &state.events[index])
            state.events[index].modifiedOnUtc = now
            let event = state.events[index]
            state.retitle(event)
            try state.record(.eventUpdated, user: caller, event: event, at: now)
            return (
                VideGreniersAnswers.event(event, in: state, caller: caller), VideGreniersAnswers.amounts(of: [event])
            )
        }
        return try VideGreniersAnswers.ok(shown, amounts: amounts, now: now)
    }

    func publishEvent(_ request: MockRequest, now: Double) async throws -> MockResponse {
        let caller = try caller(request)
        let id = try Self.pathID(request, "id")
        let (shown, amounts) = try await store.write { state in
            let index = try Self.ownedEvent(id, by: caller, in: state, action: "publish")
            let status = state.events[index].status
            guard status == .draft else {
                throw MockError(
                    .badRequest, "status: only draft events can be published; this one is \(Self.statusName(status))")
            }
            state.events[index].status = .published
            state.events[index].publishedOnUtc = now
            state.events[index].modifiedOnUtc = now
            let event = state.events[index]
            try state.record(.eventPublished, user: caller, event: event, at: now)
            return (
                VideGreniersAnswers.event(event, in: state, caller: caller), VideGreniersAnswers.amounts(of: [event])
            )
        }
        return try VideGreniersAnswers.ok(shown, amounts: amounts, now: now)
    }

    func cancelEvent(_ request: MockRequest, now: Double) async throws -> MockResponse {
        let caller = try caller(request)
        let id = try Self.pathID(request, "id")
        let body = try request.body(as: VideGreniers.CancelEventRequest.self, in: VideGreniers.spec)
        let reason = body.reason.trimmingCharacters(in: .whitespacesAndNewlines)
        let (shown, amounts) = try await store.write { state in
            let index = try Self.ownedEvent(id, by: caller, in: state, action: "cancel")
            let status = state.events[index].status
            guard status != .cancelled && status != .completed else {
                throw MockError(.badRequest, "status: a \(Self.statusName(status)) event cannot be cancelled")
            }
            state.events[index].status = .cancelled
            state.events[index].cancellationReason = reason
            state.events[index].modifiedOnUtc = now
            let event = state.events[index]
            try state.record(.eventCancelled, user: caller, event: event, metadata: reason, at: now)
            // Whoever kept the event as a favorite hears about it, as the app's notification types suggest.
            for favorite in state.favorites where favorite.eventId == id && favorite.userId != caller {
                try state.notify(
                    favorite.userId, title: "Événement annulé : \(event.title)", message: reason, type: .event, at: now,
                    event: event, actionUrl: "videgreniers://events/\(id.uuidString.lowercased())", actionText: "Voir")
            }
            return (
                VideGreniersAnswers.event(event, in: state, caller: caller), VideGreniersAnswers.amounts(of: [event])
            )
        }
        return try VideGreniersAnswers.ok(shown, amounts: amounts, now: now)
    }

    // MARK: Helpers

    /// The index of an event the caller organises: 404 when it does not exist (or is another organiser's
    /// draft, which is invisible), 403 when it is someone else's.
    static func ownedEvent(_ id: UUID, by caller: UUID, in state: State, action: String) throws -> Int {
        guard let index = state.events.position(of: id),
            state.isVisible(state.events[index], to: caller)
        else {
            throw MockError(.notFound, "event \(id.uuidString.lowercased()) does not exist")
        }
        guard state.events[index].organizerId == caller else {
            throw MockError(.forbidden, "only the organiser of event \(id.uuidString.lowercased()) may \(action) it")
        }
        return index
    }

    static func statusName(_ status: VideGreniers.EventStatus) -> String { "\(status)" }

    static func hasFee(_ event: Event) -> Bool {
        guard let literal = event.entryFeeAmount, let amount = Decimal(string: literal) else { return false }
        return amount > 0
    }

    /// Lower-cased and without accents, so "Brocante" finds "brocanté" and "lyon" finds "Lyon".
    static func folded(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .trimmingCharacters(in: .whitespaces)
    }

    static func sortKey(_ event: Event, by field: String, in state: State) -> StateOrderKey {
        ownSortKey(event, by: field) ?? .number(Double(state.favoriteCount(of: event.id)))
    }

    /// The sort key an event carries itself; `nil` for `FavoriteCount`, which the favorites make.
    static func ownSortKey(_ event: Event, by field: String) -> StateOrderKey? {
        switch field {
        case "EndDate": .number(event.endDate)
        case "Title": .text(folded(event.title))
        case "City": .text(folded(event.city))
        case "CreatedOnUtc": .number(event.createdOnUtc)
        case "EntryFeeAmount": .amount(event.entryFeeAmount.flatMap { Decimal(string: $0) } ?? 0)
        case favoriteCountField: nil
        default: .number(event.startDate)
        }
    }

    /// The `sortBy` field whose key the favorites make, not the event: kept in no order.
    static let favoriteCountField = "FavoriteCount"

    /// The orders the state keeps the events in, one per `sortBy` field an event's own members decide: by the
    /// field's key, then by id (walked backwards key by key for `sortDescending`).
    static let eventOrders: [StateOrder<Event>] = sortFields.filter { $0 != favoriteCountField }.map { field in
        StateOrder(field, key: { ownSortKey($0, by: field)! }, tiebreak: { $0.id < $1.id })
    }

    /// The great-circle distance in kilometres (haversine, mean Earth radius).
    static func distanceKm(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double)
        -> Double
    {
        let radians = Double.pi / 180
        let deltaLatitude = (latitude2 - latitude1) * radians
        let deltaLongitude = (longitude2 - longitude1) * radians
        let a =
            sin(deltaLatitude / 2) * sin(deltaLatitude / 2)
            + cos(latitude1 * radians) * cos(latitude2 * radians) * sin(deltaLongitude / 2) * sin(deltaLongitude / 2)
        return 6371.0 * 2 * atan2(a.squareRoot(), (1 - a).squareRoot())
    }

    /// Known city centres, used when a command leaves out the coordinates and for the seeded events.
    static let cityCentres: [String: (latitude: Double, longitude: Double, postalCode: String)] = [
        "paris": (48.8566, 2.3522, "75001"), "lyon": (45.7640, 4.8357, "69001"),
        "bourg-en-bresse": (46.2057, 5.2281, "01000"), "nantes": (47.2184, -1.5536, "44000"),
        "lille": (50.6292, 3.0573, "59000"), "bordeaux": (44.8378, -0.5792, "33000"),
        "toulouse": (43.6047, 1.4442, "31000"), "marseille": (43.2965, 5.3698, "13001"),
    ]

    /// The centre of mainland France, for commands without coordinates in an unknown city.
    static let franceCentre = (latitude: 46.6034, longitude: 1.8883)
}
