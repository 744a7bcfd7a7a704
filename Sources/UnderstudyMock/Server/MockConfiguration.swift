import Foundation

/// How a mock runs: seed, persistence, limits, faults, rate limits, clock.
public struct MockConfiguration: Sendable {
    /// The seed of generated fixtures and of fault decisions.
    public var seed: UInt64
    /// The state files' base: one SQLite file per API group, whose name gets `-<api>` added (see
    /// ``stateFile(for:)``), locked while the mock runs.
    public var stateFile: URL?
    /// A folder of fixture files (`understudy generate`) used as the initial state instead of generated ones.
    public var fixturesDirectory: URL?
    /// The HS256 secret of the JWTs (at least 32 bytes).
    public var jwtSecret: String
    /// Bodies larger than this are answered with 413.
    public var maximumBodyBytes: Int
    public var faults: [FaultRule]
    /// Requests allowed per client, or `nil` for no limit.
    public var rateLimit: RateLimit?
    /// How long a connection may stay idle (no request, or a request head that never completes) before the
    /// server closes it, so idle and slow clients cannot hold connections forever.
    public var idleTimeout: Duration
    /// The clock tokens and timestamps follow.
    public var now: @Sendable () -> Date

    /// The default ``idleTimeout``: a minute, as nginx's `client_header_timeout` and Kestrel's keep-alive
    /// are of that order.
    public static let defaultIdleTimeout = Duration.seconds(60)

    public init(
        seed: UInt64 = 1, stateFile: URL? = nil, fixturesDirectory: URL? = nil,
        jwtSecret: String = MockConfiguration.defaultJWTSecret, maximumBodyBytes: Int = 1 << 20, faults: [FaultRule] = [],
        rateLimit: RateLimit? = nil, idleTimeout: Duration = MockConfiguration.defaultIdleTimeout,
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
        self.now = now
    }

    /// The secret used when none is given: fixed, so tokens survive restarts of a local mock.
    public static let defaultJWTSecret = "understudy-mock-secret-0123456789abcdef"

    /// The state file of one API group (`state.sqlite` → `state-videgreniers.sqlite`; `state` →
    /// `state-videgreniers.sqlite`).
    public func stateFile(for api: String) -> URL? {
        guard let stateFile else { return nil }
        let base = stateFile.deletingPathExtension().lastPathComponent
        let ext = stateFile.pathExtension.isEmpty ? "sqlite" : stateFile.pathExtension
        return stateFile.deletingLastPathComponent().appendingPathComponent("\(base)-\(api).\(ext)")
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
