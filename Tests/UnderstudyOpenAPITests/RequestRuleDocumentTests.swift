import Foundation
import Testing
import UnderstudyCore
import UnderstudyMock
import UnderstudyOpenAPI

/// A user's own document may declare rules between a request's values on an operation (`x-understudy-rules`, in
/// OpenAPI runtime expressions), as the exported documents do: `mock --spec` imports and enforces them.
struct RequestRuleDocumentTests {
    static let document = #"""
        {
          "openapi": "3.1.0",
          "info": {"title": "Bookings", "version": "1"},
          "paths": {
            "/bookings/{id}": {
              "put": {
                "operationId": "replaceBooking",
                "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string", "format": "uuid"}}],
                "x-understudy-rules": [{"equal": ["$request.body#/id", "$request.path.id"]}],
                "requestBody": {"required": true, "content": {"application/json": {"schema": {
                  "type": "object", "required": ["id"], "properties": {"id": {"type": "string", "format": "uuid"}}}}}},
                "responses": {"204": {"description": "Replaced"}, "400": {"description": "Invalid"}}
              }
            },
            "/bookings": {
              "get": {
                "operationId": "listBookings",
                "parameters": [
                  {"name": "from", "in": "query", "schema": {"type": "string", "format": "date"}},
                  {"name": "until", "in": "query", "schema": {"type": "string", "format": "date"}}
                ],
                "x-understudy-rules": [{"notBefore": ["$request.query.until", "$request.query.from"]}],
                "responses": {"200": {"description": "Bookings", "content": {"application/json": {"schema": {
                  "type": "array", "items": {"type": "string"}}}}}, "400": {"description": "Invalid"}}
              }
            }
          }
        }
        """#

    @Test func operationRulesAreImportedAndEnforcedByTheMock() async throws {
        let spec = try OpenAPIImport.spec(Array(Self.document.utf8), source: "bookings.json")
        #expect(spec.endpoint("PUT /bookings/{id}")?.rules == [.equal(.body("id"), .path("id"))])
        #expect(spec.endpoint("GET /bookings")?.rules == [.notBefore(.query("until"), .query("from"))])

        let engine = MockEngine(behaviour: FixtureMock(spec: spec))
        let id = "6f1c2b8e-4a0d-4c77-9b55-8e2d1f0a3c11"
        func put(_ bodyID: String) async -> Int {
            await engine.respond(
                to: RawRequest(
                    method: "PUT", target: "/bookings/\(id)", headers: ["Content-Type": "application/json"],
                    body: Array(#"{"id": "\#(bodyID)"}"#.utf8))
            ).status
        }
        #expect(await put(id.uppercased()) == 204)
        #expect(await put("0f1c2b8e-4a0d-4c77-9b55-8e2d1f0a3c11") == 400)
        let list = { (query: String) in
            await engine.respond(to: RawRequest(method: "GET", target: "/bookings?\(query)"))
        }
        #expect(await list("from=2025-11-01&until=2025-11-01").status == 200)
        let broken = await list("from=2025-11-02&until=2025-11-01")
        #expect(broken.status == 400)
        #expect(
            String(decoding: broken.body, as: UTF8.self).contains("query parameter until: expected a value not before"))
    }

    /// A parameter's value is judged by the document's own schema, every keyword, as a body is: `multipleOf`,
    /// `uniqueItems` and `const` are not in the descriptor's reading of the schema, and a server of the document
    /// refuses what breaks them.
    @Test func parametersAreJudgedByTheDocumentsOwnSchema() async throws {
        let document: JSONValue = [
            "openapi": "3.1.0", "info": ["title": "Slots", "version": "1"],
            "paths": [
                "/slots": [
                    "get": [
                        "parameters": [
                            ["name": "minutes", "in": "query", "schema": ["type": "integer", "multipleOf": 15]],
                            ["name": "rooms", "in": "query", "explode": false,
                             "schema": ["type": "array", "items": ["type": "string"], "uniqueItems": true]],
                            ["name": "X-Version", "in": "header", "schema": ["const": "2"]],
                        ],
                        "responses": ["200": ["description": "Slots"], "400": ["description": "Invalid"]],
                    ]
                ]
            ],
        ]
        let spec = try OpenAPIImport.spec(document.serializedBytes(), source: "slots.json")
        let engine = MockEngine(behaviour: FixtureMock(spec: spec))
        func get(_ query: String, version: String = "2") async -> (Int, String) {
            let reply = await engine.respond(
                to: RawRequest(method: "GET", target: "/slots?\(query)", headers: ["X-Version": version]))
            return (reply.status, String(decoding: reply.body, as: UTF8.self))
        }
        #expect(await get("minutes=45&rooms=a,b").0 == 200)
        let (status, body) = await get("minutes=40")
        #expect(status == 400 && body.contains("query parameter minutes: expected a multiple of 15, found 40"))
        #expect(await get("rooms=a,a").0 == 400)
        #expect(await get("minutes=45", version: "3").0 == 400)
    }
}
