import Testing
import UnderstudyCore

struct JSONParserTests {
    @Test func keepsIntegerAndFractionalNumbersApart() throws {
        let value = try JSONValue(parsing: #"{"a": 1, "b": 1.0, "c": 2.00, "d": -0.5e3, "e": 12345678901234567890}"#)
        #expect(value["a"]?.kind == .integer)
        #expect(value["b"]?.kind == .number)
        #expect(value["c"]?.numberLiteral == "2.00")
        #expect(value["d"]?.numberLiteral == "-0.5e3")
        #expect(value["e"]?.numberLiteral == "12345678901234567890")
        #expect(value["b"]?.numberValue?.isIntegral == true)
    }

    @Test func nullIsAValueAndAbsentIsNot() throws {
        let value = try JSONValue(parsing: #"{"note": null}"#)
        #expect(value["note"] == .null)
        #expect(value["missing"] == nil)
    }

    @Test func decodesEscapesAndUnicodeExactly() throws {
        let value = try JSONValue(parsing: #"["a\"b\\c\/\n\t", "\u00e9\ud83d\ude00", "Brocante 🏛️"]"#)
        #expect(value[0] == .string("a\"b\\c/\n\t"))
        #expect(value[1] == .string("é😀"))
        #expect(value[2] == .string("Brocante 🏛️"))
    }

    @Test func serializesCanonicallyWithSortedKeys() throws {
        let value = try JSONValue(parsing: #"{"b": [1, 2.50, true, null], "a": {"z": "\u0001", "y": "é"}}"#)
        #expect(value.serialized() == #"{"a":{"y":"é","z":"\u0001"},"b":[1,2.50,true,null]}"#)
        #expect(try JSONValue(parsing: value.serialized(.pretty)) == value)
    }

    @Test(arguments: [
        ("", "no JSON value: the input is empty"),
        ("{\"a\": 1", "unexpected end of input at byte 7: the JSON text is truncated"),
        ("[1, 2", "unexpected end of input at byte 5: the JSON text is truncated"),
        ("{\"a\" 1}", "unexpected '1' at byte 5"),
        ("[1,]", "unexpected ']' at byte 3"),
        ("tru", "unexpected end of input at byte 3: the JSON text is truncated"),
        ("nul!", "invalid literal at byte 0: expected true, false or null"),
        ("01", "unexpected data after the JSON value at byte 1"),
        ("-", "unexpected end of input at byte 1: the JSON text is truncated"),
        ("1.e5", "invalid number at byte 0"),
        ("\"a\\x\"", "invalid escape sequence in string at byte 2"),
        ("\"\\ud800\"", "invalid \\u escape in string at byte 1"),
        ("\"a\nb\"", "unescaped control character in string at byte 2"),
        ("<html>", "unexpected '<' at byte 0"),
        ("{} {}", "unexpected data after the JSON value at byte 3"),
    ])
    func reportsErrorsWithByteOffsets(input: String, message: String) {
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: input) }
        do {
            _ = try JSONValue(parsing: input)
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func rejectsInvalidUTF8WithItsOffset() {
        let bytes: [UInt8] = Array("[\"ok\", \"a".utf8) + [0xFF, 0xFE] + Array("\"]".utf8)
        do {
            _ = try JSONParser().parse(bytes)
            Issue.record("invalid UTF-8 was accepted")
        } catch {
            #expect(error.description == "invalid UTF-8 in string at byte 9")
        }
    }

    @Test func refusesDeepNestingWithoutCrashing() {
        let depth = 50_000
        let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        do {
            _ = try JSONValue(parsing: text)
            Issue.record("50,000 levels of nesting were accepted")
        } catch {
            #expect(error.description == "nesting deeper than 512 levels at byte 512")
        }
        let objects = String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth)
        #expect(throws: JSONParseError.self) { try JSONValue(parsing: objects) }
    }

    @Test func acceptsNestingUpToTheLimit() throws {
        let text = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        _ = try JSONValue(parsing: text)
    }

    @Test func jsonPointerEscapesAndOrders() {
        let pointer = JSONPointer.root.appending("a/b").appending("m~n").appending(3)
        #expect(pointer.description == "/a~1b/m~0n/3")
        #expect(JSONPointer(pointer.description) == pointer)
        #expect(JSONPointer.root.displayString == "/")
        #expect(JSONPointer("/data/2") < JSONPointer("/data/10"))
    }
}
