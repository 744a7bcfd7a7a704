/// That an operation acts on the caller's own items only: a list shows the items the caller made, a read, an update,
/// a delete or an action on another user's item answers as if it did not exist, and a create makes the item the
/// caller's. Declared on each operation it holds for (`x-understudy-owner`): an administrator's create for another
/// user is not the caller's, while the list of "my notifications" is.
///
/// The caller is the authenticated principal (a JWT's `sub`). The owner is kept with the item, and shown in the
/// item's ``member`` when it has one.
///
/// ```swift
/// static let notifications = Endpoint<NoBody, [Notification]>(
///     .get, "/notifications", auth: .required, owner: .caller, summary: "The caller's notifications")
/// ```
public struct Ownership: Sendable, Hashable {
    /// The member of an item that names its owner (`userId`); `nil` when the server keeps the owner to itself (a
    /// notification does not name its recipient).
    public var member: String?

    public init(member: String? = nil) {
        self.member = member
    }

    /// The caller's items, the owner kept by the server.
    public static let caller = Ownership()

    /// The caller's items, the owner shown in `member`.
    public static func caller(member: String) -> Ownership { Ownership(member: member) }

    /// The name of the OpenAPI extension.
    public static let extensionName = "x-understudy-owner"

    /// `true`, or `{"member": "userId"}`.
    public var json: JSONValue {
        member.map { ["member": .string($0)] } ?? true
    }

    /// Reads ``json``; `nil` for anything else (`false` included).
    public init?(json: JSONValue) {
        switch json {
        case .bool(true): self.init()
        case .object(let members):
            guard let member = members["member"]?.stringValue, !member.isEmpty else { return nil }
            self.init(member: member)
        default: return nil
        }
    }
}
