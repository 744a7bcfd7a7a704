import CSystemMemory
import Foundation
import UnderstudyCore

extension RuleID {
    public static let signInFailed: RuleID = "auth.sign-in-failed"
    public static let checkSkipped: RuleID = "check.skipped"
    public static let parameterUnresolved: RuleID = "check.parameter-unresolved"
    public static let ambiguity: RuleID = "spec.ambiguity"
    public static let pageSize: RuleID = "pagination.page-size"
    public static let repeatedPage: RuleID = "pagination.repeated-page"
    public static let nextMissing: RuleID = "pagination.next-missing"
    public static let rangeMismatch: RuleID = "pagination.range-mismatch"
}

/// How `understudy check` runs.
public struct CheckOptions: Sendable {
    /// The server's base URL, without a trailing slash (`https://staging.example.com`).
    public var baseURL: String
    public var credentials: Credentials
    /// Path and query parameter values given with `--param name=value`; they win over discovery.
    public var parameters: [String: String]
    /// Whether the write scenarios run (`--allow-writes`).
    public var allowWrites: Bool
    /// Whether the negative and semantic probes run (`--no-probes` turns them off).
    public var probes: Bool
    /// Only these endpoints (`METHOD /path`) are called, when given (`--endpoint`).
    public var endpoints: Set<String>?
    /// How many requests are in flight at once.
    public var concurrency: Int
    /// The seed for generated parameter values and request bodies.
    public var seed: UInt64
    public var transport: HTTPTransport.Options
    /// The clock write scenarios plan dates with.
    public var now: @Sendable () -> Date
    /// The most distinct findings one answer adds (`--max-findings-per-response`); the rest are counted.
    public var maximumFindingsPerResponse: Int
    /// The share of operations (0 to 1) a run must reach, or it fails with a finding (`--min-coverage`).
    public var minimumCoverage: Double?
    /// Whether findings that rest on an assumption of the spec keep their severity (`--strict`); otherwise they
    /// are warnings at most.
    public var strict = false
    /// Whether writes may change what the run did not make (`--destructive`), for a server whose data may be lost;
    /// by default a run changes only the items it made (``WritePolicy``).
    public var destructive = false

    public init(
        baseURL: String, credentials: Credentials = Credentials(), parameters: [String: String] = [:],
        allowWrites: Bool = false, probes: Bool = true, endpoints: Set<String>? = nil, concurrency: Int = 4,
        seed: UInt64 = 1, transport: HTTPTransport.Options = HTTPTransport.Options(),
        maximumFindingsPerResponse: Int = 20, minimumCoverage: Double? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.minimumCoverage = minimumCoverage
        self.probes = probes
        self.now = now
        self.maximumFindingsPerResponse = maximumFindingsPerResponse
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.credentials = credentials
        self.parameters = parameters
        self.allowWrites = allowWrites
        self.endpoints = endpoints
        self.concurrency = max(1, concurrency)
        self.seed = seed
        self.transport = transport
    }
}

/// Checks a live server against one API's spec: every read endpoint (path parameters discovered from
/// earlier answers, pagination walked over two pages) and, when allowed, the writes: the ``Explorer``, told by the
/// spec's ``WriteHints`` what the document leaves to prose.
///
/// ```swift
/// let report = await Checker(spec: Fitness.spec, options: CheckOptions(baseURL: "http://127.0.0.1:4010"))
///     .run()
/// print(TerminalDiagnosticRenderer().render(report.sortedFindings))
/// ```
public struct Checker: Sendable {
    public let spec: APISpec
    public let options: CheckOptions

    public init(spec: APISpec, options: CheckOptions) {
        self.spec = spec
        self.options = options
    }

    /// Runs the check; findings are values, so this does not throw.
    public func run(transport: HTTPTransport? = nil) async -> CheckReport {
        let owned = transport == nil ? HTTPTransport(options: options.transport) : nil
        let session = CheckSession(spec: spec, options: options, transport: transport ?? owned!)
        let started = ContinuousClock.now
        await session.signIn()
        await session.checkReads()
        // Before the writes: a write scenario may end the session it signed in with.
        if options.probes { await Probes.run(session) }
        if options.allowWrites { await Explorer(session: session).run() }
        session.noteDocument()
        session.recordUnvisited()
        await owned?.shutdown()
        var report = session.report(seconds: (ContinuousClock.now - started).inSeconds)
        if let minimum = options.minimumCoverage, let finding = report.coverageFinding(minimum: minimum) {
            report.findings.append(finding)
        }
        return report
    }
}

/// The state of one check run, shared by its concurrent requests.
final class CheckSession: Sendable {
    let spec: APISpec
    let options: CheckOptions
    let transport: HTTPTransport
    let inspector: ResponseInspector
    /// The spec's resources: where path values come from, and what `--allow-writes` creates and cleans up.
    let graph: ResourceGraph
    let state: Locked<State>

    struct State {
        var ledger: FindingLedger
        var journal: [CheckReport.JournalEntry] = []
        var records: [String: CheckReport.EndpointRecord] = [:]
        var token: String?
        var refreshToken: String?
        /// The largest answer body so far, `nil` before the first.
        var largestAnswer: Int?
        /// A large answer was judged since the last request: its freed memory goes back before the next one.
        var largeAnswerFreed = false
        /// What later requests may need of each read answer (ids, names, links: ``JSONValue/skeleton``), by
        /// the shape of the endpoint's path (``ResourceInference/shape(_:)``); never whole bodies, so memory does
        /// not grow with the answers.
        var bodies: [(endpoint: String, body: JSONValue)] = []
        /// The items of each resource seen so far.
        var items = ResourceLedger()
        /// The statuses answered to each endpoint (probes included), for the coverage table.
        var elicited: [String: Set<Int>] = [:]
        /// The path values of the first 2xx answer of each endpoint, which probes reuse.
        var reached: [String: [String: String]] = [:]
        /// Path values the document's OpenAPI links take from answers, by the operation they link to.
        var linked: [String: [String: String]] = [:]
    }

    init(spec: APISpec, options: CheckOptions, transport: HTTPTransport) {
        self.spec = spec
        self.options = options
        self.transport = transport
        inspector = ResponseInspector(spec: spec, maximumBodyBytes: options.transport.maximumBodyBytes)
        graph = ResourceGraph(spec: spec)
        let ledger = FindingLedger(
            redactor: options.credentials.redactor, maximumPerResponse: options.maximumFindingsPerResponse,
            strict: options.strict)
        state = Locked(State(ledger: ledger, token: options.credentials.token))
    }

    var token: String? { state.withLock { $0.token } }
    var refreshToken: String? { state.withLock { $0.refreshToken } }

    func report(seconds: Double) -> CheckReport {
        state.withLock { state in
            let order = Dictionary(uniqueKeysWithValues: spec.endpoints.enumerated().map { ($1.id, $0) })
            var records = state.records.values.sorted {
                (order[$0.endpoint] ?? .max, $0.endpoint) < (order[$1.endpoint] ?? .max, $1.endpoint)
            }
            for index in records.indices {
                records[index].elicited = state.elicited[records[index].endpoint, default: []]
                records[index].documented =
                    spec.endpoint(records[index].endpoint)?.documentedResponses(in: spec)
                    .map(\.status) ?? []
            }
            return CheckReport(
                api: spec.id, baseURL: options.baseURL, findings: state.ledger.findings,
                endpoints: records, seconds: seconds, journal: state.journal, app: spec.app)
        }
    }

    // MARK: Findings

    func add(_ findings: [Diagnostic], request: OutgoingRequest? = nil) {
        state.withLock { _ = $0.ledger.record(findings, request: request) }
    }

    func skip(
        _ endpoint: AnyEndpoint, because reason: String, rule: RuleID = .checkSkipped,
        severity: Diagnostic.Severity = .note
    ) {
        add([Diagnostic(severity, rule: rule, endpoint: endpoint.id, message: reason)])
        state.withLock { state in
            if state.records[endpoint.id] == nil {
                state.records[endpoint.id] = CheckReport.EndpointRecord(
                    endpoint: endpoint.id, requests: 0, seconds: 0, skipped: reason)
            }
        }
    }

    /// Notes a request the run came to, before it goes out (or instead, when `withheld` says why not).
    /// - Returns: where the entry is, for ``answered(_:_:)``.
    @discardableResult
    func journal(_ request: OutgoingRequest, _ endpoint: AnyEndpoint, probe: Bool = false, withheld: String? = nil)
        -> Int
    {
        let entry = CheckReport.JournalEntry(request: request, endpoint: endpoint.id, probe: probe, withheld: withheld)
        return state.withLock { state in
            state.journal.append(entry)
            return state.journal.count - 1
        }
    }

    /// Notes the status the journal's entry at `index` was answered with.
    func answered(_ index: Int, _ exchange: Exchange) {
        state.withLock { $0.journal[index].status = exchange.response?.status }
    }

    /// The endpoints the run has called so far (a record not skipped).
    var called: Set<String> {
        state.withLock { state in Set(state.records.filter { $0.value.skipped == nil }.keys) }
    }

    func remember(secret: String, as name: String) {
        state.withLock { $0.ledger.redactor.add(secret, as: name) }
    }

    /// Gives every endpoint the run did not call a record saying why, so reports list all of them.
    func recordUnvisited() {
        for endpoint in spec.endpoints where state.withLock({ $0.records[endpoint.id] == nil }) {
            if let selected = options.endpoints, !selected.contains(endpoint.id) { continue }
            if case .announced = endpoint.availability {
                _ = canCall(endpoint)
                continue
            }
            let reason = unvisitedReason(endpoint)
            state.withLock {
                $0.records[endpoint.id] = CheckReport.EndpointRecord(
                    endpoint: endpoint.id, requests: 0, seconds: 0, skipped: reason)
            }
        }
    }

    /// Why the run did not call an endpoint it could have called.
    private func unvisitedReason(_ endpoint: AnyEndpoint) -> String {
        guard endpoint.method != .get else { return "not called" }
        guard options.allowWrites else { return "changes data: runs only with --allow-writes" }
        if spec.writeHints.isLeftToAFlow(endpoint.id) { return "left to the spec's write flow, which did not call it" }
        if signInEndpoints.contains(endpoint.id) {
            return "the sign-in: checked when the run signs in with\(signInHint.dropFirst(3))"
        }
        guard let (resource, operation) = graph.role(of: endpoint.id), operation.role == .delete else {
            return endpoint.method == .delete && !Explorer.isBelowAnItem(endpoint.path)
                ? "deletes only items the check made, and it names none" : "not called"
        }
        guard let create = resource.operation(.create) else {
            return "deletes only items the check made, and \(resource.name) has no create"
        }
        return "deletes only items the check made, and \(create.endpoint) made none"
    }

    /// Says once per run what the document leaves open or contradicts, for the endpoints checked: the
    /// document's contradictions (``DocumentLint``; the sample client's as a warning, examples as notes: they
    /// are about the document, not the server) and the spec's choices as notes.
    func noteDocument() {
        let checked = called
        for contradiction in DocumentLint.contradictions(in: spec)
        where contradiction.endpoints.contains(where: checked.contains) || contradiction.endpoints.isEmpty {
            var finding = contradiction.diagnostic
            // An error of the document (its examples) says nothing of the server: a note here.
            if finding.severity == .error { finding.severity = .note }
            add([finding])
        }
        for ambiguity in spec.ambiguities
        where ambiguity.kind == .choice && (ambiguity.endpoint.map(checked.contains) ?? true) {
            add([
                Diagnostic(
                    .note, rule: .ambiguity, endpoint: ambiguity.endpoint,
                    message: "\(ambiguity.id): \(ambiguity.summary) Understudy: \(ambiguity.resolution)")
            ])
        }
    }

    // MARK: Requests

    /// Builds a request for `endpoint`: path and query parameters, the credentials its auth needs, a JSON body;
    /// generated values are changed to keep the endpoint's ``RequestRule``s.
    func request(
        _ endpoint: AnyEndpoint, path: [String: String] = [:], query: [(String, String)] = [],
        headers: HeaderFields = [:],
        body: JSONValue? = nil, authenticated: Bool = true
    ) -> OutgoingRequest {
        var (path, query, body) = (path, query, body)
        endpoint.keepRules(path: &path, query: &query, body: &body)
        var url = options.baseURL + endpoint.path.expand(path)
        var fields: HeaderFields = ["Accept": "application/json"]
        if let apiKey = options.credentials.apiKey,
            endpoint.parameters.contains(where: { $0.location == .header && $0.name == "apikey" })
        {
            fields.add("apikey", apiKey)
        }
        if authenticated, let alternative = satisfiableSecurity(endpoint) {
            for scheme in alternative {
                switch scheme {
                case .bearer: if let token { fields.add("Authorization", "Bearer \(token)") }
                case .apiKey(let name, .header): if let apiKey = options.credentials.apiKey { fields.add(name, apiKey) }
                case .apiKey(let name, .query):
                    if let apiKey = options.credentials.apiKey { query.append((name, apiKey)) }
                case .apiKey(let name, .cookie):
                    if let apiKey = options.credentials.apiKey { fields.add("Cookie", "\(name)=\(apiKey)") }
                case .basic: break
                }
            }
        } else if authenticated, endpoint.security.isEmpty, endpoint.auth != .none, let token {
            fields.add("Authorization", "Bearer \(token)")
        }
        if !query.isEmpty {
            url +=
                "?"
                + query.map { "\(PathTemplate.percentEncode($0.0))=\(PathTemplate.percentEncode($0.1))" }.joined(
                    separator: "&")
        }
        // Required header parameters (`xero-tenant-id`): `--param`, the document's example, or a generated value.
        var generator = FixtureGenerator(seed: options.seed, spec: spec)
        for parameter in endpoint.parameters where parameter.location == .header && parameter.required {
            guard fields[parameter.name] == nil, parameter.name.lowercased() != "authorization" else { continue }
            let value =
                options.parameters[parameter.name]
                ?? Self.text(parameter.example ?? generator.value(for: parameter))
            fields.add(parameter.name, value)
        }
        // A request sent without credentials carries none of the ones given as headers either.
        let credentialHeaders = Set(
            ["authorization"]
                + endpoint.security.joined().compactMap { scheme -> String? in
                    if case .apiKey(let name, .header) = scheme { return name.lowercased() }
                    return nil
                })
        for field in options.credentials.headers
        where authenticated || !credentialHeaders.contains(field.name.lowercased()) {
            fields.set(field.name, field.value)
        }
        for field in headers { fields.set(field.name, field.value) }
        var bytes: [UInt8]?
        if let (encoded, contentType) = encoded(body, for: endpoint) {
            bytes = encoded
            fields.add("Content-Type", contentType)
        }
        return OutgoingRequest(method: endpoint.method, url: url, headers: fields, body: bytes)
    }

    /// Sends `request`, judges the answer, records the findings (with a curl line) and returns the exchange
    /// and the parsed body of a 2xx answer.
    /// Sends a request of `endpoint`, judges its answer, and learns the items it names.
    /// - Parameter path: the request's path values, which place the items of a nested collection.
    /// - Returns: the exchange without its body's bytes (judged here, never kept), and the body parsed when
    ///   the answer is a 2xx.
    @discardableResult
    func perform(
        _ endpoint: AnyEndpoint, _ request: OutgoingRequest, expecting expected: Set<HTTPStatus>?,
        path: [String: String] = [:]
    ) async -> (exchange: Exchange, body: JSONValue?) {
        // An interrupted run sends nothing new; its clean-up runs in a task of its own.
        if Task.isCancelled {
            return (Exchange(request: request, outcome: .failure(TransportFailure(.other, "interrupted"))), nil)
        }
        if let reason = refusal(of: request, for: endpoint) {
            skip(endpoint, because: "not sent: \(reason) (--destructive sends it)")
            journal(request, endpoint, withheld: reason)
            return (Exchange(request: request, outcome: .failure(TransportFailure(.other, reason))), nil)
        }
        let entry = journal(request, endpoint)
        if state.withLock({ state in
            defer { state.largeAnswerFreed = false }; return state.largeAnswerFreed
        }) {
            Memory.giveBack()
        }
        var exchange = await transport.send(request).inflated(limit: options.transport.maximumBodyBytes)
        answered(entry, exchange)
        let size = exchange.response?.body.count ?? 0
        let (findings, body) = inspector.inspect(exchange, endpoint: endpoint, expecting: expected)
        add(findings, request: request)
        if case .response(var response) = exchange.outcome {
            response.body = []
            exchange.outcome = .response(response)
            if (200..<300).contains(response.status) {
                learn(endpoint, path: path, response: response, body: body)
                follow(endpoint.links, request: request, path: path, response: response, body: body)
            }
        }
        state.withLock { state in
            if let status = exchange.response?.status { state.elicited[endpoint.id, default: []].insert(status) }
            if let status = exchange.response?.status, (200..<300).contains(status), state.reached[endpoint.id] == nil {
                state.reached[endpoint.id] = path
            }
            var record =
                state.records[endpoint.id] ?? CheckReport.EndpointRecord(endpoint: endpoint.id, requests: 0, seconds: 0)
            record.requests += 1
            record.seconds += exchange.duration
            state.largestAnswer = max(state.largestAnswer ?? 0, size)
            if size > Self.largeAnswerBytes { state.largeAnswerFreed = true }
            record.skipped = nil
            state.records[endpoint.id] = record
            if let body, endpoint.method == .get {
                state.bodies.append((ResourceInference.shape(endpoint.path.segments), body.skeleton))
            }
        }
        return (exchange, body)
    }

    /// Whether `endpoint` can be called with what the session has; skips it (with a note) when not.
    func canCall(_ endpoint: AnyEndpoint) -> Bool {
        if let selected = options.endpoints, !selected.contains(endpoint.id) { return false }
        if case .announced(let note) = endpoint.availability {
            skip(endpoint, because: "announced but not implemented yet (\(note))")
            return false
        }
        switch endpoint.auth {
        case .required, .role:
            if !endpoint.security.isEmpty {
                guard satisfiableSecurity(endpoint) != nil else {
                    let needs = Set(endpoint.security.joined().map(Self.option)).sorted().joined(separator: " or ")
                    skip(endpoint, because: "needs a credential: give \(needs)")
                    return false
                }
            } else if token == nil {
                skip(endpoint, because: "needs a credential: give --token\(signInHint)")
                return false
            }
        case .none, .optional: break
        }
        if options.credentials.apiKey == nil,
            endpoint.parameters.contains(where: { $0.location == .header && $0.name == "apikey" && $0.required })
        {
            skip(endpoint, because: "needs the project's anon key: give --apikey")
            return false
        }
        return true
    }

    /// The first of an imported endpoint's security alternatives the run has every credential of (`--token` for a
    /// bearer, `--apikey` for an API key, `--header` with `Authorization` for basic); `nil` when none.
    func satisfiableSecurity(_ endpoint: AnyEndpoint) -> [SecurityScheme]? {
        endpoint.security.first { alternative in
            !alternative.isEmpty
                && alternative.allSatisfy { scheme in
                    switch scheme {
                    case .bearer: token != nil
                    case .apiKey: options.credentials.apiKey != nil
                    case .basic: options.credentials.headers.contains { $0.name.lowercased() == "authorization" }
                    }
                }
        }
    }

    private static func option(_ scheme: SecurityScheme) -> String {
        switch scheme {
        case .bearer: "--token"
        case .apiKey: "--apikey"
        case .basic: "--header 'Authorization: Basic …'"
        }
    }

    private var signInHint: String {
        if spec.login != nil { return " or --login email:password" }
        if case .oauth2 = spec.auth { return " or --client-id and --client-secret" }
        return ""
    }

    // MARK: Sign-in

    /// The endpoints a run signs in with (`--login`, client credentials): checked by signing in, never sent a
    /// made-up body.
    var signInEndpoints: Set<String> {
        var ids = Set(spec.login.map { [$0.endpoint] } ?? [])
        if case .oauth2(let path) = spec.auth { ids.insert("POST \(path)") }
        return ids
    }

    /// Obtains a token from `--login` or client credentials, used unless `--token` gave one; a failure is a
    /// finding and the run goes on without a token.
    func signIn() async {
        let credentials = options.credentials
        if let login = credentials.login, let plan = spec.login, let endpoint = spec.endpoint(plan.endpoint) {
            let credentials: JSONValue = [
                plan.emailField: .string(login.email), plan.passwordField: .string(login.password),
            ]
            let request = request(endpoint, body: credentials, authenticated: false)
            let (_, body) = await perform(endpoint, request, expecting: [endpoint.success])
            adopt(
                token: body.flatMap { DecodeVerdict.value(at: plan.token, in: $0)?.stringValue },
                refresh: body.flatMap { body in
                    plan.refreshToken.flatMap { DecodeVerdict.value(at: $0, in: body)?.stringValue }
                },
                from: endpoint)
        } else if let client = credentials.client, case .oauth2(let path) = spec.auth,
            let endpoint = spec.endpoint("POST \(path)")
        {
            var request = request(endpoint, authenticated: false)
            let form = [
                ("grant_type", "client_credentials"), ("client_id", client.id), ("client_secret", client.secret),
            ]
            request.body = Array(form.map { "\($0.0)=\(PathTemplate.percentEncode($0.1))" }.joined(separator: "&").utf8)
            request.headers.set("Content-Type", "application/x-www-form-urlencoded")
            let (_, body) = await perform(endpoint, request, expecting: [endpoint.success])
            adopt(
                token: body?["access_token"]?.stringValue, refresh: body?["refresh_token"]?.stringValue, from: endpoint)
        }
    }

    private func adopt(token: String?, refresh: String?, from endpoint: AnyEndpoint) {
        guard let token else {
            add([
                Diagnostic(
                    .error, rule: .signInFailed, endpoint: endpoint.id,
                    message: "signing in gave no access token; endpoints that need one are skipped")
            ])
            return
        }
        remember(secret: token, as: "UNDERSTUDY_TOKEN")
        if let refresh { remember(secret: refresh, as: "UNDERSTUDY_REFRESH_TOKEN") }
        // A `--token` given too is a user's (42's client credentials give an application token, which reaches no
        // `/v2/me`): the sign-in is checked, the given token kept.
        guard options.credentials.token == nil else { return }
        state.withLock {
            $0.token = token
            $0.refreshToken = refresh
        }
    }

    // MARK: Reads

    /// Every available `GET` endpoint (and every search by `POST`), in rounds: an endpoint runs once its path
    /// parameters are known from earlier answers; what is left then runs with the document's example values or
    /// values generated from the parameters' schemas, where a documented 4xx is an answer too.
    func checkReads() async {
        var pending = spec.endpoints.filter { endpoint in
            (endpoint.method == .get || graph.role(of: endpoint.id)?.operation.role == .search) && canCall(endpoint)
        }
        var guessing = false
        while !pending.isEmpty {
            var ready: [(AnyEndpoint, PathValues)] = []
            var waiting: [AnyEndpoint] = []
            for endpoint in pending {
                if let values = pathValues(for: endpoint, guessing: guessing) {
                    ready.append((endpoint, values))
                } else {
                    waiting.append(endpoint)
                }
            }
            if ready.isEmpty {
                guard guessing else {
                    guessing = true
                    continue
                }
                for endpoint in waiting {
                    let names = endpoint.path.parameterNames.filter { options.parameters[$0] == nil }
                    skip(
                        endpoint,
                        because:
                            "no value for path parameter \(names.joined(separator: ", ")) was found in earlier answers; "
                            + "give --param \(names.first ?? "name")=VALUE",
                        rule: .parameterUnresolved, severity: .warning)
                }
                return
            }
            await forEach(ready) { endpoint, values in await self.checkRead(endpoint, path: values) }
            pending = waiting
        }
    }

    /// Reads again what the writes' links lead to, with the values the links gave: a read sent before with other
    /// values (made up: the preview of a draft the check had not written yet) now names what a write made.
    func checkLinkedReads() async {
        let linked = state.withLock { state in
            state.linked.filter { target, values in
                guard let reached = state.reached[target] else { return true }
                return values.contains { reached[$0.key] != $0.value }
            }
        }
        for endpoint in spec.endpoints where endpoint.method == .get && canCall(endpoint) {
            guard let values = linked[endpoint.id],
                let path = pathValues(for: endpoint, guessing: true, preset: values)
            else { continue }
            await checkRead(endpoint, path: path)
        }
    }

    /// Runs `body` for every element, at most `options.concurrency` at a time; one at a time until an answer
    /// has arrived, and for good once one was larger than ``largeAnswerBytes`` (each costs several times its
    /// size to judge, so a server of 30 MB answers is checked within a few hundred megabytes).
    func forEach<Element: Sendable>(_ elements: [Element], _ body: @escaping @Sendable (Element) async -> Void) async {
        await withTaskGroup(of: Void.self) { group in
            var iterator = elements.makeIterator()
            var running = 0
            func width() -> Int {
                let largest = state.withLock { $0.largestAnswer }
                return largest == nil || largest! > Self.largeAnswerBytes ? 1 : options.concurrency
            }
            repeat {
                while running < width(), let element = iterator.next() {
                    running += 1
                    group.addTask { await body(element) }
                }
                guard await group.next() != nil else { break }
                running -= 1
            } while true
        }
    }

    /// Answers above this size are judged one at a time.
    static let largeAnswerBytes = 4 << 20

    private func checkRead(_ endpoint: AnyEndpoint, path: PathValues) async {
        // A value made up for a path parameter names nothing the server need have: a documented 4xx is an answer.
        let expected = endpoint.expectedStatuses(guessedPath: path.guessed)
        let body = endpoint.method == .get ? nil : requestBody(for: endpoint)
        let request = request(endpoint, path: path.values, query: queryValues(for: endpoint), body: body)
        // Only the answer's skeleton lives on while the walk fetches more pages: a large first page is freed.
        guard let first = await perform(endpoint, request, expecting: expected, path: path.values).body?.skeleton,
            endpoint.method == .get
        else { return }
        await PaginationWalk(session: self, endpoint: endpoint, path: path.values, query: queryValues(for: endpoint))
            .run(first: first)
        await tryEnumeratedValues(endpoint, path: path.values)
    }

    /// One request per value of each enumerated query parameter the read does not send already, so every
    /// documented filter is seen to answer.
    private func tryEnumeratedValues(_ endpoint: AnyEndpoint, path: [String: String]) async {
        let base = queryValues(for: endpoint)
        for parameter in endpoint.parameters
        where parameter.location == .query && options.parameters[parameter.name] == nil {
            let values: [String]
            switch parameter.schema.resolved(in: spec.definitions) {
            case .string(let constraints)?: values = constraints.values ?? []
            case .integer(let constraints)?: values = constraints.values?.map(String.init) ?? []
            case .array(let array)?:
                if case .string(let constraints)? = array.items.resolved(in: spec.definitions) {
                    values = constraints.values ?? []
                } else {
                    values = []
                }
            default: values = []
            }
            // Without a credential, a value may ask for one where the credential is optional (`visibility=friends`).
            var expected = endpoint.expectedStatuses()
            if token == nil, endpoint.auth == .optional {
                expected?.formUnion([.unauthorized, .forbidden].filter { endpoint.documents($0) })
            }
            for value in values.prefix(12) {
                let query = base.filter { $0.0 != parameter.name } + [(parameter.name, value)]
                await perform(endpoint, request(endpoint, path: path, query: query), expecting: expected, path: path)
            }
        }
    }

    /// Query parameters: `--param`, else a value generated for each required one; an array is sent as the
    /// document says, one pair per element (`status=a&status=b`) or joined (`status=a,b`).
    func queryValues(for endpoint: AnyEndpoint) -> [(String, String)] {
        var generator = FixtureGenerator(seed: options.seed, spec: spec)
        generator.direction = .request
        return endpoint.parameters.filter { $0.location == .query }.flatMap { parameter -> [(String, String)] in
            if let given = options.parameters[parameter.name] { return [(parameter.name, given)] }
            guard parameter.required, parameter.defaultValue == nil else { return [] }
            let value = parameter.example ?? generator.value(for: parameter)
            guard case .array(let elements) = value else { return [(parameter.name, Self.text(value))] }
            let texts = elements.map(Self.text)
            return parameter.explode
                ? texts.map { (parameter.name, $0) } : [(parameter.name, texts.joined(separator: ","))]
        }
    }

    static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let string): string
        case .number(let number): number.literal
        case .bool(let bool): String(bool)
        default: value.serialized()
        }
    }

    /// The path values of the first 2xx answer of an endpoint, or `nil` when none came.
    func reachedPathValues(for endpoint: AnyEndpoint) -> [String: String]? {
        state.withLock { $0.reached[endpoint.id] }
    }
}

/// Finds a value for a path parameter in earlier answers: first in the list the path extends
/// (`GET /v2/users` for `/v2/users/{login}`), then anywhere (`campus[0].id` in `GET /v2/me` for
/// `/v2/campus/{id}`, or a `campus_id` member).
enum ParameterDiscovery {
    /// Names too common to say which item a value names.
    private static let generic: Set<String> = ["id", "_id", "uid", "uuid", "key", "name", "slug", "code"]

    /// A value, and whether it comes from the list the path extends (else from a member named like the parameter
    /// somewhere in an answer, which may name another item).
    static func value(
        for name: String, owner: String?, listPath: String, in bodies: [(endpoint: String, body: JSONValue)]
    )
        -> (value: String, certain: Bool)?
    {
        let keys = name == "id" ? ["id", "_id"] : [name]
        if let list = bodies.first(where: { $0.endpoint == listPath }), let item = firstItem(in: list.body) {
            for key in keys { if let value = scalar(item[key]) { return (value, true) } }
            // `/pets/{petId}` under `/pets`: the item's own id.
            if name.lowercased().hasSuffix("id"), let value = scalar(item["id"]) { return (value, true) }
        }
        guard let owner else { return nil }
        let singular = owner.hasSuffix("s") ? String(owner.dropLast()) : owner
        let named = generic.contains(name.lowercased()) ? [] : [name]
        for (_, body) in bodies {
            if let value = search(
                body, depth: 0,
                match: { key, value in
                    if ([owner, singular] + named).contains(key) {
                        let item = value.arrayValue?.first ?? value
                        // `"tenant": "default_tenant"`, `"databases": ["default_database"]`: the value names it.
                        if let found = scalar(item) { return found }
                        for candidate in keys { if let found = scalar(item[candidate]) { return found } }
                    }
                    if ["\(singular)_\(name)", "\(singular)\(name.prefix(1).uppercased())\(name.dropFirst())"].contains(
                        key)
                    {
                        return scalar(value)
                    }
                    return nil
                })
            {
                return (value, false)
            }
        }
        return nil
    }

    /// The first item of a list answer (`[{...}]`, `{data: {items: [...]}}`).
    static func firstItem(in body: JSONValue) -> JSONValue? {
        PaginationWalk.items(in: body)?.first
    }

    private static func search(_ value: JSONValue, depth: Int, match: (String, JSONValue) -> String?) -> String? {
        guard depth < 8 else { return nil }
        switch value {
        case .object(let members):
            for key in members.keys.sorted() { if let found = match(key, members[key]!) { return found } }
            for key in members.keys.sorted() {
                if let found = search(members[key]!, depth: depth + 1, match: match) { return found }
            }
        case .array(let elements):
            for element in elements.prefix(3) {
                if let found = search(element, depth: depth + 1, match: match) { return found }
            }
        default: break
        }
        return nil
    }

    private static func scalar(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let string)? where !string.isEmpty: string
        case .number(let number)?: number.literal
        default: nil
        }
    }
}

/// The process's heap.
public enum Memory {
    /// Returns the heap's free pages to the system. glibc keeps what a thread freed in that thread's arena: the
    /// tree of a 30 MB answer parsed on one thread stays resident while the next is parsed on another, so
    /// without this a check's peak grows with the number of threads that ever parsed a large answer.
    static func giveBack() {
        _ = c_system_memory_give_back()
    }

    /// Makes all threads allocate from one heap, for a process that parses large answers on whichever thread
    /// is free: with glibc's default of a heap per thread (up to 8 per core), each keeps the freed trees of
    /// the answers it parsed. Call first thing in `main`, before other threads allocate. The checker's
    /// I/O-bound threads lose nothing measurable to the shared lock; sixteen 30 MB answers peak at 188 MiB
    /// instead of 330–440 (`scripts/bench-check-memory.sh`).
    public static func shareOneHeap() {
        c_system_memory_use_one_arena()
    }
}
