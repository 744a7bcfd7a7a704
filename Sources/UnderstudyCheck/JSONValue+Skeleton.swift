import UnderstudyCore

extension JSONValue {
    /// What a later request may need of an answer: its shape down to 8 levels with the first 3 elements of
    /// each array, the first 256 members of each object (by name; a model has fewer, a dictionary of a million
    /// entries does not), scalars, and strings up to 256 characters (ids, logins, links). A 30 MB list becomes a
    /// few kilobytes, so a check keeps no whole body.
    var skeleton: JSONValue { skeleton(depth: 0) }

    private static let membersKept = 256

    private func skeleton(depth: Int) -> JSONValue {
        switch self {
        case .object(var members):
            guard depth < 8 else { return .object([:]) }
            if members.count > Self.membersKept {
                let kept = members.keys.sorted().prefix(Self.membersKept)
                members = Dictionary(uniqueKeysWithValues: kept.map { ($0, members[$0]!) })
            }
            return .object(members.compactMapValues { $0.skeletonMember(depth: depth + 1) })
        case .array(let elements):
            guard depth < 8 else { return .array([]) }
            return .array(elements.prefix(3).map { $0.skeleton(depth: depth + 1) })
        default:
            return self
        }
    }

    private func skeletonMember(depth: Int) -> JSONValue? {
        if case .string(let text) = self, text.utf8.count > 256 { return nil }
        return skeleton(depth: depth)
    }
}
