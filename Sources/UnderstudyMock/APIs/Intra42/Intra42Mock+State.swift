import Foundation
import UnderstudyCore
import UnderstudySpecs

/// Everything the intra42 mock remembers: the seeded intranet (users, coalitions) and what the resource engine
/// serves (campuses, memberships, projects, sessions, events, slots), and the OAuth grants it issued.
///
/// Display-only resources are kept as the JSON the API sends (so a `--fixtures` file is served as
/// written); what the handlers reason about (owners, times, tokens) is kept in typed fields next to it.
/// What writes change (slots, tokens, counters) and what the engine lists are kept in tables; what only the
/// seed writes and only the overlay reads (coalitions, authorization codes) is kept as whole values.
@dynamicMemberLookup
struct Intra42State: StoredState {
    var users = StateTable<Intra42UserRecord>()
    /// The seeded resources no request changes.
    var intranet = StateValue(Intra42Intranet())
    /// The resources the generic engine serves (``served``): the evaluation slots, each in its user's groups by
    /// quarter hour, and the seeded lists.
    var resources = ResourceState(
        spec: Intra42.spec, graph: ResourceGraph(spec: Intra42.spec), resources: Intra42State.served,
        groups: [Intra42State.slots: Intra42State.slotGroups])
    /// Grants by access token, grouped by refresh token.
    var tokens = StateTable<Intra42TokenRecord>(groups: { $0.refreshToken.map { [$0] } ?? [] })
    var counters = StateValue(Intra42Counters())

    mutating func visit(_ visitor: inout StateVisitor) {
        visitor.visit("users", &users)
        visitor.visit("intranet", &intranet)
        resources.visit(&visitor)
        visitor.visit("tokens", &tokens)
        visitor.visit("counters", &counters)
    }

    /// The intranet's values and the counters, read and written as if they were the state's own
    /// (`state.coalitions`, `state.nextSlotID += 1`).
    subscript<Value>(dynamicMember keyPath: WritableKeyPath<Intra42Intranet, Value>) -> Value {
        get { intranet.value[keyPath: keyPath] }
        set { intranet.value[keyPath: keyPath] = newValue }
    }

    subscript<Value>(dynamicMember keyPath: WritableKeyPath<Intra42Counters, Value>) -> Value {
        get { counters.value[keyPath: keyPath] }
        set { counters.value[keyPath: keyPath] = newValue }
    }

    /// The user with this id.
    func user(_ id: Int) -> Intra42UserRecord? { users[key: id] }

    /// The resource of the slots.
    static let slots = "slots"
    /// The resources of `GET /v2/users` (the users' summaries), of `GET /v2/campus/{id}`, of
    /// `GET /v2/users/{login}/coalitions_users` and `/projects_users`, of the sessions
    /// (`GET /v2/users/{login}/locations` and `GET /v2/campus/{id}/locations`) and of `GET /v2/campus/{id}/events`.
    static let users = "users"
    static let campus = "campus"
    static let coalitionsUsers = "coalitions_users"
    static let projectsUsers = "projects_users"
    static let locations = "locations"
    static let events = "events"
    /// The resources the generic engine serves.
    static let served: Set<String> = [slots, users, campus, coalitionsUsers, projectsUsers, locations, events]

    /// The campus with an id (`9`, as its path names it).
    func campus(_ id: String) -> JSONValue? {
        resources.tables[Self.campus]?[key: ResourceRow.key(parent: [:], id: id)]?.item
    }

    /// A user's memberships (`CoalitionUser` objects), in membership order.
    func memberships(of user: Intra42UserRecord) -> [JSONValue] { items(of: Self.coalitionsUsers, of: user) }

    /// A user's sessions (`Location` objects), as `GET /v2/users/{login}/locations` lists them.
    func sessions(of user: Intra42UserRecord) -> [JSONValue] { items(of: Self.locations, of: user) }

    /// The items of a resource kept under a user's login, in the order they were seeded.
    private func items(of resource: String, of user: Intra42UserRecord) -> [JSONValue] {
        resources.tables[resource]?.rows(in: ResourceRow.group(Self.parent(of: user.login))).map(\.item) ?? []
    }

    /// Where a user's items are kept: under their login, as the engine names the parent of
    /// `/v2/users/{login}/…`.
    static func parent(of login: String) -> [String: String] { ["login": login] }

    /// The groups of a slot: its user and each quarter hour it covers, so an overlap check looks at the
    /// quarters of the new range only (a slot longer than a day is in its user's `long` group).
    @Sendable static func slotGroups(_ slot: ResourceRow) -> [String] {
        guard let user = slot.owner, let begin = slot.item["begin_at"]?.stringValue.flatMap(Intra42Time.parse),
            let end = slot.item["end_at"]?.stringValue.flatMap(Intra42Time.parse)
        else { return [] }
        let quarters = quarters(from: begin, to: end)
        return quarters.count > 96 ? ["slot \(user) long"] : quarters.map { "slot \(user) \($0)" }
    }

    /// The numbers of the quarter hours a range touches.
    static func quarters(from begin: Date, to end: Date) -> Range<Int> {
        let first = Int((begin.timeIntervalSince1970 / 900).rounded(.down))
        let last = Int((end.timeIntervalSince1970 / 900).rounded(.up))
        return first..<max(first, last)
    }

    /// The user's slots that may overlap a range, in insertion order.
    func slots(of userID: Int, from begin: Date, to end: Date) -> [ResourceRow] {
        guard let slots = resources.tables[Self.slots] else { return [] }
        var positions = Set(slots.positions(in: "slot \(userID) long"))
        for quarter in Self.quarters(from: begin, to: end) {
            positions.formUnion(slots.positions(in: "slot \(userID) \(quarter)"))
        }
        return positions.sorted().map { slots[$0] }
    }

    /// Opens a slot, as `GET /v2/me/slots` shows it: `user` is `{id, login, url}`, `scale_team` `null` while free.
    /// - Returns: the slot's JSON.
    @discardableResult
    mutating func open(_ slot: Intra42SlotRecord) throws -> JSONValue {
        let login = user(slot.userID)?.login ?? String(slot.userID)
        let user: JSONValue = [
            "id": .integer(slot.userID), "login": .string(login),
            "url": .string("https://api.intra.42.fr/v2/users/\(login)"),
        ]
        let item = try Intra42.spec.wireJSON(
            Intra42.Slot(id: slot.id, beginAt: slot.beginAt, endAt: slot.endAt, scaleTeam: slot.scaleTeam, user: user))
        resources.tables[Self.slots]?.append(
            ResourceRow(parent: [:], id: String(slot.id), item: item, owner: String(slot.userID)))
        return item
    }
}

/// The seeded resources of the intranet that no request changes.
struct Intra42Intranet: Codable, Sendable {
    /// `Coalition` objects; their `score` is the coalition's total.
    var coalitions: [JSONValue] = []
    var authorizationCodes: [Intra42AuthorizationCode] = []
}

/// The counters of the intranet's ids and tokens.
struct Intra42Counters: Codable, Sendable {
    var nextSlotID = 1
    /// How many tokens were ever issued: the token stream continues after a restart or a reset.
    var issuedTokens = 0
}

/// A user: the `User` object the API answers, plus what search results need.
struct Intra42UserRecord: StateRow {
    var id: Int
    var key: Int { id }
    var login: String
    /// The `User` object (its `location` is recomputed from the open session when it is served).
    var profile: JSONValue
    var primaryCampusID: Int?

    /// The `UserSummary` of `GET /v2/users`.
    var summary: JSONValue {
        [
            "id": .integer(id), "login": .string(login), "displayname": profile["displayname"] ?? .string(login),
            "image": profile["image"] ?? ["link": .string("https://cdn.intra.42.fr/users/\(login).jpg")],
            "primary_campus_id": primaryCampusID.map(JSONValue.integer) ?? .null,
        ]
    }
}

/// A user's membership of a coalition (`GET /v2/users/{login}/coalitions_users`), as the seed builds it.
struct Intra42Membership: Hashable {
    var userID: Int
    var coalitionID: Int
    var score: Int?
    var rank: Int?
}

/// A resource row owned by a user, as the seed builds it.
struct Intra42OwnedRow {
    var userID: Int
    var body: JSONValue
}

/// A 15-minute evaluation slot, as the seed and `POST /v2/slots` open it (``Intra42State/open(_:)``).
struct Intra42SlotRecord {
    var id: Int
    var userID: Int
    /// ISO 8601 with milliseconds, as served.
    var beginAt: String
    var endAt: String
    /// The booked evaluation, `nil` while the slot is free.
    var scaleTeam: JSONValue?
}

/// An authorization code the mock accepts at `POST /oauth/token`.
struct Intra42AuthorizationCode: Codable, Sendable {
    var code: String
    var userID: Int
    var redirectURI: String
    var scopes: [String]
}

/// An issued access token and its refresh token (one grant, as Doorkeeper stores them).
struct Intra42TokenRecord: StateRow {
    var accessToken: String
    var key: String { accessToken }
    var refreshToken: String?
    /// `nil` for an application token (client_credentials): it has no resource owner.
    var userID: Int?
    var scopes: [String]
    /// Unix seconds.
    var createdAt: Int
    var expiresIn: Int
    var revoked: Bool

    func isExpired(at now: Date) -> Bool { Double(createdAt + expiresIn) <= now.timeIntervalSince1970 }
}

/// The OAuth application the mock knows, derived from the seed.
struct Intra42Application: Sendable {
    let clientID: String
    let clientSecret: String
    let redirectURI: String
    /// The scopes the application may ask for.
    static let scopes = ["public", "projects", "profile"]
    /// The scopes of a client_credentials token when none is asked for.
    static let defaultScopes = ["public"]
}

/// Timestamps as the 42 API writes them and as requests may send them.
enum Intra42Time {
    /// `2025-11-15T14:30:00.000Z`.
    static func format(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// `2025-11-15`, `2025-11-15T14:30:00Z`, `2025-11-15T14:30:00.123+01:00`; `nil` otherwise.
    static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[range] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var components = DateComponents(year: year, month: month, day: day, hour: 0, minute: 0, second: 0)
        var offsetSeconds = 0
        var fraction = 0.0
        if bytes.count > 10 {
            guard bytes.count >= 20, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"),
                bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
                let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
                hour < 24, minute < 60, second < 60
            else { return nil }
            components.hour = hour
            components.minute = minute
            components.second = second
            var index = 19
            if bytes[index] == UInt8(ascii: ".") {
                index += 1
                let start = index
                while index < bytes.count, (48...57).contains(bytes[index]) { index += 1 }
                guard index > start, let digits = Double("0." + String(decoding: bytes[start..<index], as: UTF8.self))
                else { return nil }
                fraction = digits
            }
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "Z"), UInt8(ascii: "z"):
                guard index + 1 == bytes.count else { return nil }
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                guard bytes.count == index + 6, bytes[index + 3] == UInt8(ascii: ":"),
                    let hours = number(index + 1..<index + 3), let minutes = number(index + 4..<index + 6),
                    hours < 24, minutes < 60
                else { return nil }
                offsetSeconds = (hours * 3600 + minutes * 60) * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
            default: return nil
            }
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == day else {
            return nil
        }
        return date.addingTimeInterval(fraction - Double(offsetSeconds))
    }
}
