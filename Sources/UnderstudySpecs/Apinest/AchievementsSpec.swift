import UnderstudyCore

/// The apinest achievements API (`achievements-guide.md`): its 7 endpoints under `/achievements`, all behind
/// a JWT, NestJS's `{message, statusCode}` errors, and the app's `JSONDecoder` with `.iso8601` dates.
///
/// Its models live in ``Apinest``, shared with ``Fitness`` (one backend).
///
/// ```swift
/// let endpoint = Achievements.spec.endpoint("GET /achievements/challenges")!
/// let findings = BodyCheck.findings(bytes, model: endpoint.response!, spec: Achievements.spec)
/// ```
public enum Achievements {
    /// The spec, endpoints in the order of the project's inventory.
    public static let spec = APISpec(
        id: "achievements", title: "apinest achievements", document: "achievements-guide.md",
        auth: .bearerJWT,
        // `AchievementsAPI.performRequest` decodes with `JSONDecoder()` and `.iso8601` dates, default keys.
        wire: DecoderSettings(dates: .iso8601),
        errorEnvelope: Apinest.errorEnvelope,
        endpoints: [
            AnyEndpoint(summary), AnyEndpoint(badges), AnyEndpoint(challenges), AnyEndpoint(leaderboard),
            AnyEndpoint(notifications), AnyEndpoint(markNotificationRead), AnyEndpoint(markAllNotificationsRead),
        ],
        ambiguities: ambiguities)

    /// `page` / `limit` paging, `{total, page, totalPages, limit}` at `/pagination` of the body.
    private static let paging = Pagination.pageInBody(
        pageParameter: "page", sizeParameter: "limit", metadataPointer: "/pagination")

    /// The `page` and `limit` query parameters, with the defaults of `AchievementsAPI`.
    private static let pageParameters: [Parameter] = [
        .query("page", .integer(minimum: 1), default: 1, summary: "The page number, from 1."),
        .query("limit", .integer(minimum: 1), default: 20, summary: "The number of items per page."),
    ]

    public static let summary = Endpoint<NoBody, Apinest.AchievementSummary>(
        .get, "/achievements/summary", auth: .required,
        errors: [.unauthorized],
        summary: "The user's level, XP and streaks")

    public static let badges = Endpoint<NoBody, Apinest.BadgesResponse>(
        .get, "/achievements/badges", auth: .required,
        errors: [.unauthorized],
        summary: "The badges the user has earned and those in progress")

    public static let challenges = Endpoint<NoBody, Apinest.ChallengesResponse>(
        .get, "/achievements/challenges", auth: .required,
        errors: [.unauthorized],
        summary: "The user's active challenges, wrapped in `activeChallenges`")

    public static let leaderboard = Endpoint<NoBody, Apinest.LeaderboardResponse>(
        .get, "/achievements/leaderboard", parameters: pageParameters, auth: .required,
        errors: [.badRequest, .unauthorized],
        pagination: paging,
        summary: "One page of the XP leaderboard and the user's own rank")

    public static let notifications = Endpoint<NoBody, Apinest.NotificationsResponse>(
        .get, "/achievements/notifications",
        parameters: pageParameters + [
            .query(
                "unreadOnly", .boolean, default: false, summary: "Only the notifications not read yet.",
                meaning: .whenTrue("/isRead", equals: false))
        ],
        auth: .required,
        errors: [.badRequest, .unauthorized],
        pagination: paging,
        summary: "One page of the user's achievement notifications, optionally only the unread ones",
        // The list is the `notifications` member of an envelope whose other members are not items.
        resource: .operation(resource: "notifications", role: .list, identifier: "_id"),
        owner: .caller, order: [.descending("/createdAt"), .descending("/_id")])

    public static let markNotificationRead = Endpoint<NoBody, Apinest.EmptyResponse>(
        .post, "/achievements/notifications/{id}/read",
        parameters: [.path("id", .string(format: .objectId), summary: "The notification's `_id`.")],
        auth: .required,
        errors: [.badRequest, .unauthorized, .notFound],
        summary: "Mark one of the user's notifications as read",
        resource: .operation(resource: "notifications", role: .action, identifier: "_id"),
        owner: .caller, effect: ActionEffect(set: ["/isRead": true]))

    public static let markAllNotificationsRead = Endpoint<NoBody, Apinest.EmptyResponse>(
        .post, "/achievements/notifications/read-all", auth: .required,
        errors: [.unauthorized],
        summary: "Mark all of the user's notifications as read",
        resource: .operation(resource: "notifications", role: .action, identifier: nil),
        owner: .caller, effect: ActionEffect(set: ["/isRead": true]))
}
