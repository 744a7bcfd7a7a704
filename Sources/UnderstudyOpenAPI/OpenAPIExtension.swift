/// The `x-understudy-*` extensions that carry what OpenAPI cannot say, so that an exported document
/// imports back to the same canonical spec.
enum OpenAPIExtension {
    /// Info: the spec's API id (`fitness`, `easyco`, ...).
    static let api = "x-understudy-api"
    /// Info: the source document's file name.
    static let document = "x-understudy-document"
    /// Info: `{"dates": ..., "keys": ...}`, the settings that read what the server sends (wire contract).
    static let wire = "x-understudy-wire"
    /// Info: `{"dates": ..., "keys": ..., "sampleClient"?: {...}}`, the app's decoder (app contract).
    static let app = "x-understudy-app"
    /// Info: the decoder settings of documents written before the two contracts were apart.
    static let legacyDecoder = "x-understudy-decoder"
    /// Info: `sometimesAbsent` or `alwaysPresent`.
    static let optionalKeys = "x-understudy-optional-keys"
    /// Info: the known ambiguities of the documents, as the canonical spec lists them.
    static let ambiguities = "x-understudy-ambiguities"
    /// Parameter: `false` when the app sends it but the server does not require it (``Parameter/enforced``).
    static let enforced = "x-understudy-enforced"
    /// Info: what the spec assumes where its documents are silent, as the canonical spec lists it.
    static let assumptions = "x-understudy-assumptions"
    /// Info: the name of the error envelope model.
    static let errorModel = "x-understudy-error-model"
    /// Component schema or media type: the model name, when a component key cannot spell it.
    static let model = "x-understudy-model"
    /// Operation: the role a credential must carry (`Auth.role`).
    static let role = "x-understudy-role"
    /// Operation: the pagination style (`link-header`, `range`, `page-in-body(page,limit,/pagination)`).
    static let pagination = "x-understudy-pagination"
    /// Operation: `announced: <note>` for endpoints the document names but the server does not have yet.
    static let availability = "x-understudy-availability"
    /// Parameter: what it asks of a list's items (`QueryMeaning`, as `equals /visibility`).
    static let meaning = "x-understudy-meaning"
    /// Array schema: a flat `[key, value, key, value]` array; `items.anyOf` holds the key and value schemas.
    static let pairs = "x-understudy-pairs"
    /// Map schema: the schema the keys follow (JSON Schema's `propertyNames`, which OpenAPIKit cannot write).
    static let propertyNames = "x-understudy-property-names"
}
