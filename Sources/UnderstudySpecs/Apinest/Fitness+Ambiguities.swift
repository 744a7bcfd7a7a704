import UnderstudyCore

extension Fitness {
    /// Where `fitness-activities-guide.md` contradicts itself or the achievements guide, or is silent.
    static let ambiguities: [Ambiguity] = [
        Ambiguity(
            id: "object-id-format",
            summary:
                "Ids are MongoDB `_id`s, but the guide never states their format, and its examples use placeholders "
                + "that are not ObjectIds: \"65a1b2c3d4e5f6g7h8i9j0k1\" and \"65a1b2c3d4e5f6g7h8i9j0k0\" (g to k are "
                + "not hexadecimal) and \"...\".",
            resolution:
                "Activity `_id`, `participantIds` elements, `creator._id` and the `{id}` path parameter are ObjectIds "
                + "(24 hexadecimal digits); the create and list examples are kept verbatim and fail only on those ids "
                + "(and the list example on its missing keys), so fixtures are generated instead of served from them."),
        Ambiguity(
            id: "activity-date-format",
            summary:
                "\"Points importants\" says `date` is an ISO 8601 date only (YYYY-MM-DD) and `time` a full date-time; "
                + "the request example and the app's `yyyy-MM-dd` formatter agree, but both response examples return "
                + "`date` as a full date-time with milliseconds (\"2025-11-15T00:00:00.000Z\"), which is what "
                + "`Activity.activityDate` parses. `createdAt` and `updatedAt` have no stated format.",
            resolution:
                "CreateActivityRequest.date is a date, Activity.date and both `time`s are RFC 3339 date-times with "
                + "optional fractional seconds (the models are `String`s, so any string still decodes); `createdAt` "
                + "and `updatedAt` stay unconstrained strings."),
        Ambiguity(
            id: "activity-list-example-incomplete", endpoint: "GET /activities",
            summary:
                "The list example omits `createdAt` and `updatedAt`, which `Activity` requires, and uses \"...\" for "
                + "ids and the creator's picture.",
            resolution:
                "The model is the contract: the example is kept verbatim and pinned as not decodable "
                + "(`createdAt` missing)."),
        Ambiguity(
            id: "activities-response-wrapper", endpoint: "GET /activities",
            summary:
                "The guide declares `ActivitiesResponse {activities}`, whose custom `init(from:)` reads a bare array "
                + "(its encoder would write an object), while `ActivitiesService` decodes `[Activity]` directly.",
            resolution:
                "The response is `[Activity]`, a bare array; `Apinest.ActivitiesResponse` is kept as a model and "
                + "infers the same array schema."),
        Ambiguity(
            id: "activities-friends-visibility", endpoint: "GET /activities",
            summary:
                "The list's token is \"optionnel pour public\", and \"Points importants\" exempts only GET "
                + "/activities for public activities, but the guide never says what `visibility=friends` without a "
                + "token answers.",
            resolution:
                "Auth is optional on the endpoint; 401 is listed among its errors for a `friends` listing without a "
                + "valid token."),
        Ambiguity(
            id: "activity-detail-auth", endpoint: "GET /activities/{id}",
            summary:
                "The endpoint's section marks the token \"(optionnel)\", while \"Points importants\" says every "
                + "endpoint needs a JWT except GET /activities for public activities.",
            resolution: "Auth is optional, as the endpoint's own section and the project's inventory say."),
        Ambiguity(
            id: "activity-level-sport-values", endpoint: "POST /activities",
            summary:
                "Sport types (Football, Basketball, Running, Cycling) and levels (Beginner, Intermediate, Advanced) "
                + "appear only as the creation form's picker options, and the views fall back to a default icon and "
                + "colour for any other value; only `visibility` has documented API values (public, friends).",
            resolution:
                "`sportType` and `level` are free strings in requests and responses; `visibility` is restricted to "
                + "public and friends in both."),
        Ambiguity(
            id: "activity-request-rules", endpoint: "POST /activities",
            summary:
                "The guide declares the request bodies' fields and types but no validation rule: not whether a title "
                + "may be empty, how many participants an activity needs, or which coordinates, durations and "
                + "distances are accepted.",
            resolution:
                "The rules a NestJS backend's DTOs would state are declared on the models, so the mock, `check` and "
                + "the OpenAPI document agree: `sportType`, `title`, `location` and `level` have at least one "
                + "character, `participants` is at least 1 (the creator takes a place), `latitude` is within -90...90 "
                + "and `longitude` within -180...180; on completion, `durationMinutes` is within 0...1440 and "
                + "`distanceKm` within 0...1000."),
        Ambiguity(
            id: "activity-leave-undocumented", endpoint: "POST /activities/{id}/leave",
            summary:
                "Leaving appears only in `ActivitiesService.leaveActivity` (decoding `ActivityLeaveResponse "
                + "{message}`): no section, status, example or rule (for example whether the creator may leave).",
            resolution: "Included as available: bearer auth, 200 with `{message}`, 401 and 404."),
        Ambiguity(
            id: "post-action-status", endpoint: "POST /activities/{id}/join",
            summary:
                "The guide gives no status for join (nor leave); NestJS answers a POST with 201 unless the handler "
                + "sets `@HttpCode`, while complete is documented as 200 OK.",
            resolution: "Join and leave answer 200 like complete; the app accepts any 2xx status."),
        Ambiguity(
            id: "error-message-shape",
            summary:
                "`APIErrorResponse.message` is a `String`, but NestJS's `ValidationPipe` answers a 400 with "
                + "`message` as an array of strings; the app decodes the error body with `try?` and falls back to a "
                + "bare HTTP error.",
            resolution:
                "The envelope is `{\"message\": String, \"statusCode\": Int}`; several messages are joined with "
                + "\"; \" into one string, and a `message` array from a server is reported as a decode failure."),
    ]
}
