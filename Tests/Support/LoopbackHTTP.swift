import Foundation
import UnderstudyCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Requests to a server on loopback (a mock the binary started), through `URLSession` as an app sends them.
package enum LoopbackHTTP {
    /// An answer: status, headers (names in lower case) and body.
    package struct Answer: Sendable {
        package let status: Int
        package let headers: [String: String]
        package let body: Data

        package var json: JSONValue? { try? JSONValue(parsing: Array(body)) }
        package var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Sends one request; `json` and `text` go as `application/json`, `body` as it is.
    /// - Throws: when the connection fails (a dead process), never for a status.
    package static func send(
        _ method: String, _ url: String, headers: [String: String] = [:], json: JSONValue? = nil, text: String? = nil,
        body: Data? = nil, timeout: TimeInterval = 300
    ) async throws -> Answer {
        guard let target = URL(string: url) else { throw SupportError("not a URL: \(url)") }
        var request = URLRequest(url: target, timeoutInterval: timeout)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let json = json.map({ Data($0.serializedBytes()) }) ?? text.map({ Data($0.utf8) }) {
            request.httpBody = json
            if headers.keys.allSatisfy({ $0.lowercased() != "content-type" }) {
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            }
        } else if let body {
            request.httpBody = body
        }
        return try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: request) { data, response, error in
                guard let http = response as? HTTPURLResponse else {
                    continuation.resume(throwing: error ?? SupportError("no response from \(method) \(url)"))
                    return
                }
                var fields: [String: String] = [:]
                for (name, value) in http.allHeaderFields { fields["\(name)".lowercased()] = "\(value)" }
                continuation.resume(returning: Answer(status: http.statusCode, headers: fields, body: data ?? Data()))
            }.resume()
        }
    }

    /// ``send(_:_:headers:json:text:body:timeout:)`` with the JSON body in third place.
    package static func send(_ method: String, _ url: String, _ json: JSONValue?, headers: [String: String] = [:])
        async throws -> Answer
    {
        try await send(method, url, headers: headers, json: json)
    }

    /// A token of a seeded user (the API's default user when `nil`) from a running mock's `/__understudy/token`.
    package static func token(at base: String, for user: String? = nil) async throws -> String {
        let answer = try await send("POST", "\(base)/__understudy/token", json: user.map { ["user": .string($0)] } ?? [:])
        guard let token = (answer.json?["accessToken"] ?? answer.json?["access_token"])?.stringValue else {
            throw SupportError("no token from \(base): \(answer.status) \(answer.text)")
        }
        return token
    }
}
