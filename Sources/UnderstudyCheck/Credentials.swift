import Foundation
import UnderstudyCore

/// What the checker authenticates with: a token given as is, or what it needs to obtain one.
public struct Credentials: Sendable {
    /// A bearer token (`--token`).
    public var token: String?
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
        client: (id: String, secret: String)? = nil, headers: HeaderFields = [:]
    ) {
        self.token = token
        self.apiKey = apiKey
        self.login = login
        self.client = client
        self.headers = headers
    }

    /// A redactor knowing every secret given here.
    var redactor: Redactor {
        var redactor = Redactor()
        if let token { redactor.add(token, as: "UNDERSTUDY_TOKEN") }
        if let apiKey { redactor.add(apiKey, as: "UNDERSTUDY_APIKEY") }
        if let login { redactor.add(login.password, as: "UNDERSTUDY_PASSWORD") }
        if let client { redactor.add(client.secret, as: "UNDERSTUDY_CLIENT_SECRET") }
        for field in headers { redactor.add(field.value, as: "UNDERSTUDY_HEADER") }
        return redactor
    }

    /// Why these credentials cannot be used with `spec`, if they cannot.
    public func problem(for spec: APISpec) -> String? {
        if login != nil, SignIn.login(for: spec) == nil {
            return "--login is not supported for \(spec.id): pass --token (VideGreniers is the API with a login endpoint)"
        }
        if client != nil, SignIn.oauthTokenPath(for: spec) == nil {
            return "--client-id/--client-secret need an OAuth 2 API (intra42), not \(spec.id)"
        }
        if apiKey != nil, spec.auth != .supabase {
            return "--apikey is for the Supabase API (easyco), not \(spec.id)"
        }
        return nil
    }
}

/// How the checker turns a login or client credentials into a bearer token, for the APIs that document it.
enum SignIn {
    /// VideGreniers: `POST /api/auth/login {email, password}` answers `data.accessToken` and `data.refreshToken`.
    struct Login {
        let endpoint: String
        let token: JSONPointer
        let refreshToken: JSONPointer
    }

    static func login(for spec: APISpec) -> Login? {
        guard spec.endpoint("POST /api/auth/login") != nil else { return nil }
        return Login(
            endpoint: "POST /api/auth/login", token: JSONPointer(tokens: ["data", "accessToken"]),
            refreshToken: JSONPointer(tokens: ["data", "refreshToken"]))
    }

    static func oauthTokenPath(for spec: APISpec) -> String? {
        if case .oauth2(let path) = spec.auth { return path }
        return nil
    }
}
