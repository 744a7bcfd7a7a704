import Foundation
import UnderstudyCore
import UnderstudySpecs

extension Intra42Mock {
    /// `POST /oauth/token`: the three grants the app uses, answered as Doorkeeper (the 42 API's OAuth
    /// server) answers them.
    ///
    /// The engine has already checked the body against `TokenRequest` (JSON or form-encoded): the grant
    /// type is one of the three and the client credentials are present. Errors are OAuth errors in the
    /// spec's envelope: `{"error": "invalid_grant", "message": ...}`, with `error_description` too so an
    /// RFC 6749 client finds its member.
    func token(_ request: MockRequest) async throws -> MockResponse {
        let body = request.json ?? [:]
        guard body["client_id"]?.stringValue == application.clientID,
            body["client_secret"]?.stringValue == application.clientSecret
        else {
            throw Self.oauthError(
                .unauthorized, "invalid_client",
                "Client authentication failed due to unknown client, no client authentication included, or "
                    + "unsupported authentication method.")
        }
        let now = configuration.now()
        let requested = try Self.requestedScopes(body["scope"]?.stringValue)
        let record = try await store.write { state throws -> Intra42TokenRecord in
            switch body["grant_type"]?.stringValue {
            case "authorization_code":
                let code = try Self.member("code", of: body)
                let redirectURI = try Self.member("redirect_uri", of: body)
                guard let grant = state.authorizationCodes.first(where: { $0.code == code }),
                    grant.redirectURI == redirectURI
                else { throw Self.invalidGrant }
                return issue(&state, userID: grant.userID, scopes: grant.scopes, refresh: true, now: now)
            case "refresh_token":
                let refreshToken = try Self.member("refresh_token", of: body)
                guard let old = state.tokens.rows(in: refreshToken).first(where: { !$0.revoked })
                else { throw Self.invalidGrant }
                if let requested, !Set(requested).isSubset(of: old.scopes) { throw Self.invalidScope }
                // Rotation: the old grant (its access token and its refresh token) is revoked at once.
                state.tokens[key: old.accessToken]?.revoked = true
                return issue(&state, userID: old.userID, scopes: requested ?? old.scopes, refresh: true, now: now)
            case "client_credentials":
                return issue(
                    &state, userID: nil, scopes: requested ?? Intra42Application.defaultScopes, refresh: false, now: now
                )
            default:
                throw Self.oauthError(
                    .badRequest, "unsupported_grant_type",
                    "The authorization grant type is not supported by the authorization server.")
            }
        }
        return try .json(
            encoding: token(record), as: Intra42.spec, headers: [("Cache-Control", "no-store"), ("Pragma", "no-cache")])
    }

    /// The body of a token answer.
    func token(_ record: Intra42TokenRecord) -> Intra42.TokenResponse {
        Intra42.TokenResponse(
            accessToken: record.accessToken, tokenType: "bearer", expiresIn: record.expiresIn,
            refreshToken: record.refreshToken, scope: record.scopes.joined(separator: " "),
            createdAt: record.createdAt)
    }

    /// Issues a grant: a new access token, and a refresh token for users. Grants that expired a day ago
    /// are forgotten (swept as the table doubles), so the state does not grow without end.
    func issue(
        _ state: inout Intra42State, userID: Int?, scopes: [String], refresh: Bool, now: Date
    ) -> Intra42TokenRecord {
        let createdAt = Int(now.timeIntervalSince1970)
        state.tokens.sweep { Double($0.createdAt + $0.expiresIn + 86_400) <= now.timeIntervalSince1970 }
        state.issuedTokens += 1
        let subject = userID.map(String.init) ?? "client"
        let salt = "\(state.issuedTokens) \(subject) \(createdAt)"
        let record = Intra42TokenRecord(
            accessToken: hexToken("access \(salt)"), refreshToken: refresh ? hexToken("refresh \(salt)") : nil,
            userID: userID, scopes: scopes, createdAt: createdAt, expiresIn: Self.tokenLifetime, revoked: false)
        state.tokens.append(record)
        return record
    }

    /// 64 hexadecimal digits, deterministic for the seed and `salt`.
    func hexToken(_ salt: String) -> String {
        Intra42SeedBuilder.hex(SeededRandom(seed: configuration.seed).derived("intra42 token \(salt)"), digits: 64)
    }

    // MARK: OAuth errors

    static func oauthError(_ status: HTTPStatus, _ code: String, _ description: String) -> MockError {
        MockError(
            status, description,
            body: ["error": .string(code), "message": .string(description), "error_description": .string(description)],
            headers: [("Cache-Control", "no-store"), ("Pragma", "no-cache")])
    }

    static let invalidGrant = oauthError(
        .badRequest, "invalid_grant",
        "The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in "
            + "the authorization request, or was issued to another client.")

    static let invalidScope = oauthError(
        .badRequest, "invalid_scope", "The requested scope is invalid, unknown, or malformed.")

    /// A member the grant needs.
    static func member(_ name: String, of body: JSONValue) throws(MockError) -> String {
        guard let value = body[name]?.stringValue, !value.isEmpty else {
            throw oauthError(
                .badRequest, "invalid_request",
                "The request is missing a required parameter, includes an unsupported parameter value, or is "
                    + "otherwise malformed. Missing required parameter: \(name).")
        }
        return value
    }

    /// The scopes of a `scope` member (space-separated), `nil` when absent.
    static func requestedScopes(_ text: String?) throws(MockError) -> [String]? {
        guard let text else { return nil }
        let scopes = text.split(whereSeparator: { $0 == " " || $0 == "+" }).map(String.init)
        guard !scopes.isEmpty, scopes.allSatisfy(Intra42Application.scopes.contains) else { throw invalidScope }
        return Intra42Application.scopes.filter(scopes.contains)
    }
}
