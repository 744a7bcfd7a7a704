import Foundation

/// Infers the JSON schema of any `Decodable` type by running its `init(from:)` against a recording
/// decoder, following the rules `JSONDecoder` applies with the app's settings.
///
/// What it understands:
/// - `decodeIfPresent` (optional and nullable) versus `decode` (required, not nullable), including
///   `contains(_:)` and `decodeNil(forKey:)` checks in custom initialisers;
/// - nested and recursive types (every model becomes a named entry of ``definitions``, reached by
///   ``Schema/ref(_:)``), arrays, sets and optionals;
/// - dictionaries exactly as `JSONDecoder` reads them: `[String: T]` and `[Int: T]` as objects,
///   `CodingKeyRepresentable` keys as objects, any other key type (such as an `Int`-backed enum that
///   does not adopt `CodingKeyRepresentable`) as a flat `[key, value, key, value]` array;
/// - `Date` under the configured strategy, `Decimal`, `UUID`, `URL`, `Data`;
/// - enums that are `CaseIterable & RawRepresentable` (their raw values become the allowed values);
/// - ``SchemaProviding`` (a type states its schema) and ``SchemaRefining`` (a type adjusts the
///   inferred one: formats, ranges, optional keys hidden behind `try?`).
///
/// ```swift
/// var inference = SchemaInference(settings: DecoderSettings(dates: .iso8601))
/// let schema = try inference.schema(for: Badge.self)   // .ref("Badge")
/// inference.definitions["Badge"]                       // .object(...)
/// ```
public struct SchemaInference {
    private let context: InferenceContext

    /// Creates an inference following an API's decoder settings.
    public init(settings: DecoderSettings = .plain) {
        context = InferenceContext(dates: .settings(settings.dates), keys: settings.keys)
    }

    /// Creates an inference following any Foundation date strategy (`.custom` closures are run
    /// against the recording decoder to see what they read).
    public init(
        dateDecodingStrategy: JSONDecoder.DateDecodingStrategy,
        keys: DecoderSettings.KeyStrategy = .useDefaultKeys
    ) {
        context = InferenceContext(dates: .foundation(dateDecodingStrategy), keys: keys)
    }

    /// The named models inferred so far.
    public var definitions: SchemaDefinitions { context.definitions }

    /// The schema of `type`: a ``Schema/ref(_:)`` for models, an inline schema for primitives.
    /// - Throws: ``SchemaInferenceError`` when the type cannot be described.
    public mutating func schema<T: Decodable>(for type: T.Type) throws -> Schema {
        try context.schemaOnly(type)
    }

    /// The schema of `type` with every reference replaced by its definition (recursion stays a reference).
    public mutating func resolvedSchema<T: Decodable>(for type: T.Type) throws -> Schema {
        let schema = try context.schemaOnly(type)
        return schema.resolvingReferences(in: context.definitions)
    }

    /// The name a model gets in ``definitions``: its Swift name without module prefixes, with sugar
    /// for arrays, optionals and dictionaries (`ApiResponse<[EventDto]>`).
    public static func name(of type: Any.Type) -> String {
        TypeName.format(String(reflecting: type))
    }
}

/// Why a type's schema cannot be inferred.
public struct SchemaInferenceError: Error, Sendable, Hashable, CustomStringConvertible {
    public let description: String

    static func enumNeedsCases(_ name: String) -> SchemaInferenceError {
        SchemaInferenceError(
            description:
                "cannot infer \(name): a RawRepresentable enum must adopt CaseIterable (or SchemaProviding) so its values are known"
        )
    }

    static func recursion(_ name: String) -> SchemaInferenceError {
        SchemaInferenceError(
            description:
                "cannot infer \(name): it contains itself other than through Optional, Array or Dictionary; adopt SchemaProviding"
        )
    }

    static func noValue(_ name: String, _ error: any Error) -> SchemaInferenceError {
        SchemaInferenceError(
            description:
                "cannot infer \(name): its init(from:) threw while recording (\(error)); adopt SchemaProviding"
        )
    }
}

/// A type that states its own JSON schema instead of having it inferred (open JSON, custom wire formats).
public protocol SchemaProviding: Decodable {
    /// The schema of this type's JSON.
    static var jsonSchema: Schema { get }
    /// A value handed back to an `init(from:)` that decodes this type while being recorded.
    static var schemaPlaceholder: Self { get }
}

/// A type that adjusts the object schema inferred from its `init(from:)`.
///
/// ```swift
/// extension EventDto: SchemaRefining {
///     static func refineSchema(_ schema: inout ObjectSchema) {
///         schema.setFormat(.email, of: "contactEmail")
///     }
/// }
/// ```
public protocol SchemaRefining: Decodable {
    static func refineSchema(_ schema: inout ObjectSchema)
}

extension ObjectSchema {
    /// Applies `transform` to a property's schema inside any ``Schema/nullable(_:)`` wrapper.
    public mutating func refine(_ name: String, _ transform: (inout Schema) -> Void) {
        guard var property = self[name] else { preconditionFailure("no property \(name) to refine") }
        property.schema = property.schema.transformingNonNull(transform)
        self[name] = property
    }

    /// Sets the string format of a property (through `nullable` and arrays of strings).
    public mutating func setFormat(_ format: StringFormat, of name: String) {
        refine(name) { schema in schema = schema.settingFormat(format) }
    }

    /// Restricts a `String` property to documented values (through `nullable`).
    public mutating func setValues(_ values: [String], of name: String) {
        refine(name) { schema in
            guard case .string(var constraints) = schema else { preconditionFailure("\(name) is not a string") }
            constraints.values = values
            schema = .string(constraints)
        }
    }

    /// Gives a free `String` property the values it typically takes (through `nullable`), without restricting it.
    public mutating func suggest(_ examples: [String], for name: String) {
        refine(name) { schema in
            guard case .string(var constraints) = schema else { preconditionFailure("\(name) is not a string") }
            constraints.examples = examples
            schema = .string(constraints)
        }
    }

    /// Marks a property as optional and nullable (for keys decoded with `try?`).
    public mutating func makeOptional(_ name: String) {
        guard var property = self[name] else { preconditionFailure("no property \(name) to make optional") }
        property.required = false
        if !property.schema.acceptsNull { property.schema = .nullable(property.schema) }
        self[name] = property
    }
}

extension Schema {
    func transformingNonNull(_ transform: (inout Schema) -> Void) -> Schema {
        if case .nullable(let wrapped) = self { return .nullable(wrapped.transformingNonNull(transform)) }
        var copy = self
        transform(&copy)
        return copy
    }

    func settingFormat(_ format: StringFormat) -> Schema {
        switch self {
        case .string(var constraints):
            constraints.format = format
            return .string(constraints)
        case .nullable(let wrapped): return .nullable(wrapped.settingFormat(format))
        case .array(var array):
            array.items = array.items.settingFormat(format)
            return .array(array)
        default: preconditionFailure("format \(format) set on a non-string schema \(self)")
        }
    }

    /// Whether the schema contains `.ref(name)` anywhere (without following other references).
    public func references(_ name: String) -> Bool {
        switch self {
        case .ref(let reference): reference == name
        case .array(let array): array.items.references(name)
        case .object(let object):
            object.properties.contains { $0.schema.references(name) } || object.additionalProperties.references(name)
        case .map(let map): map.keys.references(name) || map.values.references(name)
        case .pairs(let key, let value): key.references(name) || value.references(name)
        case .oneOf(let alternatives): alternatives.contains { $0.references(name) }
        case .nullable(let wrapped): wrapped.references(name)
        case .any, .boolean, .integer, .number, .decimal, .string: false
        }
    }

    /// This schema with references replaced by definitions; a reference met again below itself stays.
    public func resolvingReferences(in definitions: SchemaDefinitions, visiting: Set<String> = []) -> Schema {
        switch self {
        case .ref(let name):
            guard !visiting.contains(name), let definition = definitions[name] else { return self }
            return definition.resolvingReferences(in: definitions, visiting: visiting.union([name]))
        case .array(var array):
            array.items = array.items.resolvingReferences(in: definitions, visiting: visiting)
            return .array(array)
        case .object(var object):
            for index in object.properties.indices {
                object.properties[index].schema = object.properties[index].schema.resolvingReferences(
                    in: definitions, visiting: visiting)
            }
            if case .typed(let values) = object.additionalProperties {
                object.additionalProperties = .typed(values.resolvingReferences(in: definitions, visiting: visiting))
            }
            return .object(object)
        case .map(var map):
            map.values = map.values.resolvingReferences(in: definitions, visiting: visiting)
            return .map(map)
        case .pairs(let key, let value):
            return .pairs(
                key: key.resolvingReferences(in: definitions, visiting: visiting),
                value: value.resolvingReferences(in: definitions, visiting: visiting))
        case .oneOf(let alternatives):
            return .oneOf(alternatives.map { $0.resolvingReferences(in: definitions, visiting: visiting) })
        case .nullable(let wrapped):
            return .nullable(wrapped.resolvingReferences(in: definitions, visiting: visiting))
        case .any, .boolean, .integer, .number, .decimal, .string:
            return self
        }
    }
}

// MARK: - Recording

final class InferenceContext {
    enum DateMode {
        case settings(DecoderSettings.DateStrategy)
        case foundation(JSONDecoder.DateDecodingStrategy)
    }

    let dates: DateMode
    let keys: DecoderSettings.KeyStrategy
    private(set) var definitions: SchemaDefinitions = [:]
    private var inProgress: Set<ObjectIdentifier> = []
    private var samples: [ObjectIdentifier: (schema: Schema, value: Any)] = [:]

    init(dates: DateMode, keys: DecoderSettings.KeyStrategy) {
        self.dates = dates
        self.keys = keys
    }

    /// The schema of `type`, without needing a value of it (recursion is allowed here).
    func schemaOnly<T: Decodable>(_ type: T.Type) throws -> Schema {
        if let special = type as? any InferenceSpecialCase.Type {
            return try special.inferSchema(in: self)
        }
        if inProgress.contains(ObjectIdentifier(type)) { return .ref(SchemaInference.name(of: type)) }
        return try schemaAndValue(type).schema
    }

    /// The schema of `type` and a value of it to hand back to the initialiser being recorded.
    func schemaAndValue<T: Decodable>(_ type: T.Type) throws -> (schema: Schema, value: T) {
        if let special = type as? any InferenceSpecialCase.Type {
            let schema = try special.inferSchema(in: self)
            return (schema, special.placeholder as! T)
        }
        if let primitive = try primitive(type) { return primitive }
        let id = ObjectIdentifier(type)
        if let sample = samples[id] { return (sample.schema, sample.value as! T) }
        let name = SchemaInference.name(of: type)
        if let provider = type as? any SchemaProviding.Type {
            var schema = provider.jsonSchema
            // A provided schema that refers to itself becomes a named definition so the reference resolves.
            if schema.references(name) {
                definitions[name] = schema
                schema = .ref(name)
            }
            let result = (schema: schema, value: provider.schemaPlaceholder as! T)
            samples[id] = result
            return result
        }
        if let enumeration = type as? any (CaseIterable & RawRepresentable).Type,
            let result = Self.enumSchema(enumeration)
        {
            samples[id] = (result.schema, result.value)
            return (result.schema, result.value as! T)
        }
        if type is any RawRepresentable.Type { throw SchemaInferenceError.enumNeedsCases(name) }
        guard !inProgress.contains(id) else { throw SchemaInferenceError.recursion(name) }

        inProgress.insert(id)
        defer { inProgress.remove(id) }
        let recorder = RecordingDecoder(context: self, codingPath: [])
        let value: T
        do {
            value = try T(from: recorder)
        } catch let error as SchemaInferenceError {
            throw error
        } catch {
            throw SchemaInferenceError.noValue(name, error)
        }
        var schema = recorder.recordedSchema()
        if let refining = type as? any SchemaRefining.Type, case .object(var object) = schema {
            refining.refineSchema(&object)
            schema = .object(object)
        }
        definitions[name] = schema
        samples[id] = (.ref(name), value)
        return (.ref(name), value)
    }

    private static func enumSchema<E: CaseIterable & RawRepresentable>(_ type: E.Type) -> (schema: Schema, value: Any)? {
        guard let first = type.allCases.first else { return nil }
        let raws = type.allCases.map(\.rawValue)
        if let strings = raws as? [String] { return (.string(values: strings), first) }
        if let ints = raws as? [Int] { return (.integer(values: ints), first) }
        return nil
    }

    /// Primitive types and the types `JSONDecoder` special-cases.
    private func primitive<T>(_ type: T.Type) throws -> (schema: Schema, value: T)? {
        func result(_ schema: Schema, _ value: Any) -> (schema: Schema, value: T) { (schema, value as! T) }
        switch type {
        case is String.Type: return result(.string(), "")
        case is Bool.Type: return result(.boolean, false)
        case is Int.Type: return result(.integer(), 0)
        case is Int8.Type: return result(.integer(minimum: Int(Int8.min), maximum: Int(Int8.max)), Int8(0))
        case is Int16.Type: return result(.integer(minimum: Int(Int16.min), maximum: Int(Int16.max)), Int16(0))
        case is Int32.Type: return result(.integer(minimum: Int(Int32.min), maximum: Int(Int32.max)), Int32(0))
        case is Int64.Type: return result(.integer(), Int64(0))
        case is UInt.Type: return result(.integer(minimum: 0), UInt(0))
        case is UInt8.Type: return result(.integer(minimum: 0, maximum: Int(UInt8.max)), UInt8(0))
        case is UInt16.Type: return result(.integer(minimum: 0, maximum: Int(UInt16.max)), UInt16(0))
        case is UInt32.Type: return result(.integer(minimum: 0, maximum: Int(UInt32.max)), UInt32(0))
        case is UInt64.Type: return result(.integer(minimum: 0), UInt64(0))
        case is Double.Type: return result(.number(), 0.0)
        case is Float.Type: return result(.number(), Float(0))
        case is Decimal.Type: return result(.decimal(), Decimal(0))
        case is UUID.Type: return result(.string(format: .uuid), UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        case is URL.Type: return result(.string(format: .uri), URL(string: "https://example.com")!)
        case is Data.Type: return result(.string(), Data())
        case is Date.Type: return result(try dateSchema(), Date(timeIntervalSinceReferenceDate: 0))
        default: return nil
        }
    }

    private func dateSchema() throws -> Schema {
        switch dates {
        case .settings(let strategy):
            switch strategy {
            case .deferredToDate, .secondsSince1970, .millisecondsSince1970: return .number()
            case .iso8601: return .string(format: .dateTimeWithoutFraction)
            case .iso8601WithFractionalSeconds: return .string(format: .dateTimeWithFraction)
            case .formatted(let pattern): return .string(format: .datePattern(pattern))
            }
        case .foundation(let strategy):
            switch strategy {
            case .deferredToDate, .secondsSince1970, .millisecondsSince1970: return .number()
            case .iso8601: return .string(format: .dateTimeWithoutFraction)
            // `.formatted(_:)` is a `.custom` closure on Linux: recording it shows the string it reads.
            case .custom(let closure):
                let recorder = RecordingDecoder(context: self, codingPath: [])
                _ = try? closure(recorder)
                return recorder.recordedSchema()
            @unknown default: return .any
            }
        }
    }

    /// The JSON key for a coding key under the key strategy.
    func wireKey(_ key: any CodingKey) -> String {
        keys == .convertFromSnakeCase ? TypeName.snakeCase(key.stringValue) : key.stringValue
    }
}

/// Types whose schema comes from their generic arguments, without calling `init(from:)`.
protocol InferenceSpecialCase {
    static func inferSchema(in context: InferenceContext) throws -> Schema
    static var placeholder: Self { get }
}

extension Optional: InferenceSpecialCase where Wrapped: Decodable {
    static func inferSchema(in context: InferenceContext) throws -> Schema {
        let wrapped = try context.schemaOnly(Wrapped.self)
        return wrapped.acceptsNull ? wrapped : .nullable(wrapped)
    }
    static var placeholder: Self { nil }
}

extension Array: InferenceSpecialCase where Element: Decodable {
    static func inferSchema(in context: InferenceContext) throws -> Schema {
        .array(try context.schemaOnly(Element.self))
    }
    static var placeholder: Self { [] }
}

extension Set: InferenceSpecialCase where Element: Decodable {
    static func inferSchema(in context: InferenceContext) throws -> Schema {
        .array(try context.schemaOnly(Element.self))
    }
    static var placeholder: Self { [] }
}

extension Dictionary: InferenceSpecialCase where Key: Decodable, Value: Decodable {
    static func inferSchema(in context: InferenceContext) throws -> Schema {
        let values = try context.schemaOnly(Value.self)
        if Key.self == String.self { return .map(MapSchema(keys: .string(), values: values)) }
        if Key.self == Int.self { return .map(MapSchema(keys: .string(format: .integer), values: values)) }
        if let representable = Key.self as? any CodingKeyRepresentable.Type {
            return .map(MapSchema(keys: codingKeySchema(representable), values: values))
        }
        return .pairs(key: try context.schemaOnly(Key.self), value: values)
    }

    private static func codingKeySchema(_ type: any CodingKeyRepresentable.Type) -> Schema {
        guard let enumeration = type as? any CaseIterable.Type else { return .string() }
        func keys<E: CaseIterable>(_ type: E.Type) -> [String] {
            type.allCases.compactMap { ($0 as? any CodingKeyRepresentable)?.codingKey.stringValue }
        }
        let names = keys(enumeration)
        return names.isEmpty ? .string() : .string(values: names)
    }

    static var placeholder: Self { [:] }
}

extension JSONValue: SchemaProviding {
    public static var jsonSchema: Schema { .any }
    public static var schemaPlaceholder: JSONValue { .null }
}

/// The decoder handed to `init(from:)` while recording.
private final class RecordingDecoder: Decoder {
    let context: InferenceContext
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    private var recorded: Recorded?

    enum Recorded {
        case keyed(KeyedRecording)
        case unkeyed(UnkeyedRecording)
        case single(SingleRecording)
    }

    init(context: InferenceContext, codingPath: [any CodingKey]) {
        self.context = context
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let recording: KeyedRecording
        if case .keyed(let existing) = recorded {
            recording = existing
        } else {
            recording = KeyedRecording(context: context)
            recorded = .keyed(recording)
        }
        return KeyedDecodingContainer(RecordingKeyedContainer<Key>(recording: recording, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let recording = UnkeyedRecording(context: context)
        recorded = .unkeyed(recording)
        return RecordingUnkeyedContainer(recording: recording, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        let recording = SingleRecording(context: context)
        recorded = .single(recording)
        return RecordingSingleValueContainer(recording: recording, codingPath: codingPath)
    }

    func recordedSchema() -> Schema {
        switch recorded {
        case .keyed(let recording): recording.schema
        case .unkeyed(let recording): recording.schema
        case .single(let recording): recording.schema
        case nil: .any
        }
    }
}

private final class KeyedRecording {
    let context: InferenceContext
    private var properties: [Property] = []
    private var checkedPresence: Set<String> = []
    private var checkedNull: Set<String> = []
    private var nested: [(key: String, decoder: RecordingDecoder)] = []

    init(context: InferenceContext) { self.context = context }

    /// The recorded properties; nested containers are read last, once the initialiser has filled them.
    var schema: Schema {
        var object = ObjectSchema(properties: properties)
        for entry in nested where object[entry.key] == nil {
            object[entry.key] = Property(entry.key, entry.decoder.recordedSchema())
        }
        return .object(object)
    }

    func nestedDecoder(_ key: String, _ codingPath: [any CodingKey]) -> RecordingDecoder {
        let decoder = RecordingDecoder(context: context, codingPath: codingPath)
        nested.append((key, decoder))
        return decoder
    }

    func notePresenceCheck(_ key: String) { checkedPresence.insert(key) }
    func noteNullCheck(_ key: String) { checkedNull.insert(key) }

    func record(_ key: String, _ schema: Schema, required: Bool) {
        var schema = schema
        if checkedNull.contains(key), !schema.acceptsNull { schema = .nullable(schema) }
        let property = Property(key, schema, required: required && !checkedPresence.contains(key))
        if let index = properties.firstIndex(where: { $0.name == key }) {
            properties[index] = property
        } else {
            properties.append(property)
        }
    }
}

private final class UnkeyedRecording {
    let context: InferenceContext
    var elements: [Schema] = []

    init(context: InferenceContext) { self.context = context }

    var schema: Schema {
        var distinct: [Schema] = []
        for element in elements where !distinct.contains(element) { distinct.append(element) }
        switch distinct.count {
        case 0: return .array(.any)
        case 1: return .array(distinct[0])
        default: return .array(.oneOf(distinct))
        }
    }
}

private final class SingleRecording {
    let context: InferenceContext
    var value: Schema?
    var nullChecked = false

    init(context: InferenceContext) { self.context = context }

    var schema: Schema {
        let schema = value ?? .any
        return nullChecked && !schema.acceptsNull ? .nullable(schema) : schema
    }
}

private struct RecordingKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let recording: KeyedRecording
    let codingPath: [any CodingKey]
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool {
        recording.notePresenceCheck(recording.context.wireKey(key))
        return true
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        recording.noteNullCheck(recording.context.wireKey(key))
        return false
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let result = try recording.context.schemaAndValue(type)
        recording.record(recording.context.wireKey(key), result.schema, required: true)
        return result.value
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        let schema = try recording.context.schemaOnly(type)
        recording.record(recording.context.wireKey(key), schema.acceptsNull ? schema : .nullable(schema), required: false)
        return nil
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try recording.nestedDecoder(recording.context.wireKey(key), codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try recording.nestedDecoder(recording.context.wireKey(key), codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        recording.nestedDecoder("super", codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        recording.nestedDecoder(recording.context.wireKey(key), codingPath + [key])
    }
}

private struct RecordingUnkeyedContainer: UnkeyedDecodingContainer {
    let recording: UnkeyedRecording
    let codingPath: [any CodingKey]
    var count: Int? { nil }
    var isAtEnd: Bool { !recording.elements.isEmpty }
    var currentIndex: Int { recording.elements.count }

    mutating func decodeNil() throws -> Bool { false }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let result = try recording.context.schemaAndValue(type)
        recording.elements.append(result.schema)
        return result.value
    }

    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
        let schema = try recording.context.schemaOnly(type)
        recording.elements.append(schema.acceptsNull ? schema : .nullable(schema))
        return nil
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let decoder = RecordingDecoder(context: recording.context, codingPath: codingPath)
        recording.elements.append(.any)
        return try decoder.container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let decoder = RecordingDecoder(context: recording.context, codingPath: codingPath)
        recording.elements.append(.array(.any))
        return try decoder.unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        RecordingDecoder(context: recording.context, codingPath: codingPath)
    }
}

private struct RecordingSingleValueContainer: SingleValueDecodingContainer {
    let recording: SingleRecording
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool {
        recording.nullChecked = true
        return false
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let result = try recording.context.schemaAndValue(type)
        if recording.value == nil { recording.value = result.schema }
        return result.value
    }
}

extension AdditionalProperties {
    /// Whether the schema of undeclared members contains `.ref(name)`.
    func references(_ name: String) -> Bool {
        if case .typed(let values) = self { values.references(name) } else { false }
    }
}
