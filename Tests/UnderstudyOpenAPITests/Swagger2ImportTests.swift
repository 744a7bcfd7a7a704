import Foundation
import Testing
import UnderstudyCore
import UnderstudyOpenAPI

/// A Swagger 2.0 document is read as the OpenAPI 3.0 document it upgrades to: the mapping of the OpenAPI 3.0
/// specification's "upgrading" section, as `swagger2openapi` applies it. `Tests/Documents/zoo-swagger2.yaml` holds
/// each construct once.
struct Swagger2ImportTests {
    static func zoo() throws -> (spec: APISpec, problems: [String]) {
        let url = OpenAPIImportCoverageTests.documents.appendingPathComponent("zoo-swagger2.yaml")
        return try OpenAPIImport.read(Array(try Data(contentsOf: url)), source: "zoo-swagger2.yaml", fallbackID: "zoo")
    }

    @Test func hostAndBasePathAreTheServer() throws {
        let (spec, _) = try Self.zoo()
        #expect(spec.basePath == "/v2")
        #expect(
            spec.endpoints.map(\.id).sorted() == [
                "DELETE /animals/{animalId}", "GET /animals", "GET /animals/{animalId}", "POST /animals",
                "POST /animals/{animalId}/photo",
            ])
        // Without `schemes` the server is scheme-relative; without `host`, the base path alone.
        let relative = try OpenAPIImport.spec(
            Array(
                #"{"swagger": "2.0", "info": {"title": "t", "version": "1"}, "host": "h.example", "basePath": "/a/b", "paths": {}}"#
                    .utf8),
            source: "t.json")
        #expect(relative.basePath == "/a/b")
        let pathOnly = try OpenAPIImport.spec(
            Array("swagger: 2.0\ninfo: {title: t, version: '1'}\nbasePath: /api\npaths: {}\n".utf8), source: "t.yaml")
        #expect(pathOnly.basePath == "/api")
    }

    @Test func parametersTakeTheirSchemaAndCollectionFormat() throws {
        let (spec, problems) = try Self.zoo()
        let list = try #require(spec.endpoint("GET /animals"))
        let parameters = Dictionary(list.parameters.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        // A `$ref` to the document's parameters, its bounds and default in the schema.
        #expect(parameters["limit"]?.schema == .integer(IntegerConstraints(minimum: 1, maximum: 50)))
        #expect(parameters["limit"]?.defaultValue == 10)
        // `multi` is one pair per element; `csv`, 2.0's default, joins them with commas.
        #expect(parameters["kind"]?.explode == true)
        #expect(parameters["tags"]?.explode == false)
        #expect(parameters["zones"]?.explode == false)
        #expect(problems.contains { $0.hasPrefix("Swagger 2.0: parameter zones: collectionFormat tsv") })
        // A path item's parameter is each operation's.
        let read = try #require(spec.endpoint("GET /animals/{animalId}"))
        #expect(read.parameters.first { $0.name == "animalId" }?.schema == .integer(IntegerConstraints()))
        // go-swagger's and springfox's `x-example` is the parameter's example.
        #expect(read.parameters.first { $0.name == "animalId" }?.example == 2)
    }

    @Test func bodiesAndFormsAreRequestBodies() throws {
        let (spec, _) = try Self.zoo()
        let create = try #require(spec.endpoint("POST /animals"))
        #expect(create.request?.name == "Animal")
        #expect(create.body == .required)
        #expect(create.requestMediaTypes == ["application/json"])
        let upload = try #require(spec.endpoint("POST /animals/{animalId}/photo"))
        // A `file` field makes the form multipart.
        #expect(upload.requestMediaTypes == ["multipart/form-data"])
        #expect(upload.body == .required)
    }

    @Test func responsesCarryTheirSchemasExamplesAndHeaders() throws {
        let (spec, _) = try Self.zoo()
        let read = try #require(spec.endpoint("GET /animals/{animalId}"))
        let ok = try #require(read.documentedResponse(for: 200))
        #expect(ok.model?.name == "Animal")
        #expect(ok.mediaTypes == ["application/json"])
        #expect(ok.examples.first?.value == ["id": 1, "name": "Tom", "kind": "Cat", "indoor": true])
        // A `$ref` to the document's responses.
        #expect(read.documentedResponse(for: 404)?.model?.name == "Error")
        let list = try #require(spec.endpoint("GET /animals"))
        #expect(list.documentedResponse(for: 200)?.headers.map(\.name) == ["X-Total"])
        #expect(list.pagination == .linkHeader)
        #expect(spec.endpoint("DELETE /animals/{animalId}")?.documentedResponse(for: 204)?.model == nil)
    }

    @Test func schemasSpeakThreeZero() throws {
        let (spec, _) = try Self.zoo()
        guard case .object(let animal)? = spec.definitions["Animal"] else {
            Issue.record("Animal: \(String(describing: spec.definitions["Animal"]))")
            return
        }
        // `x-nullable` is `nullable`; the discriminator's values are the names of the models that `allOf` the base.
        #expect(animal["nickname"]?.schema == .nullable(.string()))
        #expect(animal["kind"]?.schema == .string(StringConstraints(values: ["Cat", "Dog"])))
        #expect(animal["id"]?.access == .readOnly)
    }

    @Test func securityDefinitionsAreSecuritySchemes() throws {
        let (spec, _) = try Self.zoo()
        #expect(spec.endpoint("GET /animals")?.security == [[.apiKey(name: "X-Key", location: .header)]])
        #expect(spec.endpoint("DELETE /animals/{animalId}")?.security == [[.basic]])
        let oauth = try OpenAPIImport.spec(
            Array(
                """
                {"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": {},
                 "securityDefinitions": {"o": {"type": "oauth2", "flow": "application",
                   "tokenUrl": "https://auth.example/token", "scopes": {}}}}
                """.utf8), source: "t.json")
        #expect(oauth.auth == .oauth2(tokenPath: "https://auth.example/token"))
    }

    @Test func otherSwaggerVersionsAreRefusedByName() {
        #expect(throws: OpenAPIImportError.unsupportedVersion("s.yaml", "Swagger 1.2")) {
            try OpenAPIImport.spec(Array("swagger: '1.2'\ninfo: {title: x, version: '1'}\n".utf8), source: "s.yaml")
        }
        #expect(
            OpenAPIImportError.unsupportedVersion("s.yaml", "Swagger 1.2").description
                == "s.yaml: Swagger 1.2 is not supported; expected OpenAPI 3.0.x or 3.1.x, or Swagger 2.0")
    }
}
