import Testing
import UnderstudyCore
import UnderstudyMockServer
import UnderstudySpecs

@testable import UnderstudyMock

/// Hostile requests at every endpoint of every API, in process and over a real loopback socket: no crash,
/// no 5xx (but PostgreSQL's statement timeout, 57014, where it is the documented answer), and every error
/// in the API's own envelope.
struct FuzzTests {
    /// An engine with a valid credential for its default user.
    struct Target {
        let api: MockAPI
        let engine: MockEngine
        let headers: [String: String]

        static func make(_ api: MockAPI) async throws -> Target {
            let engine = MockEngine(behaviour: try await api.makeBehaviour(configuration: MockConfiguration()))
            let answer = try #require(
                try JSONValue(
                    parsing: await engine.respond(to: RawRequest(method: "POST", path: "/__understudy/token")).body))
            var headers: [String: String] = [:]
            if let token = answer["accessToken"]?.stringValue ?? answer["access_token"]?.stringValue {
                headers["authorization"] = "Bearer \(token)"
            }
            if let apikey = answer["apikey"]?.stringValue { headers["apikey"] = apikey }
            return Target(api: api, engine: engine, headers: headers)
        }

        /// Every hostile request for the API, with the spec whose envelope its errors use.
        var requests: [(label: String, request: RawRequest, spec: APISpec)] {
            var all: [(String, RawRequest, APISpec)] = []
            for spec in engine.behaviour.specs {
                all += HostileRequests(spec: spec, headers: headers).all.map { ($0.label, $0.request, spec) }
            }
            if api == .easyco {
                for table in ["properties", "favorites"] {
                    all += HostileRequests.postgrest(table: table, headers: headers).map {
                        ($0.label, $0.request, EasyCo.spec)
                    }
                }
            }
            return all
        }
    }

    /// What is wrong with an answer, or `nil`.
    static func problem(status: Int, body: [UInt8], method: String, spec: APISpec) -> String? {
        let text = String(decoding: body.prefix(300), as: UTF8.self)
        if status >= 500 {
            let isTimeout = status == 500 && (try? JSONValue(parsing: body))?["code"] == "57014"
            return isTimeout ? nil : "answered \(status): \(text)"
        }
        guard status >= 400, method != "HEAD" else { return nil }
        let findings = BodyCheck.findings(body, model: spec.errorEnvelope.model, spec: spec)
            .filter { $0.severity == .error }
        return findings.isEmpty ? nil : "\(status) not in the \(spec.id) envelope: \(findings[0].summary); \(text)"
    }

    @Test(arguments: MockAPI.allCases)
    func inProcessEveryHostileRequestIsAnsweredInTheEnvelope(_ api: MockAPI) async throws {
        let target = try await Target.make(api)
        let requests = target.requests
        #expect(requests.count > 100)
        for (label, request, spec) in requests {
            let response = await target.engine.respond(to: request)
            let problem = Self.problem(status: response.status, body: response.body, method: request.method, spec: spec)
            #expect(problem == nil, "\(label): \(problem ?? "")")
        }
        // Still serving (the requests may have deleted the default user: reset first).
        #expect(await target.engine.respond(to: RawRequest(method: "POST", path: "/__understudy/reset")).status == 200)
        #expect(await target.engine.respond(to: RawRequest(method: "POST", path: "/__understudy/token")).status == 200)
    }

    @Test(arguments: MockAPI.allCases)
    func overLoopbackEveryKindOfHostileRequestIsAnswered(_ api: MockAPI) async throws {
        let target = try await Target.make(api)
        // One request in seven keeps the socket run short while still covering every kind.
        let requests = target.requests.enumerated().filter { $0.offset % 7 == 0 }.map(\.element)
        try await LiveMock.with(api) { mock in
            let token = await mock.server.engine.respond(to: RawRequest(method: "POST", path: "/__understudy/token"))
            let answer = try JSONValue(parsing: token.body)
            var headers: [String: String] = [:]
            if let token = answer["accessToken"]?.stringValue ?? answer["access_token"]?.stringValue {
                headers["Authorization"] = "Bearer \(token)"
            }
            if let apikey = answer["apikey"]?.stringValue { headers["apikey"] = apikey }
            for (label, request, spec) in requests {
                var sent = headers
                for (name, value) in request.headers where name != "authorization" && name != "apikey" {
                    sent[name] = value
                }
                // A hostile token replaces the live server's own.
                if let authorization = request.headers["authorization"],
                    authorization != target.headers["authorization"]
                {
                    sent["Authorization"] = authorization
                }
                let target = request.query.isEmpty ? request.path : "\(request.path)?\(request.query)"
                let reply = try await RawConnection.exchange(
                    port: mock.server.port, method: request.method, target: target, headers: sent, body: request.body)
                let head = reply.headers.lowercased()
                switch request.method {
                case "CONNECT":
                    // NIO sends answers to CONNECT without body or length; the mock closes the connection.
                    #expect(reply.status == 405 && head.contains("\r\nallow:"), "\(label): \(head)")
                    #expect(head.contains("\r\nconnection: close"), "\(label): \(head)")
                case "BREW":
                    // The HTTP parser refuses a method it does not know before any handler runs.
                    #expect(reply.status == 400 && head.contains("\r\ncontent-length: 0"), "\(label): \(head)")
                default:
                    let problem = Self.problem(
                        status: reply.status, body: reply.body, method: request.method, spec: spec)
                    #expect(problem == nil, "\(label): \(problem ?? "")")
                    if request.method == "HEAD" { #expect(reply.body.isEmpty, "\(label)") }
                    if reply.status == 405 { #expect(head.contains("\r\nallow:"), "\(label)") }
                    // RFC 9110 §8.6: a 204 carries no Content-Length.
                    #expect(reply.status == 204 || head.contains("\r\ncontent-length:"), "\(label): \(head)")
                }
            }
            #expect(try await mock.send("POST", "/__understudy/reset").status == 200)
            #expect(try await mock.send("POST", "/__understudy/token").status == 200)
        }
    }
}
