import Foundation
import Testing
import UnderstudyCore
import UnderstudyOpenAPI
import UnderstudySpecs

/// What the exported documents say, and how changes made in an OpenAPI document show in `diff`.
struct OpenAPIExportTests {
    static func exported(_ id: String) throws -> JSONValue {
        let spec = try #require(Specs.named(id)?.first)
        return try JSONValue(parsing: try OpenAPIExport.json(spec))
    }

    static func operations(_ document: JSONValue) -> [JSONValue] {
        (document["paths"]?.objectValue ?? [:]).values.flatMap { item in
            ["get", "put", "post", "patch", "delete"].compactMap { item[$0] }
        }
    }

    @Test(arguments: [
        ("fitness", 6, ["bearerAuth"]), ("achievements", 7, ["bearerAuth"]), ("videgreniers", 30, ["bearerAuth"]),
        ("easyco", 9, ["apikey", "bearerAuth"]), ("intra42", 15, ["oauth2"]),
    ])
    func operationsAndSecurity(_ id: String, _ count: Int, _ schemes: [String]) throws {
        let document = try Self.exported(id)
        let spec = try #require(Specs.named(id)?.first)
        #expect(document["openapi"] == "3.1.0")
        #expect(document["info"]?["x-understudy-api"] == .string(id))
        #expect(Self.operations(document).count == count)
        #expect(spec.endpoints.count == count)
        #expect(document["components"]?["securitySchemes"]?.objectValue?.keys.sorted() == schemes)
        let ids = Self.operations(document).compactMap { $0["operationId"]?.stringValue }
        #expect(Set(ids).count == count)
    }

    @Test func securityFollowsEachEndpointsAuth() throws {
        let videgreniers = try Self.exported("videgreniers")
        #expect(videgreniers["paths"]?["/health"]?["get"]?["security"] == [])
        #expect(videgreniers["paths"]?["/api/events"]?["get"]?["security"] == [[:], ["bearerAuth": []]])
        let notify = videgreniers["paths"]?["/api/notifications"]?["post"]
        #expect(notify?["security"] == [["bearerAuth": []]])
        #expect(notify?["x-understudy-role"] == "admin")
        let easyco = try Self.exported("easyco")
        #expect(easyco["paths"]?["/rest/v1/properties"]?["get"]?["security"] == [["apikey": [], "bearerAuth": []]])
        let token = try Self.exported("intra42")["components"]?["securitySchemes"]?["oauth2"]
        #expect(token?["flows"]?["clientCredentials"]?["tokenUrl"] == "/oauth/token")
    }

    /// `lint` names every `{"type": "null"}` branch a document writes (swift-openapi-generator 1.14 drops it with
    /// its property: "Schema "null" is not supported ... skipping"), and the exports write none.
    @Test func nullTypeBranchesAreLintedAndNeverExported() throws {
        let item: JSONValue = ["type": "object", "properties": ["id": ["type": "string"]]]
        let page: JSONValue = [
            "type": "object",
            "properties": [
                "item": ["anyOf": [item, ["type": "null"]]],
                "next": ["oneOf": [["type": "string"], ["type": "null"]]],
                "kept": ["anyOf": [item, ["enum": [.null]]]],
            ],
        ]
        let document = TestDocument.answering(
            schema: ["$ref": "#/components/schemas/Page"], components: ["schemas": ["Page": page]])
        let spec = try OpenAPIImport.spec(document.serializedBytes(), source: "demo.json")
        let dropped = DocumentLint.contradictions(in: spec).filter { $0.rule == .generatorDrop }
        #expect(dropped.flatMap(\.places).map(\.pointer.description) == [
            "/components/schemas/Page/properties/item", "/components/schemas/Page/properties/next",
        ])
        for api in ["fitness", "achievements", "videgreniers", "easyco", "intra42"] {
            let exported = try OpenAPIImport.spec(try Self.exported(api).serializedBytes(), source: "\(api).json")
            #expect(DocumentLint.contradictions(in: exported).filter { $0.rule == .generatorDrop }.isEmpty, "\(api)")
        }
    }

    @Test func trickySchemasPaginationAndExamples() throws {
        let fitness = try Self.exported("fitness")
        let activity = fitness["components"]?["schemas"]?["Apinest.Activity"]
        #expect(activity?["properties"]?["description"] == ["type": ["string", "null"]])
        // A format JSON Schema does not define carries a pattern, so tools that skip the format generate valid ids.
        #expect(activity?["properties"]?["_id"] == ["type": "string", "format": "objectid", "pattern": "^[0-9a-fA-F]{24}$"])
        #expect(activity?["required"]?.arrayValue?.contains("description") == false)
        // A model or an enumeration that may be null: its null branch is `{"enum": [null]}`, which
        // swift-openapi-generator keeps (it skips `{"type": "null"}`, and with it the whole property).
        let response = try Self.exported("videgreniers")["components"]?["schemas"]?[
            "VideGreniers.ApiResponse_VideGreniers.AuthResponse"]
        #expect(response?["properties"]?["data"] == ["anyOf": [["$ref": "#/components/schemas/VideGreniers.AuthResponse"], ["enum": [.null]]]])

        let videgreniers = try Self.exported("videgreniers")
        let counts = videgreniers["components"]?["schemas"]?["VideGreniers.UserActivityStatisticsDto"]?["properties"]?[
            "activityCounts"]
        // The documented object keyed by the activity type's number (the wire contract).
        #expect(counts?["type"] == "object")
        // Swift's `Int`: 64 bits.
        #expect(counts?["additionalProperties"] == ["type": "integer", "format": "int64"])
        #expect(counts?["x-understudy-property-names"]?["enum"]?.arrayValue?.count == 13)
        let events = videgreniers["paths"]?["/api/events"]?["get"]
        #expect(events?["x-understudy-pagination"] == "page-in-body(page,pageSize,/pagination)")
        #expect(events?["responses"]?["200"]?["content"]?["application/json"]?["example"] != nil)
        let apple = videgreniers["paths"]?["/api/auth/oauth/apple"]?["post"]
        #expect(apple?["x-understudy-availability"]?.stringValue?.hasPrefix("announced: ") == true)

        let users = try Self.exported("intra42")["paths"]?["/v2/users"]?["get"]?["responses"]?["200"]?["headers"]
        #expect(users?.objectValue?.keys.sorted() == ["Link", "X-Page", "X-Per-Page", "X-Total"])
        let easyco = try Self.exported("easyco")
        #expect(
            easyco["paths"]?["/rest/v1/properties"]?["get"]?["responses"]?["200"]?["headers"]?["Content-Range"] != nil)
        let decimals = easyco.serialized().components(separatedBy: #""format":"decimal""#).count - 1
        #expect(decimals == 6)
    }

    /// Changes made in an exported document, in OpenAPI's own syntax, as `diff` reports them.
    @Test func changesInAnExportedDocument() throws {
        let fitness = try Self.exported("fitness")
        let original = try OpenAPIImport.spec(document: fitness, source: "fitness.openapi.json").canonicalJSON
        func changes(_ edit: (inout JSONValue) -> Void) throws -> [String] {
            var copy = fitness
            edit(&copy)
            let changed = try OpenAPIImport.spec(document: copy, source: "fitness.openapi.json").canonicalJSON
            return SpecDiff.compare(old: original, new: changed).map(\.line)
        }
        func activity(_ edit: @escaping (inout [String: JSONValue]) -> Void) -> (inout JSONValue) -> Void {
            { document in document.update(["components", "schemas", "Apinest.Activity", "properties"], edit) }
        }

        let nullableTitle = try changes(activity { $0["title"] = ["type": ["string", "null"]] })
        #expect(
            nullableTitle == [
                "breaking diff.nullable-added fitness GET /activities response /*/title: the value may now be null, which the app's non-optional property cannot decode",
                "breaking diff.nullable-added fitness GET /activities/{id} response /title: the value may now be null, which the app's non-optional property cannot decode",
                "breaking diff.nullable-added fitness POST /activities response /title: the value may now be null, which the app's non-optional property cannot decode",
                "breaking diff.nullable-added fitness POST /activities/{id}/join response /activity/title: the value may now be null, which the app's non-optional property cannot decode",
            ])
        #expect(
            try changes(activity { $0["visibility"] = ["type": "string", "enum": ["public", "friends", "private"]] })
                .first
                == #"breaking diff.enum-value-added fitness GET /activities response /*/visibility: new enum value "private"; the app's enum cannot decode it"#
        )
        #expect(
            try changes { document in
                document.update(["paths"]) { $0["/activities/{id}/leave"] = nil }
            } == ["breaking diff.endpoint-removed fitness POST /activities/{id}/leave: the endpoint was removed"])
        #expect(
            try changes { document in
                document.update(["paths", "/activities", "get"]) { $0["security"] = [["bearerAuth": []]] }
            } == [
                "breaking diff.auth-changed fitness GET /activities auth: the auth requirement changed from optional to required"
            ])
    }

    @Test func foreignOpenAPI30YAMLIsReadBestEffort() throws {
        let yaml = """
            openapi: 3.0.3
            info: {title: Pet Store, version: "1.0"}
            paths:
              /pets/{petId}:
                get:
                  summary: One pet
                  parameters:
                    - {name: petId, in: path, required: true, schema: {type: integer, minimum: 1}}
                  responses:
                    "200":
                      description: A pet
                      content:
                        application/json:
                          schema: {$ref: "#/components/schemas/Pet"}
                    "404":
                      description: Missing
                      content:
                        application/json:
                          schema: {$ref: "#/components/schemas/Problem"}
            components:
              schemas:
                Pet:
                  allOf:
                    - {$ref: "#/components/schemas/Named"}
                    - type: object
                      required: [tag]
                      properties:
                        tag: {type: string, nullable: true}
                Named:
                  type: object
                  required: [name]
                  properties: {name: {type: string}}
                Problem:
                  type: object
                  properties: {detail: {type: string}}
            """
        let spec = try OpenAPIImport.spec(Array(yaml.utf8), source: "petstore.yaml")
        #expect(spec.id == "pet-store")
        let endpoint = try #require(spec.endpoint("GET /pets/{petId}"))
        #expect(endpoint.auth == .none)
        #expect(endpoint.errors == [404])
        #expect(endpoint.parameters.map(\.schema) == [.integer(minimum: 1)])
        #expect(spec.errorEnvelope.model.name == "Problem")
        #expect(
            spec.definitions["Pet"]
                == .object([Property("name", .string()), Property("tag", .nullable(.string()))]))
    }

    @Test func documentsThatAreNotOpenAPIFailClearly() throws {
        #expect(throws: OpenAPIImportError.notOpenAPI("a.json")) {
            try OpenAPIImport.spec(Array(#"{"api": "x"}"#.utf8), source: "a.json")
        }
        #expect(throws: OpenAPIImportError.unsupportedVersion("b.yaml", "2.0")) {
            try OpenAPIImport.spec(Array("openapi: '2.0'\ninfo: {title: x, version: '1'}\n".utf8), source: "b.yaml")
        }
        // What OpenAPIKit refuses is a problem to report, not a reason to refuse the whole document (issue #21).
        let (spec, problems) = try OpenAPIImport.read(
            Array(#"{"openapi": "3.1.0", "paths": {}}"#.utf8), source: "c.json", fallbackID: "c")
        #expect(spec.id == "c")
        #expect(problems == ["Expected to find `info` key in the root Document object but it is missing."])
        #expect(
            OpenAPIImportError.notOpenAPI("a.json").description
                == #"a.json: not an OpenAPI document (no top-level "openapi" version)"#)
        #expect(throws: (any Error).self) { try OpenAPIImport.spec(Array("openapi: [".utf8), source: "d.yaml") }
    }
}

extension JSONValue {
    /// Applies `edit` to the object at `path` (object keys), creating nothing.
    mutating func update(_ path: [String], _ edit: (inout [String: JSONValue]) -> Void) {
        guard case .object(var members) = self else { return }
        if let first = path.first {
            members[first]?.update(Array(path.dropFirst()), edit)
        } else {
            edit(&members)
        }
        self = .object(members)
    }
}
