import ArgumentParser
import Foundation
import UnderstudyCheck
import UnderstudyCore

/// `understudy check`: conformance of a live server.
struct Check: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check a live server against an API's contract: status, headers, schema and the app's decode.",
        discussion: """
            Reads every GET endpoint (path parameters discovered from earlier answers or given with --param), \
            walks paged lists over two pages, and with --allow-writes runs the write scenarios, which clean up \
            what they create. Tokens, keys and passwords never appear in the output: curl lines use \
            $UNDERSTUDY_TOKEN and friends. Exit status: 0 clean, 1 a finding reached --fail-on, 2 the tool \
            failed, 64 bad usage.
            """)

    @Option(help: "The API (fitness, achievements, apinest, videgreniers, easyco, intra42).")
    var api: APISelection

    @Option(help: "The server's base URL, e.g. https://staging.example.com.")
    var baseURL: String

    @Option(help: "A bearer token sent to endpoints that take one. Default: $UNDERSTUDY_TOKEN.")
    var token: String?

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

    @Flag(help: "Run the write scenarios (create, change and clean up resources).")
    var allowWrites = false

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
        guard api != .all else { throw ValidationError("--api must name one API (or apinest); each server has its own --base-url") }
        let hasSecret = clientSecret != nil || ProcessInfo.processInfo.environment["UNDERSTUDY_CLIENT_SECRET"] != nil
        guard clientId == nil || hasSecret else {
            throw ValidationError("--client-id needs --client-secret (or $UNDERSTUDY_CLIENT_SECRET)")
        }
        guard clientSecret == nil || clientId != nil else { throw ValidationError("--client-secret needs --client-id") }
        let credentials = try makeCredentials()
        for spec in api.specs {
            if let problem = credentials.problem(for: spec) { throw ValidationError(problem) }
        }
        _ = try parameters()
        for id in endpoint where !api.specs.contains(where: { $0.endpoint(id) != nil }) {
            throw ValidationError("no endpoint \"\(id)\" in \(api.rawValue); see `understudy list --api \(api.rawValue)`")
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
            headers: headers)
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

    func run() async throws {
        let options = CheckOptions(
            baseURL: baseURL, credentials: try makeCredentials(), parameters: try parameters(), allowWrites: allowWrites,
            probes: !noProbes, endpoints: endpoint.isEmpty ? nil : Set(endpoint), concurrency: concurrency,
            transport: HTTPTransport.Options(
                timeout: .milliseconds(Int64(timeout * 1000)), maximumBodyBytes: maxBodyBytes, retries: retries))
        var reports: [CheckReport] = []
        let transport = HTTPTransport(options: options.transport)
        for spec in api.specs {
            reports.append(await Checker(spec: spec, options: options).run(transport: transport))
        }
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
            print(TerminalDiagnosticRenderer(useColor: color).render(findings), terminator: "")
            let requests = reports.reduce(0) { $0 + $1.requests }
            let seconds = reports.reduce(0) { $0 + $1.seconds }
            print("\(requests) requests in \(String(format: "%.2f", seconds)) s")
        case .json: print(CheckReportRenderer.json(reports), terminator: "")
        case .github: print(CheckReportRenderer.github(reports), terminator: "")
        }
        if findings.contains(where: { $0.severity >= failOn }) { throw ExitStatus.findings }
    }
}

extension Diagnostic.Severity: ExpressibleByArgument {}
