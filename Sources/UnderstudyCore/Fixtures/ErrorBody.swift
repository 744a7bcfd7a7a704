/// Error bodies for an error schema described elsewhere (an imported OpenAPI document): a body generated from
/// the schema, with the members that carry a status or a message given the real ones.
///
/// ```swift
/// ErrorBody.make(errorModel, validator: Validator(spec: spec), status: .notFound, messages: ["no pet 7"])
/// // {"code": 404, "message": "no pet 7"}
/// ```
package enum ErrorBody {
    /// Member names that carry the message, lower-cased.
    static let messageNames: Set<String> = [
        "message", "error", "detail", "details", "description", "error_description", "msg",
    ]
    /// Member names that carry the status's reason phrase (RFC 9457's `title`), lower-cased.
    static let reasonNames: Set<String> = ["title", "reason", "statustext", "status_text"]
    /// Member names that carry the status, lower-cased.
    static let statusNames: Set<String> = ["code", "status", "statuscode", "status_code", "httpstatus"]

    /// A body that validates against the model's schema (the document's own, where it has one): generated with a
    /// seed taken from the status, then the status and the messages put where the schema has room for them (only
    /// where the result still validates).
    /// - Parameter validator: the spec's, whose compiled schemas every call shares (``Validator/init(spec:direction:)``).
    package static func make(
        _ model: ModelReference, validator: Validator, settings: DecoderSettings = .plain, status: HTTPStatus,
        messages: [String]
    ) -> JSONValue {
        let schema = model.schema
        let definitions = validator.definitions
        var generator = FixtureGenerator(seed: UInt64(status.rawValue), definitions: definitions, settings: settings)
        let generated = generator.value(for: model)
        func isValid(_ body: JSONValue) -> Bool {
            if let documentSchema = model.documentSchema {
                return SchemaValidator(.init(direction: .response)).isValid(body, against: documentSchema)
            }
            return validator.isValid(body, against: schema)
        }
        let message = messages.isEmpty ? HTTPStatus.reason(status) : messages.joined(separator: "; ")
        let resolved = schema.resolved(in: definitions)
        // An error that is only a string (`schema: {type: string}`) is the message.
        if case .string(let constraints)? = resolved, constraints.values == nil, constraints.format == nil {
            let text = constraints.maxLength.map { String(message.prefix($0)) } ?? message
            return text.count >= (constraints.minLength ?? 0) && isValid(.string(text)) ? .string(text) : generated
        }
        guard case .object(var members) = generated, case .object(let object)? = resolved else {
            return generated
        }
        for property in object.properties {
            let key = property.name.lowercased()
            let candidate: JSONValue?
            switch property.schema.nonNull {
            case .string(let constraints) where constraints.values == nil && constraints.format == nil:
                if messageNames.contains(key) || reasonNames.contains(key) {
                    let text = messageNames.contains(key) ? message : HTTPStatus.reason(status)
                    candidate = .string(constraints.maxLength.map { String(text.prefix($0)) } ?? text)
                } else if statusNames.contains(key) {
                    candidate = .string(String(status.rawValue))
                } else {
                    candidate = nil
                }
            case .integer(let constraints) where statusNames.contains(key):
                let fits =
                    constraints.values.map { $0.contains(status.rawValue) }
                    ?? ((constraints.minimum ?? .min) <= status.rawValue
                        && status.rawValue <= (constraints.maximum ?? .max))
                candidate = fits ? .integer(status.rawValue) : nil
            default:
                candidate = nil
            }
            guard let candidate else { continue }
            var trial = members
            trial[property.name] = candidate
            if isValid(.object(trial)) { members = trial }
        }
        return .object(members)
    }
}
