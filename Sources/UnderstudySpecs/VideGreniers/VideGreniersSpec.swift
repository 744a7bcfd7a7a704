import Foundation
import UnderstudyCore

/// The VideGreniers flea-market API (`videgreniers-api-reference.md`): its 30 endpoints, their models,
/// the `{data, success, errors, timestamp}` envelope, ISO 8601 dates on the wire and an app that reads them
/// with `.iso8601` (the document's sample `JSONDecoder()` cannot).
///
/// ```swift
/// let endpoint = VideGreniers.spec.endpoint("GET /api/events")!
/// let findings = BodyCheck.findings(bytes, model: endpoint.response!, spec: VideGreniers.spec)
/// ```
public enum VideGreniers {
    /// The spec, endpoints in the order of the project's inventory.
    public static let spec = APISpec(
        id: "videgreniers",
        title: "VideGreniers",
        document: "videgreniers-api-reference.md",
        auth: .bearerJWT,
        // Every JSON example writes dates as ISO 8601 strings with whole seconds and `Z`, as ASP.NET does.
        wire: DecoderSettings(dates: .iso8601),
        // The document's APIClient decodes with `JSONDecoder()` and sets no strategy: numbers for dates, which
        // cannot read the document's own JSON. The app contract follows the JSON; lint says so once.
        app: AppContract(decoder: DecoderSettings(dates: .iso8601), sampleClient: .plain),
        errorEnvelope: ErrorEnvelope(ApiResponse<EmptyData>.self) { status, messages in
            errorBody(status, messages)
        },
        endpoints: [
            AnyEndpoint(register), AnyEndpoint(login), AnyEndpoint(refresh), AnyEndpoint(logout),
            AnyEndpoint(currentUser), AnyEndpoint(googleSignIn), AnyEndpoint(appleSignIn),
            AnyEndpoint(events), AnyEndpoint(event), AnyEndpoint(nearbyEvents), AnyEndpoint(createEvent),
            AnyEndpoint(updateEvent), AnyEndpoint(publishEvent), AnyEndpoint(cancelEvent),
            AnyEndpoint(favorites), AnyEndpoint(addFavorite), AnyEndpoint(removeFavorite),
            AnyEndpoint(toggleFavorite), AnyEndpoint(favoriteStatus), AnyEndpoint(upcomingFavorites),
            AnyEndpoint(notifications), AnyEndpoint(markNotificationRead), AnyEndpoint(createNotification),
            AnyEndpoint(profile), AnyEndpoint(updateProfile), AnyEndpoint(accountStatistics),
            AnyEndpoint(deleteAccount), AnyEndpoint(userActivities), AnyEndpoint(activityStatistics),
            AnyEndpoint(health),
        ],
        ambiguities: ambiguities,
        // System.Text.Json writes every property, `null` when empty (`DefaultIgnoreCondition.Never`).
        optionalKeys: .alwaysPresent
    ).assuming(assumptions).hinting(writeHints).signingIn(signIn)

    /// The `timestamp` of generated error bodies: ``FixtureGenerator/referenceInstant`` as the wire writes
    /// dates, so generated bodies are deterministic and decodable.
    static let errorTimestamp = FixtureGenerator.referenceInstant.formatted(Date.ISO8601FormatStyle())

    /// The API's error body, `{"data": null, "success": false, "errors": [...], "timestamp": ...}`.
    static func errorBody(_ status: HTTPStatus, _ messages: [String]) -> JSONValue {
        let errors = messages.isEmpty ? [HTTPStatus.reason(status)] : messages
        return [
            "data": nil,
            "success": false,
            "message": nil,
            "errors": .array(errors.map(JSONValue.string)),
            "timestamp": .string(errorTimestamp),
        ]
    }

    /// The error statuses every enveloped endpoint may answer (rate limits apply to all of them).
    private static let common: [HTTPStatus] = [.tooManyRequests, .internalServerError]
    /// The app sends its (possibly expired or revoked) access token with every request and refreshes on a 401,
    /// so an optional-auth endpoint refuses a bad token rather than answering as if anonymous.
    private static let optionalAuthErrors: [HTTPStatus] = [.unauthorized] + common

    // MARK: - Authentication

    public static let register = Endpoint<RegisterRequest, ApiResponse<AuthResponse>>(
        .post,
        "/api/auth/register",
        auth: .none,
        errors: [.badRequest, .conflict] + common,
        summary: "Register a user and return an access token, a refresh token and the user",
        examples: Examples(
            request: DocumentExamples.registerRequest,
            responses: [200: DocumentExamples.authResponse, 400: DocumentExamples.errorResponse]
        )
    )

    public static let login = Endpoint<LoginRequest, ApiResponse<AuthResponse>>(
        .post,
        "/api/auth/login",
        auth: .none,
        errors: [.badRequest, .unauthorized] + common,
        summary: "Log in with e-mail and password; answers like register",
        // The document says "Same as register" for the response.
        examples: Examples(request: DocumentExamples.loginRequest, responses: [200: DocumentExamples.authResponse])
    )

    public static let refresh = Endpoint<RefreshTokenRequest, ApiResponse<AuthResponse>>(
        .post,
        "/api/auth/refresh",
        auth: .none,
        errors: [.badRequest, .unauthorized] + common,
        summary: "Exchange the current access and refresh tokens for new ones (refresh tokens rotate)",
        examples: Examples(request: DocumentExamples.refreshRequest)
    )

    public static let logout = Endpoint<LogoutRequest, ApiResponse<EmptyData>>(
        .post,
        "/api/auth/logout",
        auth: .required,
        errors: [.badRequest, .unauthorized] + common,
        summary: "Revoke the given refresh token",
        examples: Examples(request: DocumentExamples.logoutRequest)
    )

    public static let currentUser = Endpoint<NoBody, ApiResponse<CurrentUserDto>>(
        .get,
        "/api/auth/me",
        auth: .required,
        errors: [.unauthorized] + common,
        summary: "Return the authenticated user with their roles",
        examples: Examples(responses: [200: DocumentExamples.currentUserResponse])
    )

    public static let googleSignIn = Endpoint<OAuthSignInRequest, ApiResponse<AuthResponse>>(
        .post,
        "/api/auth/oauth/google",
        auth: .none,
        // Announced, not built: until it ships, the server has no route for it and answers 404.
        errors: [.badRequest, .unauthorized, .notFound] + common,
        summary: "Sign in with a Google identity token",
        availability: .announced("Google OAuth (Coming Soon)")
    )

    public static let appleSignIn = Endpoint<OAuthSignInRequest, ApiResponse<AuthResponse>>(
        .post,
        "/api/auth/oauth/apple",
        auth: .none,
        // Announced, not built: until it ships, the server has no route for it and answers 404.
        errors: [.badRequest, .unauthorized, .notFound] + common,
        summary: "Sign in with Apple by sending the identityToken to the backend",
        availability: .announced("OAuth endpoint en préparation: /api/auth/oauth/apple")
    )

    // MARK: - Events

    private static let page = Parameter.query(
        "page",
        // ASP.NET binds it to an `int`, and refuses what does not fit.
        .integer(minimum: 1, maximum: Int(Int32.max)),
        default: 1,
        summary: "Page number"
    )
    private static let pageSize = Parameter.query(
        "pageSize",
        .integer(minimum: 1, maximum: 100),
        default: 20,
        summary: "Items per page"
    )
    private static let pageInBody = Pagination.pageInBody(
        pageParameter: "page",
        sizeParameter: "pageSize",
        metadataPointer: "/pagination"
    )
    /// A path id that is not a UUID is a validation error (400 in the envelope), so every endpoint with one
    /// documents 400.
    private static let eventId = Parameter.path("id", .string(format: .uuid), summary: "The event id")

    public static let events = Endpoint<NoBody, PaginatedApiResponse<EventDto>>(
        .get,
        "/api/events",
        parameters: [
            page, pageSize,
            .query("searchTerm", .string(), summary: "Search in title/description"),
            .query("categoryId", .string(format: .uuid), summary: "Filter by category"),
            .query(
                "eventType",
                .integer(values: EventType.allCases.map(\.rawValue)),
                summary: "Filter by event type (see EventType enum)", meaning: .equals("/eventType")
            ),
            .query("city", .string(), summary: "Filter by city"),
            .query("startDate", .string(format: .dateTime), summary: "Events starting after this date"),
            .query("endDate", .string(format: .dateTime), summary: "Events starting before this date"),
            .query("hasEntryFee", .boolean, summary: "Filter by entry fee presence"),
            .query(
                "sortBy", .string(pattern: sortByPattern), default: "StartDate", summary: "Sort field",
                meaning: eventSortKeys),
            .query("sortDescending", .boolean, default: false, summary: "Sort direction"),
        ],
        auth: .optional,
        errors: [.badRequest] + optionalAuthErrors,
        pagination: pageInBody,
        summary: "List events, filtered, sorted and paged; isFavorite is set when the caller is authenticated",
        examples: Examples(responses: [200: DocumentExamples.eventsResponse])
    )

    public static let event = Endpoint<NoBody, ApiResponse<EventDto>>(
        .get,
        "/api/events/{id}",
        parameters: [eventId],
        auth: .optional,
        errors: [.badRequest, .notFound] + optionalAuthErrors,
        summary: "Return one event"
    )

    /// One of the sort keys in any case (`title`, `StartDate`), as ECMA-262 writes it without flags: `[Tt][Ii]...`.
    static let sortByPattern: String = {
        let names = sortKeyNames.map { key in
            key.map { character in
                let (lower, upper) = (character.lowercased(), character.uppercased())
                return lower == upper ? String(character) : "[\(upper)\(lower)]"
            }.joined()
        }
        return "^(" + names.joined(separator: "|") + ")$"
    }()

    /// The `sortBy` values, sorted.
    static var sortKeyNames: [String] {
        guard case .sortKey(let keys, _) = eventSortKeys else { return [] }
        return keys.keys.sorted()
    }

    /// The `sortBy` values, compared without case, and the members they sort by (the document names only
    /// the default, StartDate; the others are the EventDto fields an ASP.NET sort switch offers).
    public static let eventSortKeys = QueryMeaning.sortKey(
        [
            "StartDate": "/startDate", "EndDate": "/endDate", "Title": "/title", "City": "/location/city",
            "CreatedOnUtc": "/createdOnUtc", "EntryFeeAmount": "/entryFeeAmount", "FavoriteCount": "/favoriteCount",
        ], descending: "sortDescending")

    public static let nearbyEvents = Endpoint<NoBody, ApiResponse<[EventDto]>>(
        .get,
        "/api/events/nearby",
        parameters: [
            .query(
                "latitude", .number(minimum: -90, maximum: 90), required: true, summary: "Latitude of the search centre"
            ),
            .query(
                "longitude", .number(minimum: -180, maximum: 180), required: true,
                summary: "Longitude of the search centre"),
            .query("radiusKm", .integer(minimum: 1, maximum: 100), default: 10, summary: "Search radius"),
            .query("limit", .integer(minimum: 1, maximum: 50), default: 20, summary: "Max results"),
        ],
        auth: .optional,
        errors: [.badRequest] + optionalAuthErrors,
        summary: "List events near a point, with distanceKm set",
        // A read of the events, not an action on one: its path sits below the collection's.
        resource: .operation(resource: "events", role: .search, identifier: nil)
    )

    public static let createEvent = Endpoint<CreateEventCommand, ApiResponse<EventDto>>(
        .post,
        "/api/events",
        auth: .required,
        success: .created,
        errors: [.badRequest, .unauthorized] + common,
        summary: "Create an event as a draft organised by the caller"
    )

    public static let updateEvent = Endpoint<UpdateEventCommand, ApiResponse<EventDto>>(
        .put,
        "/api/events/{id}",
        parameters: [eventId],
        auth: .required,
        errors: [.badRequest, .unauthorized, .forbidden, .notFound] + common,
        rules: [.equal(.body("id"), .path("id"))],
        summary: "Replace an event's details; the body's id must equal the path id"
    )

    public static let publishEvent = Endpoint<NoBody, ApiResponse<EventDto>>(
        .post,
        "/api/events/{id}/publish",
        parameters: [eventId],
        auth: .required,
        errors: [.badRequest, .unauthorized, .forbidden, .notFound] + common,
        summary: "Publish a draft event"
    )

    public static let cancelEvent = Endpoint<CancelEventRequest, ApiResponse<EventDto>>(
        .post,
        "/api/events/{id}/cancel",
        parameters: [eventId],
        auth: .required,
        errors: [.badRequest, .unauthorized, .forbidden, .notFound] + common,
        summary: "Cancel an event, giving a reason",
        examples: Examples(request: DocumentExamples.cancelRequest)
    )

    // MARK: - Favorites

    private static let favoriteEventId = Parameter.path(
        "eventId",
        .string(format: .uuid),
        summary: "The event id"
    )

    public static let favorites = Endpoint<NoBody, PaginatedApiResponse<FavoriteDto>>(
        .get,
        "/api/favorites",
        parameters: [page, pageSize],
        auth: .required,
        errors: [.badRequest, .unauthorized] + common,
        pagination: pageInBody,
        summary: "List the caller's favorites, paged"
    )

    public static let addFavorite = Endpoint<NoBody, ApiResponse<FavoriteDto>>(
        .post,
        "/api/favorites/{eventId}",
        parameters: [favoriteEventId],
        auth: .required,
        success: .created,
        errors: [.badRequest, .unauthorized, .notFound, .conflict] + common,
        summary: "Add an event to the caller's favorites; 409 when it is already one"
    )

    public static let removeFavorite = Endpoint<NoBody, ApiResponse<EmptyData>>(
        .delete,
        "/api/favorites/{eventId}",
        parameters: [favoriteEventId],
        auth: .required,
        errors: [.badRequest, .unauthorized, .notFound] + common,
        summary: "Remove an event from the caller's favorites"
    )

    public static let toggleFavorite = Endpoint<NoBody, ApiResponse<FavoriteToggleDto>>(
        .patch,
        "/api/favorites/{eventId}/toggle",
        parameters: [favoriteEventId],
        auth: .required,
        errors: [.badRequest, .unauthorized, .notFound] + common,
        summary: "Add the event to the favorites if it is not one, remove it otherwise",
        examples: Examples(responses: [200: DocumentExamples.toggleResponse])
    )

    public static let favoriteStatus = Endpoint<[String], ApiResponse<[String: Bool]>>(
        .post,
        "/api/favorites/status",
        auth: .required,
        errors: [.badRequest, .unauthorized] + common,
        summary: "Tell, for each event id of the body, whether it is one of the caller's favorites",
        examples: Examples(
            request: DocumentExamples.statusRequest,
            responses: [200: DocumentExamples.statusResponse]
        )
    )

    public static let upcomingFavorites = Endpoint<NoBody, ApiResponse<[FavoriteDto]>>(
        .get,
        "/api/favorites/upcoming",
        parameters: [
            .query(
                "daysAhead", .integer(), default: 7, summary: "Look ahead days",
                meaning: .withinDays("/event/startDate"))
        ],
        auth: .required,
        errors: [.badRequest, .unauthorized] + common,
        summary: "List the caller's favorites whose event starts within daysAhead days"
    )

    // MARK: - Notifications

    public static let notifications = Endpoint<NoBody, PaginatedApiResponse<NotificationDto>>(
        .get,
        "/api/notifications",
        parameters: [
            page, pageSize,
            .query(
                "unreadOnly", .boolean, default: false, summary: "Only unread ones",
                meaning: .whenTrue("/readOnUtc", equals: .null)),
        ],
        auth: .required,
        errors: [.badRequest, .unauthorized] + common,
        pagination: pageInBody,
        summary: "List the caller's notifications, paged",
        owner: .caller,
        order: [.descending("/createdOnUtc"), .ascending("/id")]
    )

    public static let markNotificationRead = Endpoint<NoBody, ApiResponse<EmptyData>>(
        .patch,
        "/api/notifications/{notificationId}/read",
        parameters: [.path("notificationId", .string(format: .uuid), summary: "The notification id")],
        auth: .required,
        errors: [.badRequest, .unauthorized, .notFound] + common,
        summary: "Mark one of the caller's notifications as read",
        resource: .operation(resource: "notifications", role: .action, identifier: "id"),
        owner: .caller,
        effect: ActionEffect(
            set: ["/status": .value(.integer(NotificationStatus.read.rawValue)), "/isUnread": false],
            defaults: ["/readOnUtc": .now])
    )

    public static let createNotification = Endpoint<CreateNotificationCommand, ApiResponse<NotificationDto>>(
        .post,
        "/api/notifications",
        auth: .role("admin"),
        success: .created,
        errors: [.badRequest, .unauthorized, .forbidden] + common,
        summary: "Create a notification (administrators only)"
    )

    // MARK: - User

    public static let profile = Endpoint<NoBody, ApiResponse<UserDto>>(
        .get,
        "/api/user/profile",
        auth: .required,
        errors: [.unauthorized] + common,
        summary: "Return the caller's profile",
        examples: Examples(responses: [200: DocumentExamples.profileResponse])
    )

    public static let updateProfile = Endpoint<UpdateProfileRequest, ApiResponse<UserDto>>(
        .put,
        "/api/user/profile",
        auth: .required,
        errors: [.badRequest, .unauthorized] + common,
        summary: "Update the caller's profile and preferences",
        examples: Examples(request: DocumentExamples.updateProfileRequest)
    )

    public static let accountStatistics = Endpoint<NoBody, ApiResponse<UserStatsDto>>(
        .get,
        "/api/user/stats",
        auth: .required,
        errors: [.unauthorized] + common,
        summary: "Return the caller's account statistics",
        examples: Examples(responses: [200: DocumentExamples.statsResponse])
    )

    public static let deleteAccount = Endpoint<NoBody, ApiResponse<EmptyData>>(
        .delete,
        "/api/user/account",
        auth: .required,
        errors: [.unauthorized] + common,
        summary: "Delete the caller's account"
    )

    // MARK: - User activities

    public static let userActivities = Endpoint<NoBody, PaginatedApiResponse<UserActivityDto>>(
        .get,
        "/api/user-activities",
        parameters: [
            page, pageSize,
            .query(
                "activityType",
                .integer(values: UserActivityType.allCases.map(\.rawValue)),
                summary: "Filter by activity type", meaning: .equals("/activityType")
            ),
            .query(
                "startDate", .string(format: .dateTime), summary: "Filter activities after this date",
                meaning: .notBefore("/createdOnUtc")),
            .query(
                "endDate", .string(format: .dateTime), summary: "Filter activities before this date",
                meaning: .notAfter("/createdOnUtc")),
        ],
        auth: .required,
        errors: [.badRequest, .unauthorized] + common,
        pagination: pageInBody,
        summary: "List the caller's tracked activities, paged",
        examples: Examples(responses: [200: DocumentExamples.userActivitiesResponse]),
        // The server writes the log: nothing creates an activity through this path.
        resource: .operation(resource: "user-activities", role: .list, identifier: "id"),
        owner: .caller,
        order: [.descending("/createdOnUtc"), .ascending("/id")]
    )

    public static let activityStatistics = Endpoint<NoBody, ApiResponse<UserActivityStatisticsDto>>(
        .get,
        "/api/user-activities/statistics",
        parameters: [
            .query("startDate", .string(format: .dateTime), summary: "Period start (default: 30 days ago)"),
            .query("endDate", .string(format: .dateTime), summary: "Period end (default: now)"),
        ],
        auth: .required,
        errors: [.badRequest, .unauthorized] + common,
        rules: [.notBefore(.query("endDate"), .query("startDate"))],
        summary: "Return counts of the caller's activities over a period",
        examples: Examples(responses: [200: DocumentExamples.activityStatisticsResponse])
    )

    // MARK: - Health

    public static let health = Endpoint<NoBody, HealthResponse>(
        .get,
        "/health",
        auth: .none,
        summary: "Report the service's health and that of its dependencies",
        examples: Examples(responses: [200: DocumentExamples.healthResponse])
    )
}
