import Foundation
import Testing
import UnderstudyCore
import UnderstudyOpenAPI

/// What the importer reads of the two documents written for the tests (`Tests/Documents`): the constructs real
/// documents use, each pinned where the mock and the checker depend on it.
struct OpenAPIImportCoverageTests {
    static let documents = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Documents")

    static func document(_ name: String) throws -> APISpec {
        let url = documents.appendingPathComponent(name)
        return try OpenAPIImport.spec(
            Array(try Data(contentsOf: url)), source: name, fallbackID: url.deletingPathExtension().lastPathComponent)
    }

    @Test func serverURLsGiveTheBasePath() throws {
        #expect(try Self.document("petstore.yaml").basePath == "/v1")
        // A relative URL with a server variable at its default.
        #expect(try Self.document("inventory.json").basePath == "/api/v2")
    }

    /// Polaris's `Catalog.properties`: declared members beside `additionalProperties: {type: string}`. Every other
    /// member must be a string: Schemathesis sent `{"x-schemathesis-additional": {}}` and read it back from the
    /// mock, which had stored it. The exports keep the schema.
    @Test func additionalPropertiesBesideDeclaredOnesAreTyped() throws {
        let document = """
            {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": {
              "Properties": {"type": "object", "required": ["location"],
                "properties": {"location": {"type": "string"}}, "additionalProperties": {"type": "string"}}}}}
            """
        let spec = try OpenAPIImport.spec(Array(document.utf8), source: "t.json", fallbackID: "t")
        let schema = try #require(spec.definitions["Properties"])
        guard case .object(let object) = schema else {
            Issue.record("\(schema)")
            return
        }
        #expect(object.additionalProperties == .typed(.string()))
        let validator = Validator(definitions: spec.definitions, direction: .request)
        #expect(validator.validate(["location": "s3://a", "owner": "ada"], against: schema).isEmpty)
        #expect(
            validator.validate(["location": "s3://a", "extra": [:]], against: schema).map(\.summary) == [
                "/extra: expected string, found empty object"
            ])
        let exported = try #require(spec.canonicalJSON["definitions"]?["Properties"])
        #expect(exported["additionalProperties"] == ["type": "string"])
    }

    /// A discriminator's mapping pins the value on each model it names (a generated `Cat` has `petType` "cat", never
    /// "golf"), and a base model that maps its subtypes (Polaris's `Catalog`) holds one of their values.
    @Test func discriminatorMappingsPinTheirValues() throws {
        let document = """
            {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}, "components": {"schemas": {
              "Pet": {"oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}],
                "discriminator": {"propertyName": "petType", "mapping": {"cat": "#/components/schemas/Cat"}}},
              "Cat": {"type": "object", "required": ["petType"], "properties": {"petType": {"type": "string"}}},
              "Dog": {"type": "object", "required": ["petType"], "properties": {"petType": {"type": "string"}}},
              "Catalog": {"type": "object", "required": ["type"], "properties": {"type": {"type": "string"}},
                "discriminator": {"propertyName": "type", "mapping": {
                  "INTERNAL": "#/components/schemas/PolarisCatalog", "EXTERNAL": "#/components/schemas/ExternalCatalog"}}},
              "PolarisCatalog": {"allOf": [{"$ref": "#/components/schemas/Catalog"}]},
              "ExternalCatalog": {"allOf": [{"$ref": "#/components/schemas/Catalog"}]}}}}
            """
        let spec = try OpenAPIImport.spec(Array(document.utf8), source: "t.json", fallbackID: "t")
        func values(_ model: String, _ property: String) -> [String]? {
            guard case .object(let object)? = spec.definitions[model], case .string(let constraints)? = object[property]?.schema
            else { return nil }
            return constraints.values
        }
        #expect(values("Cat", "petType") == ["cat"])
        // Only Cat is mapped: Dog keeps its name, as OpenAPI's implicit mapping does only without a mapping.
        #expect(values("Dog", "petType") == nil)
        #expect(values("Catalog", "type") == ["EXTERNAL", "INTERNAL"])
        #expect(values("PolarisCatalog", "type") == ["INTERNAL"])
        #expect(values("ExternalCatalog", "type") == ["EXTERNAL"])
        var generator = FixtureGenerator(seed: 3, definitions: spec.definitions)
        for _ in 0..<20 {
            let pet = generator.value(for: .ref("Pet"))
            #expect(Validator(definitions: spec.definitions).validate(pet, against: .ref("Pet")).isEmpty, "\(pet)")
            #expect(["EXTERNAL", "INTERNAL"].contains(generator.value(for: .ref("Catalog"))["type"]?.stringValue ?? ""))
        }
        #expect(!Validator(definitions: spec.definitions).validate(["petType": "golf"], against: .ref("Cat")).isEmpty)
    }

    /// A token URL no `URL` reads (a space in it) came from the document: the export encodes it, never traps.
    @Test func anUnreadableTokenURLIsExportedEncoded() throws {
        let document = """
            {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {}, "components": {
              "securitySchemes": {"oauth": {"type": "oauth2", "flows": {"clientCredentials": {
                "tokenUrl": "/oauth/to ken", "scopes": {}}}}}}}
            """
        let spec = try OpenAPIImport.spec(Array(document.utf8), source: "t.json", fallbackID: "t")
        #expect(spec.auth == .oauth2(tokenPath: "/oauth/to ken"))
        let exported = try JSONValue(parsing: try OpenAPIExport.json(spec))
        #expect(
            exported["components"]?["securitySchemes"]?["oauth2"]?["flows"]?["clientCredentials"]?["tokenUrl"]
                == "/oauth/to%20ken")
    }

    @Test func allOfMergesPropertiesAndTheRequiredOfEveryPart() throws {
        let spec = try Self.document("petstore.yaml")
        guard case .object(let pet)? = spec.definitions["Pet"] else {
            Issue.record("Pet is \(String(describing: spec.definitions["Pet"]))")
            return
        }
        #expect(pet.properties.map(\.name).sorted() == ["id", "kind", "name", "nickname", "status", "tags"])
        #expect(pet.properties.filter(\.required).map(\.name).sorted() == ["id", "kind", "name"])
        #expect(pet["nickname"]?.schema == .nullable(.string()))
        #expect(pet["status"]?.schema == .ref("PetStatus"))
    }

    @Test func parametersComeFromThePathItemAndFromComponentsWithTheirReferencedSchemas() throws {
        let spec = try Self.document("petstore.yaml")
        for id in ["GET /pets/{petId}", "DELETE /pets/{petId}", "PUT /pets/{petId}/photo"] {
            let petID = try #require(spec.endpoint(id)?.parameters.first { $0.name == "petId" })
            #expect(petID.location == .path && petID.required)
            #expect(petID.schema == .integer(IntegerConstraints(minimum: 1)))
        }
        let list = try #require(spec.endpoint("GET /pets"))
        let limit = try #require(list.parameters.first { $0.name == "limit" })
        #expect(limit.schema == .integer(IntegerConstraints(minimum: 1, maximum: 100)))
        #expect(limit.defaultValue == 20)
        // A `$ref` to an enum is inlined: the parameter's text is read as the enum it names.
        #expect(
            list.parameters.first { $0.name == "status" }?.schema
                == .string(StringConstraints(values: ["available", "pending", "sold"])))
        #expect(list.pagination == .linkHeader)
    }

    @Test func responsesKeepStatusesDefaultMediaTypesAndNamedExamples() throws {
        let petstore = try Self.document("petstore.yaml")
        let show = try #require(petstore.endpoint("GET /pets/{petId}"))
        #expect(show.responses.map(\.status) == [200, 401, 404])
        #expect(show.responses[0].examples.map(\.name) == ["cat", "dog"])
        #expect(show.responses[2].examples.first?.value == ["code": 404, "message": "no pet with this id"])
        let list = try #require(petstore.endpoint("GET /pets"))
        #expect(list.responses.map(\.status) == [200, nil])
        #expect(list.responses[1].model?.name == "Error")
        #expect(petstore.errorEnvelope.model.name == "Error")
        let health = try #require(petstore.endpoint("GET /health"))
        #expect(health.responses[0].mediaType == "text/plain")
        #expect(health.response == nil)
        // A body only in another media type is required but never validated.
        let photo = try #require(petstore.endpoint("PUT /pets/{petId}/photo"))
        #expect(photo.request == nil && photo.body == .required)

        let inventory = try Self.document("inventory.json")
        #expect(inventory.endpoint("POST /items")?.errors == [401, 422])
        #expect(inventory.endpoint("POST /items")?.responses.last?.status == nil)
        #expect(inventory.errorEnvelope.model.name == "Problem")
    }

    @Test func securitySchemesAreReadPerOperation() throws {
        let petstore = try Self.document("petstore.yaml")
        #expect(petstore.endpoint("GET /pets/{petId}")?.security == [[.bearer(format: "JWT")]])
        #expect(petstore.endpoint("GET /pets/{petId}")?.auth == .required)
        #expect(petstore.endpoint("GET /pets")?.auth == Auth.none)
        let inventory = try Self.document("inventory.json")
        #expect(inventory.endpoint("GET /items")?.security == [[.apiKey(name: "api_key", location: .query)]])
        #expect(inventory.endpoint("GET /status")?.auth == Auth.none)
        // An API key in the query is not Supabase's `apikey` header.
        #expect(inventory.auth == .bearerJWT)
    }

    @Test func oneOfAnyOfTypeArraysAndAdditionalProperties() throws {
        let spec = try Self.document("inventory.json")
        #expect(spec.definitions["Shipment"] == .oneOf([.ref("Parcel"), .ref("Download")]))
        #expect(spec.definitions["Stock"] == .map(MapSchema(values: .integer(IntegerConstraints(minimum: 0)))))
        guard case .object(let item)? = spec.definitions["Item"] else {
            Issue.record("Item is \(String(describing: spec.definitions["Item"]))")
            return
        }
        #expect(item["dimensions"]?.schema == .nullable(.ref("Dimensions")))
        #expect(item["note"]?.schema == .nullable(.string()))
        #expect(item["attributes"]?.schema == .map(MapSchema(values: .string())))
        guard case .object(let parcel)? = spec.definitions["Parcel"] else { return }
        #expect(parcel.additionalProperties == .forbidden)
    }
}

extension OpenAPIImportCoverageTests {
    /// OpenAPIKit reads numbers as `Double`: `9223372036854775807` is 2^63 there, one past `Int.max`, which once
    /// trapped the importer (and `understudy diff`) on a bigint bound. Bounds beyond 64 bits are clamped.
    @Test func integerBoundsBeyondSixtyFourBitsAreClamped() throws {
        let document = #"""
            {"openapi": "3.1.0", "info": {"title": "Bounds", "version": "1"}, "paths": {"/rows": {"get": {
              "parameters": [
                {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 0,
                 "maximum": 9223372036854775807}},
                {"name": "offset", "in": "query", "schema": {"type": "integer", "minimum": -9223372036854775808}}
              ],
              "responses": {"200": {"description": "ok"}}}}}}
            """#
        let spec = try OpenAPIImport.spec(Array(document.utf8), source: "bounds.json", fallbackID: "bounds")
        let parameters = try #require(spec.endpoint("GET /rows")?.parameters)
        #expect(parameters.first { $0.name == "limit" }?.schema == .integer(minimum: 0, maximum: .max))
        #expect(parameters.first { $0.name == "offset" }?.schema == .integer(minimum: .min))
    }
}
