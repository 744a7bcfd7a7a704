import Foundation
import Testing
import UnderstudyCore

private struct Person: Codable, Sendable, SchemaRefining {
    enum Level: String, Codable, CaseIterable, Sendable { case beginner, expert }
    let id: UUID
    let email: String
    let firstName: String
    let website: URL?
    let level: Level
    let age: Int
    let balance: Decimal
    let createdAt: Date
    let tags: [String]
    let counts: [Level: Int]
    let objectId: String
    let title: String

    static func refineSchema(_ schema: inout ObjectSchema) {
        schema.setFormat(.email, of: "email")
        schema.refine("age") { $0 = .integer(minimum: 18, maximum: 30) }
        schema.setFormat(.objectId, of: "objectId")
        schema.refine("title") { $0 = .string(minLength: 40, maxLength: 50) }
    }
}

struct FixtureGeneratorTests {
    func generate(seed: UInt64, settings: DecoderSettings) throws -> (JSONValue, SchemaDefinitions) {
        var inference = SchemaInference(settings: settings)
        let schema = try inference.schema(for: [Person].self)
        var generator = FixtureGenerator(seed: seed, definitions: inference.definitions, settings: settings)
        return (generator.value(for: schema), inference.definitions)
    }

    @Test(arguments: [DecoderSettings(dates: .iso8601), .plain, DecoderSettings(dates: .millisecondsSince1970)])
    func generatedValuesValidateAndDecode(settings: DecoderSettings) throws {
        for seed in UInt64(1)...25 {
            let (value, definitions) = try generate(seed: seed, settings: settings)
            var inference = SchemaInference(settings: settings)
            let schema = try inference.schema(for: [Person].self)
            #expect(Validator(definitions: definitions).validate(value, against: schema) == [])
            let people = try settings.makeDecoder().decode([Person].self, from: Data(value.serialized().utf8))
            for person in people {
                #expect((18...30).contains(person.age))
                #expect((40...50).contains(person.title.count))
                #expect(abs(person.createdAt.timeIntervalSince(FixtureGenerator.referenceInstant)) <= 61 * 86_400)
            }
        }
    }

    /// Generated objects keep their rules between properties, whatever the seed.
    @Test func generatedObjectsKeepTheirRules() {
        var slot = ObjectSchema(properties: [
            Property("begin", .string(format: .dateTime)), Property("end", .string(format: .dateTime)),
            Property("low", .integer()), Property("high", .integer()),
            Property("latitude", .nullable(.number()), required: false),
            Property("longitude", .nullable(.number()), required: false),
        ])
        slot.rules = [
            .after("end", "begin"), .after("high", "low"),
            .requires("latitude", ["longitude"]), .requires("longitude", ["latitude"]),
        ]
        let validator = Validator(definitions: [:])
        for seed in UInt64(0)..<200 {
            var generator = FixtureGenerator(
                seed: seed, definitions: [:], settings: .plain, optionalKeys: .sometimesAbsent)
            let value = generator.value(for: .object(slot))
            #expect(validator.validate(value, against: .object(slot)).isEmpty, "seed \(seed): \(value.serialized())")
        }
    }

    /// A document may bound a number far beyond an `Int` of cents (`maximum: 1e30`, or a minimum there): the
    /// generator stays within the bounds instead of trapping.
    @Test func boundsBeyondIntStayBounds() {
        var generator = FixtureGenerator(seed: 7, definitions: [:], settings: .plain)
        for schema: Schema in [
            .decimal(minimum: 0, maximum: 79_228_162_514_264_337_593_543_950_335),
            .number(minimum: -1e30, maximum: 1e30),
            .number(minimum: 1e20), .decimal(exclusiveMinimum: -1e300),
        ] {
            let value = generator.value(for: schema)
            #expect(Validator().validate(value, against: schema).isEmpty, "\(schema): \(value)")
        }
    }

    /// A string constrained only by its `pattern` is drawn from the pattern, so mock answers and the checker's
    /// request bodies meet the document's own schema. The patterns are real documents': Apache Polaris's names
    /// (a negative lookahead), the usual password rules (positive lookaheads, VideGreniers' among them), Redocly's
    /// museum hours, GitHub's and Stripe's identifiers, semantic versions, BCP 47 tags.
    @Test(arguments: [
        #"^(?!\s*[sS][yY][sS][tT][eE][mM]\$).*$"#, #"^([01]\d|2[0-3]):?([0-5]\d)$"#, #"^[A-Z]{3}-[0-9]{4}$"#,
        #"^(cus|acct)_[A-Za-z0-9]{14,24}$"#, #"^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$"#, #"^[a-z]{2,3}(-[A-Z]{2})?$"#,
        #"^[^@\s]+@[^@\s]+\.[a-z]{2,}$"#, #"^#[0-9a-fA-F]{6}$"#, #"^(?<owner>[\w.-]+)/(?<repo>[\w.-]+)$"#,
        #"^(?=.*[a-z])(?=.*[A-Z])(?=.*[0-9])"#, #"^(?=.*[A-Za-z])(?=.*\d)(?!.*\s).{8,64}$"#, #"[0-9]{5}"#,
        #"^\+?[1-9]\d{1,14}$"#, #"^[\u00C0-\u00FFa-z ]{3,12}$"#, #"^v[0-9]+(?:\.[0-9]+){0,2}$"#,
    ])
    func aPatternIsMet(pattern: String) {
        var schemas: [Schema] = [.string(pattern: pattern), .string(maxLength: 24, pattern: pattern)]
        // A password rule with its minimum length, as VideGreniers' `RegisterRequest` declares it.
        if pattern.contains("(?=") { schemas.append(.string(minLength: 8, pattern: pattern)) }
        for schema in schemas {
            for seed in UInt64(1)...40 {
                var generator = FixtureGenerator(seed: seed)
                let value = generator.value(for: schema, name: "code")
                #expect(Validator().validate(value, against: schema).isEmpty, "\(pattern) seed \(seed): \(value)")
            }
        }
    }

    /// Every format the validator knows is one generated values meet.
    @Test(arguments: [
        StringFormat.dateTime, .dateTimeWithoutFraction, .dateTimeWithFraction, .date, .time, .uuid, .objectId, .email,
        .uri, .integer, .ipv4, .ipv6, .datePattern("dd/MM/yyyy"),
    ])
    func aFormatIsMet(format: StringFormat) {
        for seed in UInt64(1)...20 {
            var generator = FixtureGenerator(seed: seed)
            let value = generator.value(for: .string(format: format), name: "value")
            #expect(format.matches(value.stringValue ?? ""), "\(format) seed \(seed): \(value)")
        }
    }

    /// A pattern the sampler cannot draw from leaves the value as it was, without trapping or hanging: a
    /// back-reference, groups nested 20,000 deep (read recursively, they would exhaust the stack), and repetitions
    /// nested 16 deep, whose one string is 3^16 characters long.
    @Test func aPatternItCannotDrawFromLeavesTheValue() {
        let nested = String(repeating: "(", count: 20_000) + "a" + String(repeating: ")", count: 20_000)
        let multiplied = String(repeating: "(", count: 16) + "a" + String(repeating: "){3}", count: 16)
        for pattern in [#"^(a+)\1$"#, nested, multiplied] {
            var generator = FixtureGenerator(seed: 3)
            #expect(generator.value(for: .string(pattern: pattern), name: "code").stringValue?.isEmpty == false)
        }
    }

    @Test func sameSeedSameBytesOtherSeedOtherBytes() throws {
        let first = try generate(seed: 7, settings: .plain).0.serialized()
        #expect(first == (try generate(seed: 7, settings: .plain).0.serialized()))
        #expect(first != (try generate(seed: 8, settings: .plain).0.serialized()))
    }

    @Test func pinnedOutputForOneSeed() throws {
        let schema: Schema = .object([
            Property("email", .string(format: .email)), Property("id", .string(format: .uuid)),
            Property("level", .string(values: ["a", "b", "c"])), Property("at", .string(format: .dateTimeWithFraction)),
        ])
        var generator = FixtureGenerator(seed: 42)
        let value = generator.value(for: schema)
        #expect(
            value.serialized()
                == #"{"at":"2025-12-08T20:00:00.000Z","email":"emma.dubois@example.com","id":"5294f206-5da4-45ae-bfbe-e6b7dcf2751d","level":"a"}"#
        )
        #expect(StringFormat.dateTimeWithFraction.matches(value["at"]?.stringValue ?? ""))
    }
}
