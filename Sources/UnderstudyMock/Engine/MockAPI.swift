import UnderstudyCore
import UnderstudySpecs

/// The mock servers Understudy can start: one per backend (apinest serves fitness and achievements).
public enum MockAPI: String, CaseIterable, Sendable {
    case apinest, videgreniers, easyco, intra42

    /// The mocks an `--api` selector names (`fitness` and `achievements` both start apinest).
    public static func named(_ selector: String) -> [MockAPI]? {
        switch selector {
        case "all": allCases
        case "fitness", "achievements", "apinest": [.apinest]
        default: MockAPI(rawValue: selector).map { [$0] }
        }
    }

    /// Builds this API's behaviour with its seeded initial state.
    /// - Throws: when the fixtures folder or the state file cannot be read, or the JWT secret is too short.
    public func makeBehaviour(configuration: MockConfiguration) async throws -> any MockBehaviour {
        switch self {
        case .apinest: try await ApinestMock(configuration: configuration)
        case .videgreniers: try await VideGreniersMock(configuration: configuration)
        case .easyco: try await EasyCoMock(configuration: configuration)
        case .intra42: try await Intra42Mock(configuration: configuration)
        }
    }
}
