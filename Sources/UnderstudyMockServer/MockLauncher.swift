import Foundation
import UnderstudyCore
import UnderstudyMock

/// Starts the mocks an `--api` selector names, each on its own port, as `understudy mock` does.
///
/// With `all`, one server per spec of the built-in APIs starts: fitness and achievements each get a port but share
/// one apinest behaviour (one backend, one state), then VideGreniers, EasyCo and 42.
public struct MockLauncher: Sendable {
    /// One running server and what it serves.
    public struct Running: Sendable {
        /// An `--api` selector but `all` (`fitness`, `apinest`, …), or an imported document's id.
        public let label: String
        public let server: MockServer
        public let behaviour: any MockBehaviour

        /// The server's URL with the API's base path (`http://127.0.0.1:4015/v1`): what clients are given.
        public var baseURL: String { server.baseURL.absoluteString + (behaviour.specs.first?.basePath ?? "") }
    }

    public let host: String
    /// The first port; the next servers take the following ones. 0 picks free ports.
    public let port: Int
    public let configuration: MockConfiguration
    /// Whether imported documents are served without state (``FixtureMock``) instead of statefully
    /// (``ResourceMock``): `understudy mock --stateless`.
    public let stateless: Bool

    public init(
        host: String = "127.0.0.1", port: Int = 4010, configuration: MockConfiguration = MockConfiguration(),
        stateless: Bool = false
    ) {
        self.host = host
        self.port = port
        self.configuration = configuration.servingSharedState
        self.stateless = stateless
    }

    /// The labels a selector starts, in order.
    public static func labels(for selector: String) -> [String]? {
        if selector == "all" { return MockAPI.allCases.flatMap { $0.specs.map(\.id) } }
        return MockAPI.named(selector) == nil ? nil : [selector]
    }

    /// Starts every server of `selector`, then one ``ResourceMock`` (``FixtureMock`` when ``stateless``) per spec in
    /// `specs` (imported OpenAPI documents), each on the next port; on failure the ones already started are stopped.
    /// - Parameter selector: the built-in APIs (`all`, `fitness`, ...), or `nil` for none.
    /// - Throws: ``MockServerError`` for an unknown selector, or what starting a server throws.
    public func start(_ selector: String?, specs: [APISpec] = []) async throws -> [Running] {
        var labels: [String] = []
        if let selector {
            guard let named = Self.labels(for: selector) else {
                throw MockServerError(description: "unknown API \"\(selector)\"")
            }
            labels = named
        }
        // One budget of connections for the whole process: they all draw on its file descriptors.
        let budget = ConnectionBudget(maximum: configuration.maximumConnections)
        var behaviours: [MockAPI: any MockBehaviour] = [:]
        var running: [Running] = []
        do {
            for (index, label) in labels.enumerated() {
                let api = MockAPI.named(label)![0]
                let behaviour: any MockBehaviour
                if let existing = behaviours[api] {
                    behaviour = existing
                } else {
                    behaviour = try await api.makeBehaviour(configuration: configuration)
                    behaviours[api] = behaviour
                }
                let server = try await MockServer.start(
                    behaviour, host: host, port: port == 0 ? 0 : port + index, configuration: configuration,
                    budget: budget)
                running.append(Running(label: label, server: server, behaviour: behaviour))
            }
            for spec in specs {
                if let cycle = SchemaCycles.impossible(in: spec.definitions).first {
                    throw MockServerError(description: "\(spec.id): \(SchemaCycles.describe(cycle, in: spec.definitions))")
                }
                let behaviour: any MockBehaviour =
                    stateless
                    ? try FixtureMock(spec: spec, replaying: configuration)
                    : try await ResourceMock(spec: spec, configuration: configuration)
                let server = try await MockServer.start(
                    behaviour, host: host, port: port == 0 ? 0 : port + running.count, configuration: configuration,
                    budget: budget)
                running.append(Running(label: spec.id, server: server, behaviour: behaviour))
            }
        } catch {
            for entry in running { await entry.server.stop() }
            throw error
        }
        return running
    }
}
