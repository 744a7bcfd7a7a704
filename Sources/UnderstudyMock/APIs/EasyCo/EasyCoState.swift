import Synchronization
import UnderstudyCore

/// A seeded Supabase user (a row of `auth.users`, which PostgREST does not expose).
struct EasyCoUser: Codable, Sendable, Hashable {
    var id: String
    var name: String
    var email: String
}

/// The seeded accounts: `auth.users` and the user whose token is printed at start.
struct EasyCoAccounts: Codable, Sendable {
    var users: [EasyCoUser]
    var defaultUser: String
}

/// Everything the EasyCo mock remembers.
struct EasyCoState: StoredState, Encodable {
    var accounts: StateValue<EasyCoAccounts>
    var tables: [String: PostgrestTable]
    /// Rows inserted so far: new ids are derived from it, so they are the same on every run.
    var inserted: StateValue<Int>

    init(users: [EasyCoUser], defaultUser: String, tables: [String: PostgrestTable], insertions: Int) {
        accounts = StateValue(EasyCoAccounts(users: users, defaultUser: defaultUser))
        self.tables = tables
        inserted = StateValue(insertions)
    }

    mutating func visit(_ visitor: inout StateVisitor) {
        visitor.visit("accounts", &accounts)
        visitor.visit("insertions", &inserted)
        for name in tables.keys.sorted() { visitor.visitPart("table \(name)", &tables[name]!) }
    }

    var users: [EasyCoUser] { accounts.value.users }
    /// The user whose token is printed at start and issued when `POST /__understudy/token` names nobody.
    var defaultUser: String { accounts.value.defaultUser }

    var insertions: Int {
        get { inserted.value }
        set { inserted.value = newValue }
    }

    func user(_ key: String) -> EasyCoUser? {
        let key = key.lowercased()
        return users.first { $0.id == key || $0.email.lowercased() == key }
    }
}
