import Foundation
import UnderstudyCore

extension FixtureMock {
    /// The caller, when the endpoint's security is met by what the request presents: a well-formed, non-empty
    /// bearer token (a JWT whose `exp` has not passed, where the document says the bearer is a JWT), a basic
    /// credential, or a non-empty API key where the scheme puts it. No secret is checked: a fixture mock has none.
    /// - Throws: ``MockError`` 401, in the endpoint's documented 401 body, when a protected endpoint's security
    ///   is not met.
    package func authenticate(_ request: MockRequest, endpoint: AnyEndpoint) async throws -> Principal? {
        // A built-in spec's protected endpoints take a bearer token.
        let alternatives =
            endpoint.security.isEmpty && endpoint.auth != .none
            ? [[SecurityScheme.bearer(format: nil)]] : endpoint.security
        var problems: [String] = []
        for alternative in alternatives where !alternative.isEmpty {
            switch presented(alternative, in: request) {
            case .success(let credential):
                // No secret is checked: a credential stands for whoever the endpoint needs, a JWT for its `sub`.
                let roles = if case .role(let role) = endpoint.auth { [role] } else { [String]() }
                return Principal(subject: Self.subject(of: credential), roles: roles, token: credential)
            case .failure(let problem): problems.append(problem.description)
            }
        }
        switch endpoint.auth {
        case .none, .optional: return nil
        case .required, .role: break
        }
        if alternatives.contains(where: \.isEmpty) { return nil }
        let message = "authentication required: " + problems.joined(separator: "; or ")
        let status = HTTPStatus.unauthorized
        let spec = specs[0]
        let body = endpoint.documentedResponse(for: status.rawValue)?.model.map {
            ErrorBody.make(
                $0, validator: Validator(spec: spec), settings: spec.wire, status: status, messages: [message])
        }
        // The challenges of the HTTP schemes asked for (RFC 9110 §11.6.1); an API key has none.
        let schemes = alternatives.joined()
        let challenges =
            (schemes.contains { if case .bearer = $0 { true } else { false } } ? ["Bearer"] : [])
            + (schemes.contains(.basic) ? [#"Basic realm="understudy""#] : [])
        throw MockError(
            status, message, body: body,
            headers: challenges.isEmpty ? [] : [("WWW-Authenticate", challenges.joined(separator: ", "))])
    }

    /// The credential of an alternative (every scheme in it presented), or what is missing.
    private func presented(_ alternative: [SecurityScheme], in request: MockRequest) -> Result<String, Problem> {
        var first: String?
        for scheme in alternative {
            switch credential(scheme, in: request) {
            case .success(let value): first = first ?? value
            case .failure(let problem): return .failure(problem)
            }
        }
        return .success(first ?? "")
    }

    private struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    private func credential(_ scheme: SecurityScheme, in request: MockRequest) -> Result<String, Problem> {
        switch scheme {
        case .bearer:
            guard let token = request.bearerToken, !token.isEmpty else {
                return .failure(Problem(description: "send Authorization: Bearer <token>"))
            }
            if scheme.isJWTBearer, let problem = Self.jwtProblem(token, now: now()) {
                return .failure(Problem(description: "the bearer token \(problem)"))
            }
            return .success(token)
        case .basic:
            guard let authorization = request.header("authorization"), authorization.lowercased().hasPrefix("basic "),
                let decoded = Data(base64Encoded: String(authorization.dropFirst(6)).trimmingSpaces),
                String(decoding: decoded, as: UTF8.self).contains(":")
            else { return .failure(Problem(description: "send Authorization: Basic <base64 of user:password>")) }
            return .success(authorization)
        case .apiKey(let name, let location):
            let value: String? =
                switch location {
                case .header: request.header(name)
                case .query: request.query[name]
                case .cookie: Self.cookie(name, in: request.header("cookie"))
                }
            guard let value, !value.trimmingSpaces.isEmpty else {
                let place =
                    switch location {
                    case .header: "the \(name) header"
                    case .query: "the \(name) query parameter"
                    case .cookie: "the \(name) cookie"
                    }
                return .failure(Problem(description: "send an API key in \(place)"))
            }
            return .success(value)
        }
    }

    /// The user a credential names: a JWT's `sub`, else the ready credential's user (``readySubject``).
    static func subject(of credential: String) -> String {
        let parts = credential.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = base64URL(parts[1]).flatMap({ try? JSONValue(parsing: $0) }),
            let subject = payload["sub"]?.stringValue, !subject.isEmpty
        else { return readySubject }
        return subject
    }

    /// Why a token is not a usable JWT (three base64url parts, JSON header and payload, `exp` not passed), or
    /// `nil` when it is one.
    static func jwtProblem(_ token: String, now: Date) -> String? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[2].isEmpty,
            let header = base64URL(parts[0]).flatMap({ try? JSONValue(parsing: $0) }), header.objectValue != nil,
            let payload = base64URL(parts[1]).flatMap({ try? JSONValue(parsing: $0) }), payload.objectValue != nil
        else { return "is not a JWT (header.payload.signature, base64url JSON)" }
        if let expiry = payload["exp"]?.numberValue?.doubleValue, expiry <= now.timeIntervalSince1970 {
            return "expired at \(FixtureGenerator.isoDate(Date(timeIntervalSince1970: expiry), fraction: false))"
        }
        return nil
    }

    private static func base64URL(_ text: Substring) -> [UInt8]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64).map(Array.init)
    }

    /// A JWT with these claims and a placeholder signature: the fixture mock checks a JWT's shape and `exp`, never
    /// its signature, so tests can make valid and expired tokens.
    package static func jwt(_ claims: JSONValue) -> String {
        let header: JSONValue = ["alg": "HS256", "typ": "JWT"]
        return [header.serializedBytes(), claims.serializedBytes(), Array("understudy".utf8)].map { bytes in
            Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }.joined(separator: ".")
    }

    private static func cookie(_ name: String, in header: String?) -> String? {
        for pair in (header ?? "").split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).trimmingSpaces }
            if parts.count == 2, parts[0] == name { return parts[1] }
        }
        return nil
    }
}
