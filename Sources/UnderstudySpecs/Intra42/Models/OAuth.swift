import UnderstudyCore

extension Intra42 {
    /// The body of `POST /oauth/token`: an authorization code, a refresh token or client credentials
    /// exchanged for an access token.
    ///
    /// Not in the document: written from ENDPOINTS.md. Which optional member is needed depends on
    /// `grant_type`: `code` and `redirect_uri` for `authorization_code`, `refresh_token` for `refresh_token`,
    /// neither for `client_credentials`.
    public struct TokenRequest: Codable, Sendable, Hashable {
        /// One of ``grantTypes``.
        public let grantType: String
        public let clientId: String
        public let clientSecret: String
        public let code: String?
        public let redirectUri: String?
        public let refreshToken: String?

        enum CodingKeys: String, CodingKey {
            case grantType = "grant_type"
            case clientId = "client_id"
            case clientSecret = "client_secret"
            case code
            case redirectUri = "redirect_uri"
            case refreshToken = "refresh_token"
        }

        /// The grant types the app uses.
        public static let grantTypes = ["authorization_code", "refresh_token", "client_credentials"]
    }

    /// The answer of `POST /oauth/token`; the app stores the tokens in the Keychain and refreshes one
    /// minute before `created_at + expires_in`.
    ///
    /// Not in the document: written from ENDPOINTS.md.
    public struct TokenResponse: Codable, Sendable, Hashable {
        public let accessToken: String
        /// `bearer`.
        public let tokenType: String
        /// Seconds.
        public let expiresIn: Int
        /// Absent for `client_credentials`.
        public let refreshToken: String?
        public let scope: String
        /// Seconds since 1970.
        public let createdAt: Int

        public init(
            accessToken: String, tokenType: String, expiresIn: Int, refreshToken: String?, scope: String, createdAt: Int
        ) {
            self.accessToken = accessToken
            self.tokenType = tokenType
            self.expiresIn = expiresIn
            self.refreshToken = refreshToken
            self.scope = scope
            self.createdAt = createdAt
        }

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case tokenType = "token_type"
            case expiresIn = "expires_in"
            case refreshToken = "refresh_token"
            case scope
            case createdAt = "created_at"
        }
    }
}

extension Intra42.TokenRequest: SchemaRefining {
    public static func refineSchema(_ schema: inout ObjectSchema) {
        schema.refine("grant_type") { $0 = .string(values: grantTypes) }
    }
}
