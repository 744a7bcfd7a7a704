import Testing
import UnderstudyCore
import UnderstudySpecs

@testable import UnderstudyMock

/// HEAD, OPTIONS, `Allow` and request media types, on every API.
struct HTTPMannersTests {
    @Test func headAnswersLikeGetWithoutTheBody() async throws {
        let harness = try await VideGreniersHarness.make()
        let get = await harness.send("GET", "/api/events")
        let head = await harness.send("HEAD", "/api/events")
        #expect(head.status == 200)
        #expect(head.response.body.isEmpty)
        #expect(head.response.header("Content-Length") == String(get.response.body.count))
        #expect(head.response.header("Content-Type") == get.response.header("Content-Type"))
        let missing = await harness.send("HEAD", "/api/nope")
        #expect(missing.status == 404)
        #expect(missing.response.body.isEmpty)
    }

    @Test func optionsAnswers204WithAllowAndCorsPreflight() async throws {
        let harness = try await VideGreniersHarness.make()
        let plain = await harness.send("OPTIONS", "/api/events")
        #expect(plain.status == 204)
        #expect(plain.response.header("Allow") == "GET, HEAD, POST, OPTIONS")
        #expect(plain.response.header("Access-Control-Allow-Origin") == nil)
        let preflight = await harness.send(
            "OPTIONS", "/api/events",
            headers: [
                "Origin": "https://app.example", "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "authorization, content-type",
            ])
        #expect(preflight.status == 204)
        #expect(preflight.response.header("Access-Control-Allow-Origin") == "https://app.example")
        #expect(preflight.response.header("Access-Control-Allow-Methods") == "GET, HEAD, POST, OPTIONS")
        #expect(preflight.response.header("Access-Control-Allow-Headers") == "authorization, content-type")
        #expect(await harness.send("OPTIONS", "/api/nope").status == 404)
    }

    @Test func everyMethodRefusedCarriesAllow() async throws {
        let harness = try await VideGreniersHarness.make()
        for method in ["TRACE", "CONNECT", "BREW", "PATCH"] {
            let reply = await harness.send(method, "/api/events")
            #expect(reply.status == 405, "\(method)")
            #expect(reply.response.header("Allow") == "GET, HEAD, POST, OPTIONS", "\(method)")
            #expect(reply.json?["success"] == false, "\(method)")
        }
    }

    @Test func bodiesInMediaTypesTheServerDoesNotReadAreRefusedAsItRefusesThem() async throws {
        let videgreniers = try await VideGreniersHarness.make()
        let token = try await videgreniers.token()
        let command = JSONValue.object(videgreniers.eventCommand())
        let refused = await videgreniers.send(
            "POST", "/api/events", json: command, token: token, headers: ["Content-Type": "text/plain"])
        #expect(refused.status == 415)
        #expect(refused.json?["errors"] == ["Content-Type text/plain is not supported; send application/json"])

        let session = try await EasyCoMockTests().session()
        let easyco = await session.send(
            "POST", "/rest/v1/favorites", json: ["property_id": "x"], headers: ["Content-Type": "text/plain; charset=utf-8"])
        #expect(easyco.status == 400)
        #expect(
            easyco.json == [
                "code": "PGRST102", "message": "Content-Type not acceptable: text/plain", "details": nil, "hint": nil,
            ])

        let apinest = MockEngine(behaviour: try await MockAPI.apinest.makeBehaviour(configuration: MockConfiguration()))
        let apinestToken = await apinest.send("POST", "/__understudy/token", json: [:]).json?["accessToken"]?.stringValue
        let ignored = await apinest.send(
            "POST", "/activities", json: ["title": "Run"], token: apinestToken, headers: ["Content-Type": "text/plain"])
        #expect(ignored.status == 400)
        #expect(ignored.json?["statusCode"] == 400)
    }
}
