import UnderstudyCore

extension Achievements {
    /// Where `achievements-guide.md` contradicts the fitness guide, or is silent.
    static let ambiguities: [Ambiguity] = [
        Ambiguity(
            id: "challenges-response-shape", endpoint: "GET /achievements/challenges",
            summary:
                "The achievements guide decodes `ChallengesResponse {activeChallenges: [Challenge]}`; the fitness "
                + "guide's `AchievementsViewModel` assigns `getChallenges(token:)` to a `[Challenge]`, a bare array.",
            resolution:
                "The response is `ChallengesResponse`, as the guide that owns the endpoint declares it; a bare array "
                + "is reported as a type mismatch."),
        Ambiguity(
            id: "summary-model-name", endpoint: "GET /achievements/summary",
            summary:
                "The fitness guide's `AchievementsViewModel` stores the summary as `AchievementsSummary`, from an "
                + "`AchievementsService` neither guide shows; the achievements guide declares `AchievementSummary` "
                + "and `AchievementsAPI`.",
            resolution: "The response is `AchievementSummary`, as the achievements guide declares it."),
        Ambiguity(
            id: "iso8601-fractional-seconds",
            summary:
                "`Badge.earnedAt`, `Challenge.expiresAt` and `AchievementNotification.createdAt` are `Date`s decoded "
                + "with `.iso8601`, which on Apple platforms rejects fractional seconds, while the same backend's "
                + "timestamps in the fitness guide carry milliseconds (\"2025-11-14T10:30:00.000Z\", as JavaScript's "
                + "`Date.toJSON` writes them).",
            resolution:
                "The schemas follow the app's decoder (RFC 3339 date-times without fractional seconds); a server "
                + "that sends milliseconds is reported as a decode failure, which is what the app would hit."),
        Ambiguity(
            id: "object-id-format",
            summary:
                "Ids are MongoDB `_id`s (badges, badge progress, challenges, notifications, leaderboard entries and "
                + "their users), but the guide never states their format and shows no example.",
            resolution:
                "Every `_id` and the `{id}` path parameter are ObjectIds (24 hexadecimal digits), as in the fitness "
                + "spec."),
        Ambiguity(
            id: "notification-metadata-shape", endpoint: "GET /achievements/notifications",
            summary:
                "`metadata` \"can be any JSON object\" and its content is not documented; the app decodes it with "
                + "`try?` through `AnyCodable`, which rejects `null`, so a non-object, or an object holding `null` "
                + "anywhere, silently becomes `nil`.",
            resolution:
                "`metadata` is optional and nullable, an object whose values are any JSON but `null`; `null` is "
                + "checked down to three levels of nested arrays and objects (the schema cannot refer to itself)."),
        Ambiguity(
            id: "empty-response-body", endpoint: "POST /achievements/notifications/{id}/read",
            summary:
                "Neither \"mark as read\" endpoint shows a response; the app decodes `EmptyResponse {success?}` from "
                + "the body, so an empty body (or a 204) fails to decode although the call succeeded.",
            resolution:
                "Both answer 200 with an `EmptyResponse` object (`{}` is enough); an empty body is reported as a "
                + "decode failure."),
        Ambiguity(
            id: "post-action-status", endpoint: "POST /achievements/notifications/read-all",
            summary:
                "The guide gives no status for the two POST endpoints; NestJS answers a POST with 201 unless the "
                + "handler sets `@HttpCode`.",
            resolution: "Both answer 200; the app accepts any 2xx status."),
        Ambiguity(
            id: "pagination-bounds", endpoint: "GET /achievements/leaderboard",
            summary:
                "The leaderboard and notifications take `page` and `limit` (the app sends 1 and 20 by default) but "
                + "the guide states no maximum `limit` and no answer for a page past `totalPages`.",
            resolution:
                "`page` and `limit` are integers of at least 1 with defaults 1 and 20 and no maximum; a page past "
                + "the end is an empty page."),
        Ambiguity(
            id: "error-envelope-source",
            summary:
                "The achievements client never decodes error bodies (401 becomes `unauthorized`, any other status "
                + "`httpError`); only the fitness guide declares the backend's `APIErrorResponse {message, "
                + "statusCode?}`.",
            resolution: "The achievements spec uses the fitness guide's envelope, the same backend's."),
    ]
}
