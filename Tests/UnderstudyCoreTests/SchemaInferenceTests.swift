import Foundation
import Testing
import UnderstudyCore

private struct Creator: Codable, Sendable {
    let id: String
    let name: String
    let email: String?

    enum CodingKeys: String, CodingKey {
        case id = "_id"
        case name, email
    }
}

private struct Post: Codable, Sendable {
    let title: String
    let likes: Int
    let rating: Double
    let price: Decimal
    let creator: Creator
    let tags: [String]
    let scores: [String: Int]
    let website: URL
    let uuid: UUID
    let published: Bool
}

private final class Comment: Codable, Sendable {
    let text: String
    let replies: [Comment]
    let parent: Comment?
}

private enum Kind: Int, Codable, CaseIterable, Sendable {
    case viewed = 0, favorited = 1, searched = 7
}

private enum Rarity: String, Codable, CaseIterable, Sendable {
    case common, rare
}

private enum NotIterable: String, Codable, Sendable {
    case one
}

private struct Statistics: Codable, Sendable {
    let counts: [Kind: Int]
    let byRarity: [Rarity: Int]
    let byNumber: [Int: String]
}

private struct Stamped: Codable, Sendable {
    let at: Date
}

private struct Custom: Decodable, Sendable {
    let value: Int
    let label: String
    let extra: String?
    let legacy: String

    enum CodingKeys: String, CodingKey { case value, label, extra, legacy, nested }
    enum NestedKeys: String, CodingKey { case inner }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        value = try container.decode(Int.self, forKey: .value)
        label = try container.decodeNil(forKey: .label) ? "none" : container.decode(String.self, forKey: .label)
        extra = container.contains(.extra) ? try container.decode(String.self, forKey: .extra) : nil
        let nested = try container.nestedContainer(keyedBy: NestedKeys.self, forKey: .nested)
        legacy = try nested.decode(String.self, forKey: .inner)
    }
}

private struct Envelope<T: Codable & Sendable>: Codable, Sendable {
    let data: T?
    let success: Bool
    let errors: [String]?
}

private struct Page<T: Codable & Sendable>: Codable, Sendable {
    let data: [T]
    let total: Int
}

private struct Wrapper: Codable, Sendable {
    let items: [Creator]

    init(from decoder: any Decoder) throws {
        items = try decoder.singleValueContainer().decode([Creator].self)
    }
}

private struct Snake: Codable, Sendable {
    let firstName: String
    let profileURL: String
}

private struct Refined: Codable, Sendable, SchemaRefining {
    let email: String
    let count: Int
    let note: String?

    static func refineSchema(_ schema: inout ObjectSchema) {
        schema.setFormat(.email, of: "email")
        schema.refine("count") { $0 = .integer(minimum: 0, maximum: 10) }
        schema.setFormat(.uri, of: "note")
    }
}

struct SchemaInferenceTests {
    @Test func optionalsAreOptionalAndNullableRequiredOnesAreNeither() throws {
        var inference = SchemaInference()
        #expect(try inference.schema(for: Creator.self) == .ref("Creator"))
        #expect(
            inference.definitions["Creator"]
                == .object([
                    Property("_id", .string()), Property("name", .string()),
                    Property("email", .nullable(.string()), required: false),
                ]))
    }

    @Test func primitivesNestedModelsArraysAndStringDictionaries() throws {
        var inference = SchemaInference()
        _ = try inference.schema(for: Post.self)
        #expect(
            inference.definitions["Post"]
                == .object([
                    Property("title", .string()), Property("likes", .integer()), Property("rating", .number()),
                    Property("price", .decimal()), Property("creator", .ref("Creator")),
                    Property("tags", .array(.string())), Property("scores", .map(.integer())),
                    Property("website", .string(format: .uri)), Property("uuid", .string(format: .uuid)),
                    Property("published", .boolean),
                ]))
        #expect(inference.definitions["Creator"] != nil)
    }

    @Test func recursiveTypesBecomeReferences() throws {
        var inference = SchemaInference()
        #expect(try inference.schema(for: Comment.self) == .ref("Comment"))
        #expect(
            inference.definitions["Comment"]
                == .object([
                    Property("text", .string()), Property("replies", .array(.ref("Comment"))),
                    Property("parent", .nullable(.ref("Comment")), required: false),
                ]))
    }

    @Test func dictionariesFollowWhatJSONDecoderReallyDoes() throws {
        var inference = SchemaInference()
        _ = try inference.schema(for: Statistics.self)
        #expect(
            inference.definitions["Statistics"]
                == .object([
                    Property("counts", .pairs(key: .integer(values: [0, 1, 7]), value: .integer())),
                    Property("byRarity", .pairs(key: .string(values: ["common", "rare"]), value: .integer())),
                    Property("byNumber", .map(MapSchema(keys: .string(format: .integer), values: .string()))),
                ]))
    }

    /// `[Kind: Int]` with an `Int`-backed enum key is read from `[key, value, ...]`: the documented
    /// object form `{"0": 45}` fails, and the inferred `.pairs` schema says so.
    @Test func intEnumKeyedDictionaryIsAFlatArrayForJSONDecoder() throws {
        let decoder = JSONDecoder()
        #expect(throws: DecodingError.self) {
            try decoder.decode([Kind: Int].self, from: Data(#"{"0": 45, "1": 12}"#.utf8))
        }
        let decoded = try decoder.decode([Kind: Int].self, from: Data("[0, 45, 7, 8]".utf8))
        #expect(decoded == [.viewed: 45, .searched: 8])

        var inference = SchemaInference()
        let schema = try inference.schema(for: [Kind: Int].self)
        let validator = Validator()
        #expect(validator.isValid(try JSONValue(parsing: "[0, 45, 7, 8]"), against: schema))
        #expect(
            validator.validate(try JSONValue(parsing: #"{"0": 45}"#), against: schema).map(\.summary) == [
                "/: expected array of alternating keys and values, found object"
            ])
    }

    @Test(arguments: [
        (JSONDecoder.DateDecodingStrategy.deferredToDate, Schema.number()),
        (.secondsSince1970, .number()),
        (.millisecondsSince1970, .number()),
        (.iso8601, .string(format: .dateTimeWithoutFraction)),
    ])
    func datesFollowTheDecodingStrategy(strategy: JSONDecoder.DateDecodingStrategy, expected: Schema) throws {
        var inference = SchemaInference(dateDecodingStrategy: strategy)
        _ = try inference.schema(for: Stamped.self)
        #expect(inference.definitions["Stamped"] == .object([Property("at", expected)]))
    }

    @Test func formattedAndCustomDateStrategiesRecordWhatTheyRead() throws {
        var settings = SchemaInference(settings: DecoderSettings(dates: .formatted("yyyy-MM-dd")))
        _ = try settings.schema(for: Stamped.self)
        #expect(settings.definitions["Stamped"] == .object([Property("at", .string(format: .datePattern("yyyy-MM-dd")))]))

        let custom = SchemaInference(
            dateDecodingStrategy: .custom { decoder in
                Date(timeIntervalSince1970: try decoder.singleValueContainer().decode(Double.self))
            })
        var inference = custom
        _ = try inference.schema(for: Stamped.self)
        #expect(inference.definitions["Stamped"] == .object([Property("at", .number())]))
    }

    @Test func customInitialisersAreRecordedAsTheyRead() throws {
        var inference = SchemaInference()
        _ = try inference.schema(for: Custom.self)
        #expect(
            inference.definitions["Custom"]
                == .object([
                    Property("value", .integer()), Property("label", .nullable(.string())),
                    Property("extra", .string(), required: false),
                    Property("nested", .object([Property("inner", .string())])),
                ]))
    }

    @Test func envelopeGenericsGetTheirOwnNames() throws {
        var inference = SchemaInference()
        #expect(try inference.schema(for: Envelope<Creator>.self) == .ref("Envelope<Creator>"))
        #expect(try inference.schema(for: Page<Creator>.self) == .ref("Page<Creator>"))
        #expect(try inference.schema(for: Envelope<[Creator]>.self) == .ref("Envelope<[Creator]>"))
        #expect(
            inference.definitions["Envelope<Creator>"]
                == .object([
                    Property("data", .nullable(.ref("Creator")), required: false), Property("success", .boolean),
                    Property("errors", .nullable(.array(.string())), required: false),
                ]))
        #expect(
            inference.definitions["Page<Creator>"]
                == .object([Property("data", .array(.ref("Creator"))), Property("total", .integer())]))
    }

    @Test func singleValueWrappersTakeTheWrappedSchema() throws {
        var inference = SchemaInference()
        _ = try inference.schema(for: Wrapper.self)
        #expect(inference.definitions["Wrapper"] == .array(.ref("Creator")))
    }

    @Test func snakeCaseKeyStrategyRenamesKeys() throws {
        var inference = SchemaInference(settings: DecoderSettings(keys: .convertFromSnakeCase))
        _ = try inference.schema(for: Snake.self)
        #expect(
            inference.definitions["Snake"]
                == .object([Property("first_name", .string()), Property("profile_url", .string())]))
    }

    @Test func refiningAddsFormatsAndRanges() throws {
        var inference = SchemaInference()
        _ = try inference.schema(for: Refined.self)
        #expect(
            inference.definitions["Refined"]
                == .object([
                    Property("email", .string(format: .email)), Property("count", .integer(minimum: 0, maximum: 10)),
                    Property("note", .nullable(.string(format: .uri)), required: false),
                ]))
    }

    @Test func enumsNeedTheirCases() throws {
        var inference = SchemaInference()
        #expect(try inference.schema(for: Rarity.self) == .string(values: ["common", "rare"]))
        #expect(try inference.schema(for: Kind.self) == .integer(values: [0, 1, 7]))
        #expect(try inference.schema(for: JSONValue.self) == .any)
        do {
            _ = try inference.schema(for: NotIterable.self)
            Issue.record("a non-CaseIterable enum was inferred")
        } catch {
            #expect(
                "\(error)"
                    == "cannot infer NotIterable: a RawRepresentable enum must adopt CaseIterable (or SchemaProviding) so its values are known"
            )
        }
    }

    @Test func resolvedSchemaInlinesDefinitionsButKeepsRecursion() throws {
        var inference = SchemaInference()
        let resolved = try inference.resolvedSchema(for: [Comment].self)
        guard case .array(let array) = resolved, case .object(let object) = array.items else {
            Issue.record("expected an array of objects, got \(resolved)")
            return
        }
        #expect(object["replies"]?.schema == .array(.ref("Comment")))
    }
}

private struct Tree: Codable, Sendable, SchemaProviding {
    let value: JSONValue

    static var jsonSchema: Schema { .oneOf([.string(), .array(.ref("Tree"))]) }
    static var schemaPlaceholder: Tree { Tree(value: .null) }
}

struct SchemaProvidingTests {
    @Test func selfReferencingProvidedSchemasAreNamed() throws {
        var inference = SchemaInference()
        #expect(try inference.schema(for: Tree.self) == .ref("Tree"))
        #expect(inference.definitions["Tree"] == .oneOf([.string(), .array(.ref("Tree"))]))
        let validator = Validator(definitions: inference.definitions)
        #expect(validator.isValid(try JSONValue(parsing: #"["a", ["b", []]]"#), against: .ref("Tree")))
        #expect(!validator.isValid(try JSONValue(parsing: #"["a", [1]]"#), against: .ref("Tree")))
    }
}
