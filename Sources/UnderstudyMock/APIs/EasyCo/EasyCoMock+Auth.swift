import Foundation
import JWTKit
import UnderstudyCore
import UnderstudyPostgREST
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
    /// Supabase's gateway reads the key from `?apikey=` when the header is missing (Kong's `key-auth` looks in
    /// the query string too).
    package func normalize(_ request: inout MockRequest) {
        guard request.header("apikey")?.isEmpty ?? true, let key = request.query["apikey"], !key.isEmpty else { return }
        request.headers["apikey"] = key
    }

    /// Checks the `apikey` header as Supabase's gateway does, then the bearer JWT as PostgREST does.
    ///
    /// The key must be one of the project's; without `Authorization` the gateway forwards the key itself as the
    /// bearer, so the request runs as the key's role (`anon` or `service_role`). A bearer is any HS256 JWT signed
    /// with the project's secret (see ``EasyCoJWTVerifier``).
    package func authenticate(_ request: MockRequest, endpoint: AnyEndpoint) async throws -> Principal? {
        try await answeringPostgrestErrors { try await principal(of: request) }
    }

    private func principal(of request: MockRequest) async throws -> Principal? {
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
        guard request.header("authorization") != nil else { return keyPrincipal(apikey) }
        guard let token = request.bearerToken, !token.isEmpty else {
            throw EasyCoJWTVerifier.refusal(code: "PGRST301", "Authorization header must be \"Bearer <token>\"")
        }
        if token == keys.anon || token == keys.service { return keyPrincipal(token) }
        return try await bearers.principal(of: token)
    }

    /// The caller a project key stands for, without verifying it again.
    private func keyPrincipal(_ key: String) -> Principal {
        let role = key == keys.service ? "service_role" : "anon"
        return Principal(subject: "", roles: [role], token: key, expiresAt: .distantFuture)
    }

    /// The row-level security role of a request; an `authenticated` JWT without `sub` has no `auth.uid()`.
    static func caller(of principal: Principal?) -> PostgrestCaller {
        guard let principal else { return .anonymous }
        if principal.has(role: "service_role") { return .serviceRole }
        if principal.has(role: "anon") { return .anonymous }
        return principal.subject.isEmpty ? PostgrestCaller(role: .authenticated, userID: nil) : .user(principal.subject)
    }
}
