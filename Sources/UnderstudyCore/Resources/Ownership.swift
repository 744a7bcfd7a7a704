/// That an operation acts on the caller's own items only: a list shows the items the caller made, a read, an update,
/// a delete or an action on another user's item answers as if it did not exist (or 403, where the API says so), and a
/// create makes the item the caller's. Declared on each operation it holds for (`x-understudy-owner`): an
/// administrator's create for another user is not the caller's, while the list of "my notifications" is.
///
/// The caller is the authenticated principal (a JWT's `sub`). The owner is kept with the item, and shown in the
/// item's ``member`` when it has one.
///
/// ```swift
/// static let notifications = Endpoint<NoBody, [Notification]>(
///     .get, "/notifications", auth: .required, owner: .caller, summary: "The caller's notifications")
/// ```
public struct Ownership: Sendable, Hashable {
    /// What a caller is told of another user's item.
    public enum Others: String, Sendable, Hashable {
        /// Nothing: it does not exist for them (404), as GitHub hides what one may not see.
        case hidden
        /// That it is not theirs (403), as 42's Intra refuses to delete another user's slot.
        case forbidden
    }

    /// The member of an item that names its owner (`userId`); `nil` when the server keeps the owner to itself (a
    /// notification does not name its recipient).
    public var member: String?
    public var others: Others

    public init(member: String? = nil, others: Others = .hidden) {
        self.member = member
        self.others = others
    }

    /// The caller's items, the owner kept by the server.
    public static let caller = Ownership()

    /// The caller's items, the owner shown in `member`.
    public static func caller(member: String) -> Ownership { Ownership(member: member) }

    /// The name of the OpenAPI extension.
    public static let extensionName = "x-understudy-owner"

    /// `true`, or `{"member": "userId", "others": "forbidden"}` with what differs from the defaults.
    public var json: JSONValue {
        guard member != nil || others != .hidden else { return true }
        var members: [String: JSONValue] = [:]
        if let member { members["member"] = .string(member) }
        if others != .hidden { members["others"] = .string(others.rawValue) }
        return .object(members)
    }

    /// Reads ``json``; `nil` for anything else (`false` included).
    public init?(json: JSONValue) {
        switch json {
        case .bool(true): self.init()
        case .object(let members):
            let member = members["member"]?.stringValue
            let others = members["others"].map { $0.stringValue.flatMap(Others.init) }
            guard member?.isEmpty != true, others != .some(nil) else { return nil }
            self.init(member: member, others: (others ?? nil) ?? .hidden)
        default: return nil
        }
    }
}
