import ArgumentParser
import Foundation
import UnderstudyCheck
import UnderstudyCore
import UnderstudyMock
import UnderstudyMockServer
import UnderstudySpecs

/// `understudy check`: conformance of a live server.
struct Check: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a live server against an API's contract: status, headers, schema and the app's decode.",
        discussion: """
            Reads every GET endpoint (path parameters from earlier answers, the document's examples or --param), \
            walks paged lists over two pages and tries each value of an enumerated query parameter. With \
            --allow-writes it runs the API's write scenario, or explores the resources of a --spec document: it \
            creates items of its own, reads them back, changes them, runs their actions and deletes them, newest \
            first; with --other-token, another user must be refused them. Every output ends with the coverage: the operations reached and the documented statuses \
            elicited. Tokens, keys and passwords never appear in the output: curl lines use \
            $UNDERSTUDY_TOKEN and friends. Exit status: 0 clean, 1 a finding reached --fail-on, 2 the tool \
            failed, 64 bad usage.
            """)

    @Option(help: "The API (\(APISelection.oneAPIList)).")
    var api: APISelection?

    @Option(help: "An OpenAPI 3 or Swagger 2 document (JSON or YAML) to check the server against, instead of --api.")
    var spec: String?

    @Option(help: "The server's base URL, e.g. https://staging.example.com.")
    var baseURL: String

    @Option(
        help:
            "A bearer token sent to endpoints that take one; with --login or --client-id too, the sign-in is checked and this token kept. Default: $UNDERSTUDY_TOKEN."
    )
    var token: String?

    @Option(
        help: """
            Another user's bearer token: with --allow-writes, the operations the document declares the caller's own \
            (x-understudy-owner) are sent on the items the run makes with this token too, and each must be refused \
            (404, or 403 where declared) or leave the item out of its list. Default: $UNDERSTUDY_OTHER_TOKEN.
            """)
    var otherToken: String?

    @Option(help: "An extra request header, 'Name: value'. Repeatable.")
    var header: [String] = []

    @Option(help: "VideGreniers: sign in with email:password. Default: $UNDERSTUDY_LOGIN.")
    var login: String?

    @Option(help: "42: the OAuth application's client id (client_credentials).")
    var clientId: String?

    @Option(help: "42: the OAuth application's client secret. Default: $UNDERSTUDY_CLIENT_SECRET.")
    var clientSecret: String?

    @Option(help: "Supabase: the project's anon key, sent as the apikey header. Default: $UNDERSTUDY_APIKEY.")
    var apikey: String?

    @Option(help: "A path or query parameter value, name=value. Repeatable.")
    var param: [String] = []

    @Option(help: "Check only this endpoint, as `understudy list` shows it (\"GET /activities\"). Repeatable.")
    var endpoint: [String] = []

    @Flag(help: "Run the writes: the API's write scenario, or an exploration of the document's resources; both clean up.")
    var allowWrites = false

    @Flag(
        help: """
            With --allow-writes, also send the writes that change what the run did not make (deletes and changes of \
            collections and of items it did not create, bulk and filtered actions). Only for a server whose data may \
            be lost.
            """)
    var destructive = false

    @Flag(
        help: """
            Print every request the run would send (and each write it would withhold, with the reason) without \
            sending any: the run is rehearsed against a mock of the same API on 127.0.0.1.
            """)
    var plan = false

    @Flag(help: "Skip the probes (unknown ids, refused tokens, invalid values, list semantics).")
    var noProbes = false

    @Option(help: "Output format: text, json or github.")
    var format: Format = .text

    @Option(help: "Also write a JUnit XML report to this file.")
    var junit: String?

    @Option(help: "The lowest severity that fails the run: error, warning or note.")
    var failOn: Diagnostic.Severity = .error

    @Option(help: "Seconds allowed for one request, body included.")
    var timeout: Double = 10

    @Option(help: "Requests in flight at once.")
    var concurrency: Int = 4

    @Option(help: "Retries of a request that failed in transport (never of an HTTP answer).")
    var retries: Int = 0

    @Option(help: "Abandon response bodies larger than this many bytes.")
    var maxBodyBytes: Int = 32 << 20

    @Option(help: "The most distinct findings one answer adds; the rest are counted as \"and N more like this\".")
    var maxFindingsPerResponse: Int = 20

    @Option(
        help: ArgumentHelp(
            "Fail the run (a finding, exit 1) when it reaches fewer than this percentage of the operations.",
            valueName: "percent"))
    var minCoverage: Double?

    @Flag(
        help: """
            Treat findings that rest on the spec's assumptions (a status or a query value no document names; \
            `understudy lint` lists them) as errors; otherwise they are warnings that name the assumption.
            """)
    var strict = false

    @Flag(help: "Show notes (the spec's choices, the document's examples) in the text output; JSON always has them.")
    var notes = false

    @Flag(
        help: """
            Judge a --spec document's `format` as an assertion (a date-time that is not one is an error), not as JSON \
            Schema's annotation (a warning).
            """)
    var formatAssertion = false

    @Option(help: "The app's date decoding strategy, when it differs from the spec's: \(DateStrategyArgument.choices).")
    var dateStrategy: DateStrategyArgument?

    @Option(help: "The app's key decoding strategy, when it differs from the spec's: \(KeyStrategyArgument.choices).")
    var keyStrategy: KeyStrategyArgument?

    @Option(
        help: """
            A JSON file with each API's app decoder settings: {"apps": {"videgreniers": {"dates": "iso8601", \
            "keys": "default"}}}. Command-line strategies win.
            """)
    var config: String?

    enum Format: String, CaseIterable, ExpressibleByArgument {
        case text, json, github
    }

    func validate() throws {
        guard let url = URL(string: baseURL), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            url.host != nil
        else {
            throw ValidationError("--base-url must be an http or https URL with a host, such as http://127.0.0.1:4010")
        }
        guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
        guard (1...64).contains(concurrency) else { throw ValidationError("--concurrency must be between 1 and 64") }
        guard (0...5).contains(retries) else { throw ValidationError("--retries must be between 0 and 5") }
        guard maxBodyBytes > 0 else { throw ValidationError("--max-body-bytes must be positive") }
        guard maxFindingsPerResponse > 0 else { throw ValidationError("--max-findings-per-response must be positive") }
        guard (0...100).contains(minCoverage ?? 0) else { throw ValidationError("--min-coverage must be between 0 and 100") }
        guard api != .all else { throw ValidationError("--api must name one API (or apinest); each server has its own --base-url") }
        let specs = try appSpecs()
        let hasSecret = clientSecret != nil || ProcessInfo.processInfo.environment["UNDERSTUDY_CLIENT_SECRET"] != nil
        guard clientId == nil || hasSecret else {
            throw ValidationError("--client-id needs --client-secret (or $UNDERSTUDY_CLIENT_SECRET)")
        }
        guard clientSecret == nil || clientId != nil else { throw ValidationError("--client-secret needs --client-id") }
        guard !destructive || allowWrites else { throw ValidationError("--destructive needs --allow-writes") }
        guard otherToken == nil || allowWrites else {
            throw ValidationError("--other-token needs --allow-writes: it asks for the items the run makes")
        }
        let credentials = try makeCredentials()
        for spec in specs {
            if let problem = credentials.problem(for: spec) { throw ValidationError(problem) }
        }
        _ = try parameters()
        let selection = api.map { "--api \($0.name)" } ?? "--spec \(spec ?? "")"
        for id in endpoint where !specs.contains(where: { $0.endpoint(id) != nil }) {
            throw ValidationError("no endpoint \"\(id)\" in \(selection); see `understudy list \(selection)`")
        }
    }

    func makeCredentials() throws -> Credentials {
        var headers = HeaderFields()
        for line in header {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, !parts[0].trimmingCharacters(in: .whitespaces).isEmpty else {
                throw ValidationError("--header must look like 'Name: value'")
            }
            headers.add(parts[0].trimmingCharacters(in: .whitespaces), parts[1].trimmingCharacters(in: .whitespaces))
        }
        // Secrets can come from the environment, so they stay out of shell history and `ps`.
        let environment = ProcessInfo.processInfo.environment
        let login = self.login ?? environment["UNDERSTUDY_LOGIN"]
        var signIn: (email: String, password: String)?
        if let login {
            let parts = login.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { throw ValidationError("--login must look like email:password") }
            signIn = (String(parts[0]), String(parts[1]))
        }
        return Credentials(
            token: token ?? environment["UNDERSTUDY_TOKEN"], apiKey: apikey ?? environment["UNDERSTUDY_APIKEY"],
            login: signIn, client: clientId.map { ($0, clientSecret ?? environment["UNDERSTUDY_CLIENT_SECRET"] ?? "") },
            headers: headers, otherToken: otherToken ?? environment["UNDERSTUDY_OTHER_TOKEN"])
    }

    func parameters() throws -> [String: String] {
        var values: [String: String] = [:]
        for entry in param {
            let parts = entry.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, !parts[0].isEmpty else { throw ValidationError("--param must look like name=value") }
            values[String(parts[0])] = String(parts[1])
        }
        return values
    }

    /// The selected specs with the app decoder settings the team gave (`--config`, then the strategies).
    func appSpecs() throws -> [APISpec] {
        let file = try config.map(AppDecoderConfiguration.init(contentsOf:))
        return try SpecFiles.single(api: api, document: spec).map { spec in
            var settings = spec.app.decoder
            var origins: [String] = []
            if let file, let given = try file.settings(for: spec.id, default: settings) {
                settings = given
                origins.append(file.path)
            }
            if let dateStrategy {
                settings.dates = dateStrategy.strategy
                origins.append("--date-strategy")
            }
            if let keyStrategy {
                settings.keys = keyStrategy.strategy
                origins.append("--key-strategy")
            }
            var spec = origins.isEmpty ? spec : spec.withApp(settings, origin: origins.joined(separator: ", "))
            spec.assertsFormats = formatAssertion
            return spec
        }
    }

    func run() async throws {
        var options = CheckOptions(
            baseURL: baseURL, credentials: try makeCredentials(), parameters: try parameters(), allowWrites: allowWrites,
            probes: !noProbes, endpoints: endpoint.isEmpty ? nil : Set(endpoint), concurrency: concurrency,
            transport: HTTPTransport.Options(
                timeout: .milliseconds(Int64(timeout * 1000)), maximumBodyBytes: maxBodyBytes, retries: retries),
            maximumFindingsPerResponse: maxFindingsPerResponse, minimumCoverage: minCoverage.map { $0 / 100 })
        options.strict = strict
        options.destructive = destructive
        let specs = try appSpecs()
        if plan { return try await printPlan(specs, options: options) }
        let transport = HTTPTransport(options: options.transport)
        // SIGINT or SIGTERM stops the run; it still removes what it made and reports. A second one ends it at once.
        let signals = SignalWaiter()
        let checking = Task { [options] in
            var reports: [CheckReport] = []
            for spec in specs where !Task.isCancelled {
                reports.append(await Checker(spec: spec, options: options).run(transport: transport))
            }
            return reports
        }
        let watching = Task {
            let name = await signals.next()
            guard !Task.isCancelled else { return }
            FileHandle.standardError.write(Data("\(name): stopping; removing what the run made\n".utf8))
            checking.cancel()
            _ = await signals.next()
            guard !Task.isCancelled else { return }
            Foundation.exit(130)
        }
        let reports = await checking.value
        watching.cancel()
        await transport.shutdown()
        if let junit {
            do {
                try Data(CheckReportRenderer.junit(reports, failOn: failOn).utf8).write(
                    to: URL(fileURLWithPath: junit), options: .atomic)
            } catch {
                FileHandle.standardError.write(Data("error: cannot write the JUnit report to \(junit): \(error)\n".utf8))
                throw ExitStatus.toolFailure
            }
        }
        let findings = reports.flatMap(\.sortedFindings)
        switch format {
        case .text:
            let color = isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
            for line in reports.compactMap(\.appLine) { print(line) }
            print(TerminalDiagnosticRenderer(useColor: color, showNotes: notes).render(findings), terminator: "")
            for report in reports { print(report.coverageTable, terminator: "") }
            let requests = reports.reduce(0) { $0 + $1.requests }
            let seconds = reports.reduce(0) { $0 + $1.seconds }
            print("\(requests) requests in \(String(format: "%.2f", seconds)) s")
        case .json: print(CheckReportRenderer.json(reports), terminator: "")
        case .github: print(CheckReportRenderer.github(reports), terminator: "")
        }
        if findings.contains(where: { $0.severity >= failOn }) { throw ExitStatus.findings }
    }
}

extension Check {
    /// `--plan`: rehearses the run against a mock of each spec on a free loopback port, one request at a time so the
    /// order is the one printed, and prints what it sent; nothing goes to `--base-url`.
    func printPlan(_ specs: [APISpec], options: CheckOptions) async throws {
        let running: [MockLauncher.Running]
        do {
            running = try await MockLauncher(port: 0).start(api?.name, specs: api == nil ? specs : [])
        } catch {
            FileHandle.standardError.write(Data("error: cannot start the mock to rehearse on: \(error)\n".utf8))
            throw ExitStatus.toolFailure
        }
        print("Plan: the requests check would send, rehearsed on a mock of the API (nothing was sent to \(baseURL)).")
        print("The server's own answers (ids, pages, refusals) can lead a real run to other values or requests.\n")
        for spec in specs {
            guard let mock = running.first(where: { $0.behaviour.specs.contains { $0.id == spec.id } }) else { continue }
            var rehearsal = options
            rehearsal.baseURL = mock.baseURL
            rehearsal.concurrency = 1
            // The server's tokens mean nothing to the mock: a given token stands in as one the mock issued.
            if options.credentials.token != nil {
                rehearsal.credentials.token = try? await mock.behaviour.issueToken(for: nil)["token"]?.stringValue
            }
            if options.credentials.otherToken != nil {
                rehearsal.credentials.otherToken =
                    try? await mock.behaviour.issueToken(for: "understudy-other")["token"]?.stringValue
            }
            let report = await Checker(spec: spec, options: rehearsal).run()
            print(CheckPlan(report, rehearsedAt: mock.baseURL, server: options.baseURL, redactor: options.credentials.redactor).text)
        }
        for entry in running { await entry.server.stop() }
    }
}

extension Diagnostic.Severity: ExpressibleByArgument {}

/// A `--date-strategy` value: one of the short names ``DecoderSettings/DateStrategy/init(name:)`` reads.
struct DateStrategyArgument: ExpressibleByArgument {
    static let names = ["iso8601", "iso8601-fractions", "seconds", "milliseconds", "deferred"]
    static var choices: String { sentence(names) }
    let strategy: DecoderSettings.DateStrategy

    init?(argument: String) {
        guard Self.names.contains(argument), let strategy = DecoderSettings.DateStrategy(name: argument) else {
            return nil
        }
        self.strategy = strategy
    }
}

/// A `--key-strategy` value: one of the short names ``DecoderSettings/KeyStrategy/init(name:)`` reads.
struct KeyStrategyArgument: ExpressibleByArgument {
    static let names = ["default", "snake-case"]
    static var choices: String { sentence(names) }
    let strategy: DecoderSettings.KeyStrategy

    init?(argument: String) {
        guard Self.names.contains(argument), let strategy = DecoderSettings.KeyStrategy(name: argument) else {
            return nil
        }
        self.strategy = strategy
    }
}

/// `a, b or c`.
private func sentence(_ names: [String]) -> String {
    names.dropLast().joined(separator: ", ") + " or " + names.last!
}

/// The `--config` file: each API's app decoder settings, `{"apps": {"videgreniers": {"dates": "iso8601"}}}`.
struct AppDecoderConfiguration {
    let path: String
    let apps: [String: JSONValue]

    init(contentsOf path: String) throws {
        self.path = path
        let bytes: [UInt8]
        do {
            bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw ValidationError("--config: cannot read \(path): \(error.localizedDescription)")
        }
        guard let document = try? JSONParser().parse(bytes), case .object(let apps)? = document["apps"] else {
            throw ValidationError(#"--config: \#(path) is not JSON of the form {"apps": {"API": {"dates": ..., "keys": ...}}}"#)
        }
        for name in apps.keys where Specs.named(name) == nil {
            throw ValidationError("--config: unknown API \"\(name)\" in \(path)")
        }
        self.apps = apps
    }

    /// The settings this file gives `api`, over `default`; `nil` when the file says nothing of it.
    func settings(for api: String, default settings: DecoderSettings) throws -> DecoderSettings? {
        guard let entry = apps[api] ?? Specs.backend(serving: api).flatMap({ apps[$0.name] })
        else { return nil }
        var result = settings
        if let text = entry["dates"]?.stringValue {
            guard let strategy = DateStrategyArgument(argument: text)?.strategy else {
                throw ValidationError("--config: \(api).dates \"\(text)\" is not \(DateStrategyArgument.choices)")
            }
            result.dates = strategy
        }
        if let text = entry["keys"]?.stringValue {
            guard let strategy = KeyStrategyArgument(argument: text)?.strategy else {
                throw ValidationError("--config: \(api).keys \"\(text)\" is not \(KeyStrategyArgument.choices)")
            }
            result.keys = strategy
        }
        return result
    }
}
