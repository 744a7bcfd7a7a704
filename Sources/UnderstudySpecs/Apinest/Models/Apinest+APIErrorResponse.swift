extension Apinest {
    /// The error body the fitness app decodes on a non-2xx status, as the fitness guide declares it.
    ///
    /// The achievements client never reads error bodies (it maps 401 and other statuses to its own errors);
    /// both specs use this envelope because both guides describe the same NestJS server.
    public struct APIErrorResponse: Codable, Sendable, Hashable {
        public let message: String
        public let statusCode: Int?
    }
}
