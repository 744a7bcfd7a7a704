import UnderstudyCore

/// The 42 Intra API v2 as Swifty Companion uses it (`intra42-swifty-companion.md`): the OAuth 2 token
/// endpoint and fourteen `/v2` endpoints, the app's raw decodables, `{error, message}` errors, `Link`
/// header pagination, and a plain `JSONDecoder()` with explicit snake_case `CodingKeys`.
///
/// ```swift
/// let endpoint = Intra42.spec.endpoint("GET /v2/users/{login}")!
/// endpoint.response?.name   // "Intra42.User"
/// ```
public enum Intra42 {
    /// The spec, endpoints in the order of the project's inventory.
    public static let spec = APISpec(
        id: "intra42", title: "42 Intra API v2", document: "intra42-swifty-companion.md",
        auth: .oauth2(tokenPath: "/oauth/token"),
        // The raw decodables spell keys out (the "active?" keys rule out .convertFromSnakeCase) and keep
        // timestamps as Strings mapped afterwards, so the decoder needs no strategy.
        wire: .plain,
        errorEnvelope: ErrorEnvelope(APIError.self) { status, messages in APIError.body(status, messages) },
        endpoints: [
            AnyEndpoint(token), AnyEndpoint(me), AnyEndpoint(user), AnyEndpoint(userCoalitions),
            AnyEndpoint(userCoalitionsUsers), AnyEndpoint(userProjects), AnyEndpoint(userLocations),
            AnyEndpoint(userLocationsStats), AnyEndpoint(campus), AnyEndpoint(campusLocations),
            AnyEndpoint(campusEvents), AnyEndpoint(users), AnyEndpoint(mySlots), AnyEndpoint(createSlot),
            AnyEndpoint(deleteSlot),
        ],
        ambiguities: ambiguities, optionalKeys: .alwaysPresent
    ).assuming(assumptions).hinting(writeHints)

    /// Sets the format of timestamp properties: ISO 8601 UTC with milliseconds, as the API writes them.
    static func setTimestampFormat(_ schema: inout ObjectSchema, _ names: String...) {
        for name in names { schema.setFormat(.dateTimeWithFraction, of: name) }
    }

    // MARK: - Parameters

    /// Every `/v2` call counts against the application's rate limits (2 per second, 1200 per hour), answered
    /// with 429 and `Retry-After`.
    static let common: [HTTPStatus] = [.unauthorized, .tooManyRequests]

    static let login = Parameter.path("login", .string(), summary: "A user's login")
    static let campusId = Parameter.path("id", .integer(minimum: 1), summary: "A campus id")

    /// The campus id of a list of items that name their campus at `place`: it filters them (``QueryMeaning/equals``).
    static func campusId(filtering place: JSONPointer) -> Parameter {
        var parameter = campusId
        parameter.meaning = .equals(place)
        return parameter
    }

    /// `page[number]`/`page[size]`, or the older `page`/`per_page`: 30 a page by default, at most 100.
    static let paging: [Parameter] = [
        .query("page[number]", .integer(minimum: 1), default: 1, summary: "The page to return"),
        .query("page[size]", .integer(minimum: 1, maximum: 100), default: 30, summary: "Items per page"),
        .query("page", .integer(minimum: 1), default: 1, summary: "The page to return (alias of page[number])"),
        .query(
            "per_page", .integer(minimum: 1, maximum: 100), default: 30,
            summary: "Items per page (alias of page[size])"),
    ]

    /// Sessions and events, the latest `begin_at` first.
    static let latestFirst: [SortKey] = [.descending("/begin_at"), .descending("/id")]

    static let beginAtRange = Parameter.query(
        "range[begin_at]", .string(pattern: "^\(instant),\(instant)$"),
        summary: "Two ISO 8601 instants, begin,end: begin_at within them", meaning: .between("/begin_at"))

    /// An ISO 8601 day, optionally with a time and an offset (`2025-11-15`, `2025-11-15T14:30:00.000+01:00`), as
    /// the intranet reads the bounds of ranges and counts: days that exist (February 29 of leap years included).
    static let instant =
        StringFormat.dayExpression
        + #"(T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]+)?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9]))?"#

    // MARK: - OAuth

    public static let token = Endpoint<TokenRequest, TokenResponse>(
        .post, "/oauth/token", auth: .none,
        errors: [.badRequest, .unauthorized, .tooManyRequests],
        summary: "Exchange an authorization code, a refresh token or client credentials for an access token")

    // MARK: - Users

    public static let me = Endpoint<NoBody, User>(
        .get, "/v2/me", auth: .required, errors: common + [.forbidden],
        summary: "Return the user the token belongs to: current login and primary campus")

    public static let user = Endpoint<NoBody, User>(
        .get, "/v2/users/{login}", parameters: [login], auth: .required, errors: common + [.notFound],
        summary: "Return a user's profile: titles, cursus, skills and achievements")

    public static let userCoalitions = Endpoint<NoBody, [Coalition]>(
        .get, "/v2/users/{login}/coalitions", parameters: [login], auth: .required,
        errors: common + [.notFound],
        summary: "List the coalitions a user belongs to")

    public static let userCoalitionsUsers = Endpoint<NoBody, [CoalitionUser]>(
        .get, "/v2/users/{login}/coalitions_users", parameters: [login], auth: .required,
        errors: common + [.notFound],
        summary: "List a user's score and rank in each of their coalitions",
        resource: .operation(resource: "coalitions_users", role: .list, identifier: nil))

    public static let userProjects = Endpoint<NoBody, [ProjectUser]>(
        .get, "/v2/users/{login}/projects_users", parameters: [login] + paging, auth: .required,
        errors: [.badRequest] + common + [.notFound], pagination: .linkHeader,
        summary: "List a user's projects, active and finished, with marks and teams",
        // Newest attempt first, as the intranet keeps them; a project user has no id of its own here.
        resource: .operation(resource: "projects_users", role: .list, identifier: nil))

    public static let userLocations = Endpoint<NoBody, [Location]>(
        .get, "/v2/users/{login}/locations",
        parameters: [login] + paging + [
            .query(
                "filter[active]", .boolean, summary: "Only sessions still open (true) or closed (false)",
                meaning: .isNull("/end_at")),
            beginAtRange,
        ],
        auth: .required, errors: [.badRequest] + common + [.notFound], pagination: .linkHeader,
        summary: "List a user's sessions at workstations, the current one first",
        resource: .operation(resource: "locations", role: .list, identifier: "id"), order: latestFirst)

    public static let userLocationsStats = Endpoint<NoBody, LocationsStats>(
        .get, "/v2/users/{login}/locations_stats",
        parameters: [
            login,
            .query("begin_at", .string(pattern: "^\(instant)$"), summary: "The first day counted"),
            .query("end_at", .string(pattern: "^\(instant)$"), summary: "The last day counted"),
            .query(
                "time_zone", .string(values: timeZones), summary: "The time zone days are cut in, such as Europe/Paris"),
        ],
        auth: .required, errors: [.badRequest] + common + [.notFound],
        summary: "Return a user's log time per day, for the 14-day chart")

    // MARK: - Campus

    public static let campus = Endpoint<NoBody, Campus>(
        .get, "/v2/campus/{id}", parameters: [campusId], auth: .required, errors: [.badRequest] + common + [.notFound],
        summary: "Return a campus: address, website and number of users")

    public static let campusLocations = Endpoint<NoBody, [Location]>(
        .get, "/v2/campus/{id}/locations",
        parameters: [campusId(filtering: "/campus_id")] + paging + [
            .query("filter[active]", .boolean, summary: "Only sessions still open (true)", meaning: .isNull("/end_at"))
        ],
        auth: .required, errors: [.badRequest] + common + [.notFound], pagination: .linkHeader,
        summary: "List the sessions open on a campus: who is logged in now",
        // From ENDPOINTS.md: the document only says "paginé, actifs".
        examples: Examples(queries: ["filter[active]=true"]),
        // The sessions of GET /v2/users/{login}/locations, every user's, on the campus.
        resource: .operation(resource: "locations", role: .list, identifier: "id"), order: latestFirst)

    public static let campusEvents = Endpoint<NoBody, [Event]>(
        .get, "/v2/campus/{id}/events",
        // An event may be several campuses'.
        parameters: [campusId(filtering: "/campus_ids")] + paging + [
            .query(
                "filter[future]", .boolean, summary: "Only events still to come (true)", meaning: .isFuture("/begin_at")
            )
        ],
        auth: .required, errors: [.badRequest] + common + [.notFound], pagination: .linkHeader,
        summary: "List a campus's upcoming events",
        // From ENDPOINTS.md: the document only says "paginé, futurs".
        examples: Examples(queries: ["filter[future]=true"]),
        resource: .operation(resource: "events", role: .list, identifier: "id"), order: latestFirst)

    // MARK: - Search

    public static let users = Endpoint<NoBody, [UserSummary]>(
        .get, "/v2/users",
        parameters: [
            .query("search[login]", .string(), summary: "Logins containing this text", meaning: .contains("/login"))
        ] + paging,
        auth: .required, errors: [.badRequest] + common, pagination: .linkHeader,
        summary: "Search users by login",
        examples: Examples(queries: ["search[login]=…"]), order: [.ascending("/login")])

    // MARK: - Slots

    public static let mySlots = Endpoint<NoBody, [Slot]>(
        .get, "/v2/me/slots", parameters: [beginAtRange] + paging,
        auth: .required, errors: [.badRequest] + common + [.forbidden], pagination: .linkHeader,
        summary: "List the current user's evaluation slots (one day at a time)",
        // From ENDPOINTS.md: the document only says "(journée)".
        examples: Examples(queries: ["range[begin_at]=…"]),
        // The slots POST /v2/slots opens and DELETE /v2/slots/{id} closes, listed under /v2/me.
        resource: .operation(resource: "slots", role: .list, identifier: "id"),
        owner: .caller, order: [.ascending("/begin_at"), .ascending("/id")])

    public static let createSlot = Endpoint<NewSlotRequest, [Slot]>(
        .post, "/v2/slots", auth: .required, success: .created,
        errors: [.badRequest] + common + [.forbidden, .unprocessableEntity],
        summary: "Open an evaluation slot for the current user; answers the array of slots created",
        owner: .caller)

    public static let deleteSlot = Endpoint<NoBody, NoContent>(
        .delete, "/v2/slots/{id}", parameters: [.path("id", .integer(minimum: 1), summary: "A slot id")],
        auth: .required, success: .noContent, errors: [.badRequest] + common + [.forbidden, .notFound],
        summary: "Delete one of the current user's evaluation slots",
        // Rails answers another user's slot 403, not 404.
        owner: Ownership(others: .forbidden))
}
