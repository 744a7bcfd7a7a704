import UnderstudyCore

/// Refuses a request that breaks its endpoint's descriptor, before a handler can store anything.
///
/// The checks themselves are ``RequestInspector``'s (shared with the validating proxy); this names every
/// error-level finding in the API's error envelope: `query parameter page: ...`, `title: ...`. With `arrays`, a
/// JSON array body is judged element by element against the request model (`1.title: ...`).
struct RequestValidation {
    let route: MockEngine.Route
    let status: HTTPStatus
    /// The status when every error is a body value breaking a rule on its content (``MockBehaviour/ruleStatus``).
    var ruleStatus: HTTPStatus
    var arrays = false
    /// Whether the body is judged; `false` for a media type taken as it comes (only parameters are).
    var body = true
    /// The parameters the behaviour parses itself (``MockBehaviour/parses(_:)``): not judged here.
    var parsed: (Parameter) -> Bool = { _ in false }

    func validate(_ request: inout MockRequest) throws(MockError) {
        guard body else {
            try refuse(inspect(request, body: []).findings.filter(Self.isParameterFinding).map { ([], $0) })
            return
        }
        if arrays, let elements = Self.arrayElements(request) {
            try validate(&request, elements: elements)
            return
        }
        let inspection = inspect(request, body: request.body)
        try refuse(inspection.findings.map { ([], $0) })
        request.json = inspection.body
    }

    /// A finding on the parameters, judged once for the whole request. A ``RequestRule`` finding counts: a rule
    /// that names a body member reads it from an object body, never from the elements of an array.
    private static func isParameterFinding(_ finding: Diagnostic) -> Bool {
        finding.rule.rawValue.hasPrefix("request.parameter") || finding.rule == .requestRuleBroken
    }

    /// Each element of an array body as a body of its own; the parameters once.
    private func validate(_ request: inout MockRequest, elements: [JSONValue]) throws(MockError) {
        var findings: [(index: [String], Diagnostic)] = inspect(request, body: []).findings
            .filter { $0.rule != .requestBodyMissing }.map { ([], $0) }
        for (index, element) in elements.enumerated() {
            let inspection = inspect(request, body: element.serializedBytes())
            findings += inspection.findings.filter { !Self.isParameterFinding($0) }
                .map { ([String(index)], $0) }
        }
        try refuse(findings)
        request.json = .array(elements)
    }

    private func inspect(_ request: MockRequest, body: [UInt8]) -> RequestInspector.Inspection {
        RequestInspector(spec: route.spec, endpoint: route.endpoint).inspect(
            // What the app sends of its own accord, the server does not refuse the request without.
            body: body, contentType: request.header("content-type"), skipping: { parsed($0) || !$0.enforced },
            path: request.pathParameters, query: request.query, header: request.header)
    }

    private func refuse(_ findings: [(index: [String], Diagnostic)]) throws(MockError) {
        let errors = findings.filter { $0.1.severity == .error }
        let problems = errors.map { index, finding in
            RequestInspector.isWholeRequest(finding)
                ? finding.message
                : "\(Self.field(JSONPointer(tokens: index + finding.pointer.tokens))): \(finding.message)"
        }
        guard !problems.isEmpty else { return }
        let base = errors.allSatisfy { Self.isRuleFinding($0.1) } ? ruleStatus : status
        let pathOnly = errors.allSatisfy { $0.1.message.hasPrefix("\(Parameter.Location.path.rawValue) parameter ") }
        throw MockError(refusalStatus(base, pathOnly: pathOnly), messages: problems)
    }

    /// A value of the right type that breaks a rule on its content.
    private static func isRuleFinding(_ finding: Diagnostic) -> Bool {
        [.request(.patternMismatch), .request(.objectRuleBroken), .requestRuleBroken].contains(finding.rule)
    }

    /// The status of a refusal: the behaviour's, unless the endpoint's OpenAPI document declares responses and
    /// not that one nor `default`. Then, as Prism negotiates, 422 or 400 where documented; and a request whose
    /// only fault is a path value names no resource: 404 where documented.
    private func refusalStatus(_ status: HTTPStatus, pathOnly: Bool) -> HTTPStatus {
        let responses = route.endpoint.responses
        let documented = Set(responses.compactMap(\.status))
        guard !responses.isEmpty, !documented.contains(status.rawValue),
            !responses.contains(where: { $0.status == nil })
        else { return status }
        if let other = [422, 400].first(where: documented.contains) { return HTTPStatus(rawValue: other) }
        return pathOnly && documented.contains(404) ? .notFound : status
    }

    /// The elements of a JSON body that is an array (not a form, not JSON that does not parse).
    private static func arrayElements(_ request: MockRequest) -> [JSONValue]? {
        guard request.body.first(where: { !Self.isSpace($0) }) == UInt8(ascii: "["),
            request.header("content-type").map({ MediaType.isJSON(MediaType.essence($0)) }) ?? true,
            case .array(let elements)? = try? JSONParser().parse(request.body)
        else { return nil }
        return elements
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
            || byte == UInt8(ascii: "\t")
    }

    /// `title`, `location/city`, or `body` for the whole document.
    static func field(_ pointer: JSONPointer) -> String {
        pointer.tokens.isEmpty ? "body" : pointer.tokens.joined(separator: ".")
    }
}
