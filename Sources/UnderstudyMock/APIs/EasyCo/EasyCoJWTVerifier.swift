import Foundation
import JWTKit
import UnderstudyCore
import UnderstudyPostgREST

/// Reads a bearer JWT as PostgREST does behind Supabase's gateway: any HS256 token signed with the project's
/// secret, whose `role` claim is the database role (`anon` when it has none).
///
/// Only `role`, `sub` (`auth.uid()`) and `exp` matter, and only `role` is needed: the project's API keys carry no
/// `sub`, and the other claims GoTrue writes (`aud`, `iat`, `email`, `phone`, `aal`, `amr`, `session_id`,
/// `is_anonymous`, `app_metadata`, `user_metadata`) are accepted and ignored.
///
/// ```swift
/// let verifier = await EasyCoJWTVerifier(secret: secret, now: { Date() })
/// let caller = try await verifier.principal(of: token)   // roles ["service_role"], subject "" for the service key
/// ```
struct EasyCoJWTVerifier: Sendable {
    /// The claims PostgREST reads.
    struct Claims: JWTPayload, Equatable {
        var role: String?
        var sub: String?
        var exp: ExpirationClaim?

        /// Expiry is checked by ``EasyCoJWTVerifier/principal(of:)`` against the injected clock.
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// The database roles of a Supabase project a JWT may name.
    static let roles: Set<String> = ["anon", "authenticated", "service_role"]

    private let keys: JWTKeyCollection
    /// Tokens whose signature has been checked: a client sends the same token with every request.
    private let verified = VerifiedTokens<Claims>()
    private let now: @Sendable () -> Date

    /// - Parameter secret: the project's JWT secret, at least 32 bytes (checked by ``TokenService``).
    init(secret: String, now: @escaping @Sendable () -> Date) async {
        keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        self.now = now
    }

    /// The caller a token stands for: its role, and its `sub` as the subject (empty without one).
    /// - Throws: PostgREST's 401 answers: PGRST301 for a malformed or wrongly signed token, PGRST303 for an
    ///   expired one, 22023 for a role the database does not have.
    func principal(of token: String) async throws(PostgrestError) -> Principal {
        let claims = try await verifiedClaims(token)
        if let expiry = claims.exp?.value, expiry <= now() {
            throw Self.refusal(code: "PGRST303", "JWT expired")
        }
        let role = claims.role ?? "anon"
        guard Self.roles.contains(role) else {
            // PostgreSQL refuses `SET ROLE` to an unknown role; PostgREST answers that error with 401.
            throw PostgrestErrors.make(
                .unauthorized, code: "22023", "role \"\(role)\" does not exist",
                headers: [("WWW-Authenticate", "Bearer")])
        }
        return Principal(
            subject: claims.sub ?? "", roles: [role], token: token, expiresAt: claims.exp?.value ?? .distantFuture)
    }

    private func verifiedClaims(_ token: String) async throws(PostgrestError) -> Claims {
        if let claims = verified.claims(of: token) { return claims }
        let claims: Claims
        do {
            claims = try await keys.verify(token, as: Claims.self)
        } catch let error as JWTError where error.errorType == .signatureVerificationFailed {
            throw Self.refusal(code: "PGRST301", "JWSError JWSInvalidSignature")
        } catch {
            let parts = token.split(separator: ".", omittingEmptySubsequences: false).count
            throw Self.refusal(
                code: "PGRST301",
                parts == 3
                    ? "JWSError JWSInvalidClaims"
                    : "JWSError (CompactDecodeError Invalid number of parts: Expected 3 parts; got \(parts))")
        }
        verified.insert(claims, for: token)
        return claims
    }

    /// A refused token: PostgREST's body, and `WWW-Authenticate` naming the reason (RFC 6750).
    static func refusal(code: String, _ text: String) -> PostgrestError {
        PostgrestErrors.make(
            .unauthorized, code: code, text,
            headers: [("WWW-Authenticate", "Bearer error=\"invalid_token\", error_description=\"\(text)\"")])
    }
}
