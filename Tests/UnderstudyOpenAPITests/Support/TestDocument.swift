import UnderstudyCore

/// The OpenAPI 3.1 documents the tests write: one operation, `GET /items`, whose 200 answer is given.
enum TestDocument {
    /// `GET /items` answering `answer` (a response object beside its description), with `components`.
    static func answering(_ answer: [String: JSONValue], components: JSONValue? = nil) -> JSONValue {
        var document: [String: JSONValue] = [
            "openapi": "3.1.0", "info": ["title": "demo", "version": "1"],
            "paths": ["/items": ["get": ["responses": ["200": .object(answer.merging(["description": "ok"]) { $1 })]]]],
        ]
        if let components { document["components"] = components }
        return .object(document)
    }

    /// `GET /items` answering JSON of `schema`.
    static func answering(schema: JSONValue, components: JSONValue? = nil) -> JSONValue {
        answering(["content": ["application/json": ["schema": schema]]], components: components)
    }
}
