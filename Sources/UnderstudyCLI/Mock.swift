import ArgumentParser
import Foundation
import UnderstudyCore
import UnderstudyMock
import UnderstudyMockServer
import UnderstudySpecs

/// `understudy mock`: serves the mock APIs until interrupted.
struct Mock: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve stateful, fixture-based mock servers of the APIs (every built-in API by default, each on its own port).",
        discussion: """
            Prints a table of base URLs, then ready credentials for seeded users. Admin routes on every server: \
            POST /__understudy/reset (seed state), POST /__understudy/token {"user": ID} (a token), \
            GET|PUT|DELETE /__understudy/faults {"rules": [...]}. Stops cleanly on SIGINT or SIGTERM.
            """)

    @Option(
        help:
            "The API to serve (\(Specs.selectorList)). Default: all, or none with --spec."
    )
    var api: String?

    @Option(
        help: """
            Serve an OpenAPI 3 or Swagger 2 document (JSON or YAML), on the port after the --api servers, under the \
            base path of its first server URL: its resources keep what is created, updated and deleted (see \
            `understudy list --resources`). Repeatable.
            """)
    var spec: [String] = []

    @Flag(help: "Serve --spec documents without state: every answer from the document's examples and schemas.")
    var stateless = false

    @Option(help: "The address to bind: a host name or an IP address (127.0.0.1, localhost, 0.0.0.0, ::1 or [::1]).")
    var host: String = "127.0.0.1"

    @Option(help: "The port of the first server; the next servers take the following ports. 0 picks free ports.")
    var port: Int = 4010

    @Option(
        help: """
            Keep the state in SQLite files next to this one (NAME-<api>.sqlite), each write durable before its \
            answer; a file in use by another mock is refused. A postgres://user:password@host:5432/database URL \
            (?sslmode=disable|prefer|require) keeps it in PostgreSQL instead, shared by every mock started with \
            the same URL (replicas behind a load balancer).
            """)
    var state: String?

    @Flag(
        help: """
            Start the --state files from the seed state, replacing what they hold, also when a file is empty,             truncated or damaged (which are refused otherwise).
            """)
    var stateReset = false

    @Option(help: "The seed of the generated fixtures and of fault decisions.")
    var seed: UInt64 = 1

    @Option(help: "A folder of fixtures (as `understudy generate` writes them) to start from.")
    var fixtures: String?

    @Option(help: "The HS256 secret of issued and accepted JWTs (at least 32 bytes).")
    var jwtSecret: String = MockConfiguration.defaultJWTSecret

    @Option(
        help: "Inject a fault, e.g. 'GET /activities: latency=200ms' or '*: error-rate=0.1, status=503'. Repeatable.")
    var fault: [String] = []

    @Option(help: "Limit requests per client, e.g. 2/s or 1200/h (429 with Retry-After).")
    var rateLimit: String?

    @Option(help: "Refuse request bodies larger than this many bytes (413; default 1 MiB, 32 MiB for easyco).")
    var maxBodyBytes: Int?

    @Option(help: "Close a connection with no request for this many seconds (0.1 to 86400).")
    var idleTimeout: Double = 60

    @Option(help: "Close a connection whose request takes longer than this many seconds to arrive (0.1 to 86400).")
    var requestTimeout: Double = 10

    @Option(
        help: ArgumentHelp(
            "Answer connections beyond this many open at once with 503 and close them (default: 7/8 of ulimit -n).",
            valueName: "n"))
    var maxConnections: Int?

    func validate() throws {
        guard api.map({ MockLauncher.labels(for: $0) != nil }) ?? true else {
            throw ValidationError(
                "unknown API \"\(api ?? "")\"; use one of \(Specs.selectorList)"
            )
        }
        do { _ = try ServerAddress(host) } catch { throw ValidationError("--host: \(error)") }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard jwtSecret.utf8.count >= 32 else { throw ValidationError("--jwt-secret must be at least 32 bytes long") }
        if let rateLimit, RateLimit(parsing: rateLimit) == nil {
            throw ValidationError("--rate-limit must look like 2/s, 100/min or 1200/h")
        }
        for rule in fault {
            do { _ = try FaultRule(parsing: rule) } catch { throw ValidationError(error.description) }
        }
        guard (maxBodyBytes ?? 1) > 0 else { throw ValidationError("--max-body-bytes must be positive") }
        guard (0.1...86_400).contains(idleTimeout) else {
            throw ValidationError("--idle-timeout must be between 0.1 and 86400 seconds")
        }
        guard (0.1...86_400).contains(requestTimeout) else {
            throw ValidationError("--request-timeout must be between 0.1 and 86400 seconds")
        }
        if let maxConnections, maxConnections < 1 { throw ValidationError("--max-connections must be positive") }
        if stateReset {
            guard let state, (try? Self.stateLocation(state))?.isFileURL == true else {
                throw ValidationError(
                    "--state-reset needs a --state file; a shared postgres:// state is reset with POST /__understudy/reset")
            }
        }
    }

    func run() async throws {
        let signals = SignalWaiter()
        let running: [MockLauncher.Running]
        do {
            running = try await start()
        } catch let exit as ExitCode {
            throw exit
        } catch {
            FileHandle.standardError.write(Data("error: cannot start the mock: \(error)\n".utf8))
            throw ExitStatus.toolFailure
        }
        // Written unbuffered: scripts wait for "Ready" in a redirected log.
        FileHandle.standardOutput.write(Data(await Self.startupText(running).utf8))
        let signal = await signals.next()
        for entry in running { await entry.server.stop() }
        FileHandle.standardError.write(Data("stopped on \(signal)\n".utf8))
    }

    /// Starts the servers this command names: the `--api` ones (all when neither `--api` nor `--spec` is given),
    /// then one per `--spec` document.
    /// - Throws: ``ExitStatus/toolFailure`` for an unreadable document, or what starting a server throws.
    func start() async throws -> [MockLauncher.Running] {
        let specs = try SpecFiles.load(spec, servingMeanwhile: true)
        var configuration = MockConfiguration(
            seed: seed, stateFile: try state.map(Self.stateLocation),
            fixturesDirectory: fixtures.map { URL(fileURLWithPath: $0, isDirectory: true) }, jwtSecret: jwtSecret,
            maximumBodyBytes: maxBodyBytes, faults: try fault.map { try FaultRule(parsing: $0) },
            rateLimit: rateLimit.flatMap(RateLimit.init(parsing:)),
            idleTimeout: .milliseconds(Int((idleTimeout * 1000).rounded())),
            requestTimeout: .milliseconds(Int((requestTimeout * 1000).rounded())),
            maximumConnections: maxConnections ?? MockConfiguration.defaultMaximumConnections)
        configuration.stateReset = stateReset
        return try await MockLauncher(host: host, port: port, configuration: configuration, stateless: stateless)
            .start(api ?? (spec.isEmpty ? "all" : nil), specs: specs)
    }

    /// The table of base URLs, each behaviour's notes, and "Ready.".
    static func startupText(_ running: [MockLauncher.Running]) async -> String {
        var output = table(running)
        var noted: Set<String> = []
        for entry in running where noted.insert(entry.behaviour.name).inserted {
            output += "\n[\(entry.behaviour.name)]\n"
            for line in await entry.behaviour.startupNotes() { output += "  \(line)\n" }
        }
        return output + "\nReady. Press Ctrl-C to stop.\n"
    }

    /// A file path, or a `postgres://` URL.
    static func stateLocation(_ argument: String) throws -> URL {
        let lowercased = argument.lowercased()
        guard lowercased.hasPrefix("postgres://") || lowercased.hasPrefix("postgresql://") else {
            return URL(fileURLWithPath: argument)
        }
        guard let url = URL(string: argument), url.host?.isEmpty == false else {
            throw ValidationError("--state \(argument) is not a valid URL: postgres://user:password@host:5432/database")
        }
        return url
    }

    static func table(_ running: [MockLauncher.Running]) -> String {
        let width = max(3, running.map(\.label.count).max() ?? 0)
        var output = "API".padding(toLength: width, withPad: " ", startingAt: 0) + "  BASE URL\n"
        for entry in running {
            output += entry.label.padding(toLength: width, withPad: " ", startingAt: 0) + "  \(entry.baseURL)\n"
        }
        return output
    }
}

/// Waits for SIGINT or SIGTERM.
final class SignalWaiter {
    private let stream: AsyncStream<String>
    private let sources: [any DispatchSourceSignal]

    init() {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        self.stream = stream
        sources = [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")].map { number, name in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(name) }
            source.resume()
            return source
        }
    }

    func next() async -> String {
        for await name in stream { return name }
        return "end"
    }
}
