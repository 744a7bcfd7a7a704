import UnderstudyCore

/// The five API specs, and the names `--api` accepts.
public enum Specs {
    /// Every spec, in the order of the endpoint inventory.
    public static let all: [APISpec] = [Fitness.spec, Achievements.spec, VideGreniers.spec, EasyCo.spec, Intra42.spec]

    /// The names `--api` accepts: one per API, `apinest` for fitness and achievements together, and `all`.
    public static let selectors = ["fitness", "achievements", "apinest", "videgreniers", "easyco", "intra42", "all"]

    /// The specs a selector names, or `nil` for an unknown name.
    public static func named(_ selector: String) -> [APISpec]? {
        switch selector {
        case "all": all
        case "apinest": [Fitness.spec, Achievements.spec]
        default: all.first { $0.id == selector }.map { [$0] }
        }
    }
}
