import UnderstudyCore

extension Intra42 {
    /// Every contradiction or gap found in `intra42-swifty-companion.md` (with the facts of ENDPOINTS.md),
    /// and how the spec settles it.
    static let ambiguities: [Ambiguity] = [
        Ambiguity(
            id: "models-not-declared",
            summary: """
                The document gives no model and no JSON example: it lists the endpoints and mentions "Raw \
                Decodables pour mapping/normalisation (dates ISO, regroupement projets, etc.)". ENDPOINTS.md \
                lists the fields the app decodes; the token endpoint (POST /oauth/token) is only implied by \
                "OAuth2 (API 42)".
                """,
            resolution: """
                The models are written as an iOS developer would from those field lists: explicit snake_case \
                CodingKeys ("active?" → isActive), fields marked ? are Optional (the API sends null rather than \
                omitting them, which decodeIfPresent accepts), timestamps are Strings, the token's created_at \
                and expires_in are Ints (seconds).
                """),
        Ambiguity(
            id: "timestamp-format",
            summary: """
                ENDPOINTS.md says timestamps are ISO 8601 UTC with milliseconds; the document only says the raw \
                decodables keep "dates ISO" for the app to map. A mapper using ISO8601DateFormatter with \
                .withFractionalSeconds rejects a timestamp without milliseconds, one without it rejects them all.
                """,
            resolution: """
                Response timestamps are Strings with format date-time-fraction (milliseconds required), so the \
                mock writes what the API writes and check reports a server that drops them. Request times \
                (POST /v2/slots) only need to be RFC 3339 date-times.
                """),
        Ambiguity(
            id: "validated-optionality", endpoint: "GET /v2/users/{login}/projects_users",
            summary: """
                ENDPOINTS.md lists "validated?" without the trailing ? it uses for optional fields, but the key \
                itself ends in ?, and a project that is not marked yet has no validation (final_mark? is \
                optional next to it).
                """,
            resolution: "isValidated is Bool? (null or absent decodes to nil); final_mark stays Int?."),
        Ambiguity(
            id: "user-id-not-listed", endpoint: "GET /v2/me",
            summary: """
                The user field list has no id, yet POST /v2/slots needs the current user's user_id, and the \
                document says the app reads "login courant, campus primaire" from /v2/me.
                """,
            resolution: """
                User has a required id (Int). The primary campus is read from the campus array: the user list has \
                no primary_campus_id (only search results do).
                """),
        Ambiguity(
            id: "campus-locations-user", endpoint: "GET /v2/campus/{id}/locations",
            summary: """
                The home screen lists "utilisateurs actifs" from the campus locations, but the location field \
                list (id, begin_at, end_at?, host, campus_id, primary) names no user.
                """,
            resolution: """
                Location decodes only the listed fields, for both location endpoints; a user member in real \
                answers is an unknown property (a note).
                """),
        Ambiguity(
            id: "slots-pagination", endpoint: "GET /v2/me/slots",
            summary: """
                The document calls projects_users, campus locations and events paginated, not /v2/me/slots \
                ("créneaux de l'utilisateur courant (journée)"); a day of 15-minute slots (up to 96) exceeds the \
                default page of 30, and the APIClient centralises Link pagination.
                """,
            resolution: """
                /v2/me/slots, /v2/users/{login}/locations and /v2/users are Link-paginated like the three named \
                ones; coalitions and coalitions_users are not.
                """),
        Ambiguity(
            id: "token-request-encoding", endpoint: "POST /oauth/token",
            summary: """
                Neither document says whether the app posts the token request as a form \
                (application/x-www-form-urlencoded, usual for OAuth 2) or as JSON; the 42 server takes both.
                """,
            resolution: "TokenRequest describes the members; the mock accepts both encodings of it."),
        Ambiguity(
            id: "token-error-shape", endpoint: "POST /oauth/token",
            summary: """
                ENDPOINTS.md gives {"error", "message"} as the API's error body; an OAuth 2 token endpoint \
                answers errors with {"error", "error_description"} (RFC 6749).
                """,
            resolution: """
                The spec uses {error, message} everywhere, the token endpoint included; a real token error \
                without message is reported against it.
                """),
        Ambiguity(
            id: "locations-stats-availability", endpoint: "GET /v2/users/{login}/locations_stats",
            summary: """
                The document says the app falls back to its own computation "si indisponible", so the endpoint \
                may fail; its values are durations written like times of day ("HH:MM:SS.ffffff").
                """,
            resolution: """
                The endpoint is available; values have format time (hours 00-23), which a day's log time fits.
                """),
        Ambiguity(
            id: "error-statuses",
            summary: """
                The document names 401 (refresh and retry once) and 429 (Retry-After) only; ENDPOINTS.md adds \
                the {error, message} body. 404 for an unknown login, 403 and 422 for slots are not documented.
                """,
            resolution: """
                Every /v2 endpoint may answer 401 and 429; {login} and {id} endpoints 404; endpoints with \
                validated query parameters or a body 400; POST /v2/slots 403 (another user's id) and 422 \
                (slot validation); DELETE /v2/slots/{id} 403 (another user's slot).
                """),
    ]

    /// The statuses only `error-statuses` gives: a server that answers an unknown login otherwise, or sends another
    /// body with it, gets a warning that names the ambiguity (an error with `check --strict`).
    static let assumptions: [Assumption] = [HTTPStatus.badRequest, .forbidden, .notFound, .unprocessableEntity].map {
        Assumption(.status($0), ambiguity: "error-statuses")
    }
}
