extension Apinest {
    /// The answer to the two "mark as read" endpoints, as the achievements guide declares it.
    ///
    /// The app decodes it from the body, so the body must be a JSON object (`{}` will do): an empty body
    /// fails to decode.
    public struct EmptyResponse: Codable, Sendable, Hashable {
        public let success: Bool?

        public init(success: Bool?) {
            self.success = success
        }
    }
}
