import UnderstudyCore

/// Refuses a request that breaks its endpoint's descriptor, before a handler can store anything.
///
/// The checks themselves are ``RequestInspector``'s (shared with the validating proxy); this names every
/// error-level finding in the API's error envelope: `query parameter page: ...`, `title: ...`.
struct RequestValidation {
    let route: MockEngine.Route
    let status: HTTPStatus

    func validate(_ request: inout MockRequest) throws(MockError) {
        let inspection = RequestInspector(spec: route.spec, endpoint: route.endpoint).inspect(
            body: request.body, contentType: request.header("content-type")
        ) { parameter in
            switch parameter.location {
            case .path: request.pathParameters[parameter.name]
            case .query: request.query[parameter.name]
            case .header: request.header(parameter.name)
            }
        }
        let problems = inspection.findings.filter { $0.severity == .error }.map { finding in
            RequestInspector.isWholeRequest(finding)
                ? finding.message : "\(Self.field(finding.pointer)): \(finding.message)"
        }
        if !problems.isEmpty { throw MockError(status, messages: problems) }
        request.json = inspection.body
    }

    /// `title`, `location/city`, or `body` for the whole document.
    static func field(_ pointer: JSONPointer) -> String {
        pointer.tokens.isEmpty ? "body" : pointer.tokens.joined(separator: ".")
    }
}
