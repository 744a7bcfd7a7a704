import Foundation
import UnderstudyCore
import UnderstudySpecs

extension Intra42Mock {
    // MARK: Users

    /// `GET /v2/me`: the token's user; an application token has none (403).
    func me(_ request: MockRequest) throws -> MockResponse {
        let id = try currentUserID(request)
        return try store.read { state throws in
            guard let user = state.users.first(where: { $0.id == id }) else {
                throw MockError(.notFound, "the token's user \(id) no longer exists")
            }
            return .json(Self.profile(of: user, in: state))
        }
    }

    /// `GET /v2/users/{login}` (a login or a numeric id).
    func user(_ request: MockRequest) throws -> MockResponse {
        try store.read { state throws in .json(Self.profile(of: try pathUser(request, in: state), in: state)) }
    }

    /// A `User` with `location` set to the host of the user's open session, as the API computes it.
    static func profile(of user: Intra42UserRecord, in state: Intra42State) -> JSONValue {
        guard case .object(var members) = user.profile else { return user.profile }
        let open = state.sessions(of: user).filter { $0["end_at"] == .null }
            .max { ($0["begin_at"]?.stringValue ?? "") < ($1["begin_at"]?.stringValue ?? "") }
        members["location"] = open?["host"] ?? .null
        members["id"] = .integer(user.id)
        members["login"] = .string(user.login)
        return .object(members)
    }

    /// `GET /v2/users/{login}/coalitions`: the coalitions the user belongs to, in membership order
    /// (`GET /v2/users/{login}/coalitions_users`).
    func coalitions(_ request: MockRequest) throws -> MockResponse {
        try store.read { state throws in
            let ids = state.memberships(of: try pathUser(request, in: state)).compactMap { $0["coalition_id"] }
            return .json(.array(ids.compactMap { id in state.coalitions.first { $0["id"] == id } }))
        }
    }

    /// `GET /v2/users/{login}/coalitions_users` (the user's score and rank in each coalition),
    /// `GET /v2/users/{login}/projects_users` (newest attempt first) and `GET /v2/users/{login}/locations` (the
    /// latest session first; `filter[active]` and `range[begin_at]` as declared), by the resource engine, which keeps
    /// them under their user's login: `{login}` may be a numeric id, as the API takes either.
    /// - Throws: ``MockError`` 404 for an unknown user, 400 for an undeclared filter or a range that is not two
    ///   instants.
    func userList(_ request: MockRequest, endpoint: AnyEndpoint) async throws -> MockResponse? {
        try Intra42Filters.rejectUnknown(request, endpoint: endpoint)
        _ = try Intra42Filters.range("begin_at", in: request.query)
        var request = request
        request.pathParameters["login"] = try store.read { state throws in try pathUser(request, in: state).login }
        return try await resources.handle(request, endpoint: endpoint)
    }

    /// `GET /v2/users/{login}/locations_stats`: log time per day (`"YYYY-MM-DD": "HH:MM:SS.ffffff"`),
    /// computed from the user's sessions, cut into days in `time_zone` (the user's campus's by default); an
    /// open session counts until now. `begin_at` and `end_at` (dates or instants) bound the days returned.
    func locationsStats(_ request: MockRequest) throws -> MockResponse {
        let now = configuration.now()
        return try store.read { state throws in
            let user = try pathUser(request, in: state)
            let zoneName =
                request.query["time_zone"]
                ?? user.primaryCampusID.flatMap { state.campus(String($0))?["time_zone"]?.stringValue }
                ?? "UTC"
            guard let zone = TimeZone(identifier: zoneName) else {
                throw MockError(
                    .badRequest,
                    "query parameter time_zone: expected an IANA time zone such as Europe/Paris, found \"\(zoneName)\"")
            }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let day = { (date: Date) -> String in
                let parts = calendar.dateComponents([.year, .month, .day], from: date)
                return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
            }
            let bounds = try ["begin_at", "end_at"].map { name throws -> String? in
                guard let text = request.query[name] else { return nil }
                guard let date = Intra42Time.parse(text) else {
                    throw MockError(
                        .badRequest,
                        "query parameter \(name): expected a date (2025-11-15) or an ISO 8601 instant, "
                            + "found \"\(text)\"")
                }
                // A bare date names a day in the requested zone, not an instant.
                return text.count == 10 ? text : day(date)
            }
            var seconds: [String: Double] = [:]
            for location in state.sessions(of: user) {
                guard let begin = location["begin_at"]?.stringValue.flatMap(Intra42Time.parse) else { continue }
                let end = location["end_at"]?.stringValue.flatMap(Intra42Time.parse) ?? now
                var cursor = begin
                while cursor < end {
                    let start = calendar.startOfDay(for: cursor)
                    let next = calendar.date(byAdding: .day, value: 1, to: start) ?? end
                    let stop = min(end, next)
                    seconds[day(cursor), default: 0] += stop.timeIntervalSince(cursor)
                    cursor = stop
                }
            }
            var result: [String: JSONValue] = [:]
            for (key, total) in seconds {
                if let lower = bounds[0], key < lower { continue }
                if let upper = bounds[1], key > upper { continue }
                result[key] = .string(Self.duration(total))
            }
            return .json(.object(result))
        }
    }

    /// `05:42:17.512345`; a day holds at most 23:59:59.999999.
    static func duration(_ seconds: Double) -> String {
        let micro = min(86_399_999_999, max(0, Int((seconds * 1_000_000).rounded())))
        let whole = micro / 1_000_000
        return String(format: "%02d:%02d:%02d.%06d", whole / 3600, whole / 60 % 60, whole % 60, micro % 1_000_000)
    }

    // MARK: Campus

    /// The campus named by the `{id}` path parameter.
    func pathCampus(_ request: MockRequest, in state: Intra42State) throws(MockError) -> JSONValue {
        let id = request.pathParameters["id"] ?? ""
        guard let number = Int(id), let campus = state.campus(String(number)) else {
            throw MockError(.notFound, "campus \(id) does not exist")
        }
        return campus
    }

    /// `GET /v2/campus/{id}`, `GET /v2/campus/{id}/locations` (its sessions, the latest first; `filter[active]=true`
    /// is who is logged in now) and `GET /v2/campus/{id}/events` (its events, the latest `begin_at` first;
    /// `filter[future]=true` keeps those still to come), by the resource engine; `{id}` is read as a number (`09` is
    /// campus 9), as Rails reads it.
    /// - Throws: ``MockError`` 404 for an unknown campus, 400 for an undeclared filter.
    func campusRequest(_ request: MockRequest, endpoint: AnyEndpoint) async throws -> MockResponse? {
        try Intra42Filters.rejectUnknown(request, endpoint: endpoint)
        var request = request
        let campus = try store.read { state throws in try pathCampus(request, in: state) }
        request.pathParameters["id"] = campus["id"].flatMap(ResourceItems.text)
        return try await resources.handle(request, endpoint: endpoint)
    }

    // MARK: Search

    /// `GET /v2/users?search[login]=…`: users whose login contains the text (ignoring case), by login, by the
    /// resource engine.
    func searchUsers(_ request: MockRequest, endpoint: AnyEndpoint) async throws -> MockResponse? {
        try Intra42Filters.rejectUnknown(request, endpoint: endpoint)
        return try await resources.handle(request, endpoint: endpoint)
    }
}
