import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a mock runs: seed, persistence, limits, faults, rate limits, clock.
public struct MockConfiguration: Sendable {
    /// The seed of generated fixtures and of fault decisions.
    public var seed: UInt64
    /// The state files' base: one SQLite file per API group, whose name gets `-<api>` added (see
    /// ``stateFile(for:)``), locked while the mock runs; or a `postgres://` URL, whose database keeps the state
    /// of every API group, shared by all mocks given the same URL.
    public var stateFile: URL?
    /// Start the state files from the seed, replacing what they hold (an empty, truncated or damaged file too).
    public var stateReset = false
    /// Opens a ``stateFile`` that is a database URL (`postgres://`): set by `UnderstudyMockServer`'s
    /// ``MockServer`` and `understudy mock`, which link the database driver; `nil` where only the engine is linked
    /// (an app's test target), which keeps state in memory or in a file.
    package var sharedState: SharedStateOpener?
    /// A folder of fixture files (`understudy generate`) used as the initial state instead of generated ones.
    public var fixturesDirectory: URL?
    /// The HS256 secret of the JWTs (at least 32 bytes).
    public var jwtSecret: String
    /// Bodies larger than this are answered with 413; `nil` for the API's own limit
    /// (``MockBehaviour/maximumBodyBytes``).
    public var maximumBodyBytes: Int?
    public var faults: [FaultRule]
    /// Requests allowed per client, or `nil` for no limit.
    public var rateLimit: RateLimit?
    /// How long a connection may stay idle (no request since it opened or since the last answer) before the
    /// server closes it.
    public var idleTimeout: Duration
    /// How long a request (head and body) may take to arrive from its first byte before the server closes the
    /// connection, however often bytes trickle in, so slow clients (slowloris) cannot hold connections forever.
    public var requestTimeout: Duration
    /// How many connections may be open at once (for `understudy mock`, across all its servers); a connection
    /// beyond them is answered `503` with `Connection: close` and closed.
    public var maximumConnections: Int
    /// The clock tokens and timestamps follow.
    public var now: @Sendable () -> Date

    /// The body limit of an API that declares none: 1 MiB.
    public static let defaultMaximumBodyBytes = 1 << 20

    /// The default ``idleTimeout``: a minute, as nginx's `keepalive_timeout` and Kestrel's keep-alive are of
    /// that order.
    public static let defaultIdleTimeout = Duration.seconds(60)

    /// The default ``requestTimeout``: ten seconds, ample for any request over loopback or a LAN.
    public static let defaultRequestTimeout = Duration.seconds(10)

    /// The default ``maximumConnections``: seven eighths of the process's file descriptor limit (`ulimit -n`),
    /// leaving the rest for listening sockets, files and the connections being refused.
    public static var defaultMaximumConnections: Int {
        var limit = rlimit()
        #if os(Linux)
            let status = getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        #else
            let status = getrlimit(RLIMIT_NOFILE, &limit)
        #endif
        guard status == 0 else { return 896 }
        let descriptors = Int(min(UInt64(limit.rlim_cur), UInt64(Int32.max)))
        return max(1, descriptors - descriptors / 8)
    }

    public init(
        seed: UInt64 = 1, stateFile: URL? = nil, fixturesDirectory: URL? = nil,
        jwtSecret: String = MockConfiguration.defaultJWTSecret, maximumBodyBytes: Int? = nil, faults: [FaultRule] = [],
        rateLimit: RateLimit? = nil, idleTimeout: Duration = MockConfiguration.defaultIdleTimeout,
        requestTimeout: Duration = MockConfiguration.defaultRequestTimeout,
        maximumConnections: Int = MockConfiguration.defaultMaximumConnections,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.seed = seed
        self.stateFile = stateFile
        self.fixturesDirectory = fixturesDirectory
        self.jwtSecret = jwtSecret
        self.maximumBodyBytes = maximumBodyBytes
        self.faults = faults
        self.rateLimit = rateLimit
        self.idleTimeout = idleTimeout
        self.requestTimeout = requestTimeout
        self.maximumConnections = maximumConnections
        self.now = now
    }

    /// The secret used when none is given: fixed, so tokens survive restarts of a local mock.
    public static let defaultJWTSecret = "understudy-mock-secret-0123456789abcdef"

    /// The state file of one API group (`state.sqlite` → `state-videgreniers.sqlite`; `state` →
    /// `state-videgreniers.sqlite`); a `postgres://` URL as it is (each group keeps its own rows there).
    public func stateFile(for api: String) -> URL? {
        guard let stateFile, stateFile.isFileURL else { return stateFile }
        let base = stateFile.deletingPathExtension().lastPathComponent
        let ext = stateFile.pathExtension.isEmpty ? "sqlite" : stateFile.pathExtension
        return stateFile.deletingLastPathComponent().appendingPathComponent("\(base)-\(api).\(ext)")
    }

    /// The store of one API group's state: in memory, in its ``stateFile(for:)`` or in the shared database.
    /// - Parameter kind: what the file calls the state, when the state's type does not name the API.
    func stateStore<State: StoredState>(seed: State, for api: String, kind: String? = nil) async throws
        -> StateStore<State>
    {
        try await StateStore(
            seed: seed, file: stateFile(for: api), sharing: sharedState, kind: kind, reset: stateReset)
    }
}

/// A request rate: `2/s`, `1200/h`.
public struct RateLimit: Sendable, Hashable, CustomStringConvertible {
    public var requests: Int
    public var seconds: Double

    public init(requests: Int, seconds: Double) {
        self.requests = requests
        self.seconds = seconds
    }

    /// Parses `N/s`, `N/min`, `N/h`.
    public init?(parsing text: String) {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let requests = Int(parts[0]), requests > 0 else { return nil }
        switch parts[1] {
        case "s": seconds = 1
        case "min", "m": seconds = 60
        case "h": seconds = 3600
        default: return nil
        }
        self.requests = requests
    }

    public var description: String { "\(requests)/\(seconds == 1 ? "s" : seconds == 60 ? "min" : "h")" }
}
