/// The keywords: assertions on the value, and the applicators that evaluate subschemas.
extension SchemaEvaluation {
    /// Dispatches a keyword: applicators each in their own function, so the frames on the recursive path stay
    /// small (a debug build's switch over every keyword costs kilobytes of stack per level).
    mutating func check(
        _ keyword: SchemaKeyword, _ id: Int, _ value: JSONValue, _ local: inout Annotations, _ collecting: Bool
    ) -> Bool {
        switch keyword {
        case .reference(.resolved(let target), _):
            return follow(target, value, &local, collect: collecting)
        case .dynamicReference(.resolved(let target), _, let anchor):
            return follow(dynamicTarget(target, anchor), value, &local, collect: collecting)
        case .allOf(let branches):
            return applyAllOf(branches, id, value, &local, collecting)
        case .anyOf(let branches):
            return applyAnyOf(branches, id, value, &local, collecting)
        case .oneOf(let branches):
            return applyOneOf(branches, id, value, &local, collecting)
        case .not(let negated):
            return applyNot(negated, id, value, &local, collecting)
        case .conditional(let condition, let then, let otherwise):
            return applyConditional(condition, then, otherwise, id, value, &local, collecting)
        case .dependentSchemas(let dependencies):
            return applyDependentSchemas(dependencies, id, value, &local, collecting)
        case .members(let declaration):
            guard case .object(let members) = value else { return true }
            return applyMembers(declaration, id, members, &local, collecting)
        case .propertyNames(let names):
            return applyPropertyNames(names, id, value, &local, collecting)
        case .items(let prefix, let rest):
            guard case .array(let elements) = value else { return true }
            return applyItems(prefix, rest, id, elements, &local, collecting)
        case .contains(let contained, let minimum, let maximum):
            guard case .array(let elements) = value else { return true }
            return applyContains(contained, minimum, maximum, id, elements, &local, collecting)
        case .unevaluatedItems(let schema):
            return applyUnevaluatedItems(schema, id, value, &local, collecting)
        case .unevaluatedProperties(let schema):
            return applyUnevaluatedProperties(schema, id, value, &local, collecting)
        case .pairs(let keySchema, let valueSchema):
            guard case .array(let elements) = value else { return true }
            return applyPairs(keySchema, valueSchema, id, elements, &local, collecting)
        default:
            return checkAssertion(keyword, id, value)
        }
    }

    mutating func applyAllOf(
        _ branches: [Int], _ id: Int, _ value: JSONValue, _ local: inout Annotations, _ collecting: Bool
    ) -> Bool {
        var valid = true
        for branch in branches where !evaluate(branch, value, &local, collect: collecting) {
            valid = false
            if mode == .probe { return false }
        }
        return valid
    }

    mutating func applyNot(
        _ negated: Int, _ id: Int, _ value: JSONValue, _ local: inout Annotations, _ collecting: Bool
    ) -> Bool {
        let mark = hold()
        var ignored = Annotations()
        let matched = probe(negated, value, &ignored, collect: false)
        release(mark, keep: false)
        guard matched else { return true }
        let negation = described(negated)
        report(
            .matchesNot, id, "not", "expected a value that does not match \(negation), found \(Render.found(value))",
            expected: "not \(negation)", found: Render.found(value))
        return false
    }

    mutating func applyConditional(
        _ condition: Int, _ then: Int?, _ otherwise: Int?, _ id: Int, _ value: JSONValue, _ local: inout Annotations,
        _ collecting: Bool
    ) -> Bool {
        let mark = hold()
        var conditionAnnotations = Annotations()
        let holds = probe(condition, value, &conditionAnnotations, collect: collecting)
        release(mark, keep: false)
        if holds, collecting { local.merge(conditionAnnotations) }
        guard let branch = holds ? then : otherwise else { return true }
        return evaluate(branch, value, &local, collect: collecting)
    }

    mutating func applyDependentSchemas(
        _ dependencies: [DependentSchema], _ id: Int, _ value: JSONValue, _ local: inout Annotations, _ collecting: Bool
    ) -> Bool {
        guard case .object(let members) = value else { return true }
        var valid = true
        for dependency in dependencies where members[dependency.property] != nil {
            if !evaluate(dependency.schema, value, &local, collect: collecting) {
                valid = false
                if mode == .probe { return false }
            }
        }
        return valid
    }

    /// Each member's name against `propertyNames`; a model's are its dictionary's keys, each one the decoder reads as
    /// the key type (`[UUID: T]`, `[Int: T]`).
    mutating func applyPropertyNames(
        _ names: Int, _ id: Int, _ value: JSONValue, _ local: inout Annotations, _ collecting: Bool
    ) -> Bool {
        guard case .object(let members) = value else { return true }
        // Probed in any order, the refused ones reported in order: a million keys are not sorted to find none.
        var refused: [String] = []
        for key in members.keys {
            let mark = hold()
            var ignored = Annotations()
            let matched = probe(names, .string(key), &ignored, collect: false)
            release(mark, keep: false)
            if !matched { refused.append(key) }
        }
        guard !refused.isEmpty else { return true }
        if mode == .probe { return false }
        let expected = described(names)
        let model = storage.nodes[id].isModel
        for key in refused.sorted() {
            report(
                model ? .invalidKey : .invalidPropertyName, id, "propertyNames",
                model
                    ? "key \(Render.quoted(key)) is not a valid \(expected)"
                    : "property name \(Render.quoted(key)) is not allowed here (expected \(expected))",
                expected: expected, found: Render.quoted(key), at: .entry(key))
        }
        return false
    }

    /// A member or element against one subschema: the `false` schema refuses it with a finding of its own (`rule`,
    /// at `keyword` of the schema `id`), any other schema is evaluated at the value's location.
    mutating func applyChild(
        _ schema: Int, _ value: JSONValue, _ token: PathToken, in id: Int, refusing rule: RuleID,
        _ keyword: @autoclosure () -> String, _ message: @autoclosure () -> String
    ) -> Bool {
        guard isFalse(schema) else { return evaluateChild(schema, value, token) }
        report(rule, id, keyword(), message(), expected: nil, found: Render.found(value), at: token)
        return false
    }

    mutating func applyUnevaluatedItems(
        _ schema: Int, _ id: Int, _ value: JSONValue, _ local: inout Annotations, _ collecting: Bool
    ) -> Bool {
        guard case .array(let elements) = value else { return true }
        var valid = true
        for (index, element) in elements.enumerated() where !local.isEvaluated(item: index) {
            if !applyChild(
                schema, element, .index(index), in: id, refusing: .unevaluatedItem, "unevaluatedItems",
                "element is not evaluated by any subschema, and unevaluatedItems allows none")
            {
                valid = false
            }
            if !valid, mode == .probe { return false }
        }
        local.allItems = true
        return valid
    }

    mutating func applyUnevaluatedProperties(
        _ schema: Int, _ id: Int, _ value: JSONValue, _ local: inout Annotations, _ collecting: Bool
    ) -> Bool {
        guard case .object(let members) = value else { return true }
        var valid = true
        for key in members.keys.sorted() where !local.isEvaluated(property: key) {
            guard let member = members[key] else { continue }
            if !applyChild(
                schema, member, .entry(key), in: id, refusing: .unevaluatedProperty, "unevaluatedProperties",
                "property is not evaluated by any subschema, and unevaluatedProperties allows none")
            {
                valid = false
            }
            if !valid, mode == .probe { return false }
        }
        local.allProperties = true
        return valid
    }

    /// The keywords that assert on the value itself (no subschema).
    mutating func checkAssertion(_ keyword: SchemaKeyword, _ id: Int, _ value: JSONValue) -> Bool {
        switch keyword {
        case .types(let types):
            return checkType(types, id, value)
        case .never:
            report(
                .falseSchema, id, "", "no value is allowed here (the schema is false)", expected: "nothing",
                found: Render.found(value))
            return false
        case .constant(let constant):
            guard !JSONEquality.equal(constant, value) else { return true }
            let expected = Self.text(constant)
            report(
                .constMismatch, id, "const", "expected \(expected), found \(Self.text(value))", expected: expected,
                found: Self.text(value))
            return false
        case .enumeration(let values):
            guard !values.contains(value) else { return true }
            let expected = "one of " + Render.list(values.values.map(Self.text))
            report(
                .enumUnknown, id, "enum", "expected \(expected), found \(Self.text(value))", expected: expected,
                found: Self.text(value))
            return false
        case .multipleOf(let divisor, let literal):
            guard case .number(let number) = value, let exact = ExactDecimal(number), !exact.isMultiple(of: divisor)
            else { return true }
            report(
                .notMultipleOf, id, "multipleOf", "expected a multiple of \(literal), found \(number.literal)",
                expected: "a multiple of \(literal)", found: number.literal)
            return false
        case .bound(let bound, let literal, let kind):
            guard case .number(let number) = value, !isBeyondModelInteger(number, id) else { return true }
            return checkBound(number, bound, literal, kind, id)
        case .minLength(let minimum):
            guard case .string(let string) = value else { return true }
            // Characters as JSON Schema counts them: code points ("G🏻" is 2), not grapheme clusters.
            let length = string.unicodeScalars.count
            guard length < minimum else { return true }
            report(
                .tooShort, id, "minLength",
                "expected at least \(Self.count(minimum, "character", "characters")), found \(length)",
                expected: ">= \(Self.count(minimum, "character", "characters"))",
                found: Self.count(length, "character", "characters"))
            return false
        case .maxLength(let maximum):
            guard case .string(let string) = value, string.utf8.count > maximum else { return true }
            let length = string.unicodeScalars.count
            guard length > maximum else { return true }
            report(
                .tooLong, id, "maxLength",
                "expected at most \(Self.count(maximum, "character", "characters")), found \(length)",
                expected: "<= \(Self.count(maximum, "character", "characters"))",
                found: Self.count(length, "character", "characters"))
            return false
        case .pattern(let pattern):
            guard case .string(let string) = value, !pattern.matches(string) else { return true }
            let expected = "a string matching \(pattern.source)"
            report(
                .patternMismatch, id, "pattern", "expected \(expected), found \(Render.quoted(string))",
                expected: expected, found: Render.quoted(string))
            return false
        case .format(let format, let asserted):
            guard !format.matches(value) else { return true }
            let severity: Diagnostic.Severity = asserted || configuration.formats == .assertion ? .error : .warning
            let expected =
                value.stringValue == nil ? "\(format.rawValue) number" : "string in \(format.rawValue) format"
            let found = value.stringValue.map(Render.quoted) ?? Render.found(value)
            report(
                .formatMismatch, id, "format", "expected \(expected), found \(found)", expected: expected,
                found: found, severity: severity)
            return severity != .error
        case .minItems(let minimum):
            guard case .array(let elements) = value else { return true }
            return checkCount(elements.count, atLeast: minimum, .tooFewItems, id, "minItems", ("element", "elements"))
        case .maxItems(let maximum):
            guard case .array(let elements) = value else { return true }
            return checkCount(elements.count, atMost: maximum, .tooManyItems, id, "maxItems", ("element", "elements"))
        case .uniqueItems:
            guard case .array(let elements) = value, let (first, second) = Self.duplicate(in: elements) else {
                return true
            }
            report(
                .duplicateItems, id, "uniqueItems",
                "expected unique elements, found element \(second) equal to element \(first)",
                expected: "unique elements", found: "element \(second) equal to element \(first)")
            return false
        case .minProperties(let minimum):
            guard case .object(let members) = value else { return true }
            return checkCount(
                members.count, atLeast: minimum, .tooFewProperties, id, "minProperties", ("property", "properties"))
        case .maxProperties(let maximum):
            guard case .object(let members) = value else { return true }
            return checkCount(
                members.count, atMost: maximum, .tooManyProperties, id, "maxProperties", ("property", "properties"))
        case .required(let names):
            guard case .object(let members) = value else { return true }
            return checkRequired(names, members, id)
        case .dependentRequired(let requirements):
            guard case .object(let members) = value else { return true }
            var valid = true
            for requirement in requirements where members[requirement.property] != nil {
                for name in requirement.required where members[name] == nil {
                    valid = false
                    report(
                        .dependentRequiredMissing, id, "dependentRequired",
                        "property is required when \(requirement.property) is present", expected: "a value",
                        found: "absent", at: .key(name))
                    if mode == .probe { return false }
                }
            }
            return valid
        case .model(let assertion):
            return checkModel(assertion, id, value)
        case .reference(.unresolved(let uri), _), .dynamicReference(.unresolved(let uri), _, _):
            // A model names a model; a document's schema a URI.
            let name = storage.nodes[id].isModel ? Self.name(uri) : uri
            report(
                .unresolvedReference, id, "$ref", "the schema refers to \(name), which is not defined",
                expected: name, found: nil)
            return false
        default:
            return true
        }
    }

    mutating func checkType(_ types: JSONTypes, _ id: Int, _ value: JSONValue) -> Bool {
        let matches: Bool
        switch value {
        case .null: matches = types.contains(.null)
        case .bool: matches = types.contains(.boolean)
        case .string: matches = types.contains(.string)
        case .array: matches = types.contains(.array)
        case .object: matches = types.contains(.object)
        case .number(let number):
            matches = types.contains(.number) || (types.contains(.integer) && Self.isIntegral(number))
        }
        guard !matches else { return true }
        // A model's type is named with what the decoder needs of it (`string in uuid format`).
        let expected =
            storage.nodes[id].isModel
            ? describe(id) : types.description + (storage.nodes[id].nullable ? " or null" : "")
        if case .null = value {
            let model = storage.nodes[id].isModel ? "; the model's property is not optional" : ""
            report(
                .nullNotAllowed, id, "type", "expected \(expected), found null\(model)", expected: expected,
                found: "null")
        } else {
            report(
                .typeMismatch, id, "type", "expected \(expected), found \(Render.found(value))", expected: expected,
                found: Render.found(value))
        }
        return false
    }

    /// `1`, `1.0` and `1e2` are integers; `1.5` is not: decided on the literal, exactly.
    static func isIntegral(_ number: JSONNumber) -> Bool {
        number.isInteger || ExactDecimal(number)?.isIntegral == true
    }

    mutating func checkBound(
        _ number: JSONNumber, _ bound: ExactDecimal, _ literal: String, _ kind: BoundKind, _ id: Int
    ) -> Bool {
        let order: Int
        // Most bounds and values are small integers: compare them without building exact decimals.
        if let value = Int(number.literal), let limit = Int(literal) {
            order = value < limit ? -1 : (value == limit ? 0 : 1)
        } else if let exact = ExactDecimal(number) {
            order = ExactDecimal.compare(exact, bound)
        } else {
            return true
        }
        let valid: Bool
        let relation: String
        let keyword: String
        switch kind {
        case .minimum: (valid, relation, keyword) = (order >= 0, "at least", "minimum")
        case .exclusiveMinimum: (valid, relation, keyword) = (order > 0, "more than", "exclusiveMinimum")
        case .maximum: (valid, relation, keyword) = (order <= 0, "at most", "maximum")
        case .exclusiveMaximum: (valid, relation, keyword) = (order < 0, "less than", "exclusiveMaximum")
        }
        guard !valid else { return true }
        let symbol: String
        switch kind {
        case .minimum: symbol = ">="
        case .exclusiveMinimum: symbol = ">"
        case .maximum: symbol = "<="
        case .exclusiveMaximum: symbol = "<"
        }
        let rule: RuleID = kind == .minimum || kind == .exclusiveMinimum ? .belowMinimum : .aboveMaximum
        report(
            rule, id, keyword, "expected \(relation) \(literal), found \(number.literal)",
            expected: "\(symbol) \(literal)", found: number.literal)
        return false
    }

    mutating func checkRequired(_ names: [String], _ members: [String: JSONValue], _ id: Int) -> Bool {
        var valid = true
        for name in names where members[name] == nil && !isExempt(name, in: id) {
            valid = false
            let expected = propertySchema(name, in: id).map(described) ?? "a value"
            report(
                .requiredMissing, id, "required", "required property is missing (expected \(expected))",
                expected: expected, found: "absent", at: .key(name))
            if mode == .probe { return false }
        }
        return valid
    }

    mutating func applyMembers(
        _ declaration: ObjectMembers, _ id: Int, _ members: [String: JSONValue], _ local: inout Annotations,
        _ collecting: Bool
    ) -> Bool {
        var valid = true
        var matched = 0
        if declaration.declaresProperties, collecting { local.declaresProperties = true }
        for (name, schema) in declaration.properties {
            guard let member = members[name] else {
                guard declaration.required.contains(name), !isExempt(name, in: id) else { continue }
                valid = false
                let expected = described(schema)
                report(
                    .requiredMissing, id, "required", "required property is missing (expected \(expected))",
                    expected: expected, found: "absent", at: .key(name))
                if mode == .probe { return false }
                continue
            }
            matched += 1
            if !applyChild(
                schema, member, .key(name), in: id, refusing: .forbiddenProperty, "properties/\(name)",
                "property is not allowed here")
            {
                valid = false
            }
            if !valid, mode == .probe { return false }
        }
        if collecting {
            // Every member declared (most objects): one flag, not a set of their names.
            if matched == members.count {
                local.allProperties = true
            } else {
                for (name, _) in declaration.properties where members[name] != nil { local.properties.insert(name) }
            }
        }
        // Patterns see every member; `additionalProperties` only those `properties` left, if any.
        guard !declaration.patterns.isEmpty || (declaration.additional != nil && matched < members.count) else {
            if declaration.additional != nil, collecting { local.allProperties = true }
            return valid
        }
        for key in members.keys.sorted() {
            guard let member = members[key] else { continue }
            var covered = declaration.propertyIndex[key] != nil
            for (pattern, schema) in declaration.patterns where pattern.matches(key) {
                covered = true
                if collecting { local.properties.insert(key) }
                if !applyChild(
                    schema, member, .entry(key), in: id, refusing: .forbiddenProperty, "patternProperties",
                    "property is not allowed here")
                {
                    valid = false
                }
                if !valid, mode == .probe { return false }
            }
            guard !covered, let additional = declaration.additional else { continue }
            if !applyChild(
                additional, member, .entry(key), in: id, refusing: .forbiddenProperty, "additionalProperties",
                "property is not allowed here")
            {
                valid = false
            }
            if !valid, mode == .probe { return false }
        }
        if declaration.additional != nil, collecting { local.allProperties = true }
        return valid
    }

    mutating func applyItems(
        _ prefix: [Int], _ rest: Int?, _ id: Int, _ elements: [JSONValue], _ local: inout Annotations,
        _ collecting: Bool
    ) -> Bool {
        var valid = true
        for (index, schema) in prefix.enumerated() where index < elements.count {
            if !evaluateChild(schema, elements[index], .index(index)) {
                valid = false
                if mode == .probe { return false }
            }
        }
        if collecting { local.itemsPrefix = max(local.itemsPrefix, min(prefix.count, elements.count)) }
        guard let rest, elements.count > prefix.count else { return valid }
        if isFalse(rest) {
            // `items: false` after `prefixItems` caps the length: one finding for the array, not one per element.
            report(
                .tooManyItems, id, "items",
                "expected at most \(Self.count(prefix.count, "element", "elements")), found \(elements.count)",
                expected: "<= \(Self.count(prefix.count, "element", "elements"))",
                found: Self.count(elements.count, "element", "elements"))
            return false
        }
        for index in prefix.count..<elements.count where !evaluateChild(rest, elements[index], .index(index)) {
            valid = false
            if mode == .probe { return false }
        }
        if collecting { local.allItems = true }
        return valid
    }

    mutating func applyContains(
        _ contained: Int, _ minimum: Int, _ maximum: Int?, _ id: Int, _ elements: [JSONValue],
        _ local: inout Annotations, _ collecting: Bool
    ) -> Bool {
        var matches = 0
        for (index, element) in elements.enumerated() {
            // Without annotations to collect or a maximum to watch, enough matches settle it.
            if !collecting, maximum == nil, matches >= minimum { break }
            let mark = hold()
            var ignored = Annotations()
            path.append(.index(index))
            let matched = probe(contained, element, &ignored, collect: false)
            path.removeLast()
            release(mark, keep: false)
            guard matched else { continue }
            matches += 1
            if collecting { local.items.insert(index) }
        }
        if matches < minimum {
            let expected =
                "at least \(minimum) \(minimum == 1 ? "element" : "elements") matching \(describe(contained))"
            report(
                .containsCount, id, minimum == 1 ? "contains" : "minContains", "expected \(expected), found \(matches)",
                expected: expected, found: "\(matches) matching")
            return false
        }
        if let maximum, matches > maximum {
            let expected = "at most \(maximum) \(maximum == 1 ? "element" : "elements") matching \(describe(contained))"
            report(
                .containsCount, id, "maxContains", "expected \(expected), found \(matches)", expected: expected,
                found: "\(matches) matching")
            return false
        }
        return true
    }
}

extension SchemaEvaluation {
    /// `minItems`, `maxItems`, `minProperties`, `maxProperties`: how many elements or members, against the bound
    /// (`atLeast` or `atMost`, one of them given).
    mutating func checkCount(
        _ count: Int, atLeast minimum: Int? = nil, atMost maximum: Int? = nil, _ rule: RuleID, _ id: Int,
        _ keyword: String, _ noun: (singular: String, plural: String)
    ) -> Bool {
        let (bound, words, sign) = minimum.map { ($0, "at least", ">=") } ?? (maximum ?? .max, "at most", "<=")
        guard minimum.map({ count < $0 }) ?? (count > bound) else { return true }
        let bounded = Self.count(bound, noun.singular, noun.plural)
        report(
            rule, id, keyword, "expected \(words) \(bounded), found \(count)", expected: "\(sign) \(bounded)",
            found: Self.count(count, noun.singular, noun.plural))
        return false
    }
}

// MARK: A Swift model's decoder (the understudy dialect)

extension SchemaEvaluation {
    /// `x-pairs`: keys at even positions, values at odd ones, and an even count.
    mutating func applyPairs(
        _ keySchema: Int, _ valueSchema: Int, _ id: Int, _ elements: [JSONValue], _ local: inout Annotations,
        _ collecting: Bool
    ) -> Bool {
        var valid = true
        if elements.count % 2 != 0 {
            valid = false
            report(
                .oddPairs, id, "x-pairs",
                "expected an even number of elements (key, value, key, value, ...), found \(elements.count)",
                expected: "even element count", found: String(elements.count))
            if mode == .probe { return false }
        }
        for (index, element) in elements.enumerated()
        where !evaluateChild(index % 2 == 0 ? keySchema : valueSchema, element, .index(index)) {
            valid = false
            if mode == .probe { return false }
        }
        if collecting { local.allItems = true }
        return valid
    }

    mutating func checkModel(_ assertion: ModelAssertion, _ id: Int, _ value: JSONValue) -> Bool {
        switch assertion {
        case .format(let format):
            guard case .string(let string) = value, !format.matches(string) else { return true }
            let expected = "string in \(format) format"
            report(
                .formatMismatch, id, "format", "expected \(expected), found \(Render.quoted(string))",
                expected: expected, found: Render.quoted(string))
            return false
        case .integer64:
            // Valid JSON, but no Swift `Int` (nor a 64-bit integer on any server) holds it: said so, rather than
            // left to the decoder to call the document invalid.
            guard case .number(let number) = value, Self.isIntegral(number), number.intValue == nil else { return true }
            let negative = number.literal.hasPrefix("-")
            report(
                negative ? .belowMinimum : .aboveMaximum, id, "type",
                "\(number.literal) is out of range for a 64-bit integer", expected: "a 64-bit integer",
                found: number.literal)
            return false
        case .rules(let rules):
            guard case .object(let members) = value else { return true }
            var valid = true
            for rule in rules where !checkRule(rule, id, members) {
                valid = false
                if mode == .probe { return false }
            }
            return valid
        }
    }

    /// Whether a model's integer does not fit 64 bits: that alone is said of it (``ModelAssertion/integer64``), not
    /// also a bound it passes.
    func isBeyondModelInteger(_ number: JSONNumber, _ id: Int) -> Bool {
        guard storage.nodes[id].isModel, number.intValue == nil, Self.isIntegral(number) else { return false }
        return storage.nodes[id].keywords.contains { if case .model(.integer64) = $0 { true } else { false } }
    }

    /// A broken rule between properties, reported at the property it names first; values of the wrong type are
    /// left to their own findings.
    mutating func checkRule(_ rule: ObjectRule, _ id: Int, _ members: [String: JSONValue]) -> Bool {
        func present(_ name: String) -> JSONValue? {
            guard let value = members[name], value != .null else { return nil }
            return value
        }
        switch rule {
        case .after(let property, let other):
            guard let value = present(property), let bound = present(other),
                let isAfter = ObjectRule.isAfter(value, bound), !isAfter
            else { return true }
            report(
                .objectRuleBroken, id, ObjectRule.extensionName,
                "expected a value after \(other) (\(Render.found(bound))), found \(Render.found(value))",
                expected: "after \(other)", found: Render.found(value), at: .key(property))
            return false
        case .requires(let property, let required):
            guard let value = present(property), value != .bool(false) else { return true }
            var valid = true
            for name in required where present(name) == nil {
                valid = false
                report(
                    .objectRuleBroken, id, ObjectRule.extensionName,
                    "required when \(property) is set (expected a value)", expected: "a value",
                    found: members[name] == nil ? "absent" : "null", at: .key(name))
                if mode == .probe { return false }
            }
            return valid
        }
    }
}
