import Foundation
import UnderstudyCore

extension RuleID {
    // Status.
    public static let statusUndocumented: RuleID = "status.undocumented"
    public static let statusUnexpected: RuleID = "status.unexpected"
    public static let statusServerError: RuleID = "status.server-error"
    public static let statusRedirect: RuleID = "status.redirect"
    public static let credentialRefused: RuleID = "auth.credential-refused"
    // Headers.
    public static let contentType: RuleID = "header.content-type"
    public static let contentTypeMissing: RuleID = "header.content-type-missing"
    public static let headerMissing: RuleID = "header.missing"
    public static let headerInvalid: RuleID = "header.invalid"
    // Body.
    public static let bodyEmpty: RuleID = "body.empty"
    public static let bodyUnexpected: RuleID = "body.unexpected"
    public static let bodyTooLarge: RuleID = "body.too-large"
    /// The document gives a body to a status that has none in HTTP (204, 304): about the document, not the server.
    public static let bodilessStatusSchema: RuleID = "document.bodiless-status-schema"
    // Transport.
    public static let transportTimeout: RuleID = "transport.timeout"
    public static let transportRefused: RuleID = "transport.connection-refused"
    public static let transportClosed: RuleID = "transport.connection-closed"
    public static let transportError: RuleID = "transport.error"
}

/// Judges one response against an endpoint's contract: status, content type, required headers, the
/// body's schema and the app's decode.
///
/// Transport-independent: `understudy check` feeds it what AsyncHTTPClient received, `understudy proxy`
/// what the upstream answered, and tests feed it recorded responses.
///
/// ```swift
/// let inspector = ResponseInspector(spec: Fitness.spec)
/// let findings = inspector.findings(for: exchange, endpoint: endpoint, expecting: [.ok])
/// ```
public struct ResponseInspector: Sendable {
    public let spec: APISpec
    /// The largest body judged once inflated (`gzip`, `deflate`); a larger one is `body.too-large`.
    public let maximumBodyBytes: Int

    public init(spec: APISpec, maximumBodyBytes: Int = HTTPTransport.Options().maximumBodyBytes) {
        self.spec = spec
        self.maximumBodyBytes = maximumBodyBytes
    }

    /// Every finding for `exchange`, each tagged with the endpoint.
    /// - Parameter expected: the statuses a conforming server answers to this request (for a planned valid
    ///   request, the success status); `nil` accepts any documented status (the proxy cannot know).
    public func findings(for exchange: Exchange, endpoint: AnyEndpoint, expecting expected: Set<HTTPStatus>?) -> [Diagnostic] {
        inspect(exchange, endpoint: endpoint, expecting: expected).findings
    }

    /// The ``findings(for:endpoint:expecting:)``, and the body of a 2xx answer parsed (`nil` when it is not JSON),
    /// parsed once for both.
    public func inspect(
        _ exchange: Exchange, endpoint: AnyEndpoint, expecting expected: Set<HTTPStatus>?
    ) -> (findings: [Diagnostic], body: JSONValue?) {
        switch exchange.inflated(limit: maximumBodyBytes).outcome {
        case .failure(let failure):
            var finding = Self.diagnostic(for: failure)
            finding.endpoint = endpoint.id
            return ([finding], nil)
        case .response(let response):
            var (findings, body) = inspect(response, endpoint: endpoint, expecting: expected)
            for index in findings.indices { findings[index].endpoint = endpoint.id }
            if body == nil, (200..<300).contains(response.status) { body = try? JSONParser().parse(response.body) }
            return (findings, (200..<300).contains(response.status) ? body : nil)
        }
    }

    /// The finding for a response that did not arrive.
    public static func diagnostic(for failure: TransportFailure) -> Diagnostic {
        let rule: RuleID =
            switch failure.kind {
            case .timeout: .transportTimeout
            case .connectionRefused: .transportRefused
            case .connectionClosed: .transportClosed
            case .tooLarge: .bodyTooLarge
            case .other: .transportError
            }
        return Diagnostic(.error, rule: rule, message: failure.description)
    }

    func findings(for response: RecordedResponse, endpoint: AnyEndpoint, expecting expected: Set<HTTPStatus>?) -> [Diagnostic] {
        inspect(response, endpoint: endpoint, expecting: expected).findings
    }

    /// The findings for `response`, and its body when judging it parsed it.
    private func inspect(
        _ response: RecordedResponse, endpoint: AnyEndpoint, expecting expected: Set<HTTPStatus>?
    ) -> (findings: [Diagnostic], body: JSONValue?) {
        let status = HTTPStatus(rawValue: response.status)
        var findings: [Diagnostic] = []
        let documented = Set(
            [endpoint.success] + endpoint.errors + endpoint.responses.compactMap { $0.status.map { HTTPStatus(rawValue: $0) } }
                + (endpoint.pagination == .range ? [.partialContent] : [])
                + (endpoint.responses.contains { $0.status == nil } ? [status] : []))
        let isSuccess =
            endpoint.successes.contains(status) || (status == .partialContent && endpoint.pagination == .range)
        // A redirect the document gives the operation is an answer like any other.
        let documentsRedirect = endpoint.responses.contains { $0.status == response.status }
        switch response.status {
        case 300..<400 where !documentsRedirect:
            let location = response.headers["Location"].map { " to \($0)" } ?? ""
            findings.append(
                Diagnostic(
                    .error, rule: .statusRedirect,
                    message: "the server redirected\(location); the app does not expect a redirect here",
                    expected: Self.statuses(expected ?? documented), found: String(response.status)))
            return (findings, nil)
        case 500..<600:
            findings.append(
                Diagnostic(
                    .error, rule: .statusServerError, message: "the server failed with \(response.status)",
                    expected: Self.statuses(expected ?? documented), found: String(response.status)))
        default:
            if !documented.contains(status) {
                findings.append(
                    Diagnostic(
                        .error, rule: .statusUndocumented,
                        message: "status \(response.status) is not documented for \(endpoint.id)",
                        expected: Self.statuses(documented), found: String(response.status)))
            } else if let expected, !expected.contains(status) {
                let refused = (status == .unauthorized || status == .forbidden) && endpoint.auth != .none
                findings.append(
                    Diagnostic(
                        refused ? .warning : .error, rule: refused ? .credentialRefused : .statusUnexpected,
                        message: refused
                            ? "the credential was refused (\(response.status)), so the endpoint could not be checked"
                            : "expected \(Self.statuses(expected)), found \(response.status)",
                        expected: Self.statuses(expected), found: String(response.status)))
            }
        }
        // Apps accept any 2xx as success and decode the success model from it. An imported document's status it
        // does not give is judged by no schema: its first error schema is not the API's envelope for every status.
        var model: ModelReference? =
            if let declared = endpoint.documentedResponse(for: response.status) {
                declared.model
            } else if !endpoint.responses.isEmpty {
                nil
            } else {
                (200..<300).contains(response.status)
                    ? endpoint.response : response.status >= 400 ? spec.errorEnvelope.model : nil
            }
        // HTTP gives 204 and 304 no body, whatever the document's schema says (RFC 9110, 15.3.5 and 15.4.5).
        if [204, 304].contains(response.status), let declared = model {
            model = nil
            findings.append(
                Diagnostic(
                    .warning, rule: .bodilessStatusSchema,
                    message: "the document gives \(response.status) a body (\(declared.name)); HTTP sends none with it, "
                        + "so the answer is judged without one",
                    expected: "no schema for \(response.status)", found: declared.name))
        }
        // A body in another media type (XML, text, a file) is the document's; it is not judged.
        if let declared = endpoint.documentedResponse(for: response.status), declared.mediaType != nil, !declared.isJSON {
            return (findings, nil)
        }
        if !findings.isEmpty, !response.body.isEmpty {
            // What the server said is the first thing to read when the status is wrong.
            let text = String(decoding: response.body.prefix(300), as: UTF8.self)
            for index in findings.indices { findings[index].context["response"] = text + (response.body.count > 300 ? "..." : "") }
        }
        let (bodyFindings, body) = bodyFindings(response, model: model, undocumented: !documented.contains(status))
        findings += bodyFindings.map { locatingField($0, in: model) }
        if isSuccess {
            findings += paginationFindings(response, endpoint: endpoint)
            findings += AppParsingCheck.findings(response.body, parsed: body, spec: spec)
        }
        return (findings, body)
    }

    /// The finding with the model field it concerns (`EventDto.startDate`) in its context, so the report
    /// can show one field's findings across endpoints together.
    private func locatingField(_ finding: Diagnostic, in model: ModelReference?) -> Diagnostic {
        guard let model, !finding.pointer.tokens.isEmpty, finding.context["field"] == nil,
            let field = model.schema.modelField(at: finding.pointer, definitions: spec.definitions)
        else { return finding }
        var located = finding
        located.context["field"] = field
        return located
    }

    /// The findings on the body, and the body when they parsed it.
    private func bodyFindings(
        _ response: RecordedResponse, model: ModelReference?, undocumented: Bool
    ) -> (findings: [Diagnostic], body: JSONValue?) {
        let isBlank = response.body.isBlankJSON
        guard let model else {
            if isBlank || undocumented { return ([], nil) }
            let finding = Diagnostic(
                .warning, rule: .bodyUnexpected, message: "the response has a body where the contract has none",
                expected: "no body", found: Render.preview(response.body))
            return ([finding], nil)
        }
        if isBlank {
            let finding = Diagnostic(
                .error, rule: .bodyEmpty, message: "the body is empty; the app decodes \(model.name)",
                expected: model.name, found: "an empty body")
            return ([finding], nil)
        }
        var findings: [Diagnostic] = []
        if let contentType = response.headers["Content-Type"] {
            if !Self.isJSON(contentType) {
                findings.append(
                    Diagnostic(
                        .error, rule: .contentType, message: "the content type is \(contentType), not JSON",
                        expected: "application/json", found: contentType))
            }
        } else {
            findings.append(
                Diagnostic(
                    .warning, rule: .contentTypeMissing, message: "the response has no Content-Type",
                    expected: "application/json", found: "absent"))
        }
        let (bodyFindings, body) = BodyCheck.inspect(response.body, model: model, spec: spec)
        return (findings + bodyFindings, body)
    }

    /// `application/json`, any `+json` type (`application/vnd.pgrst.object+json`), with parameters.
    static func isJSON(_ contentType: String) -> Bool {
        let type = contentType.split(separator: ";", maxSplits: 1).first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        } ?? ""
        return type == "application/json" || (type.hasPrefix("application/") && type.hasSuffix("+json"))
    }

    private func paginationFindings(_ response: RecordedResponse, endpoint: AnyEndpoint) -> [Diagnostic] {
        switch endpoint.pagination {
        case .none, .pageInBody:
            // Page metadata in the body is part of the model: the schema and the decode check it.
            return []
        case .linkHeader:
            var findings: [Diagnostic] = []
            for name in ["X-Page", "X-Per-Page", "X-Total"] {
                guard let value = response.headers[name] else {
                    findings.append(Self.missingHeader(name, why: "the API pages lists with it"))
                    continue
                }
                if Int(value.trimmingCharacters(in: .whitespaces)) == nil {
                    findings.append(Self.invalidHeader(name, value: value, expected: "an integer"))
                }
            }
            if let link = response.headers["Link"], LinkHeader(link) == nil {
                findings.append(Self.invalidHeader("Link", value: link, expected: "<url>; rel=\"next\", ..."))
            }
            return findings
        case .range:
            guard let value = response.headers["Content-Range"] else {
                return [Self.missingHeader("Content-Range", why: "PostgREST answers every read with it")]
            }
            return ContentRange(value) == nil ? [Self.invalidHeader("Content-Range", value: value, expected: "0-24/* or */0")] : []
        }
    }

    static func missingHeader(_ name: String, why: String) -> Diagnostic {
        Diagnostic(
            .error, rule: .headerMissing, message: "the \(name) header is missing; \(why)", expected: "header \(name)",
            found: "absent")
    }

    static func invalidHeader(_ name: String, value: String, expected: String) -> Diagnostic {
        Diagnostic(
            .error, rule: .headerInvalid, message: "the \(name) header is malformed", expected: expected,
            found: Render.quoted(value))
    }

    static func statuses(_ statuses: Set<HTTPStatus>) -> String {
        statuses.sorted().map(\.description).joined(separator: " or ")
    }
}

/// A parsed `Content-Range` header: `0-24/3573458`, `0-24/*` or `*/0`.
public struct ContentRange: Sendable, Hashable {
    /// The first and last positions, or `nil` for `*` (no rows).
    public var range: ClosedRange<Int>?
    /// The total, or `nil` for `*` (not counted).
    public var total: Int?

    public init?(_ header: String) {
        let parts = header.trimmingCharacters(in: .whitespaces).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        if parts[1] == "*" {
            total = nil
        } else if let total = Int(parts[1]), total >= 0 {
            self.total = total
        } else {
            return nil
        }
        if parts[0] == "*" {
            range = nil
        } else {
            let bounds = parts[0].split(separator: "-", omittingEmptySubsequences: false)
            guard bounds.count == 2, let lower = Int(bounds[0]), let upper = Int(bounds[1]), lower >= 0, upper >= lower
            else { return nil }
            range = lower...upper
        }
    }
}

/// A parsed `Link` header (RFC 8288): URLs by relation.
public struct LinkHeader: Sendable, Hashable {
    public var links: [String: String]

    public init?(_ header: String) {
        var links: [String: String] = [:]
        for entry in header.split(separator: ",") {
            let parts = entry.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let target = parts.first, target.hasPrefix("<"), target.hasSuffix(">") else { return nil }
            let url = String(target.dropFirst().dropLast())
            var relation: String?
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map(String.init)
                if pair.count == 2, pair[0].lowercased() == "rel" {
                    relation = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                }
            }
            guard let relation else { return nil }
            for name in relation.split(separator: " ") { links[String(name)] = url }
        }
        guard !links.isEmpty else { return nil }
        self.links = links
    }
}
