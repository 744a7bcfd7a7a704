import Foundation
import UnderstudyCore
import UnderstudySpecs

/// The achievements endpoints (`/achievements/...`), all for the caller.
///
/// A caller the mock has not seen act yet (a token signed elsewhere for an unknown ObjectId) reads a fresh
/// start: level 1, no XP, no badges, no challenges, no notifications. Lists past their last page are empty.
extension ApinestMock {
    func summary(_ request: MockRequest) throws -> MockResponse {
        let userID = request.principal?.subject ?? ""
        return try .json(encoding: store.read { $0.summary($0.progress[key: userID] ?? .fresh) }, as: Achievements.spec)
    }

    func badges(_ request: MockRequest) throws -> MockResponse {
        let userID = request.principal?.subject ?? ""
        return try .json(
            encoding: store.read { $0.badges($0.progress[key: userID] ?? .fresh, userID: userID, seed: seed) },
            as: Achievements.spec)
    }

    func challenges(_ request: MockRequest) throws -> MockResponse {
        let userID = request.principal?.subject ?? ""
        let date = now()
        return try .json(
            encoding: store.read { $0.challenges($0.progress[key: userID] ?? .fresh, now: date) }, as: Achievements.spec
        )
    }

    func leaderboard(_ request: MockRequest) throws -> MockResponse {
        let userID = try caller(request)
        let (page, limit) = Self.paging(request)
        let body = store.read { state in
            let ranking = state.ranking()
            let rows = Self.slice(ranking.indices, page: page, limit: limit).map { index in
                state.leaderboardEntry(
                    rank: index + 1, user: ranking[index].user, progress: ranking[index].progress, seed: seed)
            }
            let pages = ApinestState.pagination(total: ranking.count, page: page, limit: limit)
            return Apinest.LeaderboardResponse(
                leaderboard: rows, userRank: ranking.firstIndex { $0.user.id == userID }.map { $0 + 1 },
                pagination: .init(
                    total: pages.total, page: pages.page, totalPages: pages.totalPages, limit: pages.limit))
        }
        return try .json(encoding: body, as: Achievements.spec)
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
