/// The JSON pointers of a registry's schemas, interned: a pointer is an index, and extending one by a token is one
/// lookup.
///
/// Storing each schema's full pointer would make a schema nested n deep cost O(n²) to compile (each level copies
/// and hashes its whole path); interned pointers keep it linear, and the text is rebuilt only for a finding.
struct PointerTable: Sendable {
    /// The pointer to a document's root.
    static let root = 0

    private var parents: [Int] = [-1]
    private var lastTokens: [String] = [""]
    private var steps: [Step: Int] = [:]

    private struct Step: Hashable {
        var parent: Int
        var token: String
    }

    /// The pointer `parent` extended by `token`, interned on first use.
    mutating func child(_ parent: Int, _ token: String) -> Int {
        let step = Step(parent: parent, token: token)
        if let known = steps[step] { return known }
        parents.append(parent)
        lastTokens.append(token)
        steps[step] = parents.count - 1
        return parents.count - 1
    }

    mutating func intern(_ tokens: [String]) -> Int {
        tokens.reduce(Self.root) { child($0, $1) }
    }

    /// The interned pointer `parent` extended by `token`, if any.
    func existingChild(_ parent: Int, _ token: String) -> Int? {
        steps[Step(parent: parent, token: token)]
    }

    /// The interned pointer with these tokens, if any.
    func lookup(_ tokens: [String]) -> Int? {
        var current = Self.root
        for token in tokens {
            guard let next = existingChild(current, token) else { return nil }
            current = next
        }
        return current
    }

    func tokens(_ id: Int) -> [String] {
        var tokens: [String] = []
        var current = id
        while current > Self.root {
            tokens.append(lastTokens[current])
            current = parents[current]
        }
        return tokens.reversed()
    }

    /// The last token (`Pet` for `/components/schemas/Pet`); `nil` for the root.
    func lastToken(_ id: Int) -> String? { id == Self.root ? nil : lastTokens[id] }
}

/// Where a reference points before anything is compiled there: a document and the tokens from its root.
struct DocumentPath: Sendable, Hashable {
    var document: Int
    var tokens: [String]
}
