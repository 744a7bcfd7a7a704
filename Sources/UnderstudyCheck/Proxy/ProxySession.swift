import Foundation
import UnderstudyCore

extension RuleID {
    public static let proxyUnknownRoute: RuleID = "proxy.unknown-route"
    public static let proxyUnsupportedMethod: RuleID = "proxy.unsupported-method"
    public static let proxyRequestTooLarge: RuleID = "proxy.request-too-large"
    /// An answer that broke the contract was not recorded as a fixture.
    public static let proxyNotRecorded: RuleID = "proxy.not-recorded"
}

/// One request as the proxy received it from the app.
struct ProxiedRequest: Sendable {
    var method: HTTPMethod
    /// The path as sent (percent-encoded), without the query.
    var path: String
    /// The query string without `?`, or `nil`.
    var query: String?
    /// The end-to-end header fields, in order.
    var headers: HeaderFields
    var body: [UInt8]
}

/// The state of a running proxy: routes, the redactor, findings and per-endpoint counts. Inspections
/// run on the side, in tasks this session tracks so a caller can wait for them.
final class ProxySession: Sendable {
    let specs: [APISpec]
    let upstream: String
    /// Whether answers are kept as fixtures.
    let recording: Bool
    /// The API keys the documents declare: their values in traffic are secrets.
    private let apiKeySchemes: Set<SecurityScheme>
    private let onFinding: @Sendable (Diagnostic) -> Void
    private let state = Locked(State())
    private let started = ContinuousClock.now

    private struct State {
        var ledger = FindingLedger()
        /// Findings in the order they were reported, with the id of the spec they belong to.
        var findings: [(spec: String, finding: Diagnostic)] = []
        var records: [String: [String: CheckReport.EndpointRecord]] = [:]
        var pending: [Int: Task<Void, Never>] = [:]
        var nextTask = 0
        /// The recorded fixtures, by spec id and endpoint id.
        var recorded: [String: [String: EndpointFixture]] = [:]
    }

    init(
        specs: [APISpec], upstream: String, recording: Bool = false,
        onFinding: @escaping @Sendable (Diagnostic) -> Void
    ) {
        apiKeySchemes = Set(specs.flatMap(\.endpoints).flatMap { $0.security.joined() }).filter {
            if case .apiKey = $0 { return true }
            return false
        }
        self.specs = specs
        self.upstream = upstream
        self.recording = recording
        self.onFinding = onFinding
    }

    // MARK: Routing

    /// The endpoint a request is for: same method, the template matches, and where two templates match, the
    /// one with a literal segment where the other has a parameter wins (`/users/me` over `/users/{id}`, and
    /// `/files/{name}.json` over `/files/{id}`).
    func route(_ method: HTTPMethod, _ path: String) -> (spec: APISpec, endpoint: AnyEndpoint, path: [String: String])?
    {
        var best: (spec: APISpec, endpoint: AnyEndpoint, path: [String: String], literals: [Int])?
        for spec in specs {
            for endpoint in spec.endpoints where endpoint.method == method {
                guard let values = endpoint.path.match(path) else { continue }
                let literals = endpoint.path.segments.map(\.specificity)
                if let current = best, !Self.isMoreLiteral(literals, than: current.literals) { continue }
                best = (spec, endpoint, values, literals)
            }
        }
        return best.map { ($0.spec, $0.endpoint, $0.path) }
    }

    private static func isMoreLiteral(_ lhs: [Int], than rhs: [Int]) -> Bool {
        for (left, right) in zip(lhs, rhs) where left != right { return left > right }
        return false
    }

    // MARK: Secrets

    /// Adds the credentials a request carries to the redactor; call before anything about it is reported.
    func learnSecrets(from request: ProxiedRequest) {
        var found: [(String, String)] = []
        if let authorization = request.headers["Authorization"] {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            found.append((parts.count == 2 ? String(parts[1]) : authorization, "UNDERSTUDY_TOKEN"))
        }
        if let apiKey = request.headers["apikey"] { found.append((apiKey, "UNDERSTUDY_APIKEY")) }
        // The API keys the documents declare, in a header or the query (`x-chroma-token`, `api_key=`).
        let query = QueryItems(request.query ?? "")
        for case .apiKey(let name, let location) in apiKeySchemes {
            let value = location == .header ? request.headers[name] : location == .query ? query[name] : nil
            if let value { found.append((value, "UNDERSTUDY_APIKEY")) }
        }
        found += Self.secrets(inBody: request.body, contentType: request.headers["Content-Type"])
        guard !found.isEmpty else { return }
        state.withLock { state in
            for (value, name) in found { state.ledger.redactor.add(value, as: name) }
        }
    }

    /// Passwords, client secrets and tokens in a JSON or form body (a sign-in request, or its answer).
    static func secrets(inBody body: [UInt8], contentType: String?) -> [(String, String)] {
        guard !body.isEmpty else { return [] }
        var members: [(String, JSONValue)] = []
        if contentType?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true {
            members = FormURLEncoding.pairs(String(decoding: body, as: UTF8.self)).map { ($0.name, .string($0.value)) }
        } else if let json = try? JSONParser().parse(body) {
            // Tokens sit at the top level or one envelope down (`{"data": {"accessToken": ...}}`).
            for level in [json, json["data"]].compactMap({ $0 }) {
                if case .object(let object) = level { members += object.map { ($0.key, $0.value) } }
            }
        }
        return members.compactMap { key, value in
            guard let text = value.stringValue else { return nil }
            let name = key.lowercased().replacingOccurrences(of: "_", with: "")
            if name.contains("password") { return (text, "UNDERSTUDY_PASSWORD") }
            if name == "clientsecret" { return (text, "UNDERSTUDY_CLIENT_SECRET") }
            if name.hasSuffix("token") { return (text, "UNDERSTUDY_TOKEN") }
            return nil
        }
    }

    // MARK: Inspection

    /// Judges the request and its answer on the side; the answer is already on its way to the app.
    func inspectLater(_ request: ProxiedRequest, _ exchange: Exchange) {
        state.withLock { state in
            let id = state.nextTask
            state.nextTask += 1
            // Created under the lock, so the task cannot finish (and unregister) before it is registered.
            state.pending[id] = Task {
                self.inspect(request, exchange)
                _ = self.state.withLock { $0.pending.removeValue(forKey: id) }
            }
        }
    }

    /// Waits until every inspection started so far (and any they start) has finished.
    func settle() async {
        while true {
            let tasks = state.withLock { Array($0.pending.values) }
            if tasks.isEmpty { return }
            for task in tasks { await task.value }
        }
    }

    func inspect(_ request: ProxiedRequest, _ exchange: Exchange) {
        // Judged and searched for secrets as the app reads it: a token in a gzip body is still a token.
        let exchange = exchange.inflated(limit: HTTPTransport.Options().maximumBodyBytes)
        if let response = exchange.response {
            let found = Self.secrets(inBody: response.body, contentType: response.headers["Content-Type"])
            if !found.isEmpty {
                state.withLock { state in for (value, name) in found { state.ledger.redactor.add(value, as: name) } }
            }
        }
        guard let match = route(request.method, request.path) else {
            let id = "\(request.method.rawValue) \(request.path)"
            var findings = [
                Diagnostic(
                    .note, rule: .proxyUnknownRoute, endpoint: id,
                    message:
                        "no endpoint of \(specs.map(\.id).joined(separator: ", ")) matches \(id); forwarded unchecked")
            ]
            if case .failure(let failure) = exchange.outcome {
                var finding = ResponseInspector.diagnostic(for: failure)
                finding.endpoint = id
                findings.append(finding)
            }
            report(findings, spec: specs[0], exchange: exchange, endpoint: nil)
            return
        }
        let (spec, endpoint, pathValues) = match
        let inspection = RequestInspector(spec: spec, endpoint: endpoint).inspect(
            body: request.body, contentType: request.headers["Content-Type"], path: pathValues,
            query: QueryItems(request.query ?? ""), header: { request.headers[$0] })
        var findings = inspection.findings.map { finding in
            var finding = finding
            finding.endpoint = endpoint.id
            return finding
        }
        findings += ResponseInspector(spec: spec).findings(for: exchange, endpoint: endpoint, expecting: nil)
        if recording, let response = exchange.response {
            if findings.contains(where: { $0.severity == .error }) {
                findings.append(
                    Diagnostic(
                        .note, rule: .proxyNotRecorded, endpoint: endpoint.id,
                        message: "the \(response.status) answer breaks the contract: not recorded"))
            } else {
                record(response, request: request, path: pathValues, spec: spec, endpoint: endpoint)
            }
        }
        report(findings, spec: spec, exchange: exchange, endpoint: endpoint.id)
    }

    /// Keeps the first answer of each documented status of an endpoint, with the request that got it.
    private func record(
        _ response: RecordedResponse, request: ProxiedRequest, path: [String: String], spec: APISpec,
        endpoint: AnyEndpoint
    ) {
        let status = HTTPStatus(rawValue: response.status)
        guard status == endpoint.success || endpoint.documents(status) else { return }
        // A fixture holds JSON: an answer of another media type is not kept.
        var body = JSONValue.null
        if !response.body.isEmpty {
            guard let parsed = try? JSONParser().parse(response.body) else { return }
            body = parsed
        }
        let sent = request.body.isEmpty ? nil : try? JSONParser().parse(request.body)
        state.withLock { state in
            var fixture =
                state.recorded[spec.id]?[endpoint.id] ?? EndpointFixture(endpoint: endpoint.id, request: nil, responses: [:])
            guard fixture.responses[response.status] == nil else { return }
            if fixture.responses.isEmpty { fixture.path = path.mapValues { $0.removingPercentEncoding ?? $0 } }
            fixture.responses[response.status] = body
            if fixture.request == nil { fixture.request = sent }
            state.recorded[spec.id, default: [:]][endpoint.id] = fixture
        }
    }

    /// The recorded fixtures by spec id, in endpoint order, every secret seen in the traffic redacted.
    func recordings() -> [String: [EndpointFixture]] {
        state.withLock { state in
            state.recorded.mapValues { fixtures in
                fixtures.keys.sorted().compactMap { id in
                    let fixture = fixtures[id]!
                    let text = state.ledger.redactor.redact(fixture.jsonValue.serialized())
                    return (try? JSONParser().parse(Array(text.utf8))).flatMap { try? EndpointFixture(json: $0) }
                }
            }
        }
    }

    /// Records findings once each (redacted, with a curl line) and counts the exchange.
    func report(_ findings: [Diagnostic], spec: APISpec, exchange: Exchange?, endpoint: String?) {
        let fresh: [Diagnostic] = state.withLock { state in
            if let endpoint, let exchange {
                var record =
                    state.records[spec.id, default: [:]][endpoint]
                    ?? CheckReport.EndpointRecord(endpoint: endpoint, requests: 0, seconds: 0)
                record.requests += 1
                record.seconds += exchange.duration
                state.records[spec.id, default: [:]][endpoint] = record
            }
            let fresh = state.ledger.record(findings, request: exchange?.request)
            state.findings += fresh.map { (spec.id, $0) }
            return fresh
        }
        for finding in fresh { onFinding(finding) }
    }

    // MARK: Results

    var findings: [Diagnostic] { state.withLock { $0.findings.map(\.finding) } }

    /// One report per spec, in the shape `understudy check` writes.
    func reports() -> [CheckReport] {
        let seconds = (ContinuousClock.now - started).inSeconds
        return state.withLock { state in
            specs.map { spec in
                let order = Dictionary(uniqueKeysWithValues: spec.endpoints.enumerated().map { ($1.id, $0) })
                let records = (state.records[spec.id] ?? [:]).values.sorted {
                    (order[$0.endpoint] ?? .max, $0.endpoint) < (order[$1.endpoint] ?? .max, $1.endpoint)
                }
                return CheckReport(
                    api: spec.id, baseURL: upstream,
                    findings: state.findings.filter { $0.spec == spec.id }.map(\.finding),
                    endpoints: records, seconds: seconds)
            }
        }
    }
}
