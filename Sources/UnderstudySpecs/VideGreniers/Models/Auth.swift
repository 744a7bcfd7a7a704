import Foundation
import UnderstudyCore

extension VideGreniers {
    /// The body of `POST /api/auth/register`.
    ///
    /// Written from the document's JSON example (it gives no Swift model). The password must have at
    /// least 8 characters, among them an upper-case letter, a lower-case letter and a digit (a `pattern`).
    public struct RegisterRequest: Codable, Sendable, Hashable {
        public let email: String
        public let password: String
        public let firstName: String?
        public let lastName: String?

        public init(email: String, password: String, firstName: String? = nil, lastName: String? = nil) {
            self.email = email
            self.password = password
            self.firstName = firstName
            self.lastName = lastName
        }
    }

    /// The body of `POST /api/auth/login`.
    ///
    /// Written from the document's JSON example (it gives no Swift model).
    public struct LoginRequest: Codable, Sendable, Hashable {
        public let email: String
        public let password: String

        public init(email: String, password: String) {
            self.email = email
            self.password = password
        }
    }

    /// The body of `POST /api/auth/refresh`: the expired access token and the current refresh token.
    ///
    /// Written from the document's JSON example (it gives no Swift model).
    public struct RefreshTokenRequest: Codable, Sendable, Hashable {
        public let accessToken: String
        public let refreshToken: String

        public init(accessToken: String, refreshToken: String) {
            self.accessToken = accessToken
            self.refreshToken = refreshToken
        }
    }

    /// The body of `POST /api/auth/logout`: the refresh token to revoke.
    ///
    /// Written from the document's JSON example (it gives no Swift model).
    public struct LogoutRequest: Codable, Sendable, Hashable {
        public let refreshToken: String

        public init(refreshToken: String) {
            self.refreshToken = refreshToken
        }
    }

    /// The body of the announced OAuth sign-in endpoints (Google, Apple).
    ///
    /// Not in the document beyond "send the `identityToken` to the backend" (Apple note): this is the
    /// model an iOS developer would write from that sentence.
    public struct OAuthSignInRequest: Codable, Sendable, Hashable {
        public let identityToken: String

        public init(identityToken: String) {
            self.identityToken = identityToken
        }
    }

    /// The tokens and user returned by register, login and refresh.
    ///
    /// Written from the document's JSON example (it gives no Swift model). `expiresIn` is in seconds
    /// (900: access tokens live 15 minutes).
    public struct AuthResponse: Codable, Sendable, Hashable {
        public let accessToken: String
        public let refreshToken: String
        public let expiresIn: Int
        public let user: AuthUserDto

        public init(accessToken: String, refreshToken: String, expiresIn: Int, user: AuthUserDto) {
            self.accessToken = accessToken
            self.refreshToken = refreshToken
            self.expiresIn = expiresIn
            self.user = user
        }
    }

    /// The user inside an ``AuthResponse``.
    ///
    /// Written from the document's JSON example (it gives no Swift model).
    public struct AuthUserDto: Codable, Sendable, Hashable {
        public let id: UUID
        public let email: String
        public let firstName: String?
        public let lastName: String?

        public init(id: UUID, email: String, firstName: String?, lastName: String?) {
            self.id = id
            self.email = email
            self.firstName = firstName
            self.lastName = lastName
        }
    }

    /// The payload of `GET /api/auth/me`.
    ///
    /// Written from the document's JSON example (it gives no Swift model).
    public struct CurrentUserDto: Codable, Sendable, Hashable {
        public let id: UUID
        public let email: String
        public let firstName: String?
        public let lastName: String?
        public let roles: [String]
        public let isAuthenticated: Bool

        public init(
            id: UUID, email: String, firstName: String?, lastName: String?, roles: [String], isAuthenticated: Bool
        ) {
            self.id = id
            self.email = email
            self.firstName = firstName
            self.lastName = lastName
            self.roles = roles
            self.isAuthenticated = isAuthenticated
        }
    }
}

extension VideGreniers.RegisterRequest: SchemaRefining {
    public static func refineSchema(_ schema: inout ObjectSchema) {
        schema.setFormat(.email, of: "email")
        schema.refine("password") { $0 = .string(minLength: 8, pattern: passwordPattern) }
    }

    /// An upper-case letter, a lower-case letter and a digit, anywhere.
    static let passwordPattern = "^(?=.*[a-z])(?=.*[A-Z])(?=.*[0-9])"
}

extension VideGreniers.LoginRequest: SchemaRefining {
    public static func refineSchema(_ schema: inout ObjectSchema) {
        schema.setFormat(.email, of: "email")
    }
}
