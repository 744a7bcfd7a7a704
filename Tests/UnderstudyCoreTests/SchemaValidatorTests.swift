import Foundation
import Testing

@testable import UnderstudyCore

/// The JSON Schema engine's own choices, beside the official suite (`scripts/json-schema-suite.py`, which CI runs):
/// OpenAPI's direction rule, the notes and warnings it adds, merged repeats, messages, exact numbers, and documents
/// that must neither crash nor hang it.
struct SchemaValidatorTests {
    /// Deep values are kept: freeing one recurses once per level (`JSONValue`'s own `deinit`, not the engine's).
    nonisolated(unsafe) static var keptAlive: [Any] = []

    static func compile(
        _ json: String, dialect: SchemaDialect = .jsonSchema2020_12, uri: String = "https://example.test/s.json",
        roots: [JSONPointer]? = nil, at pointer: String = ""
    ) throws -> CompiledSchema {
        let registry = try SchemaRegistry(dialect: dialect).adding(
            document: try JSONValue(parsing: json), uri: uri, schemaRoots: roots)
        return try #require(registry.schema(at: uri + "#" + pointer))
    }

    static func number(_ literal: String) throws -> JSONValue { try JSONValue(parsing: literal) }

    @Test func readOnlyIsNotRequiredInARequestNorWriteOnlyInAResponse() throws {
        let user = try Self.compile(
            #"""
            {"components": {"schemas": {
                "User": {"type": "object", "required": ["id", "name", "password"], "properties": {
                    "id": {"type": "string", "readOnly": true}, "name": {"type": "string"},
                    "password": {"$ref": "#/components/schemas/Secret"}}},
                "Secret": {"type": "string", "writeOnly": true}}}}
            """#, dialect: .openAPI30, uri: "file:///api.json",
            roots: ["/components/schemas/User", "/components/schemas/Secret"], at: "/components/schemas/User")
        let request = SchemaValidator(.init(direction: .request)).validate(["name": "a"], against: user)
        #expect(request.map(\.summary) == ["/password: required property is missing (expected Secret)"])
        let response = SchemaValidator(.init(direction: .response)).validate(["name": "a"], against: user)
        #expect(response.map(\.summary) == ["/id: required property is missing (expected string)"])
        #expect(SchemaValidator().validate(["name": "a"], against: user).count == 2)
    }

    @Test func membersNoSchemaDeclaresAreNotes() throws {
        let validator = SchemaValidator(.init(undeclaredMembers: true))
        let composed = try Self.compile(#"{"allOf": [{"properties": {"a": {}}}, {"properties": {"b": {}}}]}"#)
        let notes = validator.validate(["a": 1, "b": 2, "c": 3], against: composed)
        #expect(notes.map(\.summary) == ["/c: property is not declared by the schema; a decoder ignores it"])
        #expect(notes.allSatisfy { $0.severity == .note && $0.rule == .unknownProperty })
        let typed = try Self.compile(#"{"properties": {"a": {}}, "additionalProperties": {"type": "integer"}}"#)
        #expect(validator.validate(["a": 1, "b": 2], against: typed) == [])
        let nested = try Self.compile(#"{"properties": {"items": {"type": "array", "items": {"properties": {"x": {}}}}}}"#)
        let merged = SchemaValidator(.init(undeclaredMembers: true, mergingRepeats: true))
            .validate(["items": [["x": 1, "y": 2], ["x": 1, "y": 3]], "z": true], against: nested)
        #expect(merged.map(\.location).sorted() == ["/items/*/y", "/z"])
        // Only the branch that matched declares.
        let branches = try Self.compile(
            #"{"oneOf": [{"properties": {"kind": {"const": "cat"}}, "required": ["kind"]}, {"properties": {"kind": {"const": "dog"}}, "required": ["kind"]}]}"#)
        #expect(
            validator.validate(["kind": "cat", "extra": 1], against: branches).map(\.summary)
                == ["/extra: property is not declared by the schema; a decoder ignores it"])
    }

    @Test func aFormatIsAnAnnotationUnlessAsserted() throws {
        let date = try Self.compile(#"{"type": "string", "format": "date-time"}"#)
        let warning = SchemaValidator().validate("2023-09-15T08:00:00", against: date)
        #expect(warning.map(\.severity) == [.warning])
        #expect(warning.first?.message == #"expected string in date-time format, found "2023-09-15T08:00:00""#)
        #expect(SchemaValidator().isValid("x", against: date))
        let asserted = SchemaValidator(.init(formats: .assertion))
        #expect(asserted.validate("x", against: date).map(\.severity) == [.error])
        #expect(!asserted.isValid("x", against: date))
    }

    @Test func repeatsMergeIntoOneFinding() throws {
        let list = try Self.compile(#"{"type": "array", "items": {"type": "object", "properties": {"id": {"type": "string"}}}}"#)
        let drifted = JSONValue.array((0..<1000).map { ["id": .integer($0)] })
        let merged = SchemaValidator(.init(mergingRepeats: true)).validate(drifted, against: list)
        #expect(merged.count == 1)
        #expect(merged.first?.occurrences == 1000 && merged.first?.examples.count == Diagnostic.examplesKept)
        #expect(merged.first?.location == "/*/id")
        #expect(SchemaValidator().validate(drifted, against: list).count == 1000)
    }

    @Test func messagesSayWhereWhatAndWhichKeyword() throws {
        let typed = SchemaValidator().validate(
            ["id": 12], against: try Self.compile(#"{"properties": {"id": {"type": "string"}}}"#))
        #expect(typed.map(\.summary) == ["/id: expected string, found integer 12"])
        #expect(typed.first?.context["schema"] == "https://example.test/s.json#/properties/id/type")
        let null = SchemaValidator().validate(.null, against: try Self.compile(#"{"type": ["string", "integer"]}"#))
        #expect(null.map(\.rule) == [.nullNotAllowed])
        #expect(null.first?.message == "expected string or integer, found null")
        let several = SchemaValidator().validate(1, against: try Self.compile(#"{"oneOf": [{"type": "integer"}, {"minimum": 0}]}"#))
        #expect(several.map(\.message) == ["expected exactly one alternative to match, found 2 (alternatives 0 and 1)"])
        let fewest = SchemaValidator().validate(
            ["a": 1], against: try Self.compile(#"{"anyOf": [{"type": "string"}, {"type": "object", "required": ["b"]}]}"#))
        #expect(fewest.map(\.rule) == [.noAnyOfAlternative, .requiredMissing])
    }

    @Test func aDiscriminatorPicksTheBranchWhoseFindingsAreShown() throws {
        let pet = try Self.compile(
            #"""
            {"components": {"schemas": {
                "Pet": {"oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}],
                        "discriminator": {"propertyName": "kind", "mapping": {"dog": "#/components/schemas/Dog"}}},
                "Cat": {"type": "object", "required": ["kind", "lives"], "properties": {"kind": {"type": "string"}, "lives": {"type": "integer"}}},
                "Dog": {"type": "object", "required": ["kind", "bark"], "properties": {"kind": {"type": "string"}, "bark": {"type": "boolean"}}}}}}
            """#, dialect: .openAPI30, uri: "file:///pets.json",
            roots: ["/components/schemas/Pet", "/components/schemas/Cat", "/components/schemas/Dog"],
            at: "/components/schemas/Pet")
        let dog = SchemaValidator().validate(["kind": "dog", "bark": "loud"], against: pet)
        #expect(dog.map(\.rule) == [.noAlternative, .typeMismatch])
        #expect(dog.last?.summary == #"/bark: expected boolean, found string "loud""#)
    }

    @Test func numbersCompareAsWritten() throws {
        let validator = SchemaValidator()
        #expect(!validator.isValid(try Self.number("9007199254740993"), against: try Self.compile(#"{"maximum": 9007199254740992}"#)))
        #expect(validator.isValid(try Self.number("19.99"), against: try Self.compile(#"{"multipleOf": 0.01}"#)))
        #expect(validator.isValid(try Self.number("0.0075"), against: try Self.compile(#"{"multipleOf": 0.0001}"#)))
        #expect(!validator.isValid(try Self.number("1e308"), against: try Self.compile(#"{"multipleOf": 0.123456789}"#)))
        #expect(!validator.isValid(try Self.number("1e999999"), against: try Self.compile(#"{"multipleOf": 7}"#)))
        #expect(!validator.isValid(try Self.number("[1, 1.0]"), against: try Self.compile(#"{"uniqueItems": true}"#)))
        // OpenAPI 3.0's boolean exclusiveMaximum.
        let below = try Self.compile(#"{"type": "integer", "maximum": 3, "exclusiveMaximum": true}"#, dialect: .openAPI30)
        #expect(validator.isValid(2, against: below) && !validator.isValid(3, against: below))
    }

    @Test func cyclesUnresolvedReferencesAndDepthEndInAFinding() throws {
        let cycle = try Self.compile(##"{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}"##)
        #expect(SchemaValidator().validate(["x": 1], against: cycle) == [])
        // A model that names itself in its `allOf` (a hostile document's `Folder`) adds nothing by it.
        let folder = try Self.compile(
            ##"{"$defs": {"folder": {"allOf": [{"$ref": "#/$defs/folder"}, {"required": ["title"]}]}}, "$ref": "#/$defs/folder"}"##)
        #expect(SchemaValidator().isValid(["title": "x"], against: folder))
        #expect(SchemaValidator().validate([:], against: folder).map(\.rule) == [.requiredMissing])
        let unresolved = SchemaValidator().validate(1, against: try Self.compile(#"{"$ref": "other.json#/x"}"#))
        #expect(unresolved.map(\.rule) == [.unresolvedReference])
        #expect(unresolved.first?.message == "the schema refers to https://example.test/other.json#/x, which is not defined")

        var deepSchema: JSONValue = ["type": "integer"]
        for _ in 0..<20_000 { deepSchema = ["properties": ["a": deepSchema]] }
        var deepAllOf: JSONValue = ["type": "integer"]
        for _ in 0..<20_000 { deepAllOf = ["allOf": [deepAllOf]] }
        var deepValue: JSONValue = 1
        for _ in 0..<20_000 { deepValue = ["a": deepValue] }
        let registry = try SchemaRegistry(dialect: .jsonSchema2020_12)
            .adding(document: deepSchema, uri: "urn:deep").adding(document: deepAllOf, uri: "urn:deep-all-of")
        Self.keptAlive += [deepSchema, deepAllOf, deepValue, registry]
        let deep = SchemaValidator().validate(deepValue, against: try #require(registry.schema(at: "urn:deep")))
        #expect(deep.map(\.rule) == [.depthLimit])
        #expect(SchemaValidator().validate(1, against: try #require(registry.schema(at: "urn:deep-all-of"))).map(\.rule) == [.depthLimit])
        #expect(SchemaValidator().isValid(deepValue, against: try Self.compile(#"{"type": "object"}"#)))
        let tree = try Self.compile(##"{"$defs": {"node": {"type": "object", "additionalProperties": {"$ref": "#/$defs/node"}}}, "$ref": "#/$defs/node"}"##)
        #expect(SchemaValidator().validate(deepValue, against: tree).map(\.rule) == [.depthLimit])
        // A chain of bare references is no nesting: 5,000 links are followed.
        var links: [String: JSONValue] = ["leaf": ["type": "string"]]
        for index in 0..<5_000 { links["l\(index)"] = ["$ref": .string(index == 4_999 ? "#/$defs/leaf" : "#/$defs/l\(index + 1)")] }
        let chain = try SchemaRegistry(dialect: .jsonSchema2020_12)
            .adding(document: ["$defs": .object(links), "$ref": "#/$defs/l0"], uri: "urn:chain")
        let end = try #require(chain.schema(at: "urn:chain"))
        #expect(SchemaValidator().validate(1, against: end).map(\.rule) == [.typeMismatch])
        #expect(SchemaValidator().isValid("x", against: end))
    }

    @Test func aDeepValueStopsCleanlyOnASmallStack() async throws {
        let tree = try Self.compile(##"{"$defs": {"node": {"type": "object", "additionalProperties": {"$ref": "#/$defs/node"}}}, "$ref": "#/$defs/node"}"##)
        let rules = await withCheckedContinuation { continuation in
            let thread = Thread {
                var value: JSONValue = 1
                for _ in 0..<2_000 { value = ["a": value] }
                let findings = SchemaValidator().validate(value, against: tree)
                Self.keptAlive.append(value)
                continuation.resume(returning: findings.map(\.rule))
            }
            thread.stackSize = 512 * 1024
            thread.start()
        }
        #expect(rules == [.depthLimit])
    }
}
