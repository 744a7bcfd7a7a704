import UnderstudyCore

extension Apinest {
    /// The achievements guide's helper that decodes "any JSON" inside notification metadata.
    ///
    /// It stores a ``JSONValue`` where the document stores `Any`, and tries the document's types in the
    /// document's order: `Bool`, `Int`, `Double`, `String`, an array, an object. `null` is none of them, so it
    /// fails, and with it the whole `metadata` that contains it.
    public struct AnyCodable: Codable, Sendable, Hashable {
        public let value: JSONValue

        public init(_ value: JSONValue) {
            self.value = value
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()

            if let bool = try? container.decode(Bool.self) {
                value = .bool(bool)
            } else if let int = try? container.decode(Int.self) {
                value = .integer(int)
            } else if let double = try? container.decode(Double.self) {
                value = .double(double)
            } else if let string = try? container.decode(String.self) {
                value = .string(string)
            } else if let array = try? container.decode([AnyCodable].self) {
                value = .array(array.map { $0.value })
            } else if let dict = try? container.decode([String: AnyCodable].self) {
                value = .object(dict.mapValues { $0.value })
            } else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "Cannot decode AnyCodable")
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()

            switch value {
            case .bool(let bool):
                try container.encode(bool)
            case .number(let number):
                if let int = Int(number.literal) {
                    try container.encode(int)
                } else {
                    try container.encode(number.doubleValue ?? 0)
                }
            case .string(let string):
                try container.encode(string)
            case .array(let array):
                try container.encode(array.map { AnyCodable($0) })
            case .object(let dict):
                try container.encode(dict.mapValues { AnyCodable($0) })
            case .null:
                let context = EncodingError.Context(
                    codingPath: container.codingPath, debugDescription: "Cannot encode AnyCodable")
                throw EncodingError.invalidValue(value, context)
            }
        }
    }
}

extension Apinest.AnyCodable: SchemaProviding {
    /// Any JSON value but `null`, at every depth the schema can reach.
    ///
    /// A `SchemaProviding` schema cannot refer to itself (it gets no named definition), so the recursion is
    /// unrolled ``nestingDepth`` levels deep; below that, array elements and object members are `.any`.
    public static var jsonSchema: Schema { schema(nesting: nestingDepth) }

    public static var schemaPlaceholder: Apinest.AnyCodable { Apinest.AnyCodable(.bool(false)) }

    /// How many levels of nested arrays and objects the schema checks for `null`.
    static let nestingDepth = 3

    /// `Bool` or a number (`Int` and `Double` both accept integers, so one `number` keeps the alternatives
    /// disjoint), a string, or an array or object of values one level less deep.
    static func schema(nesting depth: Int) -> Schema {
        let element: Schema = depth > 1 ? schema(nesting: depth - 1) : .any
        return .oneOf([.boolean, .number(), .string(), .array(element), .map(element)])
    }
}
