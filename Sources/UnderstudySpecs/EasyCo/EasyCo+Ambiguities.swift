import UnderstudyCore

extension EasyCo {
    /// Every contradiction or gap found in `easyco-supabase-integration.md` (with the table facts of
    /// ENDPOINTS.md and PostgREST's behaviour), and how the spec settles it.
    static let ambiguities: [Ambiguity] = [
        Ambiguity(
            id: "models-not-declared",
            summary: """
                The document names a Property model and "Mapping automatique JSON → Property model" but declares \
                no Swift model for any table; ENDPOINTS.md gives the columns of the project's migrations.
                """,
            resolution: """
                The models are written as an iOS developer would from the columns: one struct per table, \
                uuid → UUID, timestamptz and date → String, decimal → Decimal, JSON array → [String], JSON \
                object → [String: JSONValue], text[] → [String], enumerated columns → String with their values \
                in the schema, nullable columns → Optional.
                """),
        Ambiguity(
            id: "key-mapping",
            summary: """
                The document does not say how keys are mapped; the app could use explicit CodingKeys or \
                keyDecodingStrategy = .convertFromSnakeCase.
                """,
            resolution: """
                Explicit snake_case CodingKeys with a plain JSONDecoder() (DecoderSettings.plain). Both read the \
                same wire keys; the choice only matters to a user checking their own model.
                """),
        Ambiguity(
            id: "timestamp-fraction",
            summary: """
                The app parses timestamps with ISO8601DateFormatter().date(from:), whose default options \
                (.withInternetDateTime) reject fractional seconds; PostgREST sends timestamptz values with \
                microseconds and a +00:00 offset (2025-12-04T10:15:30.123456+00:00), for which that call \
                returns nil. Decoding never fails: the models hold Strings.
                """,
            resolution: """
                Timestamp columns are Strings with format date-time (RFC 3339, fraction allowed), so real \
                PostgREST rows conform; generated fixtures carry no fraction, so the app's parser reads them. \
                The app needs .withFractionalSeconds (and a fallback without it) to read real rows.
                """),
        Ambiguity(
            id: "date-column-types",
            summary: """
                ENDPOINTS.md marks only properties.available_from as a date; move_in_date, move_out_date, \
                due_date, start_date, end_date, next_payment_date and desired_move_in_date may be date or \
                timestamptz.
                """,
            resolution: """
                available_from has format date; the other *_date columns are Strings without a format.
                """),
        Ambiguity(
            id: "amenities-element-type",
            summary: "properties.amenities is a JSON array whose element type the migrations do not fix.",
            resolution: """
                [String] (amenity names, what an iOS developer would decode); an array of objects is a decode error.
                """),
        Ambiguity(
            id: "insert-return-preference",
            summary: """
                The document's POSTs show no Prefer header and never use the response ("✅ Favorite added"). \
                PostgREST answers an insert with 201 and no body unless Prefer: return=representation asks for \
                the inserted rows (as a JSON array).
                """,
            resolution: """
                The response model of each POST is the array of inserted rows; Prefer is a documented header. \
                A 201 without a body is correct when the request did not ask for a representation.
                """),
        Ambiguity(
            id: "application-embed-optional",
            summary: """
                GET /rest/v1/applications selects *,property:properties(id,title), so its rows carry a property \
                object; the rows POST /rest/v1/applications returns carry none.
                """,
            resolution: """
                One Application model for both endpoints, with property optional (PropertySummary?).
                """),
        Ambiguity(
            id: "favorite-embed-nullable", endpoint: "GET /rest/v1/favorites",
            summary: """
                select=property_id,properties(*) embeds the whole property; row-level security lets a user read \
                only published and available properties (or their own), so a favorite whose property was \
                archived or rented embeds null.
                """,
            resolution: """
                FavoriteProperty holds only property_id and properties, and properties is optional; POST \
                returns whole favorites rows, a separate Favorite model.
                """),
        Ambiguity(
            id: "request-examples-placeholders",
            summary: """
                The document's request bodies use placeholders (<userId>, <propertyId>, "...") and the \
                applications body annotates "message" with (optional), which is not JSON.
                """,
            resolution: """
                The bodies are kept verbatim but for the (optional) note; their placeholders fail the uuid \
                format, and the findings are pinned in tests.
                """),
        Ambiguity(
            id: "pagination-not-used",
            summary: """
                The document lists pagination as a future improvement: the app sends neither limit/offset nor \
                Range, so every list is answered whole (up to the server's db-max-rows).
                """,
            resolution: """
                Reads are declared with PostgREST's range pagination (limit, offset, Range, Range-Unit), which \
                the server supports whether or not the app uses it.
                """),
        Ambiguity(
            id: "missing-apikey-answer",
            summary: """
                Neither the document nor PostgREST's reference says what a request without the apikey header \
                gets: Supabase's gateway refuses it before PostgREST, with its own body (from memory, \
                {"message": ..., "hint": ...}, unverified).
                """,
            resolution: """
                apikey is a required header; the spec answers its absence with 401 in PostgREST's envelope \
                (code PGRST301).
                """),
        Ambiguity(
            id: "not-found-code",
            summary: """
                An unknown table is 404 with code 42P01 in POSTGREST.md's SQLSTATE mapping; newer PostgREST \
                versions answer PGRST205 instead.
                """,
            resolution: "Generated 404 bodies carry 42P01; the model accepts any code string."),
    ]
}
