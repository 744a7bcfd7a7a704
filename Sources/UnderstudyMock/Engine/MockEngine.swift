import Foundation
import UnderstudyCore

/// The transport-independent heart of a mock: routes a request to its endpoint, applies faults,
/// authenticates, validates against the descriptor, and lets the API's behaviour answer.
///
/// Every failure becomes a response in the API's own envelope: unknown routes (404), wrong methods
/// (405), bodies over the limit (413), malformed JSON and invalid input (400, or the API's validation
/// status), missing or bad credentials (401), missing rights (403), and unexpected errors (500).
/// The Hummingbird server and the `URLProtocol` stub both call ``respond(to:)``.
package final class MockEngine: Sendable {
    package let behaviour: any MockBehaviour
    package let configuration: MockConfiguration
    private let routes: [Route]
    /// What the real server serves beyond the documents (``MockBehaviour/undocumentedEndpoints``), matched when
    /// no documented route does.
    private let undocumented: [Route]
    /// The spec whose envelope answers requests that match no route.
    private let defaultSpec: APISpec
    /// The path every route is served under (``APISpec/basePath``), empty for none.
    private let basePath: String
    private let faults: Locked<FaultState>
    /// Finished GET answers by state version and exact request; bounded, so distinct query strings cannot grow
    /// memory without end.
    let cache = Locked(BoundedCache<CacheKey, CachedAnswer>(maximumEntries: 1024, maximumBytes: 64 << 20))
    private let rateLimiter: RateLimiter?

    /// A class, so matching a request moves one reference instead of copying a whole spec.
    final class Route: Sendable {
        let spec: APISpec
        let endpoint: AnyEndpoint
        let segments: [PathTemplate.Segment]
        /// How much the route's path pins a request down (``PathTemplate/Segment/specificity``).
        let specificity: Int
        /// `METHOD /path`, computed once.
        let id: String
        /// Whether the spec describes the endpoint: an undocumented one is not validated against a model.
        let isDocumented: Bool
        /// The spec's fixture engine: the answer when the behaviour leaves the endpoint to its descriptor.
        let fixture: FixtureMock

        init(spec: APISpec, endpoint: AnyEndpoint, fixture: FixtureMock, isDocumented: Bool = true) {
            self.spec = spec
            self.endpoint = endpoint
            self.fixture = fixture
            self.id = endpoint.id
            segments = endpoint.path.segments
            specificity = segments.reduce(0) { $0 + $1.specificity }
            self.isDocumented = isDocumented
        }
    }

    struct FaultState {
        var rules: [FaultRule]
        var random: SeededRandom
    }

    /// A GET request as the cache knows it: the same key means the same answer while the state version and the
    /// credential last.
    struct CacheKey: Hashable {
        let version: UInt64
        let path: String
        let query: String
        /// The headers among ``MockEngine/keyedHeaders`` the request has, as `name: value` lines.
        let headers: String

        init(version: UInt64, _ raw: RawRequest, keyedHeaders: [String], keyedQuery: Set<String>?) {
            self.version = version
            path = raw.path
            query = keyedQuery.map { Self.query(raw.query, keeping: $0) } ?? raw.query
            var headers = ""
            for name in keyedHeaders {
                guard let value = raw.headers[name] else { continue }
                headers += name
                headers += ": "
                headers += value
                headers += "\n"
            }
            self.headers = headers
        }

        /// The `name=value` pairs of a raw query whose (decoded) name is kept, as they were sent.
        static func query(_ raw: String, keeping names: Set<String>) -> String {
            raw.split(separator: "&", omittingEmptySubsequences: true)
                .filter { pair in names.contains(QueryItems.decode(pair.prefix { $0 != "=" })) }
                .joined(separator: "&")
        }

        /// The bytes of the key's strings, which a long query string makes large.
        var bytes: Int { path.utf8.count + query.utf8.count + headers.utf8.count }
    }

    /// The headers answers vary on: the credential, those behaviours read (the host for 42's absolute `Link` URLs,
    /// PostgREST's `Range`, `Range-Unit`, `Prefer`, `Accept` and `Accept-Profile`) and every header parameter the specs declare, as
    /// validation reads them. A `User-Agent` or a trace id makes no new answer.
    private let keyedHeaders: [String]
    /// The query parameters answers vary on when the behaviour ignores the others
    /// (``MockBehaviour/ignoresUndeclaredQuery``): those the specs declare, API keys sent in the query, and the
    /// page of a list paged by `Link` headers, which documents seldom declare; `nil` keys answers by the whole
    /// query.
    private let keyedQuery: Set<String>?

    /// Creates an engine for a behaviour.
    package init(behaviour: any MockBehaviour, configuration: MockConfiguration = MockConfiguration()) {
        self.behaviour = behaviour
        self.configuration = configuration
        defaultSpec = behaviour.specs[0]
        basePath = defaultSpec.basePath
        // What no behaviour answers is answered from the fixtures folder's files where they give it: as the behaviour
        // read them, or read here for a behaviour that did not (which refuses a file that cannot be read).
        let recorded =
            (behaviour as? any ReadsFixtures)?.fixtures
            ?? configuration.fixturesDirectory.flatMap {
                try? FixtureSource(seed: configuration.seed, folder: $0, specs: behaviour.specs)
            }
        routes = behaviour.specs.flatMap { spec in
            let fixture = FixtureMock(spec: spec, configuration: configuration, recorded: recorded)
            return spec.endpoints.map { Route(spec: spec, endpoint: $0, fixture: fixture) }
        }
        .sorted { $0.specificity > $1.specificity }
        let spec = behaviour.specs[0]
        let fixture = FixtureMock(spec: spec, configuration: configuration)
        undocumented = behaviour.undocumentedEndpoints.map {
            Route(spec: spec, endpoint: $0, fixture: fixture, isDocumented: false)
        }
        .sorted { $0.specificity > $1.specificity }
        let declared = behaviour.specs.flatMap(\.endpoints).flatMap(\.parameters).filter { $0.location == .header }
        keyedHeaders = Set(
            [
                "authorization", "apikey", "cookie", "host", "x-forwarded-host", "x-forwarded-proto", "range",
                "range-unit",
                "prefer", "accept", "accept-profile", "content-type",
            ] + declared.map { $0.name.lowercased() }
        ).sorted()
        let endpoints = behaviour.specs.flatMap(\.endpoints)
        keyedQuery =
            behaviour.ignoresUndeclaredQuery
            ? Set(
                endpoints.flatMap(\.parameters).filter { $0.location == .query }.map(\.name)
                    + endpoints.flatMap { $0.security.joined() }.compactMap { scheme in
                        if case .apiKey(let name, .query) = scheme { name } else { nil }
                    }
            ).union(LinkHeaderPage.parameterNames)
            : nil
        faults = Locked(FaultState(rules: configuration.faults, random: SeededRandom(seed: configuration.seed)))
        rateLimiter = configuration.rateLimit.map { RateLimiter($0, now: configuration.now) }
    }

    /// Whether any fault rule is in force; read on every request (one uncontended lock).
    private var hasFaults: Bool { faults.withLock { !$0.rules.isEmpty } }

    /// The fault rules in force.
    package var faultRules: [FaultRule] { faults.withLock { $0.rules } }

    /// Replaces the fault rules.
    package func setFaults(_ rules: [FaultRule]) {
        faults.withLock { $0.rules = rules }
    }

    /// The largest body answered: the configuration's limit, or the API's own.
    package var maximumBodyBytes: Int { configuration.maximumBodyBytes ?? behaviour.maximumBodyBytes }

    /// The 413 answer for a body over ``maximumBodyBytes``.
    package func payloadTooLarge(path: String) -> MockResponse {
        behaviour.errorResponse(
            MockError(.payloadTooLarge, "the body of \(path) is over the \(maximumBodyBytes)-byte limit"),
            spec: behaviour.specs[0])
    }

    /// The 503 answer to a connection beyond ``MockConfiguration/maximumConnections``.
    package func serviceUnavailable() -> MockResponse {
        behaviour.errorResponse(
            MockError(
                .init(rawValue: 503),
                "too many connections: the mock holds \(configuration.maximumConnections) at most; retry later",
                headers: [("Retry-After", "1")]),
            spec: defaultSpec)
    }

    /// Answers one request.
    package func respond(to raw: RawRequest) async -> MockResponse {
        // Whatever the answer to HEAD, it has no body: a body would be read as the next response.
        raw.method == "HEAD" ? await dispatch(raw).withoutBody() : await dispatch(raw)
    }

    private func dispatch(_ raw: RawRequest) async -> MockResponse {
        let spec = defaultSpec
        if raw.path.hasPrefix("/__understudy/") { return await admin(raw, spec: spec) }
        guard let raw = underBasePath(raw) else {
            return behaviour.errorResponse(
                MockError(.notFound, "no route for \(raw.method) \(raw.path): this API is served under \(basePath)"),
                spec: spec)
        }
        let segments = raw.path.split(separator: "/", omittingEmptySubsequences: true)
        let (candidates, method, matched) = route(raw, segments: segments)

        if let response = await injectFault(endpoint: matched?.id) { return response }

        guard let route = matched else {
            let allowed = Self.allowed(candidates)
            if raw.method == "OPTIONS", !candidates.isEmpty { return Self.options(raw, allowed: allowed) }
            // A known method on an unknown path is 404; an unknown one (TRACE, CONNECT) is 405 anywhere.
            if candidates.isEmpty, method != nil || raw.method == "HEAD" || raw.method == "OPTIONS" {
                return behaviour.errorResponse(
                    MockError(.notFound, "no route for \(raw.method) \(raw.path)"), spec: spec)
            }
            let message =
                candidates.isEmpty
                ? "method \(raw.method) is not supported"
                : "\(raw.method) is not allowed on \(raw.path); allowed: \(allowed)"
            return behaviour.errorResponse(
                MockError(.init(rawValue: 405), message, headers: [("Allow", allowed)]),
                spec: candidates.first?.spec ?? spec)
        }
        do {
            return try await answer(raw, method: method ?? .get, route: route, segments: segments)
        } catch let error as MockError {
            return behaviour.errorResponse(error, spec: route.spec, endpoint: route.endpoint)
        } catch let error as StateFileError {
            // An operator must learn it from the log too: the client only sees a 503 it may retry.
            FileHandle.standardError.write(Data("understudy mock: \(raw.method) \(raw.path) answered 503: \(error)\n".utf8))
            return behaviour.errorResponse(
                MockError(
                    .init(rawValue: 503), "the mock's state is unavailable: \(error)", headers: [("Retry-After", "1")]),
                spec: route.spec)
        } catch {
            return behaviour.errorResponse(
                MockError(.internalServerError, "unexpected error: \(error)"), spec: route.spec)
        }
    }

    /// The routes of a path (documented first, then what the server serves beyond its documents), the method asked
    /// (GET for HEAD: RFC 9110 §9.3.2), and the route it reaches.
    private func route(_ raw: RawRequest, segments: [Substring]) -> (
        candidates: [Route], method: HTTPMethod?, matched: Route?
    ) {
        let candidates =
            routes.filter { Self.matches($0.segments, segments) }
            + undocumented.filter { Self.matches($0.segments, segments) }
        let isHeadOfGet = raw.method == "HEAD" && candidates.contains { $0.endpoint.method == .get }
        let method = isHeadOfGet ? .get : HTTPMethod(rawValue: raw.method)
        let matched = method.flatMap { method in candidates.first { $0.endpoint.method == method } }
        return (candidates, method, matched)
    }

    /// The contract's verdict on a request, as an app sent it: the endpoint it reaches (`nil` for none), and every
    /// error-level finding on its parameters and body, or on its route when it reaches no documented endpoint.
    package func verdict(on raw: RawRequest) -> (endpoint: AnyEndpoint?, violations: [Diagnostic]) {
        guard !raw.path.hasPrefix("/__understudy/") else { return (nil, []) }
        let id = "\(raw.method) \(raw.path)"
        guard let stripped = underBasePath(raw) else {
            return (nil, [Diagnostic(.error, rule: .requestUnknownRoute, endpoint: id, message: "not under \(basePath)")])
        }
        let segments = stripped.path.split(separator: "/", omittingEmptySubsequences: true)
        guard let route = route(stripped, segments: segments).matched else {
            return (nil, [Diagnostic(.error, rule: .requestUnknownRoute, endpoint: id, message: "no documented endpoint matches")])
        }
        // A route the real server serves beyond its document (Supabase Auth's sign-in beside EasyCo's tables) breaks
        // no contract; the document says nothing to judge the request by.
        guard route.isDocumented else { return (route.endpoint, []) }
        let headers = Dictionary(raw.headers.map { ($0.key.lowercased(), $0.value) }) { first, _ in first }
        let inspection = RequestInspector(spec: route.spec, endpoint: route.endpoint).inspect(
            body: raw.body, contentType: headers["content-type"], path: route.endpoint.path.match(stripped.path) ?? [:],
            query: QueryItems(stripped.query), header: { headers[$0.lowercased()] })
        let violations = inspection.findings.filter { $0.severity == .error }.map { finding in
            var finding = finding
            finding.endpoint = route.endpoint.id
            return finding
        }
        return (route.endpoint, violations)
    }

    /// The request with the base path taken off its path; `nil` when it is not under the base path.
    private func underBasePath(_ raw: RawRequest) -> RawRequest? {
        guard !basePath.isEmpty else { return raw }
        guard raw.path.hasPrefix(basePath) else { return nil }
        let rest = raw.path.dropFirst(basePath.count)
        guard rest.isEmpty || rest.hasPrefix("/") else { return nil }
        var stripped = raw
        stripped.path = rest.isEmpty ? "/" : String(rest)
        return stripped
    }

    /// The `Allow` value of a path: its methods, HEAD with GET, and OPTIONS; empty for an unknown path.
    static func allowed(_ candidates: [Route]) -> String {
        guard !candidates.isEmpty else { return "" }
        let methods = Set(candidates.map(\.endpoint.method.rawValue))
        let order = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
        return order.filter { methods.contains($0) || ($0 == "HEAD" && methods.contains("GET")) || $0 == "OPTIONS" }
            .joined(separator: ", ")
    }

    /// 204 with `Allow`, and for a CORS preflight (`Origin`) the `Access-Control-Allow-*` headers echoing
    /// what the browser asks for, so a web app can call the mock from another origin.
    static func options(_ raw: RawRequest, allowed: String) -> MockResponse {
        var headers = [("Allow", allowed)]
        if let origin = raw.header("origin") {
            headers += [
                ("Access-Control-Allow-Origin", origin), ("Access-Control-Allow-Methods", allowed),
                ("Access-Control-Max-Age", "600"), ("Vary", "Origin"),
            ]
            if let requested = raw.header("access-control-request-headers") {
                headers.append(("Access-Control-Allow-Headers", requested))
            }
        }
        return .empty(status: 204, headers: headers)
    }

    /// The header that names what was wrong with a request answered all the same, because its operation documents
    /// no status to refuse it with.
    package static let overlookedHeader = "Understudy-Overlooked"

    /// Messages as one header value: printable ASCII, `; `-separated.
    static func headerText(_ messages: [String]) -> String {
        String(
            decoding: messages.joined(separator: "; ").utf8.map { (0x20..<0x7F).contains($0) ? $0 : UInt8(ascii: "?") },
            as: UTF8.self)
    }

    /// The messages of a refusal `check` throws that the endpoint documents no status for; one it documents is
    /// thrown on.
    private static func overlooked(on endpoint: AnyEndpoint, _ check: () async throws -> Void) async throws -> [String]
    {
        do {
            try await check()
            return []
        } catch let error as MockError {
            if endpoint.documents(error.status) { throw error }
            return error.messages
        }
    }

    private func answer(_ raw: RawRequest, method: HTTPMethod, route: Route, segments: [Substring]) async throws
        -> MockResponse
    {
        if let limiter = rateLimiter, let retryAfter = limiter.admit(raw.header("authorization") ?? raw.client) {
            throw MockError(
                .tooManyRequests, "rate limit exceeded; retry in \(retryAfter) seconds",
                headers: [("Retry-After", String(retryAfter))])
        }
        guard raw.body.count <= maximumBodyBytes else {
            throw MockError(
                .payloadTooLarge, "the body is \(raw.body.count) bytes, over the \(maximumBodyBytes)-byte limit")
        }
        var request = MockRequest(
            method: method, path: raw.path, query: QueryItems(raw.query), lowercasedHeaders: raw.headers, body: raw.body
        )
        request.isHead = raw.method == "HEAD"
        for (segment, part) in zip(route.segments, segments) {
            for (name, value) in segment.match(part) ?? [:] { request.pathParameters[name] = QueryItems.decode(value) }
        }
        let endpoint = route.endpoint
        if case .announced(let note) = endpoint.availability {
            throw MockError(.notFound, "\(endpoint.id) is not available yet (\(note))")
        }

        // Other mocks' writes first: a credential they issued or revoked, rows they changed.
        try await behaviour.synchronize()
        behaviour.normalize(&request)
        // A refusal an imported operation documents no status for (nor `default`) is an answer no server of its
        // document gives: the request goes on, and the answer names what was wrong (see ``overlookedHeader``).
        var overlooked = try await Self.overlooked(on: endpoint) {
            request.principal = try await behaviour.authenticate(request, endpoint: endpoint)
            switch endpoint.auth {
            case .none, .optional: break
            case .required:
                guard request.principal != nil else {
                    throw MockError(.unauthorized, "authentication required: send Authorization: Bearer <token>")
                }
            case .role(let role):
                guard let principal = request.principal else {
                    throw MockError(.unauthorized, "authentication required: send Authorization: Bearer <token>")
                }
                guard principal.has(role: role) else { throw MockError(.forbidden, "the \(role) role is required") }
            }
        }

        // A body only counts with a media type the API reads; without a Content-Type it is read as JSON.
        var validatesBody = true
        if endpoint.request != nil, !request.body.isBlankJSON, let contentType = request.header("content-type") {
            switch behaviour.unreadableBody(mediaType: MediaType.essence(contentType)) {
            case .refused(let error)?: throw error
            case .ignored?: request.body = Array("{}".utf8)
            case .unvalidated?: validatesBody = false
            case nil: break
            }
        }
        if route.isDocumented {
            overlooked += try await Self.overlooked(on: endpoint) {
                try RequestValidation(
                    route: route, status: behaviour.validationStatus, ruleStatus: behaviour.ruleStatus,
                    arrays: behaviour.acceptsArrayBodies, body: validatesBody, parsed: behaviour.parses
                )
                .validate(&request)
            }
        } else {
            // No model to judge it by: the behaviour checks the JSON it gets (`nil` when it does not parse).
            request.json = request.body.isBlankJSON ? nil : try? JSONParser().parse(request.body)
        }

        // An answer is kept for the exact request while the credential it was computed for lasts; one whose end
        // the behaviour does not know is computed anew each time.
        let cacheable = method == .get && raw.body.isEmpty && (request.principal.map { $0.expiresAt != nil } ?? true)
        let key = CacheKey(version: behaviour.stateVersion, raw, keyedHeaders: keyedHeaders, keyedQuery: keyedQuery)
        if cacheable, let cached = cache.withLock({ $0.value(for: key) }), cached.answers(query: raw.query) {
            return cached.response
        }
        var response =
            try await behaviour.handle(request, endpoint: endpoint, spec: route.spec)
            ?? route.fixture.answer(request, endpoint: endpoint, spec: route.spec)
        if !overlooked.isEmpty { response.headers.append((Self.overlookedHeader, Self.headerText(overlooked))) }
        if cacheable && response.status == 200 {
            let answer = CachedAnswer(response, validUntil: request.principal?.expiresAt, query: raw.query)
            cache.withLock { $0.insert(answer, bytes: key.bytes + answer.bytes, for: key) }
        }
        return response
    }

    /// The answer to a GET computed before for exactly this request (path, query, every header) in the current
    /// state, served without routing, authenticating or validating it again: the server's fast path.
    ///
    /// `nil` when faults or a rate limit are on (every request must meet them), for a request with a body, when
    /// other mocks share the state, and once the credential the answer was computed for has expired.
    package func cachedAnswer(for raw: RawRequest) -> CachedAnswer? {
        guard raw.method == "GET", raw.body.isEmpty, rateLimiter == nil, !hasFaults,
            !behaviour.sharesState, let raw = underBasePath(raw)
        else {
            return nil
        }
        let key = CacheKey(version: behaviour.stateVersion, raw, keyedHeaders: keyedHeaders, keyedQuery: keyedQuery)
        guard let answer = cache.withLock({ $0.value(for: key) }), answer.answers(query: raw.query) else { return nil }
        if let validUntil = answer.validUntil, validUntil <= configuration.now() { return nil }
        return answer
    }

    static func matches(_ template: [PathTemplate.Segment], _ segments: [Substring]) -> Bool {
        guard template.count == segments.count else { return false }
        for (segment, part) in zip(template, segments) {
            switch segment {
            case .literal(let literal): if literal != part { return false }
            case .parameter: continue
            case .template: if segment.match(part) == nil { return false }
            }
        }
        return true
    }

    // MARK: Faults

    private func injectFault(endpoint: String?) async -> MockResponse? {
        let decision: (latency: Int, status: Int?, drop: Bool, malformed: Bool)? = faults.withLock { state in
            let rules = state.rules.filter { $0.applies(to: endpoint) }
            guard !rules.isEmpty else { return nil }
            var latency = 0
            var status: Int?
            var drop = false
            var malformed = false
            for rule in rules {
                // Capped at each step, so neither a rule built in code nor many rules can overflow the sum.
                let cap = FaultRule.maximumLatencyMilliseconds
                latency = min(latency + min(max(0, rule.latencyMilliseconds), cap), cap)
                if rule.errorRate > 0 && state.random.chance(rule.errorRate) { status = rule.status ?? 500 }
                if rule.dropRate > 0 && state.random.chance(rule.dropRate) { drop = true }
                if rule.malformedRate > 0 && state.random.chance(rule.malformedRate) { malformed = true }
            }
            return (latency, status, drop, malformed)
        }
        guard let decision else { return nil }
        if decision.latency > 0 { try? await Task.sleep(for: .milliseconds(decision.latency)) }
        if decision.drop {
            var response = MockResponse(
                status: 200, headers: [("Content-Type", "application/json")], body: Array(#"{"dropped":"#.utf8))
            response.dropConnection = true
            return response
        }
        if let status = decision.status {
            let spec = behaviour.specs[0]
            return behaviour.errorResponse(
                MockError(HTTPStatus(rawValue: status), "injected fault: status \(status)"), spec: spec)
        }
        if decision.malformed {
            return MockResponse(
                status: 200, headers: [("Content-Type", "application/json")], body: Array(#"{"data": [{"id": "#.utf8))
        }
        return nil
    }

    // MARK: Admin routes

    private func admin(_ raw: RawRequest, spec: APISpec) async -> MockResponse {
        switch (raw.method, raw.path) {
        case ("POST", "/__understudy/reset"):
            do {
                try await behaviour.reset()
                cache.withLock { $0.removeAll() }
                return .json(["reset": true])
            } catch {
                return .json(["error": .string("\(error)")], status: 500)
            }
        case ("POST", "/__understudy/token"):
            let user = (try? JSONValue(parsing: raw.body))?["user"]?.stringValue
            do {
                return .json(try await behaviour.issueToken(for: user))
            } catch let error as MockError {
                return behaviour.errorResponse(error, spec: spec)
            } catch {
                return .json(["error": .string("\(error)")], status: 500)
            }
        case ("GET", "/__understudy/faults"):
            return .json(["rules": .array(faultRules.map { .string($0.description) })])
        case ("PUT", "/__understudy/faults"), ("POST", "/__understudy/faults"):
            guard let rules = (try? JSONValue(parsing: raw.body))?["rules"]?.arrayValue else {
                return .json(["error": #"expected {"rules": ["GET /path: latency=200ms", ...]}"#], status: 400)
            }
            do {
                let parsed = try rules.map { rule throws(FaultRuleError) in
                    guard let text = rule.stringValue else { throw FaultRuleError("every rule must be a string") }
                    return try FaultRule(parsing: text)
                }
                setFaults(parsed)
                return .json(["rules": .array(parsed.map { .string($0.description) })])
            } catch {
                return .json(["error": .string(error.description)], status: 400)
            }
        case ("DELETE", "/__understudy/faults"):
            setFaults([])
            return .json(["rules": []])
        default:
            return .json(["error": .string("no admin route \(raw.method) \(raw.path)")], status: 404)
        }
    }
}

/// A request as the transport delivers it.
package struct RawRequest: Sendable {
    package var method: String
    package var path: String
    /// The query string without `?`.
    package var query: String
    package var headers: [String: String]
    package var body: [UInt8]
    /// The client address or another key for rate limiting.
    package var client: String

    package init(
        method: String, path: String, query: String = "", headers: [String: String] = [:], body: [UInt8] = [],
        client: String = "local"
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = Dictionary(
            headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
        self.client = client
    }

    /// Creates a request whose header names are already lower-cased.
    package init(
        method: String, path: String, query: String, lowercasedHeaders: [String: String], body: [UInt8], client: String
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = lowercasedHeaders
        self.body = body
        self.client = client
    }

    /// Splits `path?query`.
    package init(
        method: String, target: String, headers: [String: String] = [:], body: [UInt8] = [], client: String = "local"
    ) {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        self.init(
            method: method, path: String(parts[0]), query: parts.count > 1 ? String(parts[1]) : "", headers: headers,
            body: body,
            client: client)
    }

    func header(_ name: String) -> String? { headers[name] }
}
