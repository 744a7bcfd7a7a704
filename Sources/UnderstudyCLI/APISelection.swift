import ArgumentParser
import UnderstudyCore
import UnderstudySpecs

/// An `--api` value: one API, a backend that serves several (`apinest`), or `all` — any of ``Specs/selectors``.
public struct APISelection: ExpressibleByArgument, Hashable, Sendable {
    /// The selector as given (`fitness`, `apinest`, `all`).
    public let name: String
    /// The specs it names.
    public let specs: [APISpec]

    public init?(argument: String) {
        guard let specs = Specs.named(argument) else { return nil }
        name = argument
        self.specs = specs
    }

    public static let all = APISelection(argument: "all")!
    public static let apinest = APISelection(argument: "apinest")!

    public static var allValueStrings: [String] { Specs.selectors }

    /// `all` in a help text, not the specs it names.
    public var defaultValueDescription: String { name }

    /// The selectors that name one API or one backend, as a help text shows them.
    static let oneAPIList = Specs.selectors.filter { $0 != "all" }.joined(separator: ", ")

    public static func == (lhs: APISelection, rhs: APISelection) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// How results are printed.
public enum OutputFormat: String, CaseIterable, ExpressibleByArgument, Sendable {
    case text, json
}
