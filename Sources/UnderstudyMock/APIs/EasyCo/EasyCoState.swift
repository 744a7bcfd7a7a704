import UnderstudyCore
import UnderstudyPostgREST

/// A seeded Supabase user (a row of `auth.users`, which PostgREST does not expose).
struct EasyCoUser: Codable, Sendable, Hashable {
    var id: String
    var name: String
    var email: String
    /// The password of a user who signed up; `nil` for seeded users (``EasyCoMock/seededPassword``).
    var password: String?
    /// When the user signed up (GoTrue's `created_at`); `nil` for seeded users.
    var createdAt: String?
}

/// A sign-in of `/auth/v1`: its refresh token, until the user signs out or the token is exchanged.
struct EasyCoAuthSession: StateRow, Hashable {
    var refreshToken: String
    var userID: String
    var sessionID: String

    var key: String { refreshToken }
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
    /// The live sign-ins of `/auth/v1`, by refresh token.
    var sessions = StateTable<EasyCoAuthSession>(groups: { ["user \($0.userID)"] })

    init(users: [EasyCoUser], defaultUser: String, tables: [String: PostgrestTable], insertions: Int) {
        accounts = StateValue(EasyCoAccounts(users: users, defaultUser: defaultUser))
        self.tables = tables
        inserted = StateValue(insertions)
    }

    mutating func visit(_ visitor: inout StateVisitor) {
        visitor.visit("accounts", &accounts)
        visitor.visit("insertions", &inserted)
        visitor.visit("auth sessions", &sessions)
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
