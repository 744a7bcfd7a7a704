import ArgumentParser
import Foundation
import UnderstudyCheck
import UnderstudyCore
import UnderstudySpecs

/// `understudy proxy`: a validating reverse proxy in front of a real server.
struct Proxy: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Forward an app's traffic to the real server unchanged, and check every request and answer on the side.",
        discussion: """
            Point the app at the proxy. Each request is forwarded to --upstream (hop-by-hop headers dropped, Host \
            rewritten) and the upstream's answer is returned as it is; an unreachable upstream is answered with \
            502. Findings stream as they are found (text on stderr, or JSON lines on stdout with --format json), \
            each once, with a curl line; tokens, API keys and passwords seen in traffic are redacted. SIGINT or \
            SIGTERM stops the proxy and prints the report. Exit status: 0 clean, 1 a finding reached --fail-on, \
            2 the proxy could not start or write a report, 64 bad usage.
            """)

    @OptionGroup var proxy: ProxyArguments

    func run() async throws { try await proxy.run(recordingTo: nil) }
}

/// `understudy record`: the validating proxy, writing what it saw as fixtures `mock --fixtures` replays.
struct Record: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Proxy an app's (or a script's) traffic to a real server and write what it saw as fixtures.",
        discussion: """
            Works as understudy proxy does, and on SIGINT or SIGTERM writes --out/<api>/<endpoint>.json: per \
            endpoint, the first answer seen for each documented status and the request that got it, in the files \
            understudy generate writes (understudy mock --fixtures DIR replays them). Every token, API key and \
            password seen in the traffic is replaced by its name ($UNDERSTUDY_TOKEN); an answer that breaks the \
            contract is reported and not recorded. The same traffic writes the same bytes.
            """)

    @OptionGroup var proxy: ProxyArguments

    @Option(help: "The folder to write the fixtures into; created if missing.")
    var out: String

    func run() async throws { try await proxy.run(recordingTo: URL(fileURLWithPath: out)) }
}

/// The options of `understudy proxy` and `understudy record`, and their run.
struct ProxyArguments: ParsableArguments {
    @Option(help: "The API (\(APISelection.oneAPIList)).")
    var api: APISelection?

    @Option(help: "An OpenAPI 3 or Swagger 2 document (JSON or YAML) of the upstream, instead of --api.")
    var spec: String?

    @Option(help: "The real server's base URL, e.g. https://staging.example.com.")
    var upstream: String

    @Option(help: "The address to bind: a host name or an IP address (127.0.0.1, localhost, 0.0.0.0, ::1 or [::1]).")
    var host: String = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port: Int = 4100

    @Option(help: "Output format: text or json.")
    var format: OutputFormat = .text

    @Option(help: "On exit, write the JSON report (as check --format json writes it) to this file.")
    var report: String?

    @Option(help: "On exit, write a JUnit XML report to this file.")
    var junit: String?

    @Option(help: "The lowest severity that fails the run: error, warning or note.")
    var failOn: Diagnostic.Severity = .error

    @Option(help: "Seconds allowed for one upstream exchange, body included.")
    var timeout: Double = 30

    @Option(help: "Refuse request bodies, and abandon upstream response bodies, larger than this many bytes.")
    var maxBodyBytes: Int = 32 << 20

    func validate() throws {
        do { _ = try ServerAddress(host) } catch { throw ValidationError("--host: \(error)") }
        guard let url = URL(string: upstream), let scheme = url.scheme?.lowercased(),
            ["http", "https"].contains(scheme),
            url.host != nil
        else {
            throw ValidationError(
                "--upstream must be an http or https URL with a host, such as https://staging.example.com")
        }
        guard (api == nil) != (spec == nil) else { throw ValidationError("give --api NAME or --spec FILE, not both") }
        guard api != .all else {
            throw ValidationError("--api must name one API (or apinest); each has its own upstream")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard timeout > 0 else { throw ValidationError("--timeout must be positive") }
        guard maxBodyBytes > 0 else { throw ValidationError("--max-body-bytes must be positive") }
    }

    func run(recordingTo folder: URL?) async throws {
        let signals = SignalWaiter()
        let format = self.format
        let options = ProxyOptions(
            transport: HTTPTransport.Options(
                timeout: .milliseconds(Int64(timeout * 1000)), maximumBodyBytes: maxBodyBytes),
            maximumRequestBodyBytes: maxBodyBytes, recording: folder != nil)
        let specs: [APISpec]
        do {
            specs = try SpecFiles.single(api: api, document: spec)
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitStatus.toolFailure
        }
        let proxy: ValidatingProxy
        do {
            proxy = try await ValidatingProxy.start(
                specs: specs, upstream: upstream, host: host, port: port, options: options
            ) { finding in
                switch format {
                case .text: FileHandle.standardError.write(Data(ProxyOutput.text(finding).utf8))
                case .json: FileHandle.standardOutput.write(Data(ProxyOutput.jsonLine(finding).utf8))
                }
            }
        } catch {
            FileHandle.standardError.write(Data("error: cannot start the proxy on \(host):\(port): \(error)\n".utf8))
            throw ExitStatus.toolFailure
        }
        let name = api?.name ?? spec.map { URL(fileURLWithPath: $0).lastPathComponent } ?? ""
        let banner = "Proxying \(proxy.baseURL.absoluteString) -> \(proxy.upstream) (\(name)). Ctrl-C stops.\n"
        FileHandle.standardError.write(Data(banner.utf8))
        let signal = await signals.next()
        await proxy.stop()
        let reports = await proxy.reports()
        FileHandle.standardError.write(Data("stopped on \(signal)\n".utf8))
        if let folder { try await writeRecordings(of: proxy, to: folder) }
        try write(CheckReportRenderer.json(reports), to: report, what: "JSON report")
        try write(CheckReportRenderer.junit(reports, failOn: failOn), to: junit, what: "JUnit report")
        let findings = reports.flatMap(\.sortedFindings)
        switch format {
        case .text:
            let requests = reports.reduce(0) { $0 + $1.requests }
            let output = TerminalDiagnosticRenderer().render(findings) + "\(requests) requests checked\n"
            FileHandle.standardOutput.write(Data(output.utf8))
        case .json: FileHandle.standardOutput.write(Data(ProxyOutput.jsonSummary(reports).utf8))
        }
        if findings.contains(where: { $0.severity >= failOn }) { throw ExitStatus.findings }
    }

    /// Writes the proxy's recordings as `folder/<api>/<endpoint>.json`.
    private func writeRecordings(of proxy: ValidatingProxy, to folder: URL) async throws {
        let recordings = await proxy.recordings()
        do {
            var count = 0
            for (api, fixtures) in recordings.sorted(by: { $0.key < $1.key }) {
                let apiFolder = folder.appendingPathComponent(api)
                try FileManager.default.createDirectory(at: apiFolder, withIntermediateDirectories: true)
                for fixture in fixtures {
                    let file = apiFolder.appendingPathComponent(fixture.fileName)
                    try Data(fixture.jsonValue.serialized(.pretty).utf8).write(to: file, options: .atomic)
                    count += 1
                }
            }
            let message = "recorded \(count) endpoint fixture\(count == 1 ? "" : "s") to \(folder.path) "
                + "(understudy mock --fixtures \(folder.path) replays them)\n"
            FileHandle.standardError.write(Data(message.utf8))
        } catch {
            FileHandle.standardError.write(Data("error: cannot write the recordings to \(folder.path): \(error)\n".utf8))
            throw ExitStatus.toolFailure
        }
    }

    private func write(_ text: String, to path: String?, what: String) throws {
        guard let path else { return }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            FileHandle.standardError.write(Data("error: cannot write the \(what) to \(path): \(error)\n".utf8))
            throw ExitStatus.toolFailure
        }
    }
}
