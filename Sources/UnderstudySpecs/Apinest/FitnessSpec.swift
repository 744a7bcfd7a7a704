import UnderstudyCore

/// The apinest fitness activities API (`fitness-activities-guide.md`): its 6 endpoints under `/activities`,
/// NestJS's `{message, statusCode}` errors, and the app's `JSONDecoder` with `.iso8601` dates.
///
/// Its models live in ``Apinest``, shared with ``Achievements`` (one backend).
///
/// ```swift
/// let endpoint = Fitness.spec.endpoint("POST /activities")!
/// let findings = BodyCheck.findings(bytes, model: endpoint.response!, spec: Fitness.spec)
/// ```
public enum Fitness {
    /// The spec, endpoints in the order of the project's inventory.
    public static let spec = APISpec(
        id: "fitness", title: "apinest fitness activities", document: "fitness-activities-guide.md",
        auth: .bearerJWT,
        // `APIService.request` decodes with `JSONDecoder()` and `.iso8601` dates, default keys.
        wire: DecoderSettings(dates: .iso8601),
        errorEnvelope: Apinest.errorEnvelope,
        endpoints: [
            AnyEndpoint(createActivity), AnyEndpoint(activities), AnyEndpoint(activity),
            AnyEndpoint(completeActivity), AnyEndpoint(joinActivity), AnyEndpoint(leaveActivity),
        ],
        ambiguities: ambiguities).hinting(writeHints)

    /// The `{id}` of the activity endpoints: an activity's `_id`.
    private static let activityID = Parameter.path("id", .string(format: .objectId), summary: "The activity's `_id`.")

    public static let createActivity = Endpoint<Apinest.CreateActivityRequest, Apinest.Activity>(
        .post, "/activities", auth: .required, success: .created,
        errors: [.badRequest, .unauthorized],
        summary: "Create an activity; the creator joins it",
        examples: Examples(
            request: DocumentExamples.createActivityRequest,
            responses: [201: DocumentExamples.createActivityResponse]))

    public static let activities = Endpoint<NoBody, [Apinest.Activity]>(
        .get, "/activities",
        parameters: [
            .query(
                "visibility", .string(values: Apinest.visibilities),
                summary: "Only the activities with this visibility.", meaning: .equals("/visibility"))
        ],
        auth: .optional,
        // 401: a token is optional only for public activities (`activities-friends-visibility`).
        errors: [.badRequest, .unauthorized],
        summary: "List activities, optionally only the public or the friends ones, as a bare JSON array",
        examples: Examples(responses: [200: DocumentExamples.activitiesResponse]))

    public static let activity = Endpoint<NoBody, Apinest.Activity>(
        .get, "/activities/{id}", parameters: [activityID], auth: .optional,
        errors: [.badRequest, .unauthorized, .notFound],
        summary: "Fetch one activity by its id")

    public static let completeActivity = Endpoint<Apinest.CompleteActivityRequest, Apinest.ActivityCompleteResponse>(
        .post, "/activities/{id}/complete", parameters: [activityID], auth: .required,
        errors: [.badRequest, .unauthorized, .forbidden, .notFound],
        body: .optional,
        summary: "Mark an activity as completed, with an optional duration and distance; only its creator may",
        examples: Examples(
            request: DocumentExamples.completeActivityRequest,
            responses: [200: DocumentExamples.completeActivityResponse]))

    public static let joinActivity = Endpoint<NoBody, Apinest.ActivityJoinResponse>(
        .post, "/activities/{id}/join", parameters: [activityID], auth: .required,
        errors: [.badRequest, .unauthorized, .notFound],
        summary: "Join an activity and return it with a message")

    public static let leaveActivity = Endpoint<NoBody, Apinest.ActivityLeaveResponse>(
        .post, "/activities/{id}/leave", parameters: [activityID], auth: .required,
        errors: [.badRequest, .unauthorized, .notFound],
        summary: "Leave an activity the user has joined")
}
