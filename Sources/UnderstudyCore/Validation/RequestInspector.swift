import Foundation

extension RuleID {
    // Requests the app sends (the proxy judges them, the mock refuses them).
    public static let requestParameterMissing: RuleID = "request.parameter-missing"
    public static let requestParameterInvalid: RuleID = "request.parameter-invalid"
    public static let requestBodyMissing: RuleID = "request.body-missing"
    /// A request reaches no documented endpoint: a path or a method the contract does not have.
    public static let requestUnknownRoute: RuleID = "request.unknown-route"
    public static let requestBodyInvalidJSON: RuleID = "request.body-invalid-json"
    /// A ``RequestRule`` between values in different places of the request is broken.
    public static let requestRuleBroken: RuleID = "request.rule-broken"

    /// The request form of a body rule: `schema.type-mismatch` → `request.schema.type-mismatch`.
    public static func request(_ rule: RuleID) -> RuleID { RuleID(rawValue: "request." + rule.rawValue) }
}

/// Judges a request against its endpoint: path, query and header parameters, and the body against the
/// request model (schema and a real decode with the API's decoder settings).
///
/// One place for both sides of the contract: the mock refuses a request with an error-level finding,
/// and the validating proxy reports the app's requests with the same findings.
///
/// ```swift
/// let inspection = RequestInspector(spec: Fitness.spec, endpoint: endpoint)
///     .inspect(body: bytes, contentType: "application/json") { parameter in query[parameter.name] }
/// inspection.findings   // [request.schema.required-missing at /title, ...]
/// ```
public struct RequestInspector: Sendable {
    public let spec: APISpec
    public let endpoint: AnyEndpoint

    public init(spec: APISpec, endpoint: AnyEndpoint) {
        self.spec = spec
        self.endpoint = endpoint
    }

    /// What the inspection found, and the body it parsed.
    public struct Inspection: Sendable {
        /// Parameter findings first, then body findings; rule ids start with `request.`.
        public var findings: [Diagnostic]
        /// The parsed body (JSON, or a form as an object of strings), when there is one and it parsed.
        public var body: JSONValue?
    }

    /// Inspects one request as it arrived: its path values, its query and its headers. An array query parameter
    /// sent form-style, one pair per element (`tags=a&tags=b`), reads as `a,b`; any other parameter reads its first
    /// value.
    /// - Parameter header: the value of a header by name, whatever its case.
    public func inspect(
        body: [UInt8], contentType: String?, skipping: (Parameter) -> Bool = { _ in false }, path: [String: String],
        query: QueryItems, header: (String) -> String?
    ) -> Inspection {
        inspect(body: body, contentType: contentType, skipping: skipping) { parameter in
            switch parameter.location {
            case .path: return path[parameter.name]
            case .query:
                let values = query.all(parameter.name)
                return Self.isArray(parameter.schema) && values.count > 1 ? values.joined(separator: ",") : values.first
            case .header: return header(parameter.name)
            }
        }
    }

    private static func isArray(_ schema: Schema) -> Bool {
        if case .array = schema.nonNull { return true }
        return false
    }

    /// Inspects one request.
    /// - Parameters:
    ///   - body: the body bytes, empty when there is none.
    ///   - contentType: the `Content-Type` header, if any.
    ///   - skipping: the parameters not to judge (a server that parses them with a grammar of its own).
    ///   - value: the text of a parameter in the request (path value, query value, header value), or `nil`.
    /// - Returns: every finding; only error-level findings make the request invalid.
    public func inspect(
        body: [UInt8], contentType: String?, skipping: (Parameter) -> Bool = { _ in false },
        parameter value: (Parameter) -> String?
    ) -> Inspection {
        var findings: [Diagnostic] = []
        for parameter in endpoint.parameters where !skipping(parameter) {
            let label = "\(parameter.location.rawValue) parameter \(parameter.name)"
            guard let text = value(parameter) else {
                if parameter.required {
                    findings.append(
                        Diagnostic(
                            .error, rule: .requestParameterMissing, message: "\(label) is required",
                            expected: Render.expected(parameter.schema), found: "absent"))
                }
                continue
            }
            for finding in parameter.findings(Self.coerce(text, to: parameter.schema), in: spec) {
                findings.append(
                    Diagnostic(
                        finding.severity, rule: .requestParameterInvalid, message: "\(label): \(finding.message)",
                        expected: finding.expected, found: finding.found))
            }
        }
        guard let model = endpoint.request else {
            // A required body in a media type that is taken as it comes (an imported document's file upload).
            if endpoint.body == .required, body.isEmpty {
                findings.append(
                    Diagnostic(
                        .error, rule: .requestBodyMissing, message: "the request body is required",
                        expected: "a body", found: "an empty body"))
            }
            return Inspection(
                findings: findings + brokenRules(body: nil, skipping: skipping, parameter: value), body: nil)
        }
        let (bodyFindings, parsed) = inspectBody(body, contentType: contentType, model: model)
        return Inspection(
            findings: findings + bodyFindings + brokenRules(body: parsed, skipping: skipping, parameter: value),
            body: parsed)
    }

    /// The endpoint's ``RequestRule``s the request breaks. A value that is absent, or that its schema does not
    /// read as a date or number, leaves the rule to that value's own finding.
    private func brokenRules(
        body: JSONValue?, skipping: (Parameter) -> Bool, parameter text: (Parameter) -> String?
    ) -> [Diagnostic] {
        endpoint.rules.compactMap { rule in
            guard
                let (value, other) = rule.broken(reading: { place in
                    place.read(parameters: endpoint.parameters, body: body) { skipping($0) ? nil : text($0) }
                })
            else { return nil }
            return Diagnostic(
                .error, rule: .requestRuleBroken, message: rule.message(value, other),
                expected: rule.json.serialized(), found: Render.found(value))
        }
    }

    private func inspectBody(_ bytes: [UInt8], contentType: String?, model: ModelReference)
        -> ([Diagnostic], JSONValue?)
    {
        if bytes.isBlankJSON {
            guard endpoint.body == .required else { return ([], nil) }
            return (
                [
                    Diagnostic(
                        .error, rule: .requestBodyMissing,
                        message: "the request body is required (a JSON \(model.name))",
                        expected: model.name, found: "an empty body")
                ], nil
            )
        }
        let body: JSONValue
        if contentType?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true {
            body = Self.form(
                FormURLEncoding.pairs(String(decoding: bytes, as: UTF8.self)), schema: model.schema,
                definitions: spec.definitions)
        } else if let contentType, MediaType.essence(contentType) == "multipart/form-data" {
            guard let boundary = MultipartFormData.boundary(of: contentType),
                let fields = MultipartFormData.fields(bytes, boundary: boundary)
            else {
                return (
                    [
                        Diagnostic(
                            .error, rule: .requestBodyInvalidJSON,
                            message: "the body is not multipart/form-data with the boundary its Content-Type gives "
                                + "(RFC 7578: parts delimited by --boundary, each with a form-data name)",
                            expected: "multipart/form-data", found: Render.preview(bytes))
                    ], nil
                )
            }
            body = Self.form(fields, schema: model.schema, definitions: spec.definitions)
        } else {
            do {
                body = try JSONParser().parse(bytes)
            } catch {
                return (
                    [
                        Diagnostic(
                            .error, rule: .requestBodyInvalidJSON, message: "the body is not valid JSON: \(error)",
                            expected: "JSON", found: Render.preview(bytes))
                    ], nil
                )
            }
        }
        var findings = model.findings(body, in: spec, direction: .request)
        let read = Self.roundingTinyDecimals(body, schema: model.schema, definitions: spec.definitions)
        // A schema error already says why; the decode would only repeat it less precisely.
        if !findings.contains(where: { $0.severity == .error }),
            let error = model.decodeError(Data(read.serializedBytes()), settings: spec.wire),
            let finding = DecodeVerdict.diagnostic(for: error, body: read, model: model.name)
        {
            findings.append(finding)
        }
        return (
            findings.map { finding in
                var finding = finding
                finding.rule = .request(finding.rule)
                finding.context["decoder"] = nil
                return finding
            }, read
        )
    }

    /// The body with every decimal smaller than half of 10⁻²⁸ read as zero, as a server's 28-digit decimal reads
    /// it: .NET's `decimal` rounds such a number to zero (System.Text.Json, `Number.TryNumberToDecimal`: "very
    /// small numbers that round to zero"). Foundation's `Decimal` cannot hold most of them (8.4e-154 is below its
    /// 10⁻¹²⁸), so the model would refuse a request the server takes.
    static func roundingTinyDecimals(_ value: JSONValue, schema: Schema, definitions: SchemaDefinitions)
        -> JSONValue
    {
        rounded(value, schema: schema, definitions: definitions) ?? value
    }

    /// `value` with its tiny decimals read as zero; `nil` when it has none, so that nothing is rebuilt.
    private static func rounded(_ value: JSONValue, schema: Schema, definitions: SchemaDefinitions) -> JSONValue? {
        switch (value, schema.resolved(in: definitions)) {
        case (.number(let number), .decimal?):
            guard let double = number.doubleValue, double != 0, abs(double) < 5e-29 else { return nil }
            return .number(JSONNumber(uncheckedLiteral: "0"))
        case (.object(let members), .object(let object)?):
            var changed: [String: JSONValue]?
            for (key, member) in members {
                guard let property = object[key],
                    let new = rounded(member, schema: property.schema, definitions: definitions)
                else { continue }
                changed = changed ?? members
                changed?[key] = new
            }
            return changed.map(JSONValue.object)
        case (.array(let elements), .array(let array)?):
            var changed: [JSONValue]?
            for (index, element) in elements.enumerated() {
                guard let new = rounded(element, schema: array.items, definitions: definitions) else { continue }
                changed = changed ?? elements
                changed?[index] = new
            }
            return changed.map(JSONValue.array)
        default:
            return nil
        }
    }

    /// Whether a finding concerns the request as a whole (a parameter, a missing or unparsable body)
    /// rather than a place in the body.
    public static func isWholeRequest(_ finding: Diagnostic) -> Bool {
        [
            .requestParameterMissing, .requestParameterInvalid, .requestBodyMissing, .requestBodyInvalidJSON,
            .requestRuleBroken,
        ].contains(finding.rule)
    }

    /// A form as the object it stands for: each field's text read by its property's schema (`start=0` → `0`), a
    /// field sent once per element (`tags=a&tags=b`) as an array; the last value of any other repeated field.
    static func form(_ pairs: [(name: String, value: String)], schema: Schema, definitions: SchemaDefinitions)
        -> JSONValue
    {
        let object: ObjectSchema? =
            if case .object(let object)? = schema.resolved(in: definitions) { object } else { nil }
        var values: [String: [String]] = [:]
        for pair in pairs { values[pair.name, default: []].append(pair.value) }
        return .object(
            values.reduce(into: [:]) { fields, field in
                guard let property = object?[field.key]?.schema.resolved(in: definitions) else {
                    fields[field.key] = .string(field.value[field.value.count - 1])
                    return
                }
                if case .array(let array) = property, field.value.count > 1 {
                    let items = array.items.resolved(in: definitions) ?? .any
                    fields[field.key] = .array(field.value.map { coerce($0, to: items) })
                } else {
                    fields[field.key] = coerce(field.value[field.value.count - 1], to: property)
                }
            })
    }

    /// The JSON value a parameter's text stands for under its schema (`"42"` → `42` for an integer).
    public static func coerce(_ text: String, to schema: Schema) -> JSONValue {
        switch schema {
        case .nullable(let wrapped): return coerce(text, to: wrapped)
        case .integer:
            if let int = Int(text) { return .integer(int) }
            // An integer too large for `Int` is still a number: the validator reports it as out of range.
            let digits = text.hasPrefix("-") ? text.utf8.dropFirst() : text.utf8[...]
            if !digits.isEmpty && digits.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) {
                return .number(JSONNumber(uncheckedLiteral: text))
            }
        case .number, .decimal:
            if Double(text) != nil, (try? JSONParser().parse(text))?.numberValue != nil {
                return .number(JSONNumber(uncheckedLiteral: text))
            }
        case .boolean:
            if text == "true" { return .bool(true) }
            if text == "false" { return .bool(false) }
        case .array(let array):
            return .array(text.split(separator: ",").map { coerce(String($0), to: array.items) })
        default: break
        }
        return .string(text)
    }
}
