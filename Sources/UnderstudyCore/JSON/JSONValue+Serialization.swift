extension JSONValue {
    /// How ``JSONValue/serialized(_:)`` lays out its output.
    public struct SerializationOptions: Sendable, Hashable {
        /// Indents nested values by two spaces and puts each member on its own line.
        public var prettyPrinted: Bool

        /// Compact output (object keys are always sorted).
        public static let compact = SerializationOptions(prettyPrinted: false)
        /// Two-space indented output (object keys are always sorted).
        public static let pretty = SerializationOptions(prettyPrinted: true)
    }

    /// The JSON text of this value, object keys sorted, number literals unchanged.
    ///
    /// The same value always gives the same bytes, which makes the output fit for golden files.
    public func serialized(_ options: SerializationOptions = .compact) -> String {
        var output = ""
        write(to: &output, options: options, indent: 0)
        if options.prettyPrinted { output.append("\n") }
        return output
    }

    /// The UTF-8 bytes of ``serialized(_:)``.
    public func serializedBytes(_ options: SerializationOptions = .compact) -> [UInt8] {
        Array(serialized(options).utf8)
    }

    private func write(to output: inout String, options: SerializationOptions, indent: Int) {
        switch self {
        case .null: output.append("null")
        case .bool(let bool): output.append(bool ? "true" : "false")
        case .number(let number): output.append(number.literal)
        case .string(let string): Self.writeString(string, to: &output)
        case .array(let elements):
            if elements.isEmpty {
                output.append("[]")
                return
            }
            output.append("[")
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(",") }
                Self.newline(&output, options: options, indent: indent + 1)
                element.write(to: &output, options: options, indent: indent + 1)
            }
            Self.newline(&output, options: options, indent: indent)
            output.append("]")
        case .object(let members):
            if members.isEmpty {
                output.append("{}")
                return
            }
            output.append("{")
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { output.append(",") }
                Self.newline(&output, options: options, indent: indent + 1)
                Self.writeString(key, to: &output)
                output.append(options.prettyPrinted ? ": " : ":")
                members[key]!.write(to: &output, options: options, indent: indent + 1)
            }
            Self.newline(&output, options: options, indent: indent)
            output.append("}")
        }
    }

    private static func newline(_ output: inout String, options: SerializationOptions, indent: Int) {
        guard options.prettyPrinted else { return }
        output.append("\n")
        output.append(String(repeating: "  ", count: indent))
    }

    private static func writeString(_ string: String, to output: inout String) {
        output.append("\"")
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output.append("\\\"")
            case "\\": output.append("\\\\")
            case "\n": output.append("\\n")
            case "\r": output.append("\\r")
            case "\t": output.append("\\t")
            case "\u{08}": output.append("\\b")
            case "\u{0C}": output.append("\\f")
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16, uppercase: false)
                output.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
            default: output.unicodeScalars.append(scalar)
            }
        }
        output.append("\"")
    }
}

extension JSONValue: CustomStringConvertible {
    public var description: String { serialized() }
}

extension JSONValue: Codable {
    /// Decodes any JSON value; numbers that decode as `Int` stay integers.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let int = try? container.decode(Int.self) {
            self = .integer(int)
        } else if let double = try? container.decode(Double.self) {
            self = .double(double)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else if let object = try? container.decode([String: JSONValue].self) {
            self = .object(object)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Expected a JSON value.")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let bool): try container.encode(bool)
        case .number(let number):
            if let int = Int(number.literal) {
                try container.encode(int)
            } else {
                try container.encode(number.doubleValue ?? 0)
            }
        case .string(let string): try container.encode(string)
        case .array(let array): try container.encode(array)
        case .object(let object): try container.encode(object)
        }
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
