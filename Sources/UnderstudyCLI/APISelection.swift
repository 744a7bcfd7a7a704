import ArgumentParser
import UnderstudyCore
import UnderstudySpecs

/// An `--api` value: one API, `apinest` (fitness and achievements) or `all`.
public enum APISelection: String, CaseIterable, ExpressibleByArgument, Sendable {
    case fitness, achievements, apinest, videgreniers, easyco, intra42, all

    /// The specs this selection names.
    public var specs: [APISpec] { Specs.named(rawValue)! }
}

/// How results are printed.
public enum OutputFormat: String, CaseIterable, ExpressibleByArgument, Sendable {
    case text, json
}
