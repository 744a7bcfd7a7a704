import Foundation
import UnderstudyCore

/// What the checker authenticates with: a token given as is, or what it needs to obtain one.
public struct Credentials: Sendable {
    /// A bearer token (`--token`).
    public var token: String?
    /// Another user's bearer token (`--other-token`): the items the run makes on operations that act on the caller's
    /// own are asked for with it too, and must be refused.
    public var otherToken: String?
    /// Supabase's `apikey` header (`--apikey`).
    public var apiKey: String?
    /// E-mail and password for the API's login endpoint (`--login email:password`, VideGreniers).
    public var login: (email: String, password: String)?
    /// OAuth 2 client credentials (`--client-id`/`--client-secret`, 42).
    public var client: (id: String, secret: String)?
    /// Extra headers sent with every request (`--header 'Name: value'`).
    public var headers: HeaderFields

    public init(
        token: String? = nil, apiKey: String? = nil, login: (email: String, password: String)? = nil,
        client: (id: String, secret: String)? = nil, headers: HeaderFields = [:], otherToken: String? = nil
    ) {
        self.token = token
        self.otherToken = otherToken
        self.apiKey = apiKey
        self.login = login
        self.client = client
        self.headers = headers
    }

    /// A redactor knowing every secret given here.
    package var redactor: Redactor {
        var redactor = Redactor()
        if let token { redactor.add(token, as: "UNDERSTUDY_TOKEN") }
        if let otherToken { redactor.add(otherToken, as: "UNDERSTUDY_OTHER_TOKEN") }
        if let apiKey { redactor.add(apiKey, as: "UNDERSTUDY_APIKEY") }
        if let login { redactor.add(login.password, as: "UNDERSTUDY_PASSWORD") }
        if let client { redactor.add(client.secret, as: "UNDERSTUDY_CLIENT_SECRET") }
        for field in headers { redactor.add(field.value, as: "UNDERSTUDY_HEADER") }
        return redactor
    }

    /// Why these credentials cannot be used with `spec`, if they cannot.
    public func problem(for spec: APISpec) -> String? {
        if login != nil, spec.login == nil {
            return "--login is not supported for \(spec.id): its spec declares no e-mail and password sign-in; pass --token"
        }
        if client != nil {
            guard case .oauth2 = spec.auth else {
                return "--client-id/--client-secret need an API signed in with OAuth 2 client credentials; \(spec.id) is not"
            }
        }
        let takesAPIKey = spec.endpoints.contains { endpoint in
            endpoint.security.joined().contains { if case .apiKey = $0 { true } else { false } }
        }
        if apiKey != nil, spec.auth != .supabase, !takesAPIKey {
            return "--apikey is for a Supabase API or a document with an apiKey security scheme; \(spec.id) is neither"
        }
        return nil
    }
}
