/// Parses JSON text (RFC 8259) into a ``JSONValue``, keeping number literals exactly.
///
/// Errors carry the byte offset where parsing stopped. Nesting is limited (512 levels by default,
/// as `JSONDecoder` does) so hostile input cannot exhaust the stack.
public struct JSONParser: Sendable {
    /// Arrays and objects nested deeper than this are rejected.
    public var maximumDepth: Int

    /// Creates a parser.
    /// - Parameter maximumDepth: the deepest nesting of arrays and objects accepted.
    public init(maximumDepth: Int = 512) {
        self.maximumDepth = maximumDepth
    }

    /// Parses a complete JSON text.
    /// - Throws: ``JSONParseError`` with the byte offset of the problem.
    public func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        let result: Result<JSONValue, JSONParseError>? = bytes.withContiguousStorageIfAvailable { buffer in
            parse(buffer: UnsafeRawBufferPointer(buffer))
        }
        if let result { return try result.get() }
        let array = Array(bytes)
        return try array.withUnsafeBytes { parse(buffer: $0) }.get()
    }

    /// Parses a complete JSON text given as a string.
    public func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    private func parse(buffer: UnsafeRawBufferPointer) -> Result<JSONValue, JSONParseError> {
        var reader = Reader(bytes: buffer, maximumDepth: maximumDepth)
        do throws(JSONParseError) {
            reader.skipWhitespace()
            if reader.offset == buffer.count { throw JSONParseError(.emptyInput, offset: 0) }
            let value = try reader.parseValue(depth: 0)
            reader.skipWhitespace()
            if reader.offset != buffer.count {
                throw JSONParseError(.trailingCharacters, offset: reader.offset)
            }
            return .success(value)
        } catch {
            return .failure(error)
        }
    }
}

extension JSONValue {
    /// Parses JSON text.
    /// - Throws: ``JSONParseError`` with the byte offset of the problem.
    public init(parsing text: String) throws(JSONParseError) {
        self = try JSONParser().parse(text)
    }

    /// Parses JSON bytes.
    /// - Throws: ``JSONParseError`` with the byte offset of the problem.
    public init(parsing bytes: some Collection<UInt8>) throws(JSONParseError) {
        self = try JSONParser().parse(bytes)
    }
}

/// Why JSON text could not be parsed, and where.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    enum Reason: Sendable, Hashable {
        case emptyInput
        case unexpectedEnd
        case unexpectedByte(UInt8)
        case invalidLiteral
        case invalidNumber
        case invalidEscape
        case invalidUnicodeEscape
        case controlCharacterInString
        case invalidUTF8
        case tooDeep(Int)
        case trailingCharacters
    }

    let reason: Reason
    /// The byte offset, from 0, where parsing stopped.
    public let offset: Int

    init(_ reason: Reason, offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    public var description: String {
        switch reason {
        case .emptyInput: "no JSON value: the input is empty"
        case .unexpectedEnd: "unexpected end of input at byte \(offset): the JSON text is truncated"
        case .unexpectedByte(let byte): "unexpected \(Self.describe(byte)) at byte \(offset)"
        case .invalidLiteral: "invalid literal at byte \(offset): expected true, false or null"
        case .invalidNumber: "invalid number at byte \(offset)"
        case .invalidEscape: "invalid escape sequence in string at byte \(offset)"
        case .invalidUnicodeEscape: "invalid \\u escape in string at byte \(offset)"
        case .controlCharacterInString: "unescaped control character in string at byte \(offset)"
        case .invalidUTF8: "invalid UTF-8 in string at byte \(offset)"
        case .tooDeep(let limit): "nesting deeper than \(limit) levels at byte \(offset)"
        case .trailingCharacters: "unexpected data after the JSON value at byte \(offset)"
        }
    }

    private static func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }
}

private struct Reader {
    let bytes: UnsafeRawBufferPointer
    let maximumDepth: Int
    var offset = 0

    init(bytes: UnsafeRawBufferPointer, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x0A, 0x0D, 0x09: offset += 1
            default: return
            }
        }
    }

    @inline(__always)
    func peek() throws(JSONParseError) -> UInt8 {
        guard offset < bytes.count else { throw JSONParseError(.unexpectedEnd, offset: offset) }
        return bytes[offset]
    }

    mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        let byte = try peek()
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw JSONParseError(.unexpectedByte(byte), offset: offset)
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let start = offset
        let count = literal.utf8CodeUnitCount
        guard bytes.count - offset >= count else {
            // A prefix of the literal at the very end is a truncation, anything else a bad literal.
            let available = bytes.count - offset
            for index in 0..<available where bytes[offset + index] != literal.utf8Start[index] {
                throw JSONParseError(.invalidLiteral, offset: start)
            }
            throw JSONParseError(.unexpectedEnd, offset: bytes.count)
        }
        for index in 0..<count where bytes[offset + index] != literal.utf8Start[index] {
            throw JSONParseError(.invalidLiteral, offset: start)
        }
        offset += count
    }

    mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        if depth > maximumDepth { throw JSONParseError(.tooDeep(maximumDepth), offset: offset) }
        offset += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") {
            offset += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            let byte = try peek()
            guard byte == UInt8(ascii: "\"") else { throw JSONParseError(.unexpectedByte(byte), offset: offset) }
            let key = try parseString()
            skipWhitespace()
            let colon = try peek()
            guard colon == UInt8(ascii: ":") else { throw JSONParseError(.unexpectedByte(colon), offset: offset) }
            offset += 1
            skipWhitespace()
            members[key] = try parseValue(depth: depth)
            skipWhitespace()
            let next = try peek()
            offset += 1
            switch next {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "}"): return .object(members)
            default: throw JSONParseError(.unexpectedByte(next), offset: offset - 1)
            }
        }
    }

    mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        if depth > maximumDepth { throw JSONParseError(.tooDeep(maximumDepth), offset: offset) }
        offset += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if try peek() == UInt8(ascii: "]") {
            offset += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            let next = try peek()
            offset += 1
            switch next {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "]"): return .array(elements)
            default: throw JSONParseError(.unexpectedByte(next), offset: offset - 1)
            }
        }
    }

    mutating func parseNumber() throws(JSONParseError) -> JSONNumber {
        let start = offset
        if bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        guard offset < bytes.count else { throw JSONParseError(.unexpectedEnd, offset: offset) }
        if bytes[offset] == UInt8(ascii: "0") {
            offset += 1
        } else if isDigit(bytes[offset]) {
            while offset < bytes.count && isDigit(bytes[offset]) { offset += 1 }
        } else {
            throw JSONParseError(.invalidNumber, offset: start)
        }
        if offset < bytes.count && bytes[offset] == UInt8(ascii: ".") {
            offset += 1
            guard offset < bytes.count else { throw JSONParseError(.unexpectedEnd, offset: offset) }
            guard isDigit(bytes[offset]) else { throw JSONParseError(.invalidNumber, offset: start) }
            while offset < bytes.count && isDigit(bytes[offset]) { offset += 1 }
        }
        if offset < bytes.count && (bytes[offset] == UInt8(ascii: "e") || bytes[offset] == UInt8(ascii: "E")) {
            offset += 1
            if offset < bytes.count && (bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-")) {
                offset += 1
            }
            guard offset < bytes.count else { throw JSONParseError(.unexpectedEnd, offset: offset) }
            guard isDigit(bytes[offset]) else { throw JSONParseError(.invalidNumber, offset: start) }
            while offset < bytes.count && isDigit(bytes[offset]) { offset += 1 }
        }
        let literal = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
        return JSONNumber(uncheckedLiteral: literal)
    }

    @inline(__always)
    func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    mutating func parseString() throws(JSONParseError) -> String {
        offset += 1
        let start = offset
        // Fast path: no escapes, all ASCII or valid UTF-8.
        var sawNonASCII = false
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeRawBufferPointer(rebasing: bytes[start..<offset])
                offset += 1
                if !sawNonASCII { return String(decoding: slice, as: UTF8.self) }
                guard let string = String(validating: slice, as: UTF8.self) else {
                    throw JSONParseError(.invalidUTF8, offset: start + Self.firstInvalidUTF8(slice))
                }
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw JSONParseError(.controlCharacterInString, offset: offset) }
            if byte >= 0x80 { sawNonASCII = true }
            offset += 1
        }
        guard offset < bytes.count else { throw JSONParseError(.unexpectedEnd, offset: offset) }
        return try parseEscapedString(from: start)
    }

    private mutating func parseEscapedString(from start: Int) throws(JSONParseError) -> String {
        var scalars = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[start..<offset]))
        while offset < bytes.count {
            let byte = bytes[offset]
            switch byte {
            case UInt8(ascii: "\""):
                offset += 1
                guard let string = String(validating: scalars, as: UTF8.self) else {
                    throw JSONParseError(.invalidUTF8, offset: start)
                }
                return string
            case UInt8(ascii: "\\"):
                offset += 1
                guard offset < bytes.count else { throw JSONParseError(.unexpectedEnd, offset: offset) }
                let escape = bytes[offset]
                offset += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): scalars.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "/"): scalars.append(UInt8(ascii: "/"))
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    let scalar = try parseUnicodeEscape()
                    scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
                default: throw JSONParseError(.invalidEscape, offset: offset - 2)
                }
            default:
                if byte < 0x20 { throw JSONParseError(.controlCharacterInString, offset: offset) }
                scalars.append(byte)
                offset += 1
            }
        }
        throw JSONParseError(.unexpectedEnd, offset: offset)
    }

    private mutating func parseUnicodeEscape() throws(JSONParseError) -> Unicode.Scalar {
        let escapeStart = offset - 2
        let high = try parseHex4()
        if (0xD800..<0xDC00).contains(high) {
            // A high surrogate must be followed by `\u` and a low surrogate.
            guard offset < bytes.count else { throw JSONParseError(.unexpectedEnd, offset: bytes.count) }
            guard bytes[offset] == UInt8(ascii: "\\") else { throw JSONParseError(.invalidUnicodeEscape, offset: escapeStart) }
            guard offset + 1 < bytes.count else { throw JSONParseError(.unexpectedEnd, offset: bytes.count) }
            guard bytes[offset + 1] == UInt8(ascii: "u") else {
                throw JSONParseError(.invalidUnicodeEscape, offset: escapeStart)
            }
            offset += 2
            let low = try parseHex4()
            guard (0xDC00..<0xE000).contains(low) else { throw JSONParseError(.invalidUnicodeEscape, offset: escapeStart) }
            let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
            guard let scalar = Unicode.Scalar(value) else { throw JSONParseError(.invalidUnicodeEscape, offset: escapeStart) }
            return scalar
        }
        guard let scalar = Unicode.Scalar(high) else { throw JSONParseError(.invalidUnicodeEscape, offset: escapeStart) }
        return scalar
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard bytes.count - offset >= 4 else { throw JSONParseError(.unexpectedEnd, offset: bytes.count) }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[offset]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONParseError(.invalidUnicodeEscape, offset: offset)
            }
            value = value << 4 | UInt32(digit)
            offset += 1
        }
        return value
    }

    private static func firstInvalidUTF8(_ slice: UnsafeRawBufferPointer) -> Int {
        var index = 0
        while index < slice.count {
            let byte = slice[index]
            let length: Int
            switch byte {
            case 0x00..<0x80: length = 1
            case 0xC2..<0xE0: length = 2
            case 0xE0..<0xF0: length = 3
            case 0xF0..<0xF5: length = 4
            default: return index
            }
            guard index + length <= slice.count else { return index }
            if length > 1, String(validating: UnsafeRawBufferPointer(rebasing: slice[index..<index + length]), as: UTF8.self) == nil {
                return index
            }
            index += length
        }
        return index
    }
}

extension Collection<UInt8> {
    /// Whether the bytes are empty or only JSON whitespace (space, tab, CR, LF): a body with nothing in it.
    package var isBlankJSON: Bool {
        allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
    }
}
