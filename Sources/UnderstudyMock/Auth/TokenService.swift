import Foundation
import JWTKit

/// Signs and verifies the HS256 JWTs of the apinest, VideGreniers and Supabase mocks.
///
/// Tokens signed elsewhere with the same secret are accepted too (`--jwt-secret`).
public struct TokenService: Sendable {
    /// The claims the mocks put in and read from a token.
    public struct Claims: JWTPayload, Equatable {
        public var sub: SubjectClaim
        public var exp: ExpirationClaim
        public var iat: IssuedAtClaim
        public var roles: [String]?
        public var role: String?
        public var email: String?
        public var jti: IDClaim?

        /// Expiry is checked by ``TokenService/verify(_:)`` against the injected clock.
        public func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    private let keys: JWTKeyCollection
    /// The clock tokens are issued and checked against.
    public let now: @Sendable () -> Date

    /// Creates a service.
    /// - Throws: ``TokenServiceError`` when the secret is shorter than 32 bytes (jwt-kit requires it).
    public init(secret: String, now: @escaping @Sendable () -> Date = { Date() }) async throws {
        guard secret.utf8.count >= 32 else {
            throw TokenServiceError(description: "the JWT secret must be at least 32 bytes long (got \(secret.utf8.count))")
        }
        keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        self.now = now
    }

    /// A signed token for `subject`, valid for `lifetime` seconds.
    public func sign(
        subject: String, lifetime: TimeInterval, roles: [String]? = nil, role: String? = nil, email: String? = nil
    ) async throws -> String {
        let issued = now()
        let claims = Claims(
            sub: SubjectClaim(value: subject), exp: ExpirationClaim(value: issued.addingTimeInterval(lifetime)),
            iat: IssuedAtClaim(value: issued), roles: roles, role: role, email: email,
            jti: IDClaim(value: UUID().uuidString))
        return try await keys.sign(claims)
    }

    /// The verified claims of a token.
    /// - Throws: ``TokenServiceError`` saying whether the token is malformed, wrongly signed or expired.
    public func verify(_ token: String) async throws -> Claims {
        let claims: Claims
        do {
            claims = try await keys.verify(token, as: Claims.self)
        } catch let error as JWTError {
            switch error.errorType {
            case .signatureVerificationFailed: throw TokenServiceError(description: "the token signature is invalid")
            default: throw TokenServiceError(description: "the token is malformed")
            }
        } catch {
            throw TokenServiceError(description: "the token is malformed")
        }
        guard claims.exp.value > now() else { throw TokenServiceError(description: "the token has expired") }
        return claims
    }
}

/// Why a token was refused.
public struct TokenServiceError: Error, Sendable, Hashable, CustomStringConvertible {
    public let description: String
}
