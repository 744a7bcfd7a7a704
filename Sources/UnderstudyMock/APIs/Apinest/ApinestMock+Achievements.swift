import Foundation
import UnderstudyCore
import UnderstudySpecs

/// The achievements endpoints (`/achievements/...`), all for the caller.
///
/// A caller the mock has not seen act yet (a token signed elsewhere for an unknown ObjectId) reads a fresh
/// start: level 1, no XP, no badges, no challenges, no notifications. Lists past their last page are empty.
extension ApinestMock {
    func summary(_ request: MockRequest) -> MockResponse {
        let userID = request.principal?.subject ?? ""
        return .json(store.read { $0.summaryJSON($0.progress[key: userID] ?? .fresh) })
    }

    func badges(_ request: MockRequest) -> MockResponse {
        let userID = request.principal?.subject ?? ""
        return .json(store.read { $0.badgesJSON($0.progress[key: userID] ?? .fresh, userID: userID, seed: seed) })
    }

    func challenges(_ request: MockRequest) -> MockResponse {
        let userID = request.principal?.subject ?? ""
        let date = now()
        return .json(store.read { $0.challengesJSON($0.progress[key: userID] ?? .fresh, now: date) })
    }

    func leaderboard(_ request: MockRequest) throws -> MockResponse {
        let userID = try caller(request)
        let (page, limit) = Self.paging(request)
        let json = store.read { state -> JSONValue in
            let ranking = state.ranking()
            let rows = Self.slice(ranking.indices, page: page, limit: limit).map { index in
                state.leaderboardEntryJSON(
                    rank: index + 1, user: ranking[index].user, progress: ranking[index].progress, seed: seed)
            }
            var body: [String: JSONValue] = [
                "leaderboard": .array(rows),
                "pagination": ApinestState.pagination(total: ranking.count, page: page, limit: limit),
            ]
            if let rank = ranking.firstIndex(where: { $0.user.id == userID }) { body["userRank"] = .integer(rank + 1) }
            return .object(body)
        }
        return .json(json)
    }

    func notifications(_ request: MockRequest) throws -> MockResponse {
        let userID = try caller(request)
        let (page, limit) = Self.paging(request)
        let unreadOnly = request.query["unreadOnly"] == "true"
        let json = store.read { state -> JSONValue in
            let all = state.notificationsOf(userID)
                .filter { !unreadOnly || !$0.isRead }
                .sorted { ($0.createdAt, $0.id) > ($1.createdAt, $1.id) }
            let rows = Self.slice(all.indices, page: page, limit: limit).map { state.notificationJSON(all[$0]) }
            return [
                "notifications": .array(rows),
                "pagination": ApinestState.pagination(total: all.count, page: page, limit: limit),
            ]
        }
        return .json(json)
    }

    func markNotificationRead(_ request: MockRequest) async throws -> MockResponse {
        let userID = try caller(request)
        let id = request.pathParameters["id"] ?? ""
        let exists = store.read { state in state.notifications[key: id]?.userID == userID }
        guard exists else { throw MockError(.notFound, "Notification \(id) not found") }
        try await store.write { state in
            guard let index = state.notifications.position(of: id), state.notifications[index].userID == userID else {
                throw MockError(.notFound, "Notification \(id) not found")
            }
            state.notifications[index].isRead = true
        }
        return .json(["success": true])
    }

    func markAllNotificationsRead(_ request: MockRequest) async throws -> MockResponse {
        let userID = try caller(request)
        let group = ApinestState.notificationGroup(userID)
        let unread = store.read { state in state.notifications.rows(in: group).contains { !$0.isRead } }
        if unread {
            try await store.write { state in
                for index in state.notifications.positions(in: group) where !state.notifications[index].isRead {
                    state.notifications[index].isRead = true
                }
            }
        }
        return .json(["success": true])
    }

    /// `page` and `limit` (validated by the engine as integers of at least 1; defaults 1 and 20).
    static func paging(_ request: MockRequest) -> (page: Int, limit: Int) {
        let page = request.query["page"].flatMap { Int($0) } ?? 1
        let limit = request.query["limit"].flatMap { Int($0) } ?? 20
        return (max(1, page), max(1, limit))
    }

    /// The indices of one page; a page past the end (or too far to compute) is empty.
    static func slice(_ indices: Range<Int>, page: Int, limit: Int) -> Range<Int> {
        let (skip, overflow) = (page - 1).multipliedReportingOverflow(by: limit)
        guard !overflow, skip < indices.count else { return indices.upperBound..<indices.upperBound }
        let end = limit > indices.count - skip ? indices.count : skip + limit
        return (indices.lowerBound + skip)..<(indices.lowerBound + end)
    }
}
