import Foundation
import UnderstudyCore

/// The write flows `check --allow-writes` runs: each creates what it needs, exercises the endpoints that
/// change it, and removes it again where the API offers a way to (what it cannot remove is said in a note).
///
/// Every request goes through ``CheckSession/perform(_:_:expecting:)``, so each answer is judged like a
/// read; a failed step skips the steps that need its result, never the clean-up of what already exists.
enum WriteScenarios {
    static func run(_ session: CheckSession) async {
        switch session.spec.id {
        case "fitness": await fitness(session)
        case "achievements": await achievements(session)
        case "videgreniers": await videGreniers(session)
        case "easyco": await easyCo(session)
        case "intra42": await intra42(session)
        default: break
        }
    }

    // MARK: apinest

    /// Join someone else's open activity and leave it again; create an activity → read it → complete it
    /// (activities cannot be deleted: completing closes it).
    static func fitness(_ session: CheckSession) async {
        let me = session.token.flatMap(JWTClaims.subject)
        let open = (await session.call("GET /activities")?.arrayValue ?? []).first { activity in
            activity["isCompleted"] == false
                && !(activity["participantIds"]?.arrayValue ?? []).contains { $0.stringValue == me }
                && (activity["participantIds"]?.arrayValue?.count ?? .max) < (activity["participants"]?.numberValue?.intValue ?? 0)
        }
        if let id = open?["_id"]?.stringValue {
            if await session.call("POST /activities/{id}/join", path: ["id": id]) != nil {
                await session.call("POST /activities/{id}/leave", path: ["id": id])
            }
        } else {
            session.skip("POST /activities/{id}/join", because: "no open activity of another user to join")
        }
        let start = session.options.now().addingTimeInterval(7 * 86_400)
        let body: JSONValue = [
            "title": "Understudy check", "description": "Created by understudy check --allow-writes.",
            "sportType": "Running", "level": "Beginner", "location": "Understudy track",
            "date": .string(Format.day(start)), "time": .string(Format.instant(start)), "participants": 2,
            "latitude": 48.8566, "longitude": 2.3522, "visibility": "friends",
        ]
        guard let created = await session.call("POST /activities", body: body),
            let id = (created["_id"] ?? created["id"])?.stringValue
        else { return }
        await session.call("GET /activities/{id}", path: ["id": id])
        await session.call("POST /activities/{id}/complete", path: ["id": id])
        session.note("POST /activities", "the created activity \(id) stays (completed): the API has no delete")
    }

    /// Mark one notification read, then all.
    static func achievements(_ session: CheckSession) async {
        if let list = await session.call("GET /achievements/notifications"),
            let first = PaginationWalk.items(in: list)?.first, let id = (first["_id"] ?? first["id"])?.stringValue
        {
            await session.call("POST /achievements/notifications/{id}/read", path: ["id": id])
        } else {
            session.skip("POST /achievements/notifications/{id}/read", because: "no notification to mark read")
        }
        await session.call("POST /achievements/notifications/read-all")
    }

    // MARK: VideGreniers

    /// Event: create → read → update → publish → favorite (status, toggle off and on, remove) → cancel.
    /// Account: a throwaway user registers, reads itself, refreshes its token, and deletes its account; the
    /// session opened with `--login` is logged out last.
    /// Profile: written back unchanged. Notifications: one marked read.
    static func videGreniers(_ session: CheckSession) async {
        let start = session.options.now().addingTimeInterval(14 * 86_400)
        var event: JSONValue = [
            "title": "Vide-grenier Understudy", "description": "Created by understudy check --allow-writes.",
            "eventType": 0, "startDate": .string(Format.instant(start)),
            "endDate": .string(Format.instant(start.addingTimeInterval(8 * 3600))),
            "street": "1 place de la Mairie", "city": "Lyon", "postalCode": "69001", "country": "France",
            "latitude": 45.764, "longitude": 4.8357, "allowsEarlyBird": false,
        ]
        if let created = await session.call("POST /api/events", body: event),
            let id = created["data"]?["id"]?.stringValue
        {
            await session.call("GET /api/events/{id}", path: ["id": id])
            if case .object(var fields) = event {
                fields["id"] = .string(id)
                fields["description"] = "Updated by understudy check --allow-writes."
                event = .object(fields)
            }
            await session.call("PUT /api/events/{id}", path: ["id": id], body: event)
            await session.call("POST /api/events/{id}/publish", path: ["id": id])
            if await session.call("POST /api/favorites/{eventId}", path: ["eventId": id]) != nil {
                await session.call("POST /api/favorites/status", body: [.string(id)])
                await session.call("PATCH /api/favorites/{eventId}/toggle", path: ["eventId": id])
                await session.call("PATCH /api/favorites/{eventId}/toggle", path: ["eventId": id])
                await session.call("DELETE /api/favorites/{eventId}", path: ["eventId": id])
            }
            await session.call("POST /api/events/{id}/cancel", path: ["id": id], body: ["reason": "Clean-up after understudy check."])
        }
        if let profile = await session.call("GET /api/user/profile")?["data"] {
            var update: [String: JSONValue] = [:]
            for key in ["firstName", "lastName", "phone", "bio", "avatarUrl", "preferredLanguage"] {
                if let value = profile[key], value != .null { update[key] = value }
            }
            await session.call("PUT /api/user/profile", body: .object(update))
        }
        if let list = await session.call("GET /api/notifications"),
            let id = PaginationWalk.items(in: list)?.first?["id"]?.stringValue
        {
            await session.call("PATCH /api/notifications/{notificationId}/read", path: ["notificationId": id])
        }
        session.skip("POST /api/notifications", because: "needs the admin role; not part of the write scenario")
        await throwawayAccount(session)
        // The session the checker opened with --login is closed last; a --token given by the user is left alone.
        if let refresh = session.refreshToken {
            await session.call("POST /api/auth/logout", body: ["refreshToken": .string(refresh)])
        }
    }

    private static func throwawayAccount(_ session: CheckSession) async {
        let email = "understudy-\(session.options.seed)-\(Int(session.options.now().timeIntervalSince1970))@example.com"
        let password = "Understudy-\(UUID().uuidString.prefix(8))-pw1!"
        session.remember(secret: password, as: "UNDERSTUDY_PASSWORD")
        let registration: JSONValue = [
            "email": .string(email), "password": .string(password), "firstName": "Under", "lastName": "Study",
        ]
        guard let registered = await session.call("POST /api/auth/register", body: registration, authenticated: false),
            let token = registered["data"]?["accessToken"]?.stringValue,
            let refresh = registered["data"]?["refreshToken"]?.stringValue
        else { return }
        session.remember(secret: token, as: "UNDERSTUDY_TOKEN")
        session.remember(secret: refresh, as: "UNDERSTUDY_REFRESH_TOKEN")
        let asUser: HeaderFields = ["Authorization": "Bearer \(token)"]
        await session.call("GET /api/auth/me", headers: asUser)
        var current = token
        if let refreshed = await session.call(
            "POST /api/auth/refresh", body: ["accessToken": .string(token), "refreshToken": .string(refresh)],
            authenticated: false),
            let newToken = refreshed["data"]?["accessToken"]?.stringValue
        {
            session.remember(secret: newToken, as: "UNDERSTUDY_TOKEN")
            if let newRefresh = refreshed["data"]?["refreshToken"]?.stringValue {
                session.remember(secret: newRefresh, as: "UNDERSTUDY_REFRESH_TOKEN")
            }
            current = newToken
        }
        await session.call("DELETE /api/user/account", headers: ["Authorization": "Bearer \(current)"])
    }

    // MARK: EasyCo

    /// Favorite a property → read the favorite → delete it. Applications are not written: the API offers no
    /// way to delete one.
    static func easyCo(_ session: CheckSession) async {
        session.skip("POST /rest/v1/applications", because: "not written: the API offers no way to delete an application")
        guard let userID = session.token.flatMap(JWTClaims.subject) else {
            session.skip("POST /rest/v1/favorites", because: "the token carries no user id (sub claim)")
            return
        }
        let existing = Set(
            (await session.call("GET /rest/v1/favorites", query: [("user_id", "eq.\(userID)")])?.arrayValue ?? [])
                .compactMap { $0["property_id"]?.stringValue })
        guard let properties = await session.call("GET /rest/v1/properties")?.arrayValue,
            let propertyID = properties.compactMap({ $0["id"]?.stringValue }).first(where: { !existing.contains($0) })
        else {
            session.skip("POST /rest/v1/favorites", because: "no property left to favorite")
            return
        }
        let favorite: JSONValue = ["user_id": .string(userID), "property_id": .string(propertyID)]
        guard await session.call("POST /rest/v1/favorites", headers: ["Prefer": "return=representation"], body: favorite) != nil
        else { return }
        await session.call("GET /rest/v1/favorites", query: [("property_id", "eq.\(propertyID)"), ("user_id", "eq.\(userID)")])
        await session.call("DELETE /rest/v1/favorites", query: [("user_id", "eq.\(userID)"), ("property_id", "eq.\(propertyID)")])
    }

    // MARK: 42

    /// Open two 15-minute slots an hour from now → list them → delete them. Needs a user token.
    static func intra42(_ session: CheckSession) async {
        guard let me = await session.call("GET /v2/me"), let userID = me["id"]?.numberValue?.intValue else {
            session.skip("POST /v2/slots", because: "needs a user token (GET /v2/me did not answer one)")
            return
        }
        let quarter = 900.0
        let begin = Date(
            timeIntervalSince1970: ((session.options.now().timeIntervalSince1970 + 3600) / quarter).rounded(.up) * quarter)
        let slot: JSONValue = [
            "slot": [
                "user_id": .integer(userID), "begin_at": .string(Format.instant(begin)),
                "end_at": .string(Format.instant(begin.addingTimeInterval(2 * quarter))),
            ]
        ]
        guard let created = await session.call("POST /v2/slots", body: slot) else { return }
        await session.call("GET /v2/me/slots")
        let ids = (created.arrayValue ?? [created]).compactMap { $0["id"]?.numberValue?.literal }
        for id in ids { await session.call("DELETE /v2/slots/{id}", path: ["id": id]) }
    }
}

extension CheckSession {
    /// Calls the endpoint named `id` expecting its success status; returns the parsed body of a 2xx answer
    /// (`{}` for an answer without body), or `nil` when it failed or cannot be called.
    @discardableResult
    func call(
        _ id: String, path: [String: String] = [:], query: [(String, String)] = [], headers: HeaderFields = [:],
        body: JSONValue? = nil, authenticated: Bool = true
    ) async -> JSONValue? {
        guard let endpoint = spec.endpoint(id), canCall(endpoint) else { return nil }
        let request = request(endpoint, path: path, query: query, headers: headers, body: body, authenticated: authenticated)
        let expected: Set<HTTPStatus> = endpoint.pagination == .range ? [endpoint.success, .partialContent] : [endpoint.success]
        let (exchange, parsed) = await perform(endpoint, request, expecting: expected)
        guard let response = exchange.response, (200..<300).contains(response.status) else { return nil }
        return parsed ?? [:]
    }

    func skip(_ id: String, because reason: String) {
        if let endpoint = spec.endpoint(id) { skip(endpoint, because: reason) }
    }

    func note(_ id: String, _ message: String) {
        add([Diagnostic(.note, rule: .checkSkipped, endpoint: id, message: message)])
    }
}

/// Reads claims from a JWT's payload without verifying it (the server verifies; the checker needs the user id).
enum JWTClaims {
    static func subject(_ token: String) -> String? {
        let parts = token.split(separator: ".")
        guard parts.count == 3 else { return nil }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let payload = try? JSONParser().parse(Array(data)) else { return nil }
        return payload["sub"]?.stringValue
    }
}

enum Format {
    static func instant(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    static func day(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day())
    }
}
