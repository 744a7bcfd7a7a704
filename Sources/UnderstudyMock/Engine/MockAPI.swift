import UnderstudyCore
import UnderstudySpecs

/// The mock server of one built-in backend (``Specs/builtIn``): apinest serves fitness and achievements.
///
/// A backend with an overlay (sign-in flows, PostgREST, rules that depend on state) is served by it; any other is
/// served by a ``ResourceMock`` of its spec, stateful from its resource graph alone.
public struct MockAPI: Hashable, Sendable, CustomStringConvertible {
    /// The backend's name (`apinest`, `videgreniers`, …).
    public let name: String
    /// The specs it serves.
    public let specs: [APISpec]

    public init(_ backend: BuiltInAPI) {
        name = backend.name
        specs = backend.specs
    }

    public var description: String { name }
    public static func == (lhs: MockAPI, rhs: MockAPI) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// Every built-in backend, in the registry's order.
    public static var allCases: [MockAPI] { Specs.builtIn.map(MockAPI.init) }

    public static var apinest: MockAPI { named("apinest")![0] }
    public static var videgreniers: MockAPI { named("videgreniers")![0] }
    public static var easyco: MockAPI { named("easyco")![0] }
    public static var intra42: MockAPI { named("intra42")![0] }

    /// The mocks an `--api` selector names (`fitness` and `achievements` both start apinest), `nil` for an unknown one.
    public static func named(_ selector: String) -> [MockAPI]? {
        Specs.backends(for: selector)?.map(MockAPI.init)
    }

    /// The overlays: what the backends whose behaviour is more than their resources add, by backend name.
    static let overlays: [String: @Sendable (MockConfiguration) async throws -> any MockBehaviour] = [
        "apinest": { try await ApinestMock(configuration: $0) },
        "videgreniers": { try await VideGreniersMock(configuration: $0) },
        "easyco": { try await EasyCoMock(configuration: $0) },
        "intra42": { try await Intra42Mock(configuration: $0) },
    ]

    /// Builds this API's behaviour with its seeded initial state: its overlay, or a ``ResourceMock`` of its spec.
    /// - Throws: when the fixtures folder or the state file cannot be read, the JWT secret is too short, or a
    ///   backend of several specs has no overlay to serve them together.
    public func makeBehaviour(configuration: MockConfiguration) async throws -> any MockBehaviour {
        if let overlay = Self.overlays[name] { return try await overlay(configuration) }
        guard specs.count == 1 else {
            throw MockError(.internalServerError, "\(name) serves \(specs.count) specs and has no overlay to join them")
        }
        return try await ResourceMock(spec: specs[0], configuration: configuration)
    }
}
