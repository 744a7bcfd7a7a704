import UnderstudyCore

/// One backend Understudy knows by heart: the specs it serves, under one name.
///
/// A backend serves one spec (`videgreniers`) or several that share their users and state (`apinest` serves
/// `fitness` and `achievements`). Adding one is its folder in `UnderstudySpecs` and one line in
/// ``Specs/builtIn``: every command's `--api`, `understudy mock` and the checker take it from there, and its mock
/// keeps the items of its resources (``ResourceGraph``) unless `UnderstudyMock` gives it an overlay.
public struct BuiltInAPI: Sendable {
    /// The backend's name: an `--api` value, the state file's suffix, the mock's name.
    public let name: String
    /// Its specs, in the order of the endpoint inventory; each spec's id is an `--api` value too.
    public let specs: [APISpec]

    public init(name: String, specs: [APISpec]) {
        precondition(!specs.isEmpty, "a built-in API serves at least one spec")
        self.name = name
        self.specs = specs
    }

    /// A backend that serves one spec, named after it.
    public init(_ spec: APISpec) { self.init(name: spec.id, specs: [spec]) }
}

/// The built-in APIs, and the names `--api` accepts.
public enum Specs {
    /// The one list of built-in APIs.
    public static let builtIn: [BuiltInAPI] = [
        BuiltInAPI(name: "apinest", specs: [Fitness.spec, Achievements.spec]),
        BuiltInAPI(VideGreniers.spec),
        BuiltInAPI(EasyCo.spec),
        BuiltInAPI(Intra42.spec),
    ]

    /// Every spec, in the order of the endpoint inventory.
    public static let all: [APISpec] = builtIn.flatMap(\.specs)

    /// The names `--api` accepts: each spec's id, then its backend's name where it serves several specs, and `all`.
    public static let selectors: [String] =
        builtIn.flatMap { $0.specs.map(\.id) + ($0.specs.count > 1 ? [$0.name] : []) } + ["all"]

    /// The selectors as a help text shows them: `fitness, achievements, …, all`.
    public static let selectorList = selectors.joined(separator: ", ")

    /// The specs a selector names, or `nil` for an unknown name.
    public static func named(_ selector: String) -> [APISpec]? {
        if selector == "all" { return all }
        if let backend = builtIn.first(where: { $0.name == selector }) { return backend.specs }
        return all.first { $0.id == selector }.map { [$0] }
    }

    /// The backends a selector starts (`fitness` and `achievements` both name apinest), `nil` for an unknown name.
    public static func backends(for selector: String) -> [BuiltInAPI]? {
        if selector == "all" { return builtIn }
        return (builtIn.first { $0.name == selector } ?? backend(serving: selector)).map { [$0] }
    }

    /// The backend that serves the spec `id` (`apinest` for `fitness`).
    public static func backend(serving id: String) -> BuiltInAPI? {
        builtIn.first { backend in backend.specs.contains { $0.id == id } }
    }
}
