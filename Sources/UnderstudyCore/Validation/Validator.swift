/// Validates a ``JSONValue`` against a ``Schema`` and returns every violation, not just the first.
///
/// Each violation is a ``Diagnostic`` with a JSON Pointer, what was expected, what was found, and a
/// stable rule id. Members the schema does not declare are notes (`JSONDecoder` ignores them), unless
/// the object forbids them.
///
/// ```swift
/// let validator = Validator(definitions: spec.definitions)
/// for finding in validator.validate(body, against: endpoint.response!.schema) {
///     print(finding.summary)   // "/0/creator/_id: expected string, found integer 12"
/// }
/// ```
public struct Validator: Sendable {
    public let definitions: SchemaDefinitions
    /// Responses by default; a `readOnly` property is not required in a request, a `writeOnly` one not in a
    /// response.
    public let direction: MessageDirection

    public init(definitions: SchemaDefinitions = [:], direction: MessageDirection = .response) {
        self.definitions = definitions
        self.direction = direction
    }

    /// All violations of `schema` by `value`, in document order.
    /// - Parameter mergingRepeats: one finding per rule and schema location (array indices collapsed), with
    ///   its ``Diagnostic/occurrences`` and first examples, rather than one per element: a drifted field in a
    ///   list of 100,000 is one finding, and memory does not grow with the list.
    public func validate(_ value: JSONValue, against schema: Schema, mergingRepeats: Bool = false) -> [Diagnostic] {
        var walk = Walk(definitions: definitions, direction: direction)
        walk.sink = FindingMerger(merging: mergingRepeats)
        walk.check(value, schema)
        return walk.findings
    }

    /// Whether `value` satisfies `schema` (notes do not count).
    public func isValid(_ value: JSONValue, against schema: Schema) -> Bool {
        var walk = Walk(definitions: definitions, direction: direction, stopAtFirstError: true)
        walk.check(value, schema)
        return !walk.findings.contains { $0.severity == .error }
    }
}

private struct Walk {
    let definitions: SchemaDefinitions
    let direction: MessageDirection
    var stopAtFirstError = false
    var sink = FindingMerger(merging: false)
    var findings: [Diagnostic] { sink.findings }
    var path: [PathToken] = []
    /// The models being checked at each depth of the value, so a model that refers to itself without the value
    /// going deeper is not entered again.
    var visiting: Set<Entered> = []

    struct Entered: Hashable {
        let model: String
        let depth: Int
    }

    enum PathToken {
        case key(String)
        /// A map's key, or a member the model does not declare: merged findings count them as array elements,
        /// so a million of them are one finding.
        case entry(String)
        case index(Int)
    }

    init(definitions: SchemaDefinitions, direction: MessageDirection, stopAtFirstError: Bool = false) {
        self.definitions = definitions
        self.direction = direction
        self.stopAtFirstError = stopAtFirstError
    }

    var pointer: JSONPointer { Self.pointer(path) }

    static func pointer(_ path: [PathToken]) -> JSONPointer {
        JSONPointer(
            tokens: path.map {
                switch $0 {
                case .key(let key), .entry(let key): key
                case .index(let index): String(index)
                }
            })
    }

    /// Records a violation; with `merging`, a repeat only counts (its texts are not even built) once the
    /// finding has its examples, so a list of 100,000 drifted elements costs no more than a few.
    mutating func report(
        _ rule: RuleID, _ message: @autoclosure () -> String, expected: @autoclosure () -> String?,
        found: @autoclosure () -> String?, severity: Diagnostic.Severity = .error
    ) {
        if severity == .error { foundError = true }
        let path = self.path
        sink.add(rule, severity: severity, location: path.map { if case .key(let key) = $0 { key } else { nil } }) {
            Diagnostic(
                severity, rule: rule, at: Self.pointer(path), message: message(), expected: expected(), found: found())
        }
    }

    /// How many members an object may have that its model does not declare before merged findings count them
    /// rather than name each.
    static let undeclaredMembersNamed = 64

    /// Whether an error was reported: kept, not searched for, as notes may be many.
    var foundError = false

    var shouldStop: Bool { stopAtFirstError && foundError }

    mutating func check(_ value: JSONValue, _ schema: Schema) {
        if shouldStop { return }
        switch schema {
        case .any:
            return
        case .nullable(let wrapped):
            if case .null = value { return }
            check(value, wrapped)
        case .ref:
            // A chain of references (`A → B → … → object`) is followed without recursion, whatever its length.
            var current = schema
            var names: [String] = []
            var seen: Set<String> = []
            while case .ref(let name) = current {
                guard let definition = definitions[name] else {
                    report(.unresolvedReference, "the schema refers to \(name), which is not defined", expected: name, found: nil)
                    return
                }
                guard seen.insert(name).inserted else {
                    report(
                        .unresolvedReference, "the schema \(name) refers to itself and to nothing else",
                        expected: name, found: nil)
                    return
                }
                names.append(name)
                current = definition
            }
            // A model met again before the value went one level deeper allows nothing more (`A: oneOf [A, …]`): its
            // other alternatives decide.
            let entered = names.map { Entered(model: $0, depth: path.count) }
            if let again = entered.first(where: visiting.contains) {
                report(
                    .noAlternative, "\(again.model) refers to itself here without describing the value",
                    expected: again.model, found: Render.found(value))
                return
            }
            visiting.formUnion(entered)
            defer { visiting.subtract(entered) }
            check(value, current)
        case .boolean:
            guard case .bool = value else { return mismatch(value, schema) }
        case .integer(let constraints):
            guard case .number(let number) = value, number.isIntegral else { return mismatch(value, schema) }
            checkInteger(number, constraints)
        case .number(let constraints), .decimal(let constraints):
            guard case .number(let number) = value else { return mismatch(value, schema) }
            checkNumber(number, constraints)
        case .string(let constraints):
            guard case .string(let string) = value else { return mismatch(value, schema) }
            checkString(string, constraints)
        case .array(let array):
            guard case .array(let elements) = value else { return mismatch(value, schema) }
            checkCount(elements.count, array)
            for (index, element) in elements.enumerated() {
                path.append(.index(index))
                check(element, array.items)
                path.removeLast()
            }
        case .object(let object):
            guard case .object(let members) = value else { return mismatch(value, schema) }
            checkObject(members, object)
        case .map(let map):
            guard case .object(let members) = value else { return mismatch(value, schema) }
            for key in members.keys.sorted() {
                path.append(.entry(key))
                var keyWalk = Walk(definitions: definitions, direction: direction, stopAtFirstError: true)
                keyWalk.check(.string(key), map.keys)
                if keyWalk.findings.contains(where: { $0.severity == .error }) {
                    report(
                        .invalidKey, "key \(Render.quoted(key)) is not a valid \(Render.expected(map.keys))",
                        expected: Render.expected(map.keys), found: Render.quoted(key))
                }
                check(members[key]!, map.values)
                path.removeLast()
            }
        case .pairs(let keySchema, let valueSchema):
            guard case .array(let elements) = value else { return mismatch(value, schema) }
            if elements.count % 2 != 0 {
                report(
                    .oddPairs, "expected an even number of elements (key, value, key, value, ...), found \(elements.count)",
                    expected: "even element count", found: String(elements.count))
            }
            for (index, element) in elements.enumerated() {
                path.append(.index(index))
                check(element, index % 2 == 0 ? keySchema : valueSchema)
                path.removeLast()
            }
        case .oneOf(let alternatives):
            for alternative in alternatives {
                var probe = Walk(definitions: definitions, direction: direction, stopAtFirstError: true)
                probe.path = path
                probe.visiting = visiting
                probe.check(value, alternative)
                if !probe.findings.contains(where: { $0.severity == .error }) { return }
            }
            report(
                .noAlternative, "expected \(Render.expected(schema)), found \(Render.found(value))",
                expected: Render.expected(schema), found: Render.found(value))
        }
    }

    mutating func mismatch(_ value: JSONValue, _ schema: Schema) {
        let expected = Render.expected(schema)
        if case .null = value {
            report(
                .nullNotAllowed, "expected \(expected), found null; the model's property is not optional",
                expected: expected, found: "null")
        } else {
            report(.typeMismatch, "expected \(expected), found \(Render.found(value))", expected: expected, found: Render.found(value))
        }
    }

    mutating func checkInteger(_ number: JSONNumber, _ constraints: IntegerConstraints) {
        // Valid JSON, but no Swift `Int` (nor a 64-bit integer on any server) holds it: say so, rather than
        // let the decoder call the document invalid.
        guard number.intValue != nil else {
            let negative = number.literal.hasPrefix("-")
            report(
                negative ? .belowMinimum : .aboveMaximum,
                "\(number.literal) is out of range for a 64-bit integer", expected: "a 64-bit integer",
                found: number.literal)
            return
        }
        if let values = constraints.values {
            guard let int = number.intValue, values.contains(int) else {
                let expected = "one of " + Render.list(values.map(String.init))
                report(.enumUnknown, "expected \(expected), found \(number.literal)", expected: expected, found: number.literal)
                return
            }
        }
        guard let double = number.doubleValue else { return }
        if let minimum = constraints.minimum, double < Double(minimum) {
            report(.belowMinimum, "expected at least \(minimum), found \(number.literal)", expected: ">= \(minimum)", found: number.literal)
        }
        if let maximum = constraints.maximum, double > Double(maximum) {
            report(.aboveMaximum, "expected at most \(maximum), found \(number.literal)", expected: "<= \(maximum)", found: number.literal)
        }
    }

    mutating func checkNumber(_ number: JSONNumber, _ constraints: NumberConstraints) {
        guard let double = number.doubleValue else { return }
        if let minimum = constraints.minimum, double < minimum {
            let bound = Render.number(minimum)
            report(.belowMinimum, "expected at least \(bound), found \(number.literal)", expected: ">= \(bound)", found: number.literal)
        }
        if let minimum = constraints.exclusiveMinimum, double <= minimum {
            let bound = Render.number(minimum)
            report(.belowMinimum, "expected more than \(bound), found \(number.literal)", expected: "> \(bound)", found: number.literal)
        }
        if let maximum = constraints.maximum, double > maximum {
            let bound = Render.number(maximum)
            report(.aboveMaximum, "expected at most \(bound), found \(number.literal)", expected: "<= \(bound)", found: number.literal)
        }
    }

    mutating func checkString(_ string: String, _ constraints: StringConstraints) {
        if let values = constraints.values, !values.contains(string) {
            let expected = "one of " + Render.list(values.map(Render.quoted))
            report(.enumUnknown, "expected \(expected), found \(Render.quoted(string))", expected: expected, found: Render.quoted(string))
            return
        }
        if let format = constraints.format, !format.matches(string) {
            let expected = "string in \(format) format"
            report(.formatMismatch, "expected \(expected), found \(Render.quoted(string))", expected: expected, found: Render.quoted(string))
        }
        if constraints.minLength != nil || constraints.maxLength != nil {
            // Characters as JSON Schema counts them (RFC 8259's): code points, not grapheme clusters ("G🏻" is 2).
            let length = string.unicodeScalars.count
            if let minimum = constraints.minLength, length < minimum {
                report(
                    .tooShort, "expected at least \(minimum) characters, found \(length)", expected: ">= \(minimum) characters",
                    found: "\(length) characters")
            }
            if let maximum = constraints.maxLength, length > maximum {
                report(
                    .tooLong, "expected at most \(maximum) characters, found \(length)", expected: "<= \(maximum) characters",
                    found: "\(length) characters")
            }
        }
        if let pattern = constraints.pattern, !RegularExpression.matches(string, pattern: pattern) {
            let expected = "a string matching \(pattern)"
            report(.patternMismatch, "expected \(expected), found \(Render.quoted(string))", expected: expected, found: Render.quoted(string))
        }
    }

    mutating func checkCount(_ count: Int, _ array: ArraySchema) {
        if let minimum = array.minItems, count < minimum {
            report(.tooFewItems, "expected at least \(minimum) elements, found \(count)", expected: ">= \(minimum) elements", found: "\(count) elements")
        }
        if let maximum = array.maxItems, count > maximum {
            report(.tooManyItems, "expected at most \(maximum) elements, found \(count)", expected: "<= \(maximum) elements", found: "\(count) elements")
        }
    }

    mutating func checkObject(_ members: [String: JSONValue], _ object: ObjectSchema) {
        var matched = 0
        for property in object.properties {
            path.append(.key(property.name))
            if let member = members[property.name] {
                matched += 1
                check(member, property.schema)
            } else if property.required && property.belongs(in: direction) {
                let expected = Render.expected(property.schema)
                report(.requiredMissing, "required property is missing (expected \(expected))", expected: expected, found: "absent")
            }
            path.removeLast()
            if shouldStop { return }
        }
        for rule in object.rules { checkRule(rule, members) }
        // Every member matched a declared property: nothing unknown to report.
        guard matched < members.count else { return }
        let declared = Set(object.properties.map(\.name))
        // A few undeclared members are named one by one; many (a dictionary the model does not say it is) are
        // counted as a map's entries are.
        let counted = members.count - matched > Self.undeclaredMembersNamed
        for key in members.keys.sorted() where !declared.contains(key) {
            path.append(counted ? .entry(key) : .key(key))
            switch object.additionalProperties {
            case .allowed:
                report(
                    .unknownProperty, "property is not in the model; JSONDecoder ignores it", expected: nil,
                    found: Render.found(members[key]!), severity: .note)
            case .forbidden:
                report(.forbiddenProperty, "property is not allowed here", expected: nil, found: Render.found(members[key]!))
            case .typed(let values):
                check(members[key]!, values)
            }
            path.removeLast()
        }
    }
}

extension Walk {
    /// Reports a broken rule between properties at the property it names first; values of the wrong type are
    /// left to their own findings.
    mutating func checkRule(_ rule: ObjectRule, _ members: [String: JSONValue]) {
        func present(_ name: String) -> JSONValue? {
            guard let value = members[name], value != JSONValue.null else { return nil }
            return value
        }
        switch rule {
        case .after(let property, let other):
            guard let value = present(property), let bound = present(other),
                let isAfter = ObjectRule.isAfter(value, bound), !isAfter
            else { return }
            path.append(.key(property))
            report(
                .objectRuleBroken, "expected a value after \(other) (\(Render.found(bound))), found \(Render.found(value))",
                expected: "after \(other)", found: Render.found(value))
            path.removeLast()
        case .requires(let property, let required):
            guard let value = present(property), value != .bool(false) else { return }
            for name in required where present(name) == nil {
                path.append(.key(name))
                report(
                    .objectRuleBroken, "required when \(property) is set (expected a value)", expected: "a value",
                    found: members[name] == nil ? "absent" : "null")
                path.removeLast()
            }
        }
    }
}

/// How schemas and values are written in messages.
package enum Render {
    package static func quoted(_ string: String) -> String {
        let shown = string.count > 60 ? String(string.prefix(57)) + "..." : string
        return JSONValue.string(shown).serialized()
    }

    /// `a, b, c`; a long list (a time zone parameter's 419 names) shows its first ten and its count.
    package static func list(_ items: [String]) -> String {
        items.count <= 12
            ? items.joined(separator: ", ") : items.prefix(10).joined(separator: ", ") + ", … (\(items.count) in all)"
    }

    package static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    package static func found(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let bool): "boolean \(bool)"
        case .number(let number): "\(number.isInteger ? "integer" : "number") \(number.literal)"
        case .string(let string): "string \(quoted(string))"
        case .array(let elements): "array of \(elements.count)"
        case .object(let members): members.isEmpty ? "empty object" : "object"
        }
    }

    package static func expected(_ schema: Schema) -> String {
        switch schema {
        case .any: "any value"
        case .boolean: "boolean"
        case .integer(let constraints):
            constraints.values.map { "integer (one of \(list($0.map(String.init))))" } ?? "integer"
        case .number: "number"
        case .decimal: "number (decimal)"
        case .string(let constraints):
            if let values = constraints.values {
                "string (one of \(list(values.map(quoted))))"
            } else if let format = constraints.format {
                "string in \(format) format"
            } else {
                "string"
            }
        case .array: "array"
        case .object: "object"
        case .map: "object"
        case .pairs: "array of alternating keys and values"
        case .oneOf(let alternatives): alternatives.map(expected).joined(separator: " or ")
        case .nullable(let wrapped): "\(expected(wrapped)) or null"
        case .ref(let name): name
        }
    }
}
