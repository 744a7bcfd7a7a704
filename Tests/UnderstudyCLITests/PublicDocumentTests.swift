import Foundation
import Testing
import UnderstudyCore
import UnderstudyTestSupport
import UnderstudyMock
import UnderstudyMockServer

/// The public OpenAPI documents no one here wrote (`Tests/Documents/public`), each imported as `--spec` reads it and
/// served by a ``MockServer`` on loopback in process: one valid request per operation answers the status pinned here
/// (a status the operation documents) with a body its schema accepts, and what each document makes hard is pinned on
/// its own (problem+json errors, forms of numbers, operations that document no success or no refusal).
struct PublicDocumentTests {
    static let folder = SpecMockTests.documents.appendingPathComponent("public")

    /// The status each operation answers a valid request with, by document.
    static let statuses: [String: [String: Int]] = [
        "petstore-expanded.yaml": [
            "GET /pets": 200, "POST /pets": 200, "GET /pets/{id}": 200, "DELETE /pets/{id}": 204,
        ],
        "uspto.yaml": [
            "GET /": 200, "GET /{dataset}/{version}/fields": 200, "POST /{dataset}/{version}/records": 200,
        ],
        "link-example.yaml": [
            "GET /2.0/users/{username}": 200, "GET /2.0/repositories/{username}": 200,
            "GET /2.0/repositories/{username}/{slug}": 200, "GET /2.0/repositories/{username}/{slug}/pullrequests": 200,
            "GET /2.0/repositories/{username}/{slug}/pullrequests/{pid}": 200,
            "POST /2.0/repositories/{username}/{slug}/pullrequests/{pid}/merge": 204,
        ],
        "swagger-petstore.yaml": [
            "POST /pet": 200, "PUT /pet": 200, "GET /pet/findByStatus": 200, "GET /pet/findByTags": 200,
            "GET /pet/{petId}": 200, "POST /pet/{petId}/uploadImage": 200, "GET /store/inventory": 200,
            "POST /store/order": 200, "GET /store/order/{orderId}": 200, "POST /user": 200,
            "POST /user/createWithList": 200, "GET /user/login": 200, "GET /user/logout": 200,
            "GET /user/{username}": 200, "PUT /user/{username}": 200,
            // These document no success, only their refusals: the first of those is what they answer.
            "POST /pet/{petId}": 400, "DELETE /pet/{petId}": 400, "DELETE /store/order/{orderId}": 400,
            "DELETE /user/{username}": 400,
        ],
        "train-travel.yaml": [
            "GET /stations": 200, "GET /trips": 200, "GET /bookings": 200, "POST /bookings": 201,
            "GET /bookings/{bookingId}": 200, "DELETE /bookings/{bookingId}": 204,
            "POST /bookings/{bookingId}/payment": 200,
        ],
    ]

    /// Every credential the documents declare.
    static let credentials = ["Authorization": "Bearer \(FixtureMock.readyToken)", "api_key": "understudy"]

    /// Serves `name` on a free loopback port; gives `body` the spec and its base URL.
    static func withMock<T>(_ name: String, _ body: (APISpec, String) async throws -> T) async throws -> T {
        let spec = try SpecMockTests.spec(folder.appendingPathComponent(name).path)
        let server = try await MockServer.start(FixtureMock(spec: spec))
        do {
            let result = try await body(spec, server.baseURL.absoluteString + spec.basePath)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    @Test(arguments: statuses.keys.sorted())
    func everyOperationAnswersItsPinnedStatusWithABodyTheSchemaAccepts(_ name: String) async throws {
        try await Self.withMock(name) { spec, base in
            let expected = try #require(Self.statuses[name])
            #expect(Set(spec.endpoints.map(\.id)) == Set(expected.keys))
            var generator = FixtureGenerator(seed: 5, definitions: spec.definitions)
            for endpoint in spec.endpoints {
                var path: [String: String] = [:]
                var query: [String] = []
                for parameter in endpoint.parameters where parameter.location == .path || parameter.required {
                    let value = generator.value(for: parameter.schema, name: parameter.name)
                    let text = value.stringValue ?? value.serialized()
                    if parameter.location == .path { path[parameter.name] = text }
                    if parameter.location == .query {
                        let encoded = text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
                        query.append("\(parameter.name)=\(encoded)")
                    }
                }
                var headers = Self.credentials
                var body: Data?
                if let request = spec.fixture(for: endpoint, seed: 5).request {
                    body = Data(request.serializedBytes())
                    headers["Content-Type"] = "application/json"
                }
                let url = base + endpoint.path.expand(path) + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
                let answer = try await LoopbackHTTP.send(endpoint.method.rawValue, url, headers: headers, body: body)
                let text = String(decoding: answer.body, as: UTF8.self)
                #expect(answer.status == expected[endpoint.id], "\(endpoint.id): \(text)")
                #expect(answer.headers[MockEngine.overlookedHeader.lowercased()] == nil, "\(endpoint.id)")
                let documented = try #require(endpoint.documentedResponse(for: answer.status), "\(endpoint.id)")
                #expect(answer.headers["content-type"] == documented.mediaType, "\(endpoint.id)")
                guard let model = documented.model else { continue }
                let value = try #require(answer.json, "\(endpoint.id): \(text)")
                let findings = Validator(definitions: spec.definitions).validate(value, against: model.schema)
                #expect(findings.filter { $0.severity == .error }.map(\.summary) == [], "\(endpoint.id)")
            }
        }
    }

    /// Train Travel's errors are RFC 9457 problems in `application/problem+json`: a refusal is one too, with the
    /// status, the reason and what was wrong.
    @Test func aRefusalIsTheOperationsDocumentedProblem() async throws {
        try await Self.withMock("train-travel.yaml") { _, base in
            let refused = try await LoopbackHTTP.send("GET", base + "/bookings/7", headers: Self.credentials)
            #expect(refused.status == 400)
            #expect(refused.headers["content-type"] == "application/problem+json")
            #expect(refused.json?["status"] == 400)
            #expect(refused.json?["title"] == "Bad Request")
            #expect(refused.json?["detail"] == #"path parameter bookingId: expected string in uuid format, found "7""#)
            let anonymous = try await LoopbackHTTP.send("GET", base + "/stations")
            #expect(anonymous.status == 401)
            #expect(anonymous.headers["content-type"] == "application/problem+json")
            #expect(anonymous.json?["detail"] == "authentication required: send Authorization: Bearer <token>")
        }
    }

    /// The `allOf` that redefines `data` (`array of object`, then `array of Station`) is both: a generated list of
    /// stations has every member a Station requires.
    @Test func anAllOfThatRedefinesAMemberIsBothDefinitions() async throws {
        try await Self.withMock("train-travel.yaml") { spec, base in
            var headers = Self.credentials
            headers["Prefer"] = "dynamic=true"
            let stations = try await LoopbackHTTP.send("GET", base + "/stations", headers: headers)
            #expect(stations.status == 200)
            let first = try #require(stations.json?["data"]?[0]?.objectValue)
            #expect(Set(["id", "name", "address", "country_code"]).isSubset(of: Set(first.keys)))
            let examples = try await LoopbackHTTP.send("GET", base + "/stations", headers: Self.credentials)
            #expect(examples.json?["data"]?[0]?["name"] == "Berlin Hauptbahnhof")
        }
    }

    /// Train Travel's card `cvc` is `writeOnly` and required: required of a request, never in a response (generated
    /// ones leave it out); a booking's `readOnly` id is never asked of a request.
    @Test func writeOnlyIsRequiredOfRequestsOnlyAndReadOnlyOfResponsesOnly() throws {
        let spec = try SpecMockTests.spec(Self.folder.appendingPathComponent("train-travel.yaml").path)
        guard case .object(let payment)? = spec.definitions["BookingPayment"],
            case .oneOf(let sources)? = payment["source"]?.schema, case .object(let card) = sources[0]
        else {
            Issue.record("BookingPayment.source is not the card-or-bank alternative")
            return
        }
        #expect(card["cvc"]?.access == .writeOnly)
        #expect(payment["id"]?.access == .readOnly)
        let withoutCVC: JSONValue = [
            "name": "J. Doe", "number": "4242", "exp_month": 12, "exp_year": 2030, "address_country": "gb",
        ]
        let request = Validator(definitions: spec.definitions, direction: .request)
        #expect(
            request.validate(withoutCVC, against: .object(card)).map(\.summary) == [
                "/cvc: required property is missing (expected integer)"
            ])
        #expect(Validator(definitions: spec.definitions).validate(withoutCVC, against: .object(card)) == [])
        for seed in 0..<20 {
            var generator = FixtureGenerator(seed: UInt64(seed), definitions: spec.definitions)
            #expect(generator.value(for: .object(card))["cvc"] == nil)
            generator.direction = .request
            #expect(generator.value(for: .object(card))["cvc"] != nil)
            #expect(generator.value(for: .ref("BookingPayment"))["id"] == nil)
        }
    }

    /// A form's fields are text: `start=0` is the integer the schema asks for. USPTO's 404 is a bare string: the
    /// message.
    @Test func aFormOfNumbersIsAcceptedAndAStringErrorIsTheMessage() async throws {
        try await Self.withMock("uspto.yaml") { _, base in
            let search = try await LoopbackHTTP.send(
                "POST", base + "/oa_citations/v1/records",
                headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Data("criteria=*:*&start=0&rows=100".utf8))
            #expect(search.status == 200)
            #expect(search.headers[MockEngine.overlookedHeader.lowercased()] == nil)
            let missing = try await LoopbackHTTP.send(
                "GET", base + "/oa_citations/v1/fields", headers: ["Prefer": "code=404"])
            #expect(missing.status == 404)
            #expect(missing.json == "Not Found")
        }
    }

    /// An operation that documents no status to refuse with answers as documented, and names what was wrong in
    /// `Understudy-Overlooked`: an undocumented 400 or 401 is an answer no server of the document gives.
    @Test func aRefusalTheOperationCannotSayIsOverlookedAndNamed() async throws {
        try await Self.withMock("link-example.yaml") { _, base in
            let answer = try await LoopbackHTTP.send("GET", base + "/2.0/repositories/a/b/pullrequests?state=AAA")
            #expect(answer.status == 200)
            #expect(
                answer.headers[MockEngine.overlookedHeader.lowercased()]
                    == #"query parameter state: expected one of "open", "merged", "declined", found "AAA""#)
        }
        try await Self.withMock("swagger-petstore.yaml") { _, base in
            let inventory = try await LoopbackHTTP.send("GET", base + "/store/inventory")
            #expect(inventory.status == 200)
            #expect(
                inventory.headers[MockEngine.overlookedHeader.lowercased()]
                    == "authentication required: send an API key in the api_key header")
            // Documented, so still refused: GET /pet/{petId} documents 400.
            let pet = try await LoopbackHTTP.send("GET", base + "/pet/x", headers: Self.credentials)
            #expect(pet.status == 400)
            // DELETE /pet/{petId} documents only `400: Invalid pet value`, without a body.
            let deleted = try await LoopbackHTTP.send("DELETE", base + "/pet/1", headers: Self.credentials)
            #expect(deleted.status == 400)
            #expect(deleted.body.isEmpty)
        }
    }
}
