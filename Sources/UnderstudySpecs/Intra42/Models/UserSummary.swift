import UnderstudyCore

extension Intra42 {
    /// A search result of `GET /v2/users?search[login]=…`: enough to list a user and open their profile.
    ///
    /// Not in the document: written from the fields the app decodes (ENDPOINTS.md).
    public struct UserSummary: Codable, Sendable, Hashable {
        public let id: Int
        public let login: String
        public let displayname: String
        public let image: Image
        /// The app groups results by campus with it.
        public let primaryCampusId: Int?

        enum CodingKeys: String, CodingKey {
            case id
            case login
            case displayname
            case image
            case primaryCampusId = "primary_campus_id"
        }
    }
}
