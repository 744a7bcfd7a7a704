import JWTKit
import UnderstudyCore

extension TokenService {
    /// The principal of a request's `Authorization: Bearer <JWT>`, `nil` without one.
    /// - Throws: ``MockError`` 401 when the header is not a bearer token or the token is refused.
    package func principal(of request: MockRequest) async throws(MockError) -> Principal? {
        guard let authorization = request.header("authorization") else { return nil }
        guard let token = request.bearerToken, !token.isEmpty else {
            throw MockError(.unauthorized, "the Authorization header must be \"Bearer <token>\"")
        }
        do {
            let claims = try await verify(token)
            return Principal(
                subject: claims.sub.value, roles: claims.roles ?? claims.role.map { [$0] } ?? [], token: token,
                expiresAt: claims.exp.value)
        } catch let error as TokenServiceError {
            _ = authorization
            throw MockError(.unauthorized, "invalid token: \(error.description)")
        } catch {
            throw MockError(.unauthorized, "invalid token")
        }
    }
}
