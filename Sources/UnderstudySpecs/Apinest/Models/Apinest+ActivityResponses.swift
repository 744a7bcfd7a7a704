extension Apinest {
    /// The answer to `POST /activities/{id}/complete`, as the fitness guide declares it.
    public struct ActivityCompleteResponse: Codable, Sendable, Hashable {
        public let message: String

        public init(message: String) {
            self.message = message
        }
    }

    /// The answer to `POST /activities/{id}/join`: a message and the joined activity, as the fitness guide
    /// declares it.
    public struct ActivityJoinResponse: Codable, Sendable, Hashable {
        public let message: String
        public let activity: Activity

        public init(message: String, activity: Activity) {
            self.message = message
            self.activity = activity
        }
    }

    /// The answer to `POST /activities/{id}/leave`, as the fitness guide's service code declares it.
    public struct ActivityLeaveResponse: Codable, Sendable, Hashable {
        public let message: String

        public init(message: String) {
            self.message = message
        }
    }
}
