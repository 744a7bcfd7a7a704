import Testing
import UnderstudyCore

struct ValidatorTests {
    let definitions: SchemaDefinitions = [
        "Creator": .object([Property("_id", .string(format: .objectId)), Property("name", .string())]),
        "Activity": .object([
            Property("_id", .string()),
            Property("title", .string(minLength: 3, maxLength: 10)),
            Property("participants", .integer(minimum: 1, maximum: 50)),
            Property("distance", .nullable(.number(minimum: 0)), required: false),
            Property("level", .string(values: ["Beginner", "Intermediate"])),
            Property("status", .integer(values: [0, 1, 2])),
            Property("startDate", .string(format: .dateTimeWithoutFraction)),
            Property("creator", .ref("Creator")),
            Property("tags", .array(.string(), maxItems: 2)),
            Property("isCompleted", .boolean),
        ]),
    ]

    func findings(_ json: String, _ schema: Schema = .ref("Activity")) throws -> [String] {
        Validator(definitions: definitions).validate(try JSONValue(parsing: json), against: schema).map {
            "\($0.severity) \($0.rule) \($0.summary)"
        }
    }

    /// JSON Schema's `pattern` is unanchored (a match anywhere), in ECMA-262 syntax; lookaheads are read.
    @Test func patternsMatchAnywhereUnlessAnchored() throws {
        let password = Schema.string(pattern: "^(?=.*[a-z])(?=.*[A-Z])(?=.*[0-9])")
        #expect(try findings(#""Passw0rd""#, password) == [])
        #expect(
            try findings(#""password1""#, password) == [
                #"error schema.pattern /: expected a string matching ^(?=.*[a-z])(?=.*[A-Z])(?=.*[0-9]), found "password1""#
            ])
        #expect(try findings(#"" x ""#, .string(pattern: #"\S"#)) == [])
        #expect(try findings(#""   ""#, .string(pattern: #"\S"#)).count == 1)
        // A pattern that does not compile refuses nothing.
        #expect(try findings(#""x""#, .string(pattern: "([")) == [])
        // ECMA-262's `.` crosses a form feed or a vertical tab (ICU's does not), and its `$` is the end of the input
        // (ICU's also matches before a final line break). Schemathesis found the first on the password pattern.
        #expect(try findings(#""a\fB1""#, password) == [])
        #expect(try findings(#""a\u000bB1""#, .string(pattern: "^a.B1$")) == [])
        #expect(try findings(#""123\n""#, .string(pattern: "^[0-9]+$")).count == 1)
        // A dot in a class or escaped stays a dot.
        #expect(try findings(#""a.b""#, .string(pattern: #"^a[.]b\.?$"#)) == [])
        #expect(try findings(#""axb""#, .string(pattern: #"^a[.]b$"#)).count == 1)
    }

    /// Rules between properties: checked only between present, non-null values of the right types.
    /// The patterns exported beside the date-time formats, for tools that do not know the formats (Schemathesis
    /// generates from them), admit the dates the formats admit: no June 31, February 29 in leap years only.
    @Test func dateTimePatternsAdmitTheDatesTheirFormatsAdmit() throws {
        let days = [
            "2025-06-30", "2025-06-31", "2025-07-31", "2024-02-29", "2025-02-29", "2000-02-29", "1900-02-29",
            "2025-00-10", "2025-12-32",
        ]
        for format in [StringFormat.dateTimeWithoutFraction, .dateTimeWithFraction] {
            let pattern = try #require(format.pattern)
            for day in days {
                let sample = day + (format == .dateTimeWithFraction ? "T23:59:59.5+02:00" : "T23:59:59+02:00")
                let admitted = Validator().validate(.string(sample), against: .string(pattern: pattern)).isEmpty
                #expect(admitted == format.matches(sample), "\(format) \(sample)")
            }
        }
        #expect(StringFormat.dateTimeWithoutFraction.matches("2025-06-31T00:00:00Z") == false)
    }

    /// Every year an ISO 8601 date can write, 0001 to 9999, in the proleptic Gregorian calendar (RFC 3339 5.7):
    /// February 29 exists in leap years only, February 28 and March 1 in every year; the formats, the patterns
    /// exported beside them and the date patterns (`yyyy-MM-dd`) agree on all of them.
    @Test func everyYearFrom1To9999HasItsLeapDayAndNoOther() throws {
        func matcher(_ pattern: String?) throws -> (String) -> Bool {
            let schema = Schema.string(pattern: try #require(pattern))
            return { Validator().validate(.string($0), against: schema).isEmpty }
        }
        let day = try matcher("^\(StringFormat.dayExpression)$")
        let withoutFraction = try matcher(StringFormat.dateTimeWithoutFraction.pattern)
        let withFraction = try matcher(StringFormat.dateTimeWithFraction.pattern)
        let datePattern = StringFormat.datePattern("yyyy-MM-dd")
        var disagreements: [String] = []
        for year in 1...9999 {
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            let yyyy = String(repeating: "0", count: 4 - String(year).count) + String(year)
            for (date, exists) in [("\(yyyy)-02-29", leap), ("\(yyyy)-02-28", true), ("\(yyyy)-03-01", true)] {
                let verdicts = [
                    "date": StringFormat.date.matches(date),
                    "date-time": StringFormat.dateTime.matches(date + "T00:00:00Z"),
                    "date-time without fraction": StringFormat.dateTimeWithoutFraction.matches(date + "T00:00:00Z"),
                    "date-time with fraction": StringFormat.dateTimeWithFraction.matches(date + "T00:00:00.000Z"),
                    "day expression": day(date),
                    "pattern without fraction": withoutFraction(date + "T00:00:00Z"),
                    "pattern with fraction": withFraction(date + "T00:00:00.000Z"),
                    "date pattern yyyy-MM-dd": datePattern.matches(date),
                ]
                for (name, admitted) in verdicts.sorted(by: { $0.key < $1.key }) where admitted != exists {
                    disagreements.append("\(name) \(admitted ? "admits" : "refuses") \(date)")
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count): \(disagreements.prefix(12))")
    }

    /// minLength and maxLength count code points, as JSON Schema does (draft 2020-12 validation, 6.3): a letter with
    /// a skin-tone modifier or a combining accent is two, though Swift's `String.count` sees one grapheme.
    @Test func lengthsCountCodePoints() throws {
        let schema = Schema.string(minLength: 2, maxLength: 2)
        for text in ["G\u{1F3FB}", "e\u{301}", "ab"] {
            #expect(Validator().validate(.string(text), against: schema).isEmpty, "\(text)")
        }
        #expect(Validator().validate(.string("\u{1F3FB}"), against: schema).map(\.message) == ["expected at least 2 characters, found 1"])
    }

    @Test func objectRulesRelateProperties() throws {
        var event = ObjectSchema(properties: [
            Property("startDate", .string(format: .dateTime)),
            Property("endDate", .string(format: .dateTime)),
            Property("amount", .nullable(.number()), required: false),
            Property("currency", .nullable(.string()), required: false),
            Property("early", .boolean, required: false),
            Property("earlyTime", .nullable(.string()), required: false),
        ])
        event.rules = [
            .after("endDate", "startDate"), .requires("amount", ["currency"]), .requires("early", ["earlyTime"]),
        ]
        let schema = Schema.object(event)
        let valid = #"{"startDate": "2025-11-15T10:00:00+02:00", "endDate": "2025-11-15T09:00:00Z", "early": false}"#
        #expect(try findings(valid, schema) == [])
        #expect(
            try findings(#"{"startDate": "2025-11-15T10:00:00Z", "endDate": "2025-11-15T10:00:00Z"}"#, schema) == [
                #"error schema.object-rule /endDate: expected a value after startDate (string "2025-11-15T10:00:00Z"), found string "2025-11-15T10:00:00Z""#
            ])
        #expect(
            try findings(
                #"{"startDate": "2025-11-15T00:00:00Z", "endDate": "2025-11-16T00:00:00Z", "amount": 5, "currency": null, "early": true}"#,
                schema) == [
                    "error schema.object-rule /currency: required when amount is set (expected a value)",
                    "error schema.object-rule /earlyTime: required when early is set (expected a value)",
                ])
        // A wrong type is its property's finding, not the rule's.
        #expect(try findings(#"{"startDate": 1, "endDate": "2025-11-15T10:00:00Z"}"#, schema).count == 1)
        #expect(ObjectRule(json: ObjectRule.requires("amount", ["currency"]).json) == .requires("amount", ["currency"]))
    }

    @Test func aConformingBodyHasNoFindings() throws {
        let body = #"""
            {"_id": "a1", "title": "Run", "participants": 10, "level": "Beginner", "status": 1,
             "startDate": "2025-11-15T14:30:00Z", "creator": {"_id": "65a1b2c3d4e5f6a7b8c9d0e1", "name": "Jo"},
             "tags": [], "isCompleted": false}
            """#
        #expect(try findings(body) == [])
    }

    @Test func reportsEveryViolationWithPointerAndRule() throws {
        let body = #"""
            {"_id": 12, "title": "Go", "participants": 0, "distance": -1.5, "level": "Expert", "status": 4,
             "startDate": "2025-11-15T14:30:00.000Z", "creator": {"_id": "65a1b2c3d4e5f6g7h8i9j0k1", "name": null},
             "tags": ["a", "b", 3], "surprise": {"x": 1}}
            """#
        #expect(
            try findings(body) == [
                "error schema.type-mismatch /_id: expected string, found integer 12",
                "error schema.min-length /title: expected at least 3 characters, found 2",
                "error schema.minimum /participants: expected at least 1, found 0",
                "error schema.minimum /distance: expected at least 0, found -1.5",
                #"error schema.enum-unknown /level: expected one of "Beginner", "Intermediate", found "Expert""#,
                "error schema.enum-unknown /status: expected one of 0, 1, 2, found 4",
                #"error schema.format-mismatch /startDate: expected string in date-time-no-fraction format, found "2025-11-15T14:30:00.000Z""#,
                #"error schema.format-mismatch /creator/_id: expected string in objectid format, found "65a1b2c3d4e5f6g7h8i9j0k1""#,
                "error schema.null-not-allowed /creator/name: expected string, found null; the model's property is not optional",
                "error schema.max-items /tags: expected at most 2 elements, found 3",
                "error schema.type-mismatch /tags/2: expected string, found integer 3",
                "error schema.required-missing /isCompleted: required property is missing (expected boolean)",
                "note schema.unknown-property /surprise: property is not in the model; JSONDecoder ignores it",
            ])
    }

    @Test func nullAndAbsentAreDifferent() throws {
        let schema: Schema = .object([
            Property("optional", .nullable(.string()), required: false),
            Property("requiredNullable", .nullable(.string())),
            Property("required", .string()),
        ])
        #expect(try findings(#"{"optional": null, "requiredNullable": null, "required": "x"}"#, schema) == [])
        #expect(
            try findings(#"{"required": null}"#, schema) == [
                "error schema.required-missing /requiredNullable: required property is missing (expected string or null)",
                "error schema.null-not-allowed /required: expected string, found null; the model's property is not optional",
            ])
    }

    @Test func integersMayBeWrittenWithAZeroFraction() throws {
        #expect(try findings("2.0", .integer()) == [])
        #expect(try findings("2.5", .integer()) == ["error schema.type-mismatch /: expected integer, found number 2.5"])
        #expect(
            try findings("\"2\"", .integer()) == [#"error schema.type-mismatch /: expected integer, found string "2""#])
    }

    /// One past `Int64.min` rounds to `Int64.min` as a `Double`; Schemathesis sent it and the mock stored it.
    @Test func integersJustBeyondInt64AreOutOfRange() throws {
        #expect(try findings("-9223372036854775808", .integer()) == [])
        #expect(
            try findings("-9223372036854775809", .integer()) == [
                "error schema.minimum /: -9223372036854775809 is out of range for a 64-bit integer"
            ])
        #expect(
            try findings("9223372036854775808", .integer()) == [
                "error schema.maximum /: 9223372036854775808 is out of range for a 64-bit integer"
            ])
        #expect(try findings("9.2e18", .integer()) == [])
    }

    /// A million members a model does not declare, or a map of a million bad entries, are one merged finding each
    /// (as the elements of a list are), not a million: `check` keeps its memory and its report readable.
    @Test func mergedFindingsCountMapEntriesAndUndeclaredMembers() throws {
        let count = 100_000
        var members: [String: JSONValue] = ["name": "Ada"]
        for index in 0..<count { members["x" + String(1_000_000 + index).dropFirst()] = .integer(index) }
        let model = Schema.object([Property("name", .string())])
        let undeclared = Validator().validate(.object(members), against: model, mergingRepeats: true)
        #expect(undeclared.map(\.rule) == [.unknownProperty])
        #expect(undeclared.first?.occurrences == count)
        #expect(undeclared.first?.pointer.description == "/x000000")

        let map = Schema.map(MapSchema(keys: .string(format: .date), values: .integer()))
        let entries = Validator().validate(.object(members), against: map, mergingRepeats: true)
        #expect(entries.map(\.rule) == [.invalidKey, .typeMismatch])
        #expect(entries.map(\.occurrences) == [count + 1, 1])
        #expect(entries.map(\.pointer.description) == ["/name", "/name"])
    }

    @Test func mapsPairsAndAlternatives() throws {
        let map: Schema = .map(MapSchema(keys: .string(format: .uuid), values: .boolean))
        #expect(
            try findings(#"{"123e4567-e89b-12d3-a456-426614174000": true, "nope": "yes"}"#, map) == [
                #"error schema.invalid-key /nope: key "nope" is not a valid string in uuid format"#,
                #"error schema.type-mismatch /nope: expected boolean, found string "yes""#,
            ])
        let pairs: Schema = .pairs(key: .integer(values: [0, 1]), value: .integer())
        #expect(
            try findings("[0, 4, 5]", pairs) == [
                "error schema.pairs-odd-count /: expected an even number of elements (key, value, key, value, ...), found 3",
                "error schema.enum-unknown /2: expected one of 0, 1, found 5",
            ])
        let either: Schema = .oneOf([.boolean, .string()])
        #expect(try findings("true", either) == [])
        #expect(try findings("1", either) == ["error schema.one-of /: expected boolean or string, found integer 1"])
    }

    /// Every schema a validator is asked about joins one registry that only grows: one compiled early is judged the
    /// same once others joined it, and each is compiled once.
    @Test func schemasCompiledLaterLeaveEarlierOnesIntact() throws {
        let validator = Validator(definitions: definitions)
        let first = Schema.array(.ref("Activity"), maxItems: 1)
        let before = validator.validate([[:], [:]], against: first).map(\.summary)
        #expect(before.first == "/: expected at most 1 element, found 2")
        for bound in 0..<20 { _ = validator.validate(.integer(bound), against: .integer(maximum: bound)) }
        #expect(validator.validate([[:], [:]], against: first).map(\.summary) == before)
        #expect(validator.validate(3, against: .integer(maximum: 2)).map(\.summary) == ["/: expected at most 2, found 3"])
    }

    @Test func forbiddenAdditionalPropertiesAreErrors() throws {
        let schema: Schema = .object([Property("a", .string())], additionalProperties: .forbidden)
        #expect(
            try findings(#"{"a": "x", "b": 1}"#, schema) == [
                "error schema.additional-property /b: property is not allowed here"
            ])
    }

    @Test func unresolvedReferencesAreReportedNotCrashed() throws {
        #expect(
            try findings("{}", .ref("Missing")) == [
                "error schema.unresolved-reference /: the schema refers to Missing, which is not defined"
            ])
    }

    @Test(arguments: [
        (StringFormat.dateTime, "2025-11-15T14:30:00Z", true), (.dateTime, "2025-11-15T14:30:00.123+02:00", true),
        (.dateTime, "2025-11-15 14:30:00", false), (.dateTime, "2025-02-30T14:30:00Z", false),
        (.dateTimeWithoutFraction, "2025-11-15T14:30:00.000Z", false),
        (.dateTimeWithFraction, "2025-11-15T14:30:00Z", false),
        (.dateTimeWithFraction, "2025-11-15T14:30:00.000Z", true), (.date, "2024-02-29", true),
        (.date, "2023-02-29", false),
        (.time, "07:30:00", true), (.time, "12:00:00.123456", true), (.time, "24:00:00", false),
        (.uuid, "123E4567-E89B-12D3-A456-426614174000", true), (.uuid, "uuid", false),
        (.objectId, "65a1b2c3d4e5f6a7b8c9d0e1", true), (.objectId, "65a1b2c3d4e5f6g7h8i9j0k1", false),
        (.email, "john@example.com", true), (.email, "john@", false), (.uri, "https://example.com/a", true),
        (.uri, "/relative", false), (.integer, "42", true), (.integer, "4.2", false),
        (.datePattern("yyyy-MM-dd HH:mm"), "2025-11-15 14:30", true),
        // Zipkin's `Endpoint.ipv4`/`ipv6`: Schemathesis stored "delta" through the mock, which gave it back.
        (.ipv4, "192.168.0.1", true), (.ipv4, "256.1.1.1", false), (.ipv4, "01.2.3.4", false), (.ipv4, "delta", false),
        (.ipv4, "::1", false), (.ipv6, "2001:db8::7", true), (.ipv6, "::1", true), (.ipv6, "::ffff:192.0.2.1", true),
        (.ipv6, "2001:db8:::7", false), (.ipv6, "192.0.2.1", false), (.ipv6, "delta", false),
    ])
    func formats(format: StringFormat, text: String, matches: Bool) {
        #expect(format.matches(text) == matches)
    }
}
