import ArgumentParser
import Foundation
import Testing
import UnderstudyCore
import UnderstudyTestSupport
import UnderstudyMock
import UnderstudyMockServer

@testable import UnderstudyCLI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `understudy mock --spec` on the two documents written for the tests (`Tests/Documents`), started in process on
/// free loopback ports: every operation answers its documented status with a body the document's schema accepts,
/// `Prefer` picks answers as Prism does, security is enforced as declared, and `check --spec` against the mock finds
/// no error.
struct SpecMockTests {
    static let documents = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Documents")
    static let petstore = documents.appendingPathComponent("petstore.yaml").path
    static let inventory = documents.appendingPathComponent("inventory.json").path
    static let shelter = documents.appendingPathComponent("shelter.yaml").path

    /// Runs `understudy mock --spec petstore.yaml --spec inventory.json --port 0` in process, gives `body` the
    /// base URL of each document by label, and stops the servers.
    /// - Parameter stateless: `--stateless`: every answer from the document alone, whatever the id (the tests of
    ///   the fixture answers); by default the documents' resources keep their items.
    static func withMock<T>(stateless: Bool = false, _ body: ([String: String]) async throws -> T) async throws -> T {
        let running = try await Mock.parse(
            ["--spec", petstore, "--spec", inventory, "--port", "0"] + (stateless ? ["--stateless"] : [])
        ).start()
        let urls = Dictionary(uniqueKeysWithValues: running.map { ($0.label, $0.baseURL) })
        do {
            let result = try await body(urls)
            for entry in running { await entry.server.stop() }
            return result
        } catch {
            for entry in running { await entry.server.stop() }
            throw error
        }
    }

    static func spec(_ path: String) throws -> APISpec {
        try SpecFiles.load([path])[0]
    }

    /// The credentials each document's protected operations take.
    static func credentials(for spec: APISpec) -> (headers: [String: String], query: [String]) {
        spec.id == "petstore" ? (["Authorization": "Bearer \(FixtureMock.readyToken)"], []) : ([:], ["api_key=k"])
    }

    @Test(arguments: ["petstore.yaml", "inventory.json"])
    func everyOperationAnswersItsDocumentedStatusWithABodyTheSchemaAccepts(_ name: String) async throws {
        let spec = try Self.spec(Self.documents.appendingPathComponent(name).path)
        try await Self.withMock(stateless: true) { urls in
            let base = try #require(urls[spec.id])
            var generator = FixtureGenerator(seed: 5, definitions: spec.definitions)
            for endpoint in spec.endpoints {
                var path: [String: String] = [:]
                for parameter in endpoint.parameters where parameter.location == .path {
                    let value = generator.value(for: parameter.schema, name: parameter.name)
                    path[parameter.name] = value.stringValue ?? value.serialized()
                }
                let (headers, query) = Self.credentials(for: spec)
                var allHeaders = headers
                var body: Data?
                if let request = spec.fixture(for: endpoint, seed: 5).request {
                    body = Data(request.serializedBytes())
                    allHeaders["Content-Type"] = "application/json"
                } else if endpoint.method == .put {
                    body = Data([0x89, 0x50, 0x4E, 0x47])
                    allHeaders["Content-Type"] = "image/png"
                }
                let url = base + endpoint.path.expand(path) + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
                let answer = try await LoopbackHTTP.send(endpoint.method.rawValue, url, headers: allHeaders, body: body)
                #expect(
                    answer.status == endpoint.success.rawValue,
                    "\(endpoint.id): \(String(decoding: answer.body, as: UTF8.self))")
                let documented = try #require(endpoint.documentedResponse(for: answer.status))
                #expect(answer.headers["content-type"] == documented.mediaType, "\(endpoint.id)")
                guard let model = documented.model else {
                    if documented.mediaType == nil { #expect(answer.body.isEmpty, "\(endpoint.id)") }
                    continue
                }
                let value = try #require(answer.json, "\(endpoint.id)")
                let findings = Validator(definitions: spec.definitions).validate(value, against: model.schema)
                #expect(findings.filter { $0.severity == .error }.map(\.summary) == [], "\(endpoint.id)")
            }
        }
    }

    /// `Prefer` as Prism reads it (stoplightio/prism, docs/guides/01-mocking.md, "Prism Decision Engine" and
    /// "Response Examples"): `code=N` answers the documented N, else the `default` response, else 500;
    /// `example=name` answers that example of the response, 500 when it has none; `dynamic=true` generates from the
    /// schema even where examples exist.
    @Test func preferChoosesTheStatusAndTheExampleAsPrismDoes() async throws {
        try await Self.withMock(stateless: true) { urls in
            let pets = try #require(urls["petstore"])
            func pet(prefer: String? = nil) async throws -> LoopbackHTTP.Answer {
                var headers = ["Authorization": "Bearer \(FixtureMock.readyToken)"]
                headers["Prefer"] = prefer
                return try await LoopbackHTTP.send("GET", "\(pets)/pets/7", headers: headers)
            }
            let first = try await pet()
            // Without a choice, the first example by name.
            #expect(first.json == ["id": 2, "name": "Fluffy", "kind": "cat", "status": "available", "nickname": .null])
            let dog = try await pet(prefer: "example=dog")
            #expect(dog.json == ["id": 1, "name": "Spot", "kind": "dog", "status": "sold", "tags": ["loud"]])
            let notFound = try await pet(prefer: "code=404")
            #expect(notFound.status == 404)
            #expect(notFound.json == ["code": 404, "message": "no pet with this id"])
            let unauthorized = try await pet(prefer: "code=401")
            #expect(unauthorized.status == 401)
            #expect(unauthorized.json == ["code": 401, "message": "Unauthorized"])
            let undocumented = try await pet(prefer: "code=418")
            #expect(undocumented.status == 500)
            #expect(
                undocumented.json?["message"]
                    == "Prefer: code=418: GET /pets/{petId} documents no 418 response and no default (it documents 200, 401, 404)"
            )
            let noSuchExample = try await pet(prefer: "example=parrot")
            #expect(noSuchExample.status == 500)
            #expect(
                noSuchExample.json?["message"]
                    == "Prefer: example=parrot: the 200 response has no example of that name (it has cat, dog)")
            let both = try await pet(prefer: "code=404, example=default")
            #expect(both.json == notFound.json)
            let dynamic = try await pet(prefer: "dynamic=true")
            #expect(dynamic.status == 200 && dynamic.json != first.json && dynamic.json?["id"] != nil)
            // An undocumented code falls back on the `default` response.
            let items = try #require(urls["inventory"])
            let teapot = try await LoopbackHTTP.send("GET", "\(items)/items?api_key=k", headers: ["Prefer": "code=418"])
            #expect(teapot.status == 418)
            #expect(teapot.json == ["title": "HTTP 418", "status": 418, "detail": "HTTP 418"])
        }
    }

    @Test func securityIsEnforcedAsDeclared() async throws {
        try await Self.withMock(stateless: true) { urls in
            let pets = try #require(urls["petstore"])
            let missing = try await LoopbackHTTP.send("GET", "\(pets)/pets/7")
            #expect(missing.status == 401)
            #expect(missing.headers["www-authenticate"] == "Bearer")
            #expect(
                missing.json == ["code": 401, "message": "authentication required: send Authorization: Bearer <token>"])
            // The document says the bearer is a JWT: a token of another shape, or one whose exp has passed, is refused.
            let garbage = try await LoopbackHTTP.send("GET", "\(pets)/pets/7", headers: ["Authorization": "Bearer not-a-jwt"])
            #expect(garbage.status == 401)
            let expired = FixtureMock.jwt(["sub": "someone", "exp": 1_000_000_000])
            let late = try await LoopbackHTTP.send("GET", "\(pets)/pets/7", headers: ["Authorization": "Bearer \(expired)"])
            #expect(late.status == 401)
            #expect(
                late.json?["message"] == "authentication required: the bearer token expired at 2001-09-09T01:46:40Z")
            let anyJWT = FixtureMock.jwt(["sub": "someone else"])
            #expect(
                try await LoopbackHTTP.send("GET", "\(pets)/pets/7", headers: ["Authorization": "Bearer \(anyJWT)"]).status
                    == 200)
            // Public operations take no credential.
            #expect(try await LoopbackHTTP.send("GET", "\(pets)/pets").status == 200)

            let items = try #require(urls["inventory"])
            let noKey = try await LoopbackHTTP.send("GET", "\(items)/items")
            #expect(noKey.status == 401)
            #expect(noKey.headers["www-authenticate"] == nil)
            #expect(
                noKey.json == [
                    "title": "Unauthorized", "status": 401,
                    "detail": "authentication required: send an API key in the api_key query parameter",
                ])
            #expect(try await LoopbackHTTP.send("GET", "\(items)/items?api_key=").status == 401)
            #expect(try await LoopbackHTTP.send("GET", "\(items)/items?api_key=anything").status == 200)
            #expect(try await LoopbackHTTP.send("GET", "\(items)/status").status == 200)
        }
    }

    @Test func requestsAreValidatedUnderTheBasePath() async throws {
        try await Self.withMock { urls in
            let pets = try #require(urls["petstore"])
            #expect(pets.hasSuffix("/v1"))
            let outside = try await LoopbackHTTP.send("GET", String(pets.dropLast(3)) + "/pets")
            #expect(outside.status == 404)
            #expect(outside.json?["message"] == "no route for GET /pets: this API is served under /v1")
            // Form-style arrays, one pair per element; a value outside the enum is refused in the document's envelope.
            #expect(try await LoopbackHTTP.send("GET", "\(pets)/pets?tags=cute&tags=loud&limit=5").status == 200)
            let bogus = try await LoopbackHTTP.send("GET", "\(pets)/pets?tags=cute&tags=bogus")
            #expect(bogus.status == 400)
            #expect(
                bogus.json == [
                    "code": 400,
                    "message": #"query parameter tags: expected one of "cute", "fluffy", "loud", found "bogus""#,
                ])
            // A path value outside its schema names no pet: 404, which the operation documents, not an undocumented 400.
            let hugeID = try await LoopbackHTTP.send(
                "GET", "\(pets)/pets/9223372036854775808",
                headers: ["Authorization": "Bearer \(FixtureMock.readyToken)"])
            #expect(hugeID.status == 404)
            // The document's own schema (`type: integer, format: int64`) judges it, as it judges a body.
            #expect(
                hugeID.json?["message"]
                    == "path parameter petId: expected int64 number, found integer 9223372036854775808")
            // A required file upload is taken as it comes, but not left out.
            let photo = "\(pets)/pets/2/photo"
            let bearer = ["Authorization": "Bearer \(FixtureMock.readyToken)"]
            #expect(try await LoopbackHTTP.send("PUT", photo, headers: bearer).status == 400)
            let upload = bearer.merging(["Content-Type": "image/png"]) { $1 }
            #expect(try await LoopbackHTTP.send("PUT", photo, headers: upload, body: Data("not even a PNG".utf8)).status == 204)
            // `Link` and `X-Total` make the list paged as 42 and GitHub page (`page`, `per_page`), for real: the
            // page past the last is empty and links back to the last one, under the base path.
            let list = try await LoopbackHTTP.send("GET", "\(pets)/pets")
            let total = try #require(list.json?.arrayValue?.count)
            #expect(list.headers["x-total"] == String(total))
            #expect(list.headers["link"] == nil)
            let past = try await LoopbackHTTP.send("GET", "\(pets)/pets?page=\(total + 1)&per_page=1")
            #expect(past.json == [])
            #expect(past.headers["link"]?.contains("/v1/pets?page=\(total)&per_page=1>; rel=\"prev\"") == true)
            // The inventory refuses invalid input with 422, the status it documents for it.
            let items = try #require(urls["inventory"])
            let badIDs = try await LoopbackHTTP.send("GET", "\(items)/items?api_key=k&ids=1,x")
            #expect(badIDs.status == 422)
            #expect(try await LoopbackHTTP.send("GET", "\(items)/items?api_key=k&ids=1,2").status == 200)
            let invalid = try await LoopbackHTTP.send(
                "POST", "\(items)/items?api_key=k", headers: ["Content-Type": "application/json"],
                body: Data(#"{"sku": "BK-2", "price": -1, "kind": "physical"}"#.utf8))
            #expect(invalid.status == 422)
            #expect(invalid.json?["detail"] == "price: expected at least 0, found -1")
        }
    }

    @Test func checkAgainstTheMockFindsNoError() async throws {
        try await Self.withMock { urls in
            let pets = try #require(urls["petstore"])
            let check = try Check.parse([
                "--spec", Self.petstore, "--base-url", pets, "--token", FixtureMock.readyToken,
            ])
            try await check.run()
            let items = try #require(urls["inventory"])
            let binary = try await UnderstudyBinary.run([
                "check", "--timeout", "300", "--spec", Self.inventory, "--base-url", items, "--apikey", "k",
            ])
            #expect(binary.status == 0, "\(binary.stdout)\(binary.stderr)")
            #expect(binary.stdout.contains("0 errors"))
        }
    }

    @Test func specAndAPIOptionsParse() throws {
        #expect(throws: (any Error).self) {
            try Check.parse(["--api", "fitness", "--spec", Self.petstore, "--base-url", "http://127.0.0.1:1"])
        }
        #expect(throws: (any Error).self) { try Check.parse(["--base-url", "http://127.0.0.1:1"]) }
        #expect(throws: (any Error).self) {
            try Validate.parse(["--spec", Self.petstore, "--endpoint", "GET /nope", "x.json"])
        }
        #expect(try Mock.parse(["--spec", Self.petstore]).api == nil)
        let listed = List.render(try SpecFiles.specs(api: nil, documents: [Self.petstore]), format: .text)
        #expect(listed.hasSuffix("6 endpoints\n"))
        #expect(listed.contains("petstore  GET     /pets/{petId}"))
        let both = try SpecFiles.specs(api: APISelection(argument: "fitness"), documents: [Self.inventory])
        #expect(both.map(\.id) == ["fitness", "inventory"])
    }

    @Test func validateAndGenerateReadADocument() throws {
        let spec = try Self.spec(Self.petstore)
        let good = Validate.check(
            Array(#"{"id": 3, "name": "Rex", "kind": "dog"}"#.utf8), spec: spec, endpoint: "GET /pets/{petId}",
            status: nil)
        #expect(good.filter { $0.severity == .error }.isEmpty)
        let bad = Validate.check(Array(#"{"code": "x"}"#.utf8), spec: spec, endpoint: "GET /pets/{petId}", status: 404)
        #expect(bad.filter { $0.severity == .error }.map(\.summary).count == 2)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-generate-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let written = try Generate.write([spec], seed: 1, to: folder)
        #expect(written.count == 6)
        let fixture = try JSONValue(
            parsing: Array(try Data(contentsOf: folder.appendingPathComponent("petstore/GET_pets_{petId}.json"))))
        #expect(
            fixture["responses"]?["200"] == [
                "id": 2, "name": "Fluffy", "kind": "cat", "status": "available", "nickname": .null,
            ])
    }
}
