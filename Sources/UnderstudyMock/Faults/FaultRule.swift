import UnderstudyCore

/// A fault to inject on one route, or on every route: `GET /activities: latency=200ms, error-rate=0.5`.
///
/// Keys: `latency=<N>ms|<N>s` (at most ``maximumLatencyMilliseconds``), `status=<code>` (always answer it), `error-rate=<0..1>` (answer
/// `status`, 500 by default, that often), `drop=<0..1>` (close the connection mid-response that often),
/// `malformed=<0..1>` (answer a truncated JSON body that often). A bare key means probability 1.
/// The route is `METHOD /path` as the inventory writes it, or `*`.
public struct FaultRule: Sendable, Hashable, CustomStringConvertible {
    /// `nil` for every route.
    public var route: String?
    public var latencyMilliseconds: Int = 0
    public var status: Int?
    public var errorRate: Double = 0
    public var dropRate: Double = 0
    public var malformedRate: Double = 0

    /// The longest latency a rule may inject, one hour: longer is a typo, and a `Duration` of `1e300s`
    /// would not even fit in the clock's integer type.
    public static let maximumLatencyMilliseconds = 3_600_000

    /// A rule on one endpoint (`POST /api/events`), or on every route for `nil`.
    /// - Parameters:
    ///   - status: the status answered, as often as `errorRate` says (always, by default, once a status is given).
    public init(
        route: String?, latencyMilliseconds: Int = 0, status: Int? = nil, errorRate: Double? = nil, dropRate: Double = 0,
        malformedRate: Double = 0
    ) {
        self.route = route
        self.latencyMilliseconds = min(max(0, latencyMilliseconds), Self.maximumLatencyMilliseconds)
        self.status = status
        self.errorRate = errorRate ?? (status == nil ? 0 : 1)
        self.dropRate = dropRate
        self.malformedRate = malformedRate
    }

    /// Parses the textual form.
    /// - Throws: ``FaultRuleError`` naming the bad part.
    public init(parsing text: String) throws(FaultRuleError) {
        guard let colon = text.lastIndex(of: ":") else {
            throw FaultRuleError("fault \"\(text)\" has no \":\"; write ROUTE: key=value, e.g. 'GET /activities: latency=200ms'")
        }
        let route = String(text[..<colon]).trimmingSpaces
        self.route = route == "*" ? nil : route
        if let route = self.route {
            let parts = route.split(separator: " ")
            guard parts.count == 2, HTTPMethod(rawValue: String(parts[0])) != nil, parts[1].hasPrefix("/") else {
                throw FaultRuleError("fault route \"\(route)\" must be \"METHOD /path\" or \"*\"")
            }
        }
        let settings = text[text.index(after: colon)...].split(separator: ",").map { String($0).trimmingSpaces }
        guard !settings.isEmpty, !settings.allSatisfy(\.isEmpty) else { throw FaultRuleError("fault \"\(text)\" sets nothing") }
        for setting in settings where !setting.isEmpty {
            let pair = setting.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                .map { String($0).trimmingSpaces }
            let key = pair[0]
            let value = pair.count > 1 ? pair[1] : nil
            switch key {
            case "latency": latencyMilliseconds = try Self.duration(value, setting)
            case "status":
                guard let value, let code = Int(value), (100...599).contains(code) else {
                    throw FaultRuleError("fault \"\(setting)\": status must be an HTTP status between 100 and 599")
                }
                status = code
            case "error-rate": errorRate = try Self.probability(value, setting)
            case "drop": dropRate = try Self.probability(value, setting)
            case "malformed": malformedRate = try Self.probability(value, setting)
            default:
                throw FaultRuleError("fault \"\(setting)\": unknown key \"\(key)\"; use latency, status, error-rate, drop or malformed")
            }
        }
        if status != nil && errorRate == 0 { errorRate = 1 }
    }

    public var description: String {
        var parts: [String] = []
        if latencyMilliseconds > 0 { parts.append("latency=\(latencyMilliseconds)ms") }
        if let status { parts.append("status=\(status)") }
        if errorRate > 0 { parts.append("error-rate=\(errorRate)") }
        if dropRate > 0 { parts.append("drop=\(dropRate)") }
        if malformedRate > 0 { parts.append("malformed=\(malformedRate)") }
        return "\(route ?? "*"): \(parts.joined(separator: ", "))"
    }

    /// Whether the rule applies to an endpoint id (`GET /activities/{id}`).
    func applies(to endpoint: String?) -> Bool { route == nil || route == endpoint }

    private static func duration(_ value: String?, _ setting: String) throws(FaultRuleError) -> Int {
        guard let value else { throw FaultRuleError("fault \"\(setting)\": latency needs a value such as 200ms") }
        let milliseconds: Double
        if value.hasSuffix("ms"), let number = Double(value.dropLast(2)) {
            milliseconds = number
        } else if value.hasSuffix("s"), let number = Double(value.dropLast()) {
            milliseconds = number * 1000
        } else {
            throw FaultRuleError("fault \"\(setting)\": latency must look like 200ms or 1.5s")
        }
        // The comparison is on the Double, before any conversion to Int can trap (NaN fails it too).
        guard milliseconds >= 0, milliseconds <= Double(maximumLatencyMilliseconds) else {
            throw FaultRuleError("fault \"\(setting)\": latency must be between 0 and 3600s (1 hour)")
        }
        return Int(milliseconds.rounded())
    }

    private static func probability(_ value: String?, _ setting: String) throws(FaultRuleError) -> Double {
        guard let value else { return 1 }
        guard let number = Double(value), (0...1).contains(number) else {
            throw FaultRuleError("fault \"\(setting)\": the rate must be a number between 0 and 1")
        }
        return number
    }
}

/// A fault rule that cannot be parsed.
public struct FaultRuleError: Error, Sendable, Hashable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
