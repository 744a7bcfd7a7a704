import Foundation
import JWTKit
import UnderstudyCore

/// Signs and verifies the HS256 JWTs of the apinest, VideGreniers and Supabase mocks.
///
/// Tokens signed elsewhere with the same secret are accepted too (`--jwt-secret`).
package struct TokenService: Sendable {
    /// The claims the mocks put in and read from a token.
    package struct Claims: JWTPayload, Equatable {
        package var sub: SubjectClaim
        package var exp: ExpirationClaim
        package var iat: IssuedAtClaim
        package var roles: [String]?
        package var role: String?
        package var email: String?
        package var jti: IDClaim?

        /// Expiry is checked by ``TokenService/verify(_:)`` against the injected clock.
        package func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    private let keys: JWTKeyCollection
    /// Tokens whose signature has been checked, so a client sending the same token with every request costs
    /// one HMAC and one JSON decode, not one per request. Expiry is still checked on every use.
    private let verified = VerifiedTokens<Claims>()
    /// The clock tokens are issued and checked against.
    package let now: @Sendable () -> Date

    /// Creates a service.
    /// - Throws: ``TokenServiceError`` when the secret is shorter than 32 bytes (jwt-kit requires it).
    package init(secret: String, now: @escaping @Sendable () -> Date = { Date() }) async throws {
        guard secret.utf8.count >= 32 else {
            throw TokenServiceError(description: "the JWT secret must be at least 32 bytes long (got \(secret.utf8.count))")
        }
        keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        self.now = now
    }

    /// A signed token for `subject`, valid for `lifetime` seconds.
    package func sign(
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
    package func verify(_ token: String) async throws -> Claims {
        if let claims = verified.claims(of: token) { return try unexpired(claims) }
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
        verified.insert(claims, for: token)
        return try unexpired(claims)
    }

    private func unexpired(_ claims: Claims) throws -> Claims {
        guard claims.exp.value > now() else { throw TokenServiceError(description: "the token has expired") }
        return claims
    }
}

/// The claims of tokens whose signature was good, by the token's text; bounded in entries and bytes.
final class VerifiedTokens<Claims: Sendable>: Sendable {
    private let cache = Locked(BoundedCache<String, Claims>(maximumEntries: 4_096, maximumBytes: 8 << 20))

    func claims(of token: String) -> Claims? { cache.withLock { $0.value(for: token) } }

    func insert(_ claims: Claims, for token: String) {
        // The token's bytes, and about as much again for its decoded claims and the bookkeeping.
        cache.withLock { $0.insert(claims, bytes: 2 * token.utf8.count + 256, for: token) }
    }
}

/// Why a token was refused.
package struct TokenServiceError: Error, Sendable, Hashable, CustomStringConvertible {
    package let description: String
}
