import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What every client of the app shares: a base URL, the app's `URLSession`, JSON both ways.
public struct APIClient: Sendable {
    public let baseURL: URL
    public let session: URLSession
    /// Headers sent with every request (an API key).
    public var headers: [String: String] = [:]

    public init(baseURL: URL, session: URLSession = .shared, headers: [String: String] = [:]) {
        self.baseURL = baseURL
        self.session = session
        self.headers = headers
    }

    /// Sends a request and decodes its answer; a status outside 2xx throws ``APIError``.
    public func send<Answer: Decodable>(
        _ method: String, _ path: String, query: [URLQueryItem] = [], body: (any Encodable)? = nil,
        token: String? = nil, headers extra: [String: String] = [:], as answer: Answer.Type = Answer.self
    ) async throws -> Answer {
        var components = URLComponents(url: baseURL.appending(path: path), resolvingAgainstBaseURL: false)!
        if !query.isEmpty { components.queryItems = query }
        var request = URLRequest(url: components.url!)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        for (name, value) in headers.merging(extra, uniquingKeysWith: { $1 }) {
            request.setValue(value, forHTTPHeaderField: name)
        }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONEncoder().encode(body)
        }
        let (data, response) = try await session.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else { throw APIError(status: status, body: String(decoding: data, as: UTF8.self)) }
        if Answer.self == Nothing.self, let nothing = Nothing() as? Answer { return nothing }
        return try JSONDecoder().decode(Answer.self, from: data)
    }
}

/// An answer outside 2xx.
public struct APIError: Error, Equatable {
    public let status: Int
    public let body: String
}

/// An answer whose body the app does not read.
public struct Nothing: Decodable, Sendable {
    public init() {}
}
