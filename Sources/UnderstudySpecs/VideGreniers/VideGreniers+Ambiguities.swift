import UnderstudyCore

extension VideGreniers {
    /// Every contradiction or gap found in `videgreniers-api-reference.md`, and how the spec settles it.
    static let ambiguities: [Ambiguity] = [
        Ambiguity(
            id: "uuid-placeholders-in-examples",
            summary: """
                The models declare ids as UUID, but the examples write the placeholder "uuid" (and \
                "event-uuid-1" in the favorite status request and response), which JSONDecoder rejects as a UUID.
                """,
            resolution: """
                Ids stay UUID (format uuid); the examples are documented non-conforming examples. The favorite \
                status body stays [String] and its answer [String: Bool], so their placeholders are accepted.
                """
        ),
        Ambiguity(
            id: "activity-counts-wire-shape",
            endpoint: "GET /api/user-activities/statistics",
            summary: """
                UserActivityStatisticsDto.activityCounts is [UserActivityType: Int] with an Int-backed enum \
                that does not adopt CodingKeyRepresentable: the document's model, as written, reads it from a \
                flat array [key, value, key, value, ...] and cannot decode the object {"0": 45, "1": 12, "7": 8} \
                the document's JSON sends.
                """,
            resolution: """
                The wire contract is the documented object, keyed by the type's number; the app contract adopts \
                CodingKeyRepresentable on UserActivityType so it decodes. Keys switched to enum names \
                ("EventViewed") are a wire violation and a decode failure.
                """,
            kind: .contradiction
        ),
        Ambiguity(
            id: "timestamp-missing-in-examples",
            summary: """
                ApiResponse.timestamp and PaginatedApiResponse.timestamp are non-optional, but the examples of \
                GET /api/events, GET /api/auth/me, PATCH /api/favorites/{eventId}/toggle, POST \
                /api/favorites/status, GET /api/user/profile and GET /api/user/stats have no timestamp.
                """,
            resolution: "timestamp stays required, as the app decodes it; those examples are pinned as non-conforming."
        ),
        Ambiguity(
            id: "apiclient-force-unwraps-data",
            summary: """
                The APIClient returns `JSONDecoder().decode(ApiResponse<T>.self, ...).data!`: error bodies \
                ({"data": null, "success": false, ...}) and payload-less answers decode, then trap on the \
                force unwrap; it also decodes paged endpoints as ApiResponse<T>, not PaginatedApiResponse<T>.
                """,
            resolution: """
                The spec describes the wire contract: data is optional in ApiResponse, errors use \
                ApiResponse<EmptyData>, and paged endpoints answer PaginatedApiResponse<T> as the document \
                declares (it decodes as ApiResponse<[T]> too, dropping the pagination).
                """
        ),
        Ambiguity(
            id: "success-statuses-unstated",
            summary: "The document lists 200 and 201 as success statuses but never says which endpoint answers which.",
            resolution: """
                201 for the endpoints that create a resource (POST /api/events, POST /api/favorites/{eventId}, \
                POST /api/notifications); 200 for every other one, register included (it answers tokens, not \
                the resource).
                """
        ),
        Ambiguity(
            id: "refresh-response-undocumented",
            endpoint: "POST /api/auth/refresh",
            summary: "The document shows the refresh request but no response.",
            resolution: "ApiResponse<AuthResponse>, like register and login, with a new (rotated) refresh token."
        ),
        Ambiguity(
            id: "empty-payload-responses",
            summary: """
                Logout, DELETE /api/favorites/{eventId}, PATCH /api/notifications/{notificationId}/read and \
                DELETE /api/user/account have no documented response.
                """,
            resolution: """
                200 with ApiResponse<EmptyData>: the envelope with any (or a null) data; EmptyData is a \
                placeholder type of the spec, not of the document.
                """
        ),
        Ambiguity(
            id: "event-by-id-envelope",
            endpoint: "GET /api/events/{id}",
            summary:
                "The document says \"Single EventDto object\"; the APIClient decodes every response as ApiResponse<T>.",
            resolution: "ApiResponse<EventDto>: the EventDto inside the standard envelope."
        ),
        Ambiguity(
            id: "nearby-response-shape",
            endpoint: "GET /api/events/nearby",
            summary: """
                "List of EventDto with distance information", with a limit but no page parameters: paged or not \
                is not said.
                """,
            resolution: "ApiResponse<[EventDto]>, not paged; distanceKm is set on each event."
        ),
        Ambiguity(
            id: "event-mutation-responses-undocumented",
            summary: """
                POST /api/events, PUT /api/events/{id}, POST /api/events/{id}/publish and POST \
                /api/events/{id}/cancel have no documented response.
                """,
            resolution: "Each answers ApiResponse<EventDto> with the event as it is after the change (create: 201)."
        ),
        Ambiguity(
            id: "event-command-undocumented",
            summary: """
                The document names CreateEventCommand and UpdateEventCommand ("see Command DTOs section") but \
                has no such section.
                """,
            resolution: """
                Both are written from the facts of ENDPOINTS.md (required fields, 3-200 / 10-2000 character \
                title and description, entryFeeAmount >= 0, 3-letter currency, "HH:mm:ss" early-bird time, \
                update adds id); they are the spec's models, not the document's.
                """
        ),
        Ambiguity(
            id: "event-command-dates",
            summary: """
                The commands' startDate and endDate are dates; the document's app encodes with a plain \
                JSONEncoder() (numbers of seconds since 2001), while an ASP.NET server binds DateTime from ISO \
                8601 strings.
                """,
            resolution: """
                The commands' dates are ISO 8601 strings, as the server reads them (the wire contract); an app \
                must encode them with .iso8601.
                """
        ),
        Ambiguity(
            id: "cross-field-rules-not-expressible",
            summary: """
                Several documented rules involve more than one field: endDate after startDate, \
                entryFeeCurrency required with entryFeeAmount, the three early-bird fields required when \
                allowsEarlyBird is true, the update's id equal to the path id.
                """,
            resolution: """
                The schemas carry the single-field rules (lengths, minimums, formats, patterns: a password with \
                an upper-case letter, a lower-case letter and a digit, strings that are not blank, currency \
                codes) and the rules between fields of one body (x-understudy-rules: endDate after startDate, \
                latitude and longitude together, the currency with the fee, the early-bird fields with \
                allowsEarlyBird); the mock checks the update's id against the path.
                """
        ),
        Ambiguity(
            id: "add-favorite-response-undocumented",
            endpoint: "POST /api/favorites/{eventId}",
            summary: "Adding a favorite has no documented response; the error list has 409 for duplicate resources.",
            resolution: "201 with ApiResponse<FavoriteDto>; 409 when the event is already a favorite."
        ),
        Ambiguity(
            id: "upcoming-favorites-shape",
            endpoint: "GET /api/favorites/upcoming",
            summary: "The document gives the daysAhead parameter but no response, and no page parameters.",
            resolution: "ApiResponse<[FavoriteDto]>, not paged."
        ),
        Ambiguity(
            id: "create-notification-body",
            endpoint: "POST /api/notifications",
            summary: "The admin-only endpoint has neither a documented body nor a documented response.",
            resolution: """
                Body CreateNotificationCommand, written from NotificationDto's settable fields (title, message, \
                type, userId?, eventId?, actionUrl?, actionText?, imageUrl?); answer 201 ApiResponse<NotificationDto>.
                """
        ),
        Ambiguity(
            id: "admin-role-name",
            endpoint: "POST /api/notifications",
            summary:
                "The endpoint is marked admin only (👑); the only role the document shows is \"User\" (/api/auth/me).",
            resolution: "The role is named \"admin\"; the mock should compare role names without regard to case."
        ),
        Ambiguity(
            id: "profile-update-fields",
            endpoint: "PUT /api/user/profile",
            summary: """
                The update example sends phone, bio, avatarUrl, preferredLanguage and three notification \
                switches, none of which UserDto returns (it has phoneNumber); which fields are required is not said.
                """,
            resolution: """
                UpdateProfileRequest requires firstName and lastName (non-optional in UserDto) and makes every \
                other field optional; the answer is ApiResponse<UserDto>.
                """
        ),
        Ambiguity(
            id: "rate-limit-headers",
            summary: """
                Rate limits are documented (authentication 5/min/IP, authenticated 100/min/user, public \
                60/min/IP) with X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset response headers.
                """,
            resolution: """
                Endpoint descriptors cannot state response headers or rates: every enveloped endpoint lists \
                429, and the limits and headers are recorded here for the mock.
                """
        ),
        Ambiguity(
            id: "oauth-endpoints-announced",
            summary: """
                POST /api/auth/oauth/google is "Coming Soon" and POST /api/auth/oauth/apple "en préparation"; the \
                only detail is to send Apple's identityToken to the backend.
                """,
            resolution: """
                Both are announced (not served as available); body OAuthSignInRequest {identityToken}, answer \
                ApiResponse<AuthResponse> like login.
                """
        ),
        Ambiguity(
            id: "health-not-enveloped",
            endpoint: "GET /health",
            summary: "The health check answers {status, checks} without the envelope and documents no error.",
            resolution:
                "HealthResponse as shown, no error statuses; status values other than \"Healthy\" are not constrained."
        ),
        Ambiguity(
            id: "query-value-formats",
            summary: """
                Query dates are typed "datetime"/"DateTime" without a format, sortBy's values are not listed \
                (default "StartDate"), and daysAhead has no bounds.
                """,
            resolution: """
                Query dates are RFC 3339 date-times; sortBy is StartDate (documented) or one of the EventDto \
                fields an ASP.NET sort switch offers (EndDate, Title, City, CreatedOnUtc, EntryFeeAmount, \
                FavoriteCount: assumed); daysAhead any integer; the statistics defaults (30 days ago, now) are \
                described in the parameter summaries.
                """
        ),
    ]

    /// The `sortBy` keys no document names: a server that ignores them gets warnings naming
    /// `query-value-formats` (errors with `check --strict`).
    static let assumptions = [
        Assumption(.values(parameter: "sortBy", sortKeyNames.filter { $0 != "StartDate" }), ambiguity: "query-value-formats")
    ]
}
