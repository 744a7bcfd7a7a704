import Foundation
import Testing

@testable import UnderstudyCore

/// The values ``SchemaGenerator`` makes, beside the property CI checks on every schema of the JSON Schema Test Suite
/// (`scripts/json-schema-suite.py --generate`): each keyword a mock used to break (the Schemathesis findings of the
/// schema issue), repair close to a hint, and schemas no value satisfies.
struct SchemaGeneratorTests {
    static func compile(_ json: String, dialect: SchemaDialect = .jsonSchema2020_12) throws -> CompiledSchema {
        try SchemaValidatorTests.compile(json, dialect: dialect)
    }

    /// Values for `json` from several seeds, each checked by the validator with formats asserted.
    static func values(_ json: String, dialect: SchemaDialect = .jsonSchema2020_12, seeds: Int = 8) throws
        -> [JSONValue]
    {
        let schema = try compile(json, dialect: dialect)
        let validator = SchemaValidator(.init(formats: .assertion))
        return try (1...seeds).map { seed in
            var generator = SchemaGenerator(seed: UInt64(seed))
            let made = generator.value(for: schema)
            let value = try #require(made, "no value for \(json)")
            #expect(validator.validate(value, against: schema) == [], "\(value.serialized()) for \(json)")
            return value
        }
    }

    @Test func everyKeywordAMockBrokeIsKept() throws {
        // Lengths in code points, uniqueness, formats, `type: null`, exact multiples.
        for value in try Self.values(#"{"type": "string", "minLength": 3, "maxLength": 5, "pattern": "^[a-f]+$"}"#) {
            let count = try #require(value.stringValue).unicodeScalars.count
            #expect((3...5).contains(count))
        }
        for value in try Self.values(#"{"type": "array", "items": {"enum": [1, 2, 3]}, "minItems": 3, "uniqueItems": true}"#) {
            #expect(Set(try #require(value.arrayValue)).count == 3)
        }
        #expect(try Self.values(#"{"format": "hostname", "type": "string"}"#).allSatisfy { $0 == "api.example.com" })
        #expect(try Self.values(#"{"type": "null"}"#).allSatisfy { $0 == .null })
        let prices = try Self.values(#"{"type": "number", "multipleOf": 0.0075, "minimum": 1, "exclusiveMaximum": 2}"#)
        #expect(prices.allSatisfy { ExactDecimal($0.numberValue!)!.isMultiple(of: ExactDecimal(literal: "0.0075")!) })
    }

    @Test func applicatorsPickAValueOnlyOneBranchOrTheConditionAllows() throws {
        // `oneOf`: an integer matches both branches, so only a fraction does.
        let exactlyOne = try Self.values(#"{"oneOf": [{"type": "number"}, {"type": "integer"}]}"#)
        #expect(exactlyOne.allSatisfy { !($0.numberValue?.isIntegral ?? true) })
        _ = try Self.values(#"{"if": {"properties": {"kind": {"const": "a"}}}, "then": {"required": ["a"]}, "else": {"required": ["b"]}, "properties": {"kind": {"enum": ["a", "b"]}}, "required": ["kind"]}"#)
        _ = try Self.values(#"{"type": "object", "not": {"required": ["secret"]}, "properties": {"secret": {}, "name": {"type": "string"}}}"#)
        _ = try Self.values(#"{"propertyNames": {"pattern": "^x-"}, "minProperties": 2}"#)
        _ = try Self.values(#"{"dependentRequired": {"a": ["b"]}, "properties": {"a": {"type": "integer"}, "b": {"const": true}}, "required": ["a"]}"#)
        _ = try Self.values(#"{"prefixItems": [{"const": "x"}, {"type": "integer"}], "items": false, "contains": {"type": "integer", "minimum": 5}}"#)
        _ = try Self.values(#"{"properties": {"a": {"type": "integer"}}, "patternProperties": {"^p": {"type": "boolean"}}, "additionalProperties": false, "minProperties": 3}"#)
    }

    @Test func theOpenAPI30DialectAndTheDirectionAreKept() throws {
        let nullable = try Self.values(#"{"type": "string", "nullable": true, "maxLength": 2}"#, dialect: .openAPI30)
        #expect(nullable.allSatisfy { $0 == .null || $0.stringValue!.count <= 2 })
        let user = try Self.compile(
            #"{"type": "object", "required": ["id", "password"], "properties": {"id": {"type": "integer", "readOnly": true}, "password": {"type": "string", "writeOnly": true}}}"#)
        var generator = SchemaGenerator(seed: 3, direction: .request)
        let request = generator.value(for: user)
        #expect(try #require(request?.objectValue).keys.sorted() == ["password"])
        generator.direction = .response
        let response = generator.value(for: user)
        #expect(try #require(response?.objectValue).keys.sorted() == ["id"])
    }

    @Test func aHintKeepsItsValidPartsAndLosesTheRest() throws {
        let pet = try Self.compile(
            #"{"type": "object", "required": ["id", "name"], "properties": {"id": {"type": "string", "maxLength": 4}, "name": {"type": "string"}, "tags": {"type": "array", "uniqueItems": true, "items": {"type": "string"}}}}"#)
        var generator = SchemaGenerator(seed: 1)
        let made = generator.value(for: pet, near: ["id": "far-too-long", "name": "Rex", "tags": ["a", "a"]])
        let repaired = try #require(made)
        #expect(repaired["name"] == "Rex")
        #expect(repaired["id"] == "far-")
        let tags = try #require(repaired["tags"]?.arrayValue)
        #expect(tags.first == "a" && Set(tags).count == tags.count)
        let valid: JSONValue = ["id": "p1", "name": "Rex"]
        #expect(generator.value(for: pet, near: valid) == valid)
    }

    @Test func aSchemaNoValueSatisfiesGivesNoneAndEndsWithinItsBudget() throws {
        var generator = SchemaGenerator(seed: 1)
        #expect(generator.value(for: try Self.compile("false")) == nil)
        #expect(generator.value(for: try Self.compile(#"{"type": "integer", "minimum": 3, "maximum": 2}"#)) == nil)
        #expect(generator.value(for: try Self.compile(#"{"allOf": [{"type": "string"}, {"not": {"type": "string"}}]}"#)) == nil)
        // A tree that must nest forever has no finite value; generation stops instead of recursing without end.
        #expect(generator.value(for: try Self.compile(##"{"type": "object", "required": ["child"], "properties": {"child": {"$ref": "#"}}}"##)) == nil)
        // Twelve `anyOf`s of six branches each: 6^12 combinations, all refused by the `not`; the budget ends it.
        let branches = (0..<6).map { #"{"minimum": \#($0)}"# }.joined(separator: ",")
        let many = (0..<12).map { _ in #"{"anyOf": [\#(branches)]}"# }.joined(separator: ",")
        generator.budget = 2_000
        #expect(generator.value(for: try Self.compile(#"{"allOf": [\#(many)], "not": {}}"#)) == nil)
        // A recursive tree that may end does end.
        _ = try Self.values(##"{"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#"}}, "name": {"type": "string"}}}"##)
    }
}
