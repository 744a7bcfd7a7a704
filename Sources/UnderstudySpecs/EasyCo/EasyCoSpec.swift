import Foundation
import UnderstudyCore

/// EasyCo's Supabase tables (`easyco-supabase-integration.md`): nine PostgREST endpoints under `/rest/v1`,
/// row models written from the project's migrations, PostgREST's `{code, message, details, hint}` errors,
/// and the app's plain `JSONDecoder()` with explicit snake_case `CodingKeys`.
///
/// ```swift
/// let endpoint = EasyCo.spec.endpoint("GET /rest/v1/properties")!
/// endpoint.examples.queries   // ["status=eq.published&order=created_at.desc", "id=eq.<propertyId>", ...]
/// ```
public enum EasyCo {
    /// The spec, endpoints in the order of the project's inventory.
    public static let spec = APISpec(
        id: "easyco", title: "EasyCo (Supabase)", document: "easyco-supabase-integration.md",
        auth: .supabase,
        // Models map keys with explicit CodingKeys and hold timestamps as Strings the app parses itself, so
        // the decoder needs no strategy.
        wire: .plain,
        errorEnvelope: ErrorEnvelope(PostgrestError.self) { status, messages in
            PostgrestError.body(status, messages)
        },
        endpoints: [
            AnyEndpoint(properties), AnyEndpoint(propertyMembers), AnyEndpoint(transactions),
            AnyEndpoint(paymentSchedules), AnyEndpoint(applications), AnyEndpoint(createApplication),
            AnyEndpoint(favorites), AnyEndpoint(addFavorite), AnyEndpoint(removeFavorite),
        ],
        ambiguities: ambiguities, optionalKeys: .alwaysPresent
    ).parsing(timestamps).database(tables)

    /// The timestamp columns the app reads with `ISO8601DateFormatter().date(from:)` ("Dates : ISO8601" in the
    /// document's data mapping); PostgREST writes them with microseconds, which that parser rejects.
    static let timestamps = ["created_at", "updated_at", "published_at", "paid_at"].map {
        AppParsing(JSONPointer(tokens: ["*", $0]), .iso8601DateFormatter)
    }

    // MARK: - Parameters every request shares

    /// The Supabase anon key; Supabase's gateway refuses a request without it.
    static let apikey = Parameter.header(
        "apikey", .string(), required: true, summary: "The project's anon key (supabaseAnonKey)")
    static let prefer = Parameter.header(
        "Prefer", .string(),
        summary: "RFC 7240 preferences: return=minimal|headers-only|representation, count=exact|planned|estimated, ...")
    /// What the app sends with a create whose rows it decodes: PostgREST answers an insert with an empty 201 unless
    /// the request prefers the representation (docs.postgrest.org, "Prefer: return=representation"), and never
    /// requires it.
    static let preferRepresentation = Parameter.sentByTheApp(
        "Prefer", .string(values: ["return=representation"]),
        summary: "return=representation: the app decodes the inserted rows (PostgREST answers an empty 201 without it)")
    /// Columns and embeds of a table's rows (``Grammar/select(_:embedding:)``); every table but `properties`
    /// references a property.
    static func select(_ model: any Decodable.Type) -> Parameter {
        .query(
            "select", .string(pattern: Grammar.select(model, embedding: model == Property.self ? [] : [Property.self])),
            default: "*", summary: "Columns and embeds, such as *,property:properties(id,title)")
    }

    /// The parameters of a read: shaping, ordering, paging and the filters the documented queries use.
    static func read(_ model: any Decodable.Type, filters: [Parameter]) -> [Parameter] {
        [
            select(model),
            .query(
                "order", .string(pattern: Grammar.order(model)),
                summary: "Ordering, such as created_at.desc (ascending by default)"),
            // PostgREST hands them to SQL's LIMIT and OFFSET, which take a bigint.
            .query("limit", .integer(minimum: 0, maximum: Int.max), summary: "At most this many rows"),
            .query("offset", .integer(minimum: 0, maximum: Int.max), default: 0, summary: "Rows to skip"),
        ] + filters + [
            apikey, prefer,
            .header(
                "Range", .string(pattern: "^(0-[0-9]{1,4})?$"),
                summary: "Rows to return, such as 0-19 (empty: every row, as PostgREST reads it)"),
            .header("Range-Unit", .string(values: ["items"]), summary: "The unit of Range"),
        ]
    }

    /// A horizontal filter on a column, in PostgREST's operator syntax (`eq.published`, `in.(a,b)`).
    static func filter(_ model: any Decodable.Type, _ column: String, _ example: String) -> Parameter {
        .query(
            column, .string(pattern: Grammar.filter(model, column)),
            summary: "PostgREST filter on \(column), such as \(example)")
    }

    /// What a read may answer besides rows: a query PostgREST cannot parse, a bad JWT, an invalid range.
    static let readErrors: [HTTPStatus] = [.badRequest, .unauthorized, .rangeNotSatisfiable]

    /// What an insert may answer: a bad body, a bad JWT, a row-level security refusal, a duplicate or a
    /// missing referenced row.
    static let insertErrors: [HTTPStatus] = [.badRequest, .unauthorized, .forbidden, .conflict]

    // MARK: - Reads

    public static let properties = Endpoint<NoBody, [Property]>(
        .get, "/rest/v1/properties",
        parameters: read(
            Property.self,
            filters: [
                filter(Property.self, "status", "eq.published"), filter(Property.self, "id", "eq.<propertyId>"),
                filter(Property.self, "owner_id", "eq.<userId>"),
            ]),
        auth: .required, errors: readErrors, pagination: .range,
        summary: "List properties: the published ones for the explorer, one by id, or an owner's",
        examples: Examples(queries: [
            "status=eq.published&order=created_at.desc", "id=eq.<propertyId>", "owner_id=eq.<userId>",
        ]))

    public static let propertyMembers = Endpoint<NoBody, [PropertyMember]>(
        .get, "/rest/v1/property_members",
        parameters: read(
            PropertyMember.self,
            filters: [
                filter(PropertyMember.self, "user_id", "eq.<userId>"),
                filter(PropertyMember.self, "status", "eq.active"),
            ]),
        auth: .required, errors: readErrors, pagination: .range,
        summary: "List a resident's property memberships (the active one on the resident dashboard)",
        examples: Examples(queries: ["user_id=eq.<userId>&status=eq.active"]))

    public static let transactions = Endpoint<NoBody, [Transaction]>(
        .get, "/rest/v1/transactions",
        parameters: read(
            Transaction.self,
            filters: [
                .query(
                    "or", .string(pattern: Grammar.or(Transaction.self)),
                    summary: "Filters joined by OR, such as (payer_id.eq.X,payee_id.eq.X)"),
                filter(Transaction.self, "payee_id", "eq.<userId>"),
                filter(Transaction.self, "transaction_type", "eq.rent_payment"),
                filter(Transaction.self, "status", "eq.completed"),
            ]),
        auth: .required, errors: readErrors, pagination: .range,
        summary: "List the transactions a user paid or received (an owner's completed rent payments for revenue)",
        examples: Examples(queries: [
            "or=(payer_id.eq.<userId>,payee_id.eq.<userId>)",
            "payee_id=eq.<userId>&transaction_type=eq.rent_payment&status=eq.completed",
        ]))

    public static let paymentSchedules = Endpoint<NoBody, [PaymentSchedule]>(
        .get, "/rest/v1/payment_schedules",
        parameters: read(
            PaymentSchedule.self,
            filters: [
                filter(PaymentSchedule.self, "payer_id", "eq.<userId>"),
                filter(PaymentSchedule.self, "is_active", "eq.true"),
            ]),
        auth: .required, errors: readErrors, pagination: .range,
        summary: "List a payer's active payment schedules (the next payment on the resident dashboard)",
        examples: Examples(queries: ["payer_id=eq.<userId>&is_active=eq.true"]))

    public static let applications = Endpoint<NoBody, [Application]>(
        .get, "/rest/v1/applications",
        parameters: read(Application.self, filters: [filter(Application.self, "status", "in.(pending,reviewing)")]),
        auth: .required, errors: readErrors, pagination: .range,
        summary: "List pending applications with the id and title of their property (owner dashboard)",
        examples: Examples(queries: ["status=in.(pending,reviewing)&select=*,property:properties(id,title)"]))

    // MARK: - Writes

    public static let createApplication = Endpoint<NewApplication, [Application]>(
        .post, "/rest/v1/applications",
        parameters: [select(Application.self), apikey, preferRepresentation],
        auth: .required, success: .created, errors: insertErrors,
        summary: "Submit an application for a property; it starts as pending",
        // The document writes `"message": "..." (optional)`: only the `(optional)` note is stripped, as it
        // is not JSON.
        examples: Examples(
            request: #"""
                {
                  "applicant_id": "<userId>",
                  "property_id": "<propertyId>",
                  "applicant_name": "...",
                  "applicant_email": "...",
                  "status": "pending",
                  "message": "..."
                }
                """#))

    public static let favorites = Endpoint<NoBody, [FavoriteProperty]>(
        .get, "/rest/v1/favorites",
        parameters: read(Favorite.self, filters: [filter(Favorite.self, "user_id", "eq.<userId>")]),
        auth: .required, errors: readErrors, pagination: .range,
        summary: "List a user's favorites with each whole property embedded",
        examples: Examples(queries: ["user_id=eq.<userId>&select=property_id,properties(*)"]))

    public static let addFavorite = Endpoint<NewFavorite, [Favorite]>(
        .post, "/rest/v1/favorites",
        parameters: [select(Favorite.self), apikey, preferRepresentation],
        auth: .required, success: .created, errors: insertErrors,
        summary: "Add a property to the user's favorites",
        examples: Examples(request: #"{ "user_id": "<userId>", "property_id": "<propertyId>" }"#))

    public static let removeFavorite = Endpoint<NoBody, NoContent>(
        .delete, "/rest/v1/favorites",
        parameters: [
            filter(Favorite.self, "user_id", "eq.<userId>"), filter(Favorite.self, "property_id", "eq.<propertyId>"),
            apikey, prefer,
        ],
        auth: .required, success: .noContent, errors: [.badRequest, .unauthorized],
        summary: "Remove a property from the user's favorites",
        examples: Examples(queries: ["user_id=eq.<userId>&property_id=eq.<propertyId>"]))
}
