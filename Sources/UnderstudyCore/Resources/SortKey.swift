/// One key of the order a list shows its items in when the request asks for none (`x-understudy-order`): a place in
/// the item, ascending, or descending when written with a leading `-` (`-/createdAt`).
public struct SortKey: Sendable, Hashable, CustomStringConvertible {
    public var place: JSONPointer
    public var descending: Bool

    public init(_ place: JSONPointer, descending: Bool = false) {
        self.place = place
        self.descending = descending
    }

    /// The newest first, by a member.
    public static func descending(_ place: JSONPointer) -> SortKey { SortKey(place, descending: true) }

    /// The oldest first, by a member.
    public static func ascending(_ place: JSONPointer) -> SortKey { SortKey(place) }

    /// The name of the OpenAPI extension (a list of ``description``s).
    public static let extensionName = "x-understudy-order"

    /// `/title` or `-/createdAt`.
    public var description: String { (descending ? "-" : "") + place.description }

    /// Reads ``description``; `nil` for text that is not a pointer, with or without `-`.
    public init?(_ text: String) {
        let descending = text.hasPrefix("-")
        let pointer = descending ? String(text.dropFirst()) : text
        guard pointer.hasPrefix("/") else { return nil }
        self.init(JSONPointer(pointer), descending: descending)
    }
}
