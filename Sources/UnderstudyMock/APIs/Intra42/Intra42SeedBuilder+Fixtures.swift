import Foundation
import UnderstudyCore
import UnderstudySpecs

/// Fixture files (`--fixtures DIR`) replacing parts of the curated intranet, and the pass that makes ids
/// and references coherent afterwards.
extension Intra42SeedBuilder {
    /// The body of a fixture file for the endpoint, `nil` when the body is the generated one.
    func fileBody(_ endpointID: String) -> JSONValue? {
        let spec = Intra42.spec
        guard let endpoint = spec.endpoint(endpointID) else { return nil }
        let status = endpoint.success.rawValue
        let body = source.fixture(endpointID, in: spec).responses[status]
        return body == spec.fixture(for: endpoint, seed: source.seed).responses[status] ? nil : body
    }

    mutating func applyFixtureFiles() {
        let defaultID = state.users[0].id
        if let profile = fileBody("GET /v2/me"), let record = record(from: profile) {
            relabel(defaultID, as: record.id)
            state.users[0] = record
        }
        let ownerID = state.users[0].id
        if let profile = fileBody("GET /v2/users/{login}"), let record = record(from: profile) {
            upsert(record)
        }
        for summary in fileBody("GET /v2/users")?.arrayValue ?? [] {
            guard let id = summary["id"]?.numberValue?.intValue, let login = summary["login"]?.stringValue else {
                continue
            }
            let template = state.users[state.users.count - 1].profile
            guard case .object(var members) = template else { continue }
            members["id"] = .integer(id)
            members["login"] = .string(login)
            members["displayname"] = summary["displayname"] ?? .string(login)
            members["image"] = summary["image"] ?? members["image"]
            let campusID = summary["primary_campus_id"]?.numberValue?.intValue
            if let campusID, let campus = campuses.first(where: { $0["id"] == .integer(campusID) }) {
                members["campus"] = [Self.embed(campus)]
            }
            upsert(Intra42UserRecord(id: id, login: login, profile: .object(members), primaryCampusID: campusID))
        }
        if let rows = fileBody("GET /v2/users/{login}/projects_users")?.arrayValue {
            projectsUsers.removeAll { $0.userID == ownerID }
            projectsUsers += rows.map { Intra42OwnedRow(userID: ownerID, body: $0) }
        }
        if let rows = fileBody("GET /v2/users/{login}/locations")?.arrayValue {
            locations.removeAll { $0.userID == ownerID }
            locations += rows.map { Intra42OwnedRow(userID: ownerID, body: $0) }
        }
        if let rows = fileBody("GET /v2/campus/{id}/locations")?.arrayValue {
            // Campus sessions name no user: they are spread over the other users.
            let others = state.users.dropFirst().map(\.id)
            for (index, row) in rows.enumerated() {
                locations.append(
                    Intra42OwnedRow(userID: others.isEmpty ? ownerID : others[index % others.count], body: row))
            }
        }
        if let campus = fileBody("GET /v2/campus/{id}"), let id = campus["id"] {
            campuses.removeAll { $0["id"] == id }
            campuses.append(campus)
        }
        if let rows = fileBody("GET /v2/users/{login}/coalitions")?.arrayValue {
            let ids = rows.compactMap { $0["id"] }
            state.coalitions.removeAll { ids.contains($0["id"] ?? .null) }
            state.coalitions += rows
            let previous = memberships.filter { $0.userID == ownerID }
            memberships.removeAll { $0.userID == ownerID }
            for (index, id) in ids.enumerated() {
                guard let coalitionID = id.numberValue?.intValue else { continue }
                let old = previous.indices.contains(index) ? previous[index] : nil
                memberships.append(
                    Intra42Membership(userID: ownerID, coalitionID: coalitionID, score: old?.score, rank: old?.rank))
            }
        }
        if let rows = fileBody("GET /v2/users/{login}/coalitions_users")?.arrayValue {
            memberships.removeAll { $0.userID == ownerID }
            for row in rows {
                guard let coalitionID = row["coalition_id"]?.numberValue?.intValue else { continue }
                memberships.append(
                    Intra42Membership(
                        userID: ownerID, coalitionID: coalitionID, score: row["score"]?.numberValue?.intValue,
                        rank: row["rank"]?.numberValue?.intValue))
            }
        }
        if let rows = fileBody("GET /v2/campus/{id}/events")?.arrayValue {
            events += rows
        }
        if let rows = fileBody("GET /v2/me/slots")?.arrayValue {
            slots.removeAll { $0.userID == ownerID }
            for row in rows {
                guard let id = row["id"]?.numberValue?.intValue, let begin = row["begin_at"]?.stringValue,
                    let end = row["end_at"]?.stringValue
                else { continue }
                let scaleTeam = row["scale_team"] == .null ? nil : row["scale_team"]
                slots.append(
                    Intra42SlotRecord(id: id, userID: ownerID, beginAt: begin, endAt: end, scaleTeam: scaleTeam))
            }
        }
    }

    /// A user record from a `User` body; `nil` without an integer id and a login.
    private func record(from profile: JSONValue) -> Intra42UserRecord? {
        guard let id = profile["id"]?.numberValue?.intValue, let login = profile["login"]?.stringValue else {
            return nil
        }
        let campusID = profile["campus"]?[0]?["id"]?.numberValue?.intValue
        return Intra42UserRecord(id: id, login: login, profile: profile, primaryCampusID: campusID)
    }

    /// Adds a user, or replaces the one with the same id or login.
    private mutating func upsert(_ record: Intra42UserRecord) {
        if let index = state.users.firstIndex(where: { $0.id == record.id || $0.login == record.login }) {
            relabel(state.users[index].id, as: record.id)
            state.users[index] = record
        } else {
            state.users.append(record)
        }
    }

    /// Moves what user `old` owns to user `new`.
    private mutating func relabel(_ old: Int, as new: Int) {
        guard old != new else { return }
        for index in projectsUsers.indices where projectsUsers[index].userID == old {
            projectsUsers[index].userID = new
        }
        for index in locations.indices where locations[index].userID == old {
            locations[index].userID = new
        }
        for index in memberships.indices where memberships[index].userID == old {
            memberships[index].userID = new
        }
        for index in slots.indices where slots[index].userID == old { slots[index].userID = new }
    }

    // MARK: Coherence

    /// Every campus a user names exists (and the user's embed matches it), sessions point at a known campus,
    /// events at least at one, coalitions of memberships exist, ids are unique, and campus user counts add up.
    mutating func makeCoherent() {
        for index in state.users.indices {
            guard case .object(var members) = state.users[index].profile else { continue }
            var embeds: [JSONValue] = []
            for embed in members["campus"]?.arrayValue ?? [] {
                guard let id = embed["id"] else { continue }
                if let campus = campuses.first(where: { $0["id"] == id }) {
                    embeds.append(Self.embed(campus))
                } else {
                    campuses.append(Self.campus(from: embed))
                    embeds.append(embed)
                }
            }
            if embeds.isEmpty {
                embeds = [Self.embed(Self.lyon)]
            }
            members["campus"] = .array(embeds)
            state.users[index].profile = .object(members)
            state.users[index].primaryCampusID = embeds[0]["id"]?.numberValue?.intValue
        }
        let campusIDs = campuses.compactMap { $0["id"] }
        for index in locations.indices
        where !campusIDs.contains(locations[index].body["campus_id"] ?? .null) {
            let owner = state.users.first { $0.id == locations[index].userID }
            locations[index].body = Self.setting(
                "campus_id", to: .integer(owner?.primaryCampusID ?? 9), in: locations[index].body)
        }
        // Sessions numbered in the order they began, as the API's ids grow.
        var locationID = 21_000_000 + random.int(in: 0...999_999)
        let order = locations.indices.sorted {
            (locations[$0].body["begin_at"]?.stringValue ?? "")
                < (locations[$1].body["begin_at"]?.stringValue ?? "")
        }
        var usedLocationIDs = Set<Int>()
        for index in order {
            let id = locations[index].body["id"]?.numberValue?.intValue ?? 0
            if id > 0 && usedLocationIDs.insert(id).inserted { continue }
            while usedLocationIDs.contains(locationID) { locationID += 1 }
            usedLocationIDs.insert(locationID)
            locations[index].body = Self.setting("id", to: .integer(locationID), in: locations[index].body)
            locationID += 1 + random.int(in: 0...40)
        }
        var eventID = 28_000 + random.int(in: 0...999)
        var usedEventIDs = Set<Int>()
        for index in events.indices {
            var event = events[index]
            let ids = event["campus_ids"]?.arrayValue ?? []
            if !ids.contains(where: campusIDs.contains) {
                event = Self.setting(
                    "campus_ids", to: .array(ids + [.integer(state.users[0].primaryCampusID ?? 9)]), in: event)
            }
            let id = event["id"]?.numberValue?.intValue ?? 0
            if id <= 0 || !usedEventIDs.insert(id).inserted {
                while usedEventIDs.contains(eventID) { eventID += 1 }
                usedEventIDs.insert(eventID)
                event = Self.setting("id", to: .integer(eventID), in: event)
                eventID += 1 + random.int(in: 0...12)
            }
            events[index] = event
        }
        for membership in memberships
        where !state.coalitions.contains(where: { $0["id"] == .integer(membership.coalitionID) }) {
            state.coalitions.append([
                "id": .integer(membership.coalitionID), "name": .string("Coalition \(membership.coalitionID)"),
                "slug": .string("coalition-\(membership.coalitionID)"), "color": "#888888",
                "image_url": .string("https://cdn.intra.42.fr/coalition/image/\(membership.coalitionID)/coalition.svg"),
                "score": .null,
            ])
        }
        var slotIDs = Set<Int>()
        slots.removeAll { !slotIDs.insert($0.id).inserted }
        state.nextSlotID = (slots.map(\.id).max() ?? 70_000_000) + 1
        for index in campuses.indices
        where [Self.lyon["id"], Self.paris["id"]].contains(campuses[index]["id"]) {
            let id = campuses[index]["id"]?.numberValue?.intValue
            let count = state.users.filter { user in
                user.profile["campus"]?.arrayValue?.contains { $0["id"]?.numberValue?.intValue == id } == true
            }.count
            campuses[index] = Self.setting("users_count", to: .integer(count), in: campuses[index])
        }
    }

    /// A full campus from the embed a user carries.
    static func campus(from embed: JSONValue) -> JSONValue {
        [
            "id": embed["id"] ?? 0, "name": embed["name"] ?? "", "time_zone": embed["time_zone"] ?? "UTC",
            "language": [
                "id": 1, "name": embed["language"]?["name"] ?? "English",
                "identifier": embed["language"]?["identifier"] ?? "en",
            ],
            "users_count": 1, "country": embed["country"] ?? "", "address": "", "zip": "", "city": embed["city"] ?? "",
            "website": embed["website"] ?? "", "facebook": .null, "twitter": .null, "active": true,
            "email_extension": .null,
        ]
    }

    static func setting(_ key: String, to value: JSONValue, in object: JSONValue) -> JSONValue {
        guard case .object(var members) = object else { return object }
        members[key] = value
        return .object(members)
    }
}
