import UnderstudyCore

/// Who runs a query, as row-level security sees it: Supabase's `anon`, `authenticated` (with the JWT
/// `sub`) or `service_role` (which bypasses row-level security).
package struct PostgrestCaller: Sendable, Hashable {
    package enum Role: String, Sendable, Hashable {
        case anonymous = "anon"
        case authenticated
        case serviceRole = "service_role"
    }

    package var role: Role
    /// The user id (`auth.uid()`), lower-cased; `nil` for the anonymous and service roles.
    package var userID: String?

    package init(role: Role, userID: String?) {
        self.role = role
        self.userID = userID
    }

    package static let anonymous = PostgrestCaller(role: .anonymous, userID: nil)
    package static let serviceRole = PostgrestCaller(role: .serviceRole, userID: nil)

    package static func user(_ id: String) -> PostgrestCaller {
        PostgrestCaller(role: .authenticated, userID: id.lowercased())
    }
}

/// The row-level security policies of a catalog's tables (``RowPolicy``) as predicates.
///
/// The same policies judge stored rows (by position, through column vectors) and new rows (by their
/// values), so they are written once over a key and a way to read a column for it.
package enum PostgrestRowSecurity {
    /// Whether `caller` may apply `operation` to a row of `table` (a row passes when one policy allows it).
    /// - Parameters:
    ///   - column: reads a column of the row a key designates.
    ///   - owner: for a column referencing another table, reads a column (the owner's) of the row it references.
    package static func predicate<Key>(
        _ table: PostgrestTableInfo, _ operation: RowPolicy.Operation, caller: PostgrestCaller,
        column: (String) -> (Key) -> PostgrestValue?,
        owner: (_ via: String, _ referenced: String, _ ownerColumn: String) -> (Key) -> String?
    ) -> (Key) -> Bool {
        if caller.role == .serviceRole { return { _ in true } }
        var checks: [(Key) -> Bool] = []
        for policy in table.policies(for: operation) {
            switch policy.subject {
            case .column(let name):
                guard let user = caller.userID else { continue }
                let read = column(name)
                let expected = PostgrestValue.text(user)
                checks.append { read($0) == expected }
            case .referencedOwner(let via, let ownerColumn):
                guard let user = caller.userID, let referenced = table.facts.references[via] else { continue }
                let read = owner(via, referenced, ownerColumn)
                checks.append { read($0) == user }
            case .anyone(let values):
                let pairs = values.sorted { $0.key < $1.key }.map { name, json in
                    (
                        read: column(name),
                        expected: PostgrestExtractor.value(json, type: table.column(name)?.type ?? .text)
                    )
                }
                checks.append { key in pairs.allSatisfy { $0.read(key) == $0.expected } }
            }
        }
        switch checks.count {
        case 0: return { _ in false }
        case 1: return checks[0]
        default: return { key in checks.contains { $0(key) } }
        }
    }
}
