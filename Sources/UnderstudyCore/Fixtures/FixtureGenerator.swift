import Foundation

/// Generates realistic, deterministic JSON values from a ``Schema``.
///
/// The same seed, schema and settings always give the same bytes. Values honour formats, enums,
/// ranges and lengths; property names steer realism (`email` gets an e-mail, `city` a city,
/// `startDate` a date in the date strategy of the app's decoder).
///
/// ```swift
/// var generator = FixtureGenerator(seed: 42, definitions: spec.definitions, settings: spec.decoder)
/// let activity = generator.value(for: .ref("Activity"))
/// ```
public struct FixtureGenerator {
    public let definitions: SchemaDefinitions
    public let settings: DecoderSettings
    private var random: SeededRandom
    /// The instant generated dates are spread around (2025-11-15T14:30:00Z): fixed, so output is stable.
    public static let referenceInstant = Date(timeIntervalSince1970: 1_763_217_000)

    /// Whether optional keys are sometimes left out, or always sent (`null` when there is no value).
    public let optionalKeys: OptionalKeyStyle
    /// Responses by default: a `writeOnly` property is left out of them, a `readOnly` one out of requests.
    public var direction = MessageDirection.response
    /// The models entered on the way to the value being made, innermost last.
    private var models: [String] = []

    /// How many times one model nests in itself (a tree's depth) before the rest is made as small as it can be.
    static let recursionDepth = 2
    /// How deep a value goes before the rest is made as small as it can be, recursive or not.
    static let maximumDepth = 24

    public init(
        seed: UInt64, definitions: SchemaDefinitions = [:], settings: DecoderSettings = .plain,
        optionalKeys: OptionalKeyStyle = .sometimesAbsent
    ) {
        self.definitions = definitions
        self.settings = settings
        self.optionalKeys = optionalKeys
        random = SeededRandom(seed: seed)
    }

    /// A generator of `spec`'s values: its definitions, in its wire settings.
    package init(seed: UInt64, spec: APISpec, optionalKeys: OptionalKeyStyle = .sometimesAbsent) {
        self.init(seed: seed, definitions: spec.definitions, settings: spec.wire, optionalKeys: optionalKeys)
    }

    /// A value satisfying `schema`; `name` is the property or parameter it is for, if any.
    public mutating func value(for schema: Schema, name: String? = nil) -> JSONValue {
        value(for: schema, name: name, depth: 0)
    }

    /// The body of a success answer: ``value(for:name:)`` with its `success` or `ok` flag `true`, since a generated
    /// `false` (or `null`) would tell a client that the request it sent failed.
    public mutating func answer(for schema: Schema) -> JSONValue {
        let body = value(for: schema)
        guard case .object(let object)? = schema.resolved(in: definitions), case .object(var members) = body else {
            return body
        }
        for property in object.properties where ["success", "ok"].contains(property.name.lowercased()) {
            guard case .boolean? = property.schema.resolved(in: definitions) else { continue }
            members[property.name] = true
        }
        return .object(members)
    }

    /// A value of `model`: ``value(for:name:)`` of its schema, and where the document's own schema
    /// (``ModelReference/documentSchema``) refuses that value, the value ``SchemaGenerator`` makes close to it (its
    /// valid parts kept), so a generated body keeps every keyword the document writes.
    public mutating func value(for model: ModelReference) -> JSONValue {
        conforming(value(for: model.schema), to: model.documentSchema, named: model.name)
    }

    /// ``answer(for:)-(Schema)`` of a model's schema, kept to the document's own schema as ``value(for:)-(ModelReference)`` is.
    public mutating func answer(for model: ModelReference) -> JSONValue {
        conforming(answer(for: model.schema), to: model.documentSchema, named: model.name)
    }

    /// A value of a parameter or a header: ``value(for:name:)`` of its schema, kept to the document's own schema
    /// (``Parameter/documentSchema``) as ``value(for:)-(ModelReference)`` is.
    public mutating func value(for parameter: Parameter) -> JSONValue {
        conforming(value(for: parameter.schema, name: parameter.name), to: parameter.documentSchema, named: parameter.name)
    }

    /// `value`, or where the document's schema refuses it, the valid value closest to it.
    private func conforming(_ value: JSONValue, to schema: CompiledSchema?, named name: String) -> JSONValue {
        guard let schema else { return value }
        // Seeded apart from this generator's stream: a valid value leaves every later value as it was.
        var random = random.derived(name)
        var generator = SchemaGenerator(seed: random.next(), direction: direction)
        return generator.value(for: schema, near: value) ?? value
    }

    private mutating func value(for schema: Schema, name: String?, depth: Int) -> JSONValue {
        switch schema {
        case .any:
            return .object(["source": .string("understudy")])
        case .boolean:
            return .bool(random.chance(0.5))
        case .integer(let constraints):
            return .integer(integer(constraints, name: name))
        case .number(let constraints):
            return number(constraints, name: name)
        case .decimal(let constraints):
            return decimal(constraints, name: name)
        case .string(let constraints):
            return .string(string(constraints, name: name))
        case .array(let array):
            let lower = array.minItems ?? (depth > 3 ? 0 : 1)
            let upper = max(lower, min(array.maxItems ?? 3, depth > 3 ? lower : 3))
            let count = random.int(in: lower...upper)
            let elementName = name.map(Self.singular)
            return .array((0..<count).map { _ in value(for: array.items, name: elementName, depth: depth + 1) })
        case .object(let object):
            var members: [String: JSONValue] = [:]
            for property in object.properties where property.belongs(in: direction) {
                if !property.required && optionalKeys == .sometimesAbsent && !random.chance(0.8) { continue }
                if property.schema.acceptsNull && !property.required && random.chance(0.15) {
                    members[property.name] = .null
                    continue
                }
                members[property.name] = value(for: property.schema, name: property.name, depth: depth + 1)
            }
            for rule in object.rules { keep(rule, in: &members, object: object, depth: depth) }
            return .object(members)
        case .map(let map):
            var members: [String: JSONValue] = [:]
            let count = depth > 3 ? 0 : random.int(in: 1...3)
            for index in 0..<count {
                let key = mapKey(map.keys, index: index, name: name)
                members[key] = value(for: map.values, name: name, depth: depth + 1)
            }
            return .object(members)
        case .pairs(let keySchema, let valueSchema):
            var elements: [JSONValue] = []
            var used: Set<JSONValue> = []
            for _ in 0..<3 {
                let key = value(for: keySchema, name: name, depth: depth + 1)
                guard used.insert(key).inserted else { continue }
                elements.append(key)
                elements.append(value(for: valueSchema, name: name, depth: depth + 1))
            }
            return .array(elements)
        case .oneOf(let alternatives):
            guard let first = alternatives.first else { return .null }
            return value(for: first, name: name, depth: depth)
        case .nullable(let wrapped):
            if depth > 4 { return .null }
            return value(for: wrapped, name: name, depth: depth)
        case .ref:
            // A chain of references (`A → B → … → object`) is followed without recursion, whatever its length.
            var current = schema
            var names: [String] = []
            var seen: Set<String> = []
            while case .ref(let reference) = current {
                guard let definition = definitions[reference], seen.insert(reference).inserted else { return .null }
                names.append(reference)
                current = definition
            }
            let nested =
                models.count >= Self.recursionDepth
                && names.contains { name in
                    models.lazy.filter { $0 == name }.count >= Self.recursionDepth
                }
            if nested || depth > Self.maximumDepth { return minimal(current, name: name, visiting: seen) }
            models += names
            defer { models.removeLast(names.count) }
            return value(for: current, name: name, depth: depth + 1)
        }
    }

    /// The smallest value of a schema, entering no model of `visiting` again: only required members, arrays at their
    /// fewest items, `null` where allowed, the first alternative that ends. A recursive model ends this way (a tree's
    /// leaves); `null` for one no value satisfies (``SchemaCycles/impossible(in:direction:)`` names it).
    private mutating func minimal(_ schema: Schema, name: String?, visiting: Set<String>) -> JSONValue {
        switch schema {
        case .any, .boolean, .integer, .number, .decimal, .string:
            return value(for: schema, name: name, depth: 0)
        case .nullable:
            return .null
        case .map:
            return .object([:])
        case .pairs:
            return .array([])
        case .array(let array):
            let count = array.minItems ?? 0
            return .array(
                (0..<count).map { _ in minimal(array.items, name: name.map(Self.singular), visiting: visiting) })
        case .oneOf(let alternatives):
            let ending = alternatives.first {
                SchemaCycles.isBuildable($0, definitions: definitions, direction: direction, visiting: visiting)
            }
            return ending.map { minimal($0, name: name, visiting: visiting) } ?? .null
        case .ref:
            var current = schema
            var visiting = visiting
            while case .ref(let reference) = current {
                guard let definition = definitions[reference], visiting.insert(reference).inserted else { return .null }
                current = definition
            }
            return minimal(current, name: name, visiting: visiting)
        case .object(let object):
            var members: [String: JSONValue] = [:]
            for property in object.properties where property.required && property.belongs(in: direction) {
                members[property.name] = minimal(property.schema, name: property.name, visiting: visiting)
            }
            return .object(members)
        }
    }

    // MARK: Scalars

    private mutating func integer(_ constraints: IntegerConstraints, name: String?) -> Int {
        if let values = constraints.values { return random.pick(values) }
        let hint = name?.lowercased() ?? ""
        var lower = constraints.minimum ?? 0
        var upper = constraints.maximum ?? Swift.max(lower, 100)
        if constraints.maximum == nil {
            if hint.hasSuffix("id") || hint.hasSuffix("_id") {
                (lower, upper) = (Swift.max(lower, 1), Swift.max(lower, 99_999))
            }
            if hint.contains("year") { (lower, upper) = (Swift.max(lower, 2013), Swift.max(lower, 2025)) }
            if hint.contains("month") && !hint.contains("pool") { (lower, upper) = (Swift.max(lower, 1), 12) }
            if hint.contains("day") && hint.contains("month") { (lower, upper) = (Swift.max(lower, 1), 28) }
        }
        if upper < lower { upper = lower }
        return random.int(in: lower...upper)
    }

    private mutating func number(_ constraints: NumberConstraints, name: String?) -> JSONValue {
        let hint = name?.lowercased() ?? ""
        if let name, Self.looksLikeDate(name) {
            let offset = Double(random.int(in: -60 * 86_400...60 * 86_400))
            let date = Self.referenceInstant.addingTimeInterval(offset)
            switch settings.dates {
            case .deferredToDate: return .double(date.timeIntervalSinceReferenceDate)
            case .secondsSince1970: return .double(date.timeIntervalSince1970)
            case .millisecondsSince1970: return .double(date.timeIntervalSince1970 * 1000)
            default: break
            }
        }
        var lower = constraints.minimum ?? constraints.exclusiveMinimum.map { $0 + 0.01 } ?? 0
        var upper = constraints.maximum ?? lower + 100
        if hint.contains("latitude") { (lower, upper) = (Swift.max(lower, 43.0), Swift.min(upper, 49.0)) }
        if hint.contains("longitude") { (lower, upper) = (Swift.max(lower, -1.0), Swift.min(upper, 7.0)) }
        if hint.contains("level") && constraints.maximum == nil { upper = lower + 21 }
        return hundredths(from: lower, to: upper)
    }

    private mutating func decimal(_ constraints: NumberConstraints, name: String?) -> JSONValue {
        let lower = constraints.minimum ?? constraints.exclusiveMinimum.map { $0 + 1 } ?? 0
        return hundredths(from: lower, to: constraints.maximum ?? lower + 2000)
    }

    /// A number with two decimals in `lower...upper`, at most a million above its lower end, so fixtures stay
    /// readable; within ±10¹³, so the cents fit an `Int` whatever bounds a document declares (`maximum: 1e30`).
    /// A range wholly beyond that gives the next number after `lower`.
    private mutating func hundredths(from lower: Double, to upper: Double) -> JSONValue {
        let (low, high) = (Swift.max(lower, -1e13), Swift.min(Swift.max(upper, lower), 1e13))
        guard low <= high else { return .number(JSONNumber(lower.nextUp)) }
        let cents = Int((low * 100).rounded(.up))
        let drawn = random.int(
            in: cents...Swift.max(cents, Int((Swift.min(high, low + 1_000_000) * 100).rounded(.down))))
        return .number(JSONNumber(uncheckedLiteral: Self.twoDecimals(Double(drawn) / 100)))
    }

    private static func twoDecimals(_ value: Double) -> String {
        let cents = Int((value * 100).rounded())
        let sign = cents < 0 ? "-" : ""
        let magnitude = abs(cents)
        let fraction = magnitude % 100
        return "\(sign)\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    private mutating func string(_ constraints: StringConstraints, name: String?) -> String {
        if let values = constraints.values { return random.pick(values) }
        // A document's examples may break its own schema (a placeholder id): only those that meet it.
        let examples = (constraints.examples ?? []).filter { example in
            constraints.format.map { $0.matches(example) } ?? true
                && constraints.pattern.map { RegularExpression.matches(example, pattern: $0) } ?? true
                && example.count >= constraints.minLength ?? 0 && example.count <= constraints.maxLength ?? .max
        }
        if !examples.isEmpty { return random.pick(examples) }
        var text: String
        if let format = constraints.format {
            text = formatted(format, name: name)
        } else {
            text = realistic(name: name)
        }
        if let minimum = constraints.minLength, text.count < minimum {
            text += String(repeating: " et encore", count: (minimum - text.count) / 10 + 1)
            text = String(text.prefix(Swift.max(minimum, text.count)))
        }
        if let maximum = constraints.maxLength, text.count > maximum {
            text = String(text.prefix(maximum))
        }
        if let pattern = constraints.pattern, !RegularExpression.matches(text, pattern: pattern) {
            return matching(pattern, constraints: constraints) ?? text
        }
        return text
    }

    private static let letters = Array("abcdefghijkmnpqrstuvwxyz")

    /// A string drawn from `pattern` that it matches and whose length the constraints allow, in a few draws;
    /// `nil` for a pattern ``PatternSample`` cannot draw from.
    private mutating func matching(_ pattern: String, constraints: StringConstraints) -> String? {
        guard let sample = PatternSample(pattern) else { return nil }
        for _ in 0..<16 {
            var text = sample.draw(using: &random)
            // Short of the minimum length, a pattern open at its end (`^(?=.*[A-Z])`) takes more letters.
            while text.count < constraints.minLength ?? 0 { text.append(random.pick(Self.letters)) }
            if text.count <= constraints.maxLength ?? .max,
                RegularExpression.matches(text, pattern: pattern)
            {
                return text
            }
        }
        return nil
    }

    private mutating func formatted(_ format: StringFormat, name: String?) -> String {
        switch format {
        case .uuid: return uuid()
        case .objectId: return (0..<24).map { _ in String(random.int(in: 0...15), radix: 16) }.joined()
        case .email: return email()
        case .uri: return "https://example.com/\(Self.slug(name ?? "resource"))/\(random.int(in: 1...9999))"
        case .date: return Self.isoDate(dateNear(), fraction: false).prefix(10).description
        case .time:
            return String(format: "%02d:%02d:00", random.int(in: 6...20), random.pick([0, 15, 30, 45]))
        case .dateTime, .dateTimeWithoutFraction: return Self.isoDate(dateNear(), fraction: false)
        case .dateTimeWithFraction: return Self.isoDate(dateNear(), fraction: true)
        case .datePattern(let pattern): return DateTimeSyntax.formatter(pattern).string(from: dateNear())
        case .integer: return String(random.int(in: 1...99))
        // The blocks set aside for documentation (RFC 5737, RFC 3849).
        case .ipv4: return "192.0.2.\(random.int(in: 1...254))"
        case .ipv6: return "2001:db8::\(String(random.int(in: 1...0xffff), radix: 16))"
        }
    }

    /// Makes generated members meet a rule between them: the later value swapped with the earlier one (a second
    /// later when they are equal), the properties a set one requires generated.
    private mutating func keep(
        _ rule: ObjectRule, in members: inout [String: JSONValue], object: ObjectSchema, depth: Int
    ) {
        switch rule {
        case .after(let property, let other):
            guard let value = members[property], let bound = members[other],
                ObjectRule.isAfter(value, bound) == false
            else { return }
            if ObjectRule.isAfter(bound, value) == true {
                (members[property], members[other]) = (bound, value)
            } else {
                members[property] = ObjectRule.later(value)
            }
        case .requires(let property, let required):
            guard let value = members[property], value != JSONValue.null, value != .bool(false) else { return }
            for name in required where members[name].map({ $0 == JSONValue.null }) ?? true {
                guard let schema = object[name]?.schema.nonNull else { continue }
                members[name] = self.value(for: schema, name: name, depth: depth + 1)
            }
        }
    }

    private mutating func mapKey(_ keys: Schema, index: Int, name: String?) -> String {
        if case .string(let constraints) = keys {
            if let values = constraints.values { return values[index % values.count] }
            if let format = constraints.format {
                if format == .integer { return String(index) }
                return formatted(format, name: name)
            }
        }
        return ["alpha", "beta", "gamma"][index % 3]
    }

    private mutating func dateNear() -> Date {
        Self.referenceInstant.addingTimeInterval(
            Double(random.int(in: -60...60) * 86_400 + random.int(in: 0...23) * 900))
    }

    private mutating func uuid() -> String {
        var bytes = (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }

    private mutating func email() -> String {
        "\(random.pick(Names.first).lowercased()).\(random.pick(Names.last).lowercased())@example.com"
            .folding(options: .diacriticInsensitive, locale: nil)
    }

    private mutating func realistic(name: String?) -> String {
        let hint = (name ?? "").lowercased().filter { $0 != "_" }
        // Searched as bytes: Foundation's `contains` is a locale-aware search, and the standard library's generic
        // one looks up metadata on each call: either was a fifth of a large document's start-up.
        let bytes = Array(hint.utf8)
        func has(_ word: StaticString) -> Bool {
            word.withUTF8Buffer { needle in
                guard needle.count <= bytes.count else { return false }
                return (0...(bytes.count - needle.count)).contains { start in
                    needle.indices.allSatisfy { bytes[start + $0] == needle[$0] }
                }
            }
        }
        switch true {
        case has("email"): return email()
        case has("firstname"): return random.pick(Names.first)
        case has("lastname"): return random.pick(Names.last)
        case hint == "login":
            return String(Self.slug(random.pick(Names.first)).prefix(6) + Self.slug(random.pick(Names.last)).prefix(2))
        case has("fullname") || has("displayname")
            || hint.hasSuffix("name") && !has("category")
                && !has("type"):
            return "\(random.pick(Names.first)) \(random.pick(Names.last))"
        case has("title"): return random.pick(Names.titles)
        case has("description") || has("message") || has("instructions")
            || has("bio"):
            return random.pick(Names.sentences)
        case has("city"): return random.pick(Names.cities)
        case has("street") || has("address") || hint == "location" || hint == "host":
            return "\(random.int(in: 1...120)) \(random.pick(Names.streets))"
        case has("postalcode") || hint == "zip": return String(random.int(in: 10_000...95_999))
        case has("country"): return "France"
        case has("phone"): return "+336\(random.int(in: 10_000_000...99_999_999))"
        case has("currency"): return "EUR"
        case has("color"): return "#" + String(format: "%06X", random.int(in: 0...0xFFFFFF))
        case has("url") || has("image") || has("link") || has("avatar"):
            return "https://cdn.example.com/\(Self.slug(name ?? "image"))/\(random.int(in: 1...9999)).jpg"
        case has("token"): return (0..<32).map { _ in String(random.int(in: 0...15), radix: 16) }.joined()
        case has("slug"): return Self.slug(random.pick(Names.titles))
        case Self.looksLikeDate(name ?? ""): return Self.isoDate(dateNear(), fraction: false)
        default: return random.pick(Names.words)
        }
    }

    /// `startDate`, `createdOnUtc`, `created_at`, `expiresAt`, `timestamp`.
    private static func looksLikeDate(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return lowered.hasSuffix("date") || lowered.hasSuffix("utc") || lowered.hasSuffix("_at") || name.hasSuffix("At")
            || lowered == "timestamp"
    }

    /// A plural noun's singular, as API paths write them (`pets` → `pet`, `categories` → `category`).
    package static func singular(_ name: String) -> String {
        name.hasSuffix("ies") ? String(name.dropLast(3)) + "y" : name.hasSuffix("s") ? String(name.dropLast()) : name
    }

    private static func slug(_ text: String) -> String {
        text.folding(options: .diacriticInsensitive, locale: nil).lowercased()
            .map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
    }

    /// `2025-11-15T14:30:00Z`, or with milliseconds.
    package static func isoDate(_ date: Date, fraction: Bool) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: fraction))
    }
}

private enum Names {
    static let first = [
        "Camille", "Léa", "Hugo", "Chloé", "Louis", "Manon", "Gabriel", "Inès", "Jules", "Sarah", "Adam", "Emma",
        "John", "Maya", "Noah",
    ]
    static let last = [
        "Martin", "Bernard", "Dubois", "Thomas", "Robert", "Richard", "Petit", "Durand", "Leroy", "Moreau", "Doe",
        "Garcia", "Nguyen",
    ]
    static let titles = [
        "Weekend Football Match", "Grande Brocante du Village", "Morning Run by the Lake", "Vide-grenier de printemps",
        "Appartement 2 chambres lumineux", "Yoga in the Park", "Marché aux puces du dimanche",
        "Studio meublé proche gare",
    ]
    static let sentences = [
        "Join us for a friendly match!", "Vide-grenier annuel avec plus de 50 exposants.",
        "Bright flat close to public transport.", "Bring water and good shoes.", "Parking gratuit disponible.",
    ]
    static let cities = ["Paris", "Lyon", "Bourg-en-Bresse", "Nantes", "Lille", "Bordeaux", "Toulouse", "Marseille"]
    static let streets = [
        "rue de la République", "avenue Jean Jaurès", "Place de la Mairie", "boulevard Voltaire", "rue Victor Hugo",
    ]
    static let words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"]
}
