import Foundation
import Testing
import UnderstudyCore
import UnderstudyOpenAPI

/// The form a diff test's spec is written in before `SpecDiff` compares it.
///
/// The diff cases are written once, as small canonical documents; `.openapi` writes each as an OpenAPI
/// 3.1 JSON document (the canonical schemas are JSON Schema already; `$ref`s move to
/// `components/schemas`), serialises it, and imports it back, so every rule is also checked through
/// an OpenAPI document that carries the change.
enum SpecForm: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case canonical, openapi

    var testDescription: String { rawValue }

    /// The document as `diff` reads it: the canonical form as it is, or the imported spec, whose models keep the
    /// OpenAPI document's own schemas.
    func version(_ document: JSONValue) throws -> SpecVersion {
        switch self {
        case .canonical:
            return SpecVersion(canonical: document)
        case .openapi:
            let bytes = Self.openAPI(document).serializedBytes(.pretty)
            return SpecVersion(try OpenAPIImport.spec(bytes, source: "demo.openapi.json"))
        }
    }

    /// The canonical test document as an OpenAPI document.
    static func openAPI(_ document: JSONValue) -> JSONValue {
        let api = document["api"]?.stringValue ?? "demo"
        var paths: [String: [String: JSONValue]] = [:]
        for endpoint in document["endpoints"]?.arrayValue ?? [] {
            let id = endpoint["id"]!.stringValue!.split(separator: " ", maxSplits: 1)
            let (method, path) = (id[0].lowercased(), String(id[1]))
            var responses: [String: JSONValue] = [:]
            var success: [String: JSONValue] = ["description": "Success"]
            if let response = endpoint["response"] { success["content"] = content(response) }
            responses[String(endpoint["success"]?.numberValue?.intValue ?? 200)] = .object(success)
            for status in endpoint["errors"]?.arrayValue ?? [] {
                responses[status.numberLiteral!] = [
                    "description": "Error",
                    "content": content(["model": "Error", "schema": ["$ref": "#/definitions/Error"]]),
                ]
            }
            var operation: [String: JSONValue] = [
                "responses": .object(responses),
                "parameters": .array(
                    (endpoint["parameters"]?.arrayValue ?? []).map { parameter in
                        // The canonical form's `default` is the schema's in a document.
                        var schema = rewritten(parameter["schema"]!).objectValue ?? [:]
                        schema["default"] = parameter["default"]
                        return [
                            "name": parameter["name"]!, "in": parameter["in"]!,
                            "required": parameter["required"] ?? false, "deprecated": parameter["deprecated"] ?? false,
                            "schema": .object(schema),
                        ]
                    }),
            ]
            switch endpoint["auth"]?.stringValue ?? "required" {
            case "none": operation["security"] = []
            case "optional": operation["security"] = [[:], ["bearerAuth": []]]
            default: operation["security"] = [["bearerAuth": []]]
            }
            if let request = endpoint["request"] {
                operation["requestBody"] = [
                    "required": .bool(endpoint["body"]?.stringValue == "required"), "content": content(request),
                ]
            }
            paths[path, default: [:]][method] = .object(operation)
        }
        var schemas = (document["definitions"]?.objectValue ?? [:]).mapValues(rewritten)
        schemas["Error"] = ["type": "object", "properties": ["message": ["type": "string"]], "required": ["message"]]
        return [
            "openapi": "3.1.0",
            "info": ["title": .string(api), "version": "1", "x-understudy-api": .string(api)],
            "paths": .object(paths.mapValues { .object($0) }),
            "components": [
                "schemas": .object(schemas),
                "securitySchemes": ["bearerAuth": ["type": "http", "scheme": "bearer", "bearerFormat": "JWT"]],
            ],
        ]
    }

    private static func content(_ body: JSONValue) -> JSONValue {
        ["application/json": ["schema": rewritten(body["schema"]!), "x-understudy-model": body["model"] ?? "Body"]]
    }

    /// The schema with `#/definitions/X` references pointing at `#/components/schemas/X`.
    private static func rewritten(_ schema: JSONValue) -> JSONValue {
        switch schema {
        case .object(let members):
            var copy = members.mapValues(rewritten)
            if let reference = members["$ref"]?.stringValue {
                copy["$ref"] = .string(
                    reference.replacingOccurrences(of: "#/definitions/", with: "#/components/schemas/"))
            }
            return .object(copy)
        case .array(let elements):
            return .array(elements.map(rewritten))
        default:
            return schema
        }
    }
}
