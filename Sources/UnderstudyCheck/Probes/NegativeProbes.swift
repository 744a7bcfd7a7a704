import Foundation
import UnderstudyCore

extension RuleID {
    public static let probeNotFoundStatus: RuleID = "probe.not-found-status"
    public static let probeErrorEnvelope: RuleID = "probe.error-envelope"
    public static let probeContentType: RuleID = "probe.content-type"
    public static let probeAuthNotRefused: RuleID = "probe.auth-not-refused"
    public static let probeAuthStatus: RuleID = "probe.auth-status"
    public static let probeWWWAuthenticateMissing: RuleID = "probe.www-authenticate-missing"
    public static let probeInvalidQueryAccepted: RuleID = "probe.invalid-query-accepted"
    public static let probeMalformedBodyAccepted: RuleID = "probe.malformed-body-accepted"
}

/// Read-only requests a conforming server refuses, each judged on its status, its JSON content type and the
/// API's error envelope (what the app decodes to show the error):
/// - an unknown id on an endpoint that documents 404;
/// - one protected endpoint without a token, with a garbage token and with an expired one (401, plus the
///   `WWW-Authenticate` challenge where the real server sends one);
/// - a declared enum or integer query parameter given `understudy-invalid` where the endpoint documents 400;
/// - with `--allow-writes`, the unknown id and the missing credential on writes too, and a malformed JSON body to
///   every endpoint that takes JSON and documents 400 (or 422).
struct NegativeProbes {
    let session: CheckSession
    var spec: APISpec { session.spec }

    /// The text sent for an invalid query value.
    static let invalidValue = "understudy-invalid"

    func run() async {
        // Writes are probed only with --allow-writes, on items the reads found: each probe is a request a conforming
        // server refuses before changing anything.
        let reachable = spec.endpoints.compactMap { endpoint -> (AnyEndpoint, [String: String])? in
            // An endpoint that needs a role the run's credential may lack refuses for that first.
            if case .role = endpoint.auth, endpoint.method != .get { return nil }
            // A delete is probed on an unknown id only (below): on a known item or a collection, a server that takes no
            // credential would delete what the check did not make.
            if endpoint.method == .delete { return nil }
            guard endpoint.method == .get || session.options.allowWrites, session.canCall(endpoint),
                let path = endpoint.method == .get
                    ? session.reachedPathValues(for: endpoint) : session.pathValues(for: endpoint, guessing: false)?.values
            else { return nil }
            return (endpoint, path)
        }
        var probes: [@Sendable () async -> Void] = []
        for (endpoint, path) in reachable {
            if let probe = unknownID(endpoint, path: path) { probes.append(probe) }
            if endpoint.method == .get, let probe = invalidQuery(endpoint, path: path) { probes.append(probe) }
            if endpoint.method != .get, let probe = malformedBody(endpoint, path: path) { probes.append(probe) }
        }
        // A write on an item no answer named yet (the items the writes will make, `DELETE /v2/slots/{id}`) is still
        // asked with an unknown id, with and without a credential: both probes put one there anyway.
        let unnamed = spec.endpoints.compactMap { endpoint -> (AnyEndpoint, [String: String])? in
            if case .role = endpoint.auth { return nil }
            guard endpoint.method != .get, session.options.allowWrites, session.canCall(endpoint),
                !reachable.contains(where: { $0.0.id == endpoint.id }), let name = endpoint.path.parameterNames.last,
                let parameter = endpoint.parameters.first(where: { $0.location == .path && $0.name == name }),
                let path = session.pathValues(
                    for: endpoint, guessing: false,
                    preset: [name: Self.unknownValue(for: parameter, seed: session.options.seed)])?.values
            else { return nil }
            return (endpoint, path)
        }
        for (endpoint, path) in unnamed {
            if let probe = unknownID(endpoint, path: path) { probes.append(probe) }
        }
        // Authentication is one middleware in front of every route: the token variants go to one endpoint, so a
        // server that gets them wrong is not reported once per route; a request without a credential goes to every
        // endpoint that documents its 401 (what its refusal looks like is the document's per operation).
        // One that documents its 401 first: an imported operation may document none.
        let asked = reachable + unnamed
        let protected =
            asked.filter { $0.0.auth.isProtected && $0.0.documents(.unauthorized) }
            + asked.filter { $0.0.auth.isProtected && !$0.0.documents(.unauthorized) }
        let reads = protected.filter { $0.0.method == .get }
        if let target = reads.first(where: { $0.0.path.parameterNames.isEmpty }) ?? reads.first ?? protected.first {
            probes += unauthenticated(target.0, path: target.1)
            for (endpoint, path) in protected where endpoint.id != target.0.id && endpoint.errors.contains(.unauthorized) {
                probes += unauthenticated(endpoint, path: path).prefix(1)
            }
        }
        await session.forEach(probes) { await $0() }
    }

    /// A probe that sends `request` and judges the answer with `verdict`.
    /// - Parameter unknown: the path value made up to name nothing, if the request has one.
    private func send(
        _ request: OutgoingRequest, to endpoint: AnyEndpoint, judgedBy verdict: RefusalVerdict, unknown: String? = nil
    ) -> @Sendable () async -> Void {
        var verdict = verdict
        verdict.endpoint = endpoint
        return { [session, verdict] in
            await session.probe(endpoint, request, unknown: unknown, judge: verdict.findings)
        }
    }

    // MARK: Unknown id

    /// The last path parameter replaced by a value that cannot exist; 404 with the error envelope.
    private func unknownID(_ endpoint: AnyEndpoint, path: [String: String]) -> (@Sendable () async -> Void)? {
        guard endpoint.errors.contains(.notFound), let name = endpoint.path.parameterNames.last,
            let parameter = endpoint.parameters.first(where: { $0.location == .path && $0.name == name })
        else { return nil }
        // An enumerated parameter has no value of its type that names nothing: any other is refused as invalid.
        if case .string(let constraints) = parameter.schema.nonNull, constraints.values != nil { return nil }
        if case .integer(let constraints) = parameter.schema.nonNull, constraints.values != nil { return nil }
        var values = path
        let value = Self.unknownValue(for: parameter, seed: session.options.seed)
        values[name] = value
        let request = session.request(
            endpoint, path: values, query: session.queryValues(for: endpoint), body: session.requestBody(for: endpoint))
        // A write's body is judged too: another refusal (a body naming what does not exist) is worth a note, and an
        // upsert is no fault of its own.
        let isWrite = endpoint.method != .get
        let verdict = RefusalVerdict(
            spec: spec, expected: .notFound, what: "an unknown \(name) (\(value))", wrongStatus: .probeNotFoundStatus,
            accepted: .probeNotFoundStatus, statusSeverity: isWrite ? .warning : .error,
            refusalSeverity: isWrite ? .note : nil)
        return send(request, to: endpoint, judgedBy: verdict, unknown: value)
    }

    /// A value of the parameter's type that no server holds: a UUID, an ObjectId, a large integer or a
    /// string, all derived from the seed.
    static func unknownValue(for parameter: Parameter, seed: UInt64) -> String {
        switch parameter.schema {
        case .string(let constraints) where constraints.format == .uuid:
            return "00000000-0000-4000-8000-" + String(String(seed, radix: 16).suffix(12)).leftPadded(to: 12)
        case .string(let constraints) where constraints.format == .objectId:
            return "ffffffffffffffff" + String(String(seed, radix: 16).suffix(8)).leftPadded(to: 8)
        case .integer(let constraints):
            return String(min(constraints.maximum ?? Int(Int32.max), Int(Int32.max)) - Int(seed % 1000))
        default:
            return "understudy-no-such-\(parameter.name)-\(seed)"
        }
    }

    // MARK: Authentication

    /// No token, a garbage token and an expired JWT: each refused with 401.
    private func unauthenticated(_ endpoint: AnyEndpoint, path: [String: String]) -> [@Sendable () async -> Void] {
        let query = session.queryValues(for: endpoint)
        var variants: [(what: String, authorization: String?)] = [
            ("a garbage token", "Bearer understudy-garbage-token"),
            (
                "an expired token",
                "Bearer "
                    + Self.expiredJWT(
                        subject: session.token.flatMap(JWTClaims.subject), now: session.options.now(),
                        seed: session.options.seed)
            ),
        ]
        // Supabase turns a request without a JWT into the anon role, which row security answers (often with
        // no rows): refusing it is not part of the contract there.
        if spec.auth != .supabase { variants.insert(("a request without a token", nil), at: 0) }
        // A document's bearer says nothing of which tokens are valid unless it says they are JWTs (whose shape and
        // `exp` are then the contract); an API key is refused when absent only.
        if !endpoint.security.isEmpty, !endpoint.security.joined().allSatisfy(\.isJWTBearer) {
            variants = [("a request without a credential", nil)]
        }
        let challenge = Self.challenge(for: spec.auth)
        // An imported operation that documents neither 401 nor `default` says nothing of how it refuses: a document
        // problem, reported once as a warning, not a failed build.
        let severity: Diagnostic.Severity = endpoint.documents(.unauthorized) ? .error : .warning
        // A write a server lets through without a credential must change nothing: it names an item that does not
        // exist, or its body does not parse.
        // A refusal for that other fault (404 for the unknown item, 400 or 422 for the body) says nothing of the
        // credential.
        var path = path
        var body = session.requestBody(for: endpoint).map { $0.serializedBytes() }
        var unknown: String?
        var otherFault: (what: String, statuses: Set<Int>)?
        if endpoint.method != .get {
            if let name = endpoint.path.parameterNames.last,
                let parameter = endpoint.parameters.first(where: { $0.location == .path && $0.name == name })
            {
                unknown = Self.unknownValue(for: parameter, seed: session.options.seed)
                path[name] = unknown
                // Servers refuse what names nothing with 404, 410, or as invalid (400, 422: Chroma's unknown collection).
                otherFault = ("the unknown \(name)", [400, 404, 410, 422])
            } else if body != nil {
                body = Array(#"{"understudy": "#.utf8)
                otherFault = ("the malformed body", [400, 415, 422])
            }
        }
        return variants.map { [path, body, unknown, otherFault] variant in
            var unauthenticated = session.request(endpoint, path: path, query: query, authenticated: false)
            if let body {
                unauthenticated.body = body
                unauthenticated.headers.set("Content-Type", "application/json")
            }
            if let authorization = variant.authorization { unauthenticated.headers.set("Authorization", authorization) }
            let request = unauthenticated
            var verdict = RefusalVerdict(
                spec: spec, expected: .unauthorized, what: variant.what, wrongStatus: .probeAuthStatus,
                accepted: .probeAuthNotRefused, challenge: challenge, statusSeverity: severity)
            verdict.otherFault = otherFault
            return send(request, to: endpoint, judgedBy: verdict, unknown: unknown)
        }
    }

    /// The `WWW-Authenticate` challenge the real server sends with a 401, where it sends one.
    ///
    /// - 42 runs Doorkeeper, whose `ErrorResponse#headers` sets
    ///   `WWW-Authenticate: Bearer realm="…", error="…", error_description="…"` on every refusal
    ///   (doorkeeper-gem/doorkeeper, lib/doorkeeper/oauth/error_response.rb).
    /// - PostgREST answers a refused JWT with `Bearer error="invalid_token", error_description="…"` and a
    ///   missing one with `Bearer` (PostgREST/postgrest, src/PostgREST/Error.hs: `invalidTokenHeader`,
    ///   `requiredTokenHeader`).
    /// - apinest and VideGreniers document no challenge, so none is required.
    static func challenge(for scheme: AuthScheme) -> String? {
        switch scheme {
        case .oauth2: #"Bearer realm="Doorkeeper", error="invalid_token""#
        case .supabase: #"Bearer error="invalid_token""#
        case .bearerJWT: nil
        }
    }

    /// An HS256 JWT for `subject` that expired an hour ago. Its signature is random bytes (from the seed),
    /// which is what a signature under a key the server does not hold looks like to it: refused on both counts.
    static func expiredJWT(subject: String?, now: Date, seed: UInt64) -> String {
        let issued = Int(now.timeIntervalSince1970) - 7200
        let header: JSONValue = ["alg": "HS256", "typ": "JWT"]
        let payload: JSONValue = [
            "sub": .string(subject ?? "understudy"), "role": "authenticated", "iat": .integer(issued),
            "exp": .integer(issued + 3600),
        ]
        var generator = SeededRandom(seed: seed)
        let signature = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return [header.serializedBytes(), payload.serializedBytes(), signature].map(Self.base64URL).joined(
            separator: ".")
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(
            of: "/", with: "_"
        )
        .replacingOccurrences(of: "=", with: "")
    }

    // MARK: Invalid query value

    /// The first declared enum or integer query parameter given `understudy-invalid`; 400 where documented.
    private func invalidQuery(_ endpoint: AnyEndpoint, path: [String: String]) -> (@Sendable () async -> Void)? {
        guard endpoint.errors.contains(.badRequest),
            let parameter = endpoint.parameters.first(where: { $0.location == .query && $0.schema.isEnumOrInteger })
        else { return nil }
        let query =
            session.queryValues(for: endpoint).filter { $0.0 != parameter.name } + [(parameter.name, Self.invalidValue)]
        let request = session.request(endpoint, path: path, query: query)
        let kind = parameter.schema.isInteger ? "an integer" : "an enum"
        // The documents name 400 for bad input, not for each parameter: a server that ignores the value is
        // worth a look, not a failed build.
        let verdict = RefusalVerdict(
            spec: spec, expected: .badRequest, what: "\(parameter.name)=\(Self.invalidValue) (\(kind) parameter)",
            wrongStatus: .probeInvalidQueryAccepted, accepted: .probeInvalidQueryAccepted, statusSeverity: .warning)
        return send(request, to: endpoint, judgedBy: verdict)
    }

    // MARK: Malformed body

    /// Truncated JSON to an endpoint that takes a JSON body and documents 400 (or 422): refused, nothing changed.
    private func malformedBody(_ endpoint: AnyEndpoint, path: [String: String]) -> (@Sendable () async -> Void)? {
        guard endpoint.request != nil,
            endpoint.requestMediaTypes.isEmpty
                || endpoint.requestMediaTypes.contains(where: { DocumentedResponse.isJSON(MediaType.essence($0)) }),
            let expected = [HTTPStatus.badRequest, .unprocessableEntity].first(where: endpoint.errors.contains)
        else { return nil }
        var malformed = session.request(endpoint, path: path, query: session.queryValues(for: endpoint))
        malformed.body = Array(#"{"understudy": "#.utf8)
        malformed.headers.set("Content-Type", "application/json")
        let request = malformed
        let verdict = RefusalVerdict(
            spec: spec, expected: expected, what: "a malformed JSON body", wrongStatus: .probeMalformedBodyAccepted,
            accepted: .probeMalformedBodyAccepted)
        return send(request, to: endpoint, judgedBy: verdict)
    }
}

/// How a refusal is judged: the expected status, a JSON content type, the API's error envelope and, for a
/// 401, the challenge header.
struct RefusalVerdict: Sendable {
    let spec: APISpec
    let expected: HTTPStatus
    /// What was sent, for messages: "an unknown id (…)", "a garbage token".
    let what: String
    /// The rule for another refusal status, and for a 2xx (the request was accepted).
    let wrongStatus: RuleID
    let accepted: RuleID
    /// The `WWW-Authenticate` value the server sends with the refusal, if it sends one.
    var challenge: String?
    /// The severity of a wrong status. A status the spec only assumes (``APISpec/assumption(status:)``) makes
    /// every finding on the answer rest on that assumption.
    var statusSeverity: Diagnostic.Severity = .error
    /// The severity of another 4xx than the expected one, when it differs from ``statusSeverity``.
    var refusalSeverity: Diagnostic.Severity?
    /// The endpoint probed: an imported document says per operation what its refusal carries (a body of its own
    /// schema, or none).
    var endpoint: AnyEndpoint?
    /// A second fault the request carries (an unknown id, a malformed body) and the statuses that refuse it: such a
    /// refusal may come before the one probed for, so it proves nothing either way.
    var otherFault: (what: String, statuses: Set<Int>)?

    func findings(for response: RecordedResponse) -> [Diagnostic] {
        guard let assumption = spec.assumption(status: expected) else { return judge(response) }
        // An assumed status is the assumption's; so is its body, unless the operation documents one for it.
        let documentsBody = endpoint?.documentedResponse(for: expected.rawValue) != nil
        return judge(response).map { finding in
            documentsBody && response.status == expected.rawValue ? finding : finding.assuming(assumption)
        }
    }

    /// The findings on an answer, the expected status taken as stated (``findings(for:)`` adds what an assumed one
    /// rests on).
    func judge(_ response: RecordedResponse) -> [Diagnostic] {
        if let otherFault, otherFault.statuses.contains(response.status) {
            return [
                Diagnostic(
                    .note, rule: wrongStatus,
                    message: "\(what) was answered with \(response.status), a refusal of \(otherFault.what) it also "
                        + "carries: whether \(expected) comes first is not known",
                    expected: String(expected.rawValue), found: String(response.status))
            ]
        }
        guard response.status == expected.rawValue else {
            let isSuccess = (200..<300).contains(response.status)
            let severity =
                (400..<500).contains(response.status) ? refusalSeverity ?? statusSeverity : statusSeverity
            return [
                Diagnostic(
                    severity, rule: isSuccess ? accepted : wrongStatus,
                    message: "\(what) was answered with \(response.status), not \(expected)",
                    expected: String(expected.rawValue), found: String(response.status),
                    context: ["response": Render.preview(response.body)])
            ]
        }
        var findings: [Diagnostic] = []
        if let challenge, response.headers["WWW-Authenticate"] == nil {
            findings.append(
                Diagnostic(
                    .error, rule: .probeWWWAuthenticateMissing,
                    message:
                        "the \(expected) answer to \(what) has no WWW-Authenticate header; the real server sends one",
                    expected: "WWW-Authenticate: \(challenge), ...", found: "absent"))
        }
        var model = spec.errorEnvelope.model
        if let endpoint, !endpoint.responses.isEmpty {
            // A refusal the document gives no JSON body is not judged by one (`404: Order not found`).
            guard let documented = endpoint.documentedResponse(for: expected.rawValue), documented.isJSON else {
                return findings
            }
            model = documented.model ?? model
        }
        let contentType = response.headers["Content-Type"]
        guard let contentType, ResponseInspector.isJSON(contentType) else {
            findings.append(
                Diagnostic(
                    .error, rule: .probeContentType,
                    message:
                        "the \(expected) answer to \(what) is \(contentType ?? "without a content type"), not JSON; "
                        + "the app decodes the error from it",
                    expected: "application/json", found: contentType ?? "absent"))
            return findings
        }
        let problems = BodyCheck.findings(response.body, model: model, spec: spec)
        if let problem = problems.first(where: { $0.severity == .error }) {
            findings.append(
                Diagnostic(
                    .error, rule: .probeErrorEnvelope, at: problem.pointer,
                    message: "the \(expected) answer to \(what) is not the API's error envelope \(model.name): "
                        + problem.message,
                    expected: problem.expected ?? model.name, found: problem.found ?? Render.preview(response.body)))
        }
        return findings
    }
}

extension Auth {
    /// Whether a request without a valid credential is refused.
    var isProtected: Bool {
        switch self {
        case .required, .role: true
        case .none, .optional: false
        }
    }
}

extension Schema {
    var isInteger: Bool {
        if case .integer = self { return true }
        return false
    }

    var isEnumOrInteger: Bool {
        switch self {
        case .integer: true
        case .string(let constraints): constraints.values != nil
        default: false
        }
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
