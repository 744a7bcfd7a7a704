import Foundation
import JWTKit
import UnderstudyCore
import UnderstudySpecs

/// The project's API keys: JWTs without a `sub`, whose `role` claim is `anon` or `service_role`, as
/// Supabase issues them. They are signed with the mock's secret and fixed claims, so they stay the same
/// from one start to the next (an app's configured key keeps working).
struct EasyCoKeys: Sendable {
    let anon: String
    let service: String

    struct Claims: JWTPayload {
        var iss: IssuerClaim
        var ref: String
        var role: String
        var iat: IssuedAtClaim
        var exp: ExpirationClaim

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    init(secret: String) async throws {
        // Sorted claims: the default encoder's key order changes from one process to the next.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.dateEncodingStrategy = .secondsSince1970
        let keys = JWTKeyCollection()
        await keys.add(
            hmac: HMACKey(from: secret), digestAlgorithm: .sha256,
            serializer: DefaultJWTSerializer(jsonEncoder: encoder))
        let issued = FixtureGenerator.referenceInstant
        func claims(_ role: String) -> Claims {
            Claims(
                iss: IssuerClaim(value: "supabase"), ref: "understudy-easyco", role: role,
                iat: IssuedAtClaim(value: issued),
                exp: ExpirationClaim(value: issued.addingTimeInterval(10 * 365 * 86_400)))
        }
        anon = try await keys.sign(claims("anon"))
        service = try await keys.sign(claims("service_role"))
    }
}

extension EasyCoMock {
    /// Checks the `apikey` header, then the bearer token: a user JWT (`sub` = user id), or
    /// the anon or service key itself.
    public func authenticate(_ request: MockRequest, endpoint: AnyEndpoint) async throws -> Principal? {
        guard let apikey = request.header("apikey"), !apikey.isEmpty else {
            throw PostgrestErrors.make(
                .unauthorized, code: "PGRST301", "No API key found in request",
                hint: "No `apikey` request header or url param was found.")
        }
        guard apikey == keys.anon || apikey == keys.service else {
            throw PostgrestErrors.make(
                .unauthorized, code: "PGRST301", "Invalid API key",
                hint: "Double check your Supabase `anon` or `service_role` API key.")
        }
        guard request.header("authorization") != nil else { return nil }
        if let token = request.bearerToken, token == keys.anon || token == keys.service {
            let role = token == keys.anon ? "anon" : "service_role"
            return Principal(subject: role, roles: [role], token: token, expiresAt: .distantFuture)
        }
        do {
            return try await tokens.principal(of: request)
        } catch {
            throw Self.jwtError(error)
        }
    }

    /// PostgREST's answers to a refused JWT: PGRST303 "JWT expired", PGRST301 otherwise.
    private static func jwtError(_ error: MockError) -> MockError {
        let message = error.messages.first ?? "invalid token"
        let expired = message.contains("expired")
        let text: String
        if expired {
            text = "JWT expired"
        } else if message.contains("signature") {
            text = "JWSError JWSInvalidSignature"
        } else if message.contains("Bearer") {
            text = "Authorization header must be \"Bearer <token>\""
        } else {
            text = "JWSError (CompactDecodeError Invalid number of parts: Expected 3 parts; got 1)"
        }
        return PostgrestErrors.make(
            .unauthorized, code: expired ? "PGRST303" : "PGRST301", text, details: message,
            headers: [("WWW-Authenticate", "Bearer error=\"invalid_token\", error_description=\"\(text)\"")])
    }

    /// The row-level security role of a request.
    static func caller(of principal: Principal?) -> PostgrestCaller {
        guard let principal else { return .anonymous }
        if principal.has(role: "service_role") { return .serviceRole }
        if principal.has(role: "anon") { return .anonymous }
        return .user(principal.subject)
    }
}
