import Foundation

/// The values ``SchemaGenerator`` tries for a set of facts, one kind at a time.
extension GenerationRun {
    /// Candidates for `facts`, best first: the values of `const`/`enum` when there are any, else one value of each
    /// kind the facts admit (the hint's kind, then the kinds the keywords speak of), then more draws of the first.
    mutating func candidates(_ facts: GenerationFacts, hint: JSONValue?, small: Bool) -> CandidateSequence {
        if !facts.constants.isEmpty || !facts.enumerations.isEmpty {
            return CandidateSequence(values: enumerated(facts, hint: hint))
        }
        let kinds = order(facts, hint: hint)
        guard let first = kinds.first else { return CandidateSequence(values: []) }
        return CandidateSequence(kinds: kinds + [first, first], facts: facts, hint: hint, small: small)
    }

    /// The values `const` and `enum` leave, the hint first, then from a random start.
    private mutating func enumerated(_ facts: GenerationFacts, hint: JSONValue?) -> [JSONValue] {
        var values = facts.constants.isEmpty ? facts.enumerations[0] : [facts.constants[0]]
        values = values.filter { value in
            facts.constants.allSatisfy { JSONEquality.equal($0, value) }
                && facts.enumerations.allSatisfy { $0.contains { JSONEquality.equal($0, value) } }
                && !facts.excluded.contains { JSONEquality.equal($0, value) }
        }
        guard values.count > 1 else { return values }
        let start = random.int(in: 0...(values.count - 1))
        values = Array(values[start...] + values[..<start])
        if let hint, let index = values.firstIndex(where: { JSONEquality.equal($0, hint) }) {
            values.insert(values.remove(at: index), at: 0)
        }
        return Array(values.prefix(64))
    }

    private func order(_ facts: GenerationFacts, hint: JSONValue?) -> [JSONTypes] {
        var order: [JSONTypes] = []
        func add(_ kind: JSONTypes) {
            if facts.kinds.contains(kind), !order.contains(kind) { order.append(kind) }
        }
        if let hint { add(JSONTypes(kindOf: hint)) }
        for kind in JSONTypes.preference where facts.hinted.contains(kind) {
            if kind == .number { add(.integer) }
            add(kind)
        }
        for kind in JSONTypes.preference { add(kind) }
        return order
    }

    /// One value of `kind` for `facts`, or `nil` when the facts leave that kind no value.
    mutating func build(_ kind: JSONTypes, _ facts: GenerationFacts, hint: JSONValue?, small: Bool)
        -> JSONValue?
    {
        switch kind {
        case .null: return .null
        case .boolean: return .bool(hint?.boolValue ?? random.chance(0.5))
        case .integer: return number(facts, integral: true, hint: hint)
        case .number: return number(facts, integral: false, hint: hint)
        case .string: return string(facts, hint: hint?.stringValue).map(JSONValue.string)
        case .array: return array(facts, hint: hint?.arrayValue, small: small)
        default: return object(facts, hint: hint?.objectValue, small: small)
        }
    }

    // MARK: Numbers

    /// A number within the bounds and a multiple of every `multipleOf`, near the hint or a small random one.
    private mutating func number(_ facts: GenerationFacts, integral: Bool, hint: JSONValue?) -> JSONValue? {
        var lower = facts.lower.flatMap { Decimal(string: $0.bound.description) }
        var upper = facts.upper.flatMap { Decimal(string: $0.bound.description) }
        let lowerExclusive = facts.lower?.exclusive ?? false
        let upperExclusive = facts.upper?.exclusive ?? false
        for format in facts.formats {
            let limit: Decimal? =
                switch format {
                case .int32: 2_147_483_647
                case .int64: 9_223_372_036_854_775_807
                default: nil
                }
            guard let limit else { continue }
            lower = max(lower ?? -limit - 1, -limit - 1)
            upper = min(upper ?? limit, limit)
        }
        var step: Decimal? = integral ? 1 : nil
        if let divisor = facts.multiples.first.flatMap({ Decimal(string: $0.description) }), divisor > 0 {
            step = integral ? Self.integralMultiple(of: divisor) : divisor
        }
        let target: Decimal
        if let literal = hint?.numberLiteral, let value = Decimal(string: literal) {
            target = value
        } else {
            let spread = Decimal(random.int(in: 0...9_999)) / 100
            switch (lower, upper) {
            case (let lower?, let upper?): target = lower + (upper - lower) * spread / 100
            case (let lower?, nil): target = lower + spread
            case (nil, let upper?): target = upper - spread
            case (nil, nil): target = 1 + spread
            }
        }
        guard let step else {
            // No step: two decimals where they fit between the bounds, else their midpoint.
            var value = Self.rounded(target, scale: 2, .plain)
            if let lower, value < lower || (lowerExclusive && value == lower) {
                value = upper.map { (lower + $0) / 2 } ?? lower + 1
            }
            if let upper, value > upper || (upperExclusive && value == upper) {
                value = lower.map { ($0 + upper) / 2 } ?? upper - 1
            }
            return Self.json(value)
        }
        var multiplier = Self.rounded(target / step, scale: 0, .plain)
        if let lower {
            let least = Self.rounded(lower / step, scale: 0, .up)
            if multiplier < least { multiplier = least }
            if lowerExclusive, multiplier * step == lower { multiplier += 1 }
        }
        if let upper {
            let most = Self.rounded(upper / step, scale: 0, .down)
            if multiplier > most { multiplier = most }
            if upperExclusive, multiplier * step == upper { multiplier -= 1 }
        }
        // Other `multipleOf`s: the nearest multiplier whose product is a multiple of them all.
        let divisors = facts.multiples.dropFirst()
        for offset in 0..<200 {
            let value = (multiplier + Decimal(offset)) * step
            if let upper, value > upper { break }
            guard let exact = ExactDecimal(literal: value.description) else { break }
            if divisors.allSatisfy({ exact.isMultiple(of: $0) }) { return Self.json(value) }
        }
        return nil
    }

    /// The least positive integral multiple of `divisor` (`0.3` gives `3`, `2.5` gives `5`).
    private static func integralMultiple(of divisor: Decimal) -> Decimal {
        for factor in 1...10_000 {
            let product = divisor * Decimal(factor)
            if rounded(product, scale: 0, .plain) == product { return product }
        }
        return divisor
    }

    private static func rounded(_ value: Decimal, scale: Int, _ mode: Decimal.RoundingMode) -> Decimal {
        var value = value
        var result = Decimal()
        NSDecimalRound(&result, &value, scale, mode)
        return result
    }

    private static func json(_ value: Decimal) -> JSONValue {
        .number(JSONNumber(uncheckedLiteral: value.description))
    }

    // MARK: Strings

    /// A string of the right length in code points that every `pattern` and `format` accepts: the hint, a sample
    /// of the format, or a draw from the pattern, fitted to the lengths.
    mutating func string(_ facts: GenerationFacts, hint: String?) -> String? {
        var texts: [String] = hint.map { [$0] } ?? []
        for format in facts.formats {
            if let sample = sample(format) { texts.append(sample) }
        }
        for pattern in facts.patterns {
            guard let sample = PatternSample(pattern.source) else { continue }
            for _ in 0..<6 { texts.append(sample.draw(using: &random)) }
        }
        texts.append(random.pick(Self.words))
        var fallback: String?
        for text in texts {
            let fitted = Self.fit(text, minimum: facts.minLength, maximum: facts.maxLength)
            fallback = fallback ?? fitted
            guard facts.patterns.allSatisfy({ $0.matches(fitted) }), facts.formats.allSatisfy({ $0.matches(fitted) }),
                !facts.excluded.contains(.string(fitted))
            else { continue }
            return fitted
        }
        return fallback
    }

    /// Plain text for a string nothing else shapes: varied, so `uniqueItems` finds distinct ones.
    private static let words = [
        "understudy", "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliett",
        "kilo", "lima",
    ]

    /// `text` padded or cut to a length between the bounds, counted in code points as JSON Schema counts them.
    private static func fit(_ text: String, minimum: Int, maximum: Int?) -> String {
        var scalars = Array(text.unicodeScalars)
        if let maximum, scalars.count > maximum { scalars.removeLast(scalars.count - maximum) }
        if scalars.count < minimum {
            let padding = Array("understudy".unicodeScalars)
            while scalars.count < minimum { scalars.append(padding[scalars.count % padding.count]) }
        }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars)
        return String(result)
    }

    /// A realistic value of a format, valid in it.
    private mutating func sample(_ format: JSONSchemaFormat) -> String? {
        switch format {
        case .dateTime: "2025-11-15T14:30:00Z"
        case .date: "2025-11-15"
        case .time: "14:30:00Z"
        case .duration: "P3D"
        case .email, .idnEmail: "ada@example.com"
        case .hostname, .idnHostname: "api.example.com"
        case .ipv4: "192.0.2.10"
        case .ipv6: "2001:db8::10"
        case .uri, .iri: "https://example.com/understudy"
        case .uriReference, .iriReference: "/understudy"
        case .uuid: random.uuid()
        case .uriTemplate: "https://example.com/items/{id}"
        case .jsonPointer: "/items/0"
        case .relativeJSONPointer: "0/items"
        case .regex: "^[a-z]+$"
        case .byte: "dW5kZXJzdHVkeQ=="
        case .int32, .int64: nil
        }
    }

    // MARK: Arrays

    /// Elements for each index (its `prefixItems` or `items` schema, `contains` where it needs matches), unique
    /// when `uniqueItems` says so, as many as the hint has or a few, within the counts.
    private mutating func array(_ facts: GenerationFacts, hint: [JSONValue]?, small: Bool) -> JSONValue? {
        var upper = facts.maxItems ?? .max
        for entry in facts.items {
            if let rest = entry.rest, storage.isFalse(rest) { upper = min(upper, entry.prefix.count) }
        }
        let needed = facts.contains.map(\.minimum).max() ?? 0
        let lower = max(facts.minItems, needed)
        guard lower <= upper else { return nil }
        var count: Int
        if small {
            count = lower
        } else {
            let prefix = facts.items.map(\.prefix.count).max() ?? 0
            count = hint?.count ?? max(prefix, random.int(in: 1...2))
        }
        count = min(max(count, lower), upper, 10_000)
        var elements: [JSONValue] = []
        for index in 0..<count {
            var nodes: [Int] = []
            var covered = false
            for entry in facts.items {
                if index < entry.prefix.count {
                    nodes.append(entry.prefix[index])
                    covered = true
                } else if let rest = entry.rest {
                    nodes.append(rest)
                    covered = true
                }
            }
            var negated: [Int] = []
            for entry in facts.contains {
                if index < entry.minimum {
                    nodes.append(entry.schema)
                    covered = true
                } else if entry.maximum != nil {
                    negated.append(entry.schema)
                }
            }
            if !covered { nodes += facts.unevaluatedItems }
            var element: JSONValue?
            for attempt in 0..<(facts.uniqueItems ? 4 : 1) {
                element = solve(nodes, negated: negated, hint: attempt == 0 ? hint?[safe: index] : nil)
                if facts.uniqueItems, let candidate = element, elements.contains(where: { JSONEquality.equal($0, candidate) })
                {
                    element = nil
                    continue
                }
                break
            }
            guard let element else {
                if index >= lower { break }
                return nil
            }
            elements.append(element)
        }
        return .array(elements)
    }

    // MARK: Objects

    /// The required members, the optional ones the hint has (or most declared ones), more where `minProperties`
    /// asks, each member's value made for the schemas that apply to its name.
    private mutating func object(_ facts: GenerationFacts, hint: [String: JSONValue]?, small: Bool) -> JSONValue? {
        var declared: [String] = []
        var seen: Set<String> = []
        for declaration in facts.members {
            for property in declaration.properties where seen.insert(property.name).inserted {
                declared.append(property.name)
            }
        }
        var required = facts.required.filter { !isExcludedByDirection($0, facts) }
        var keys = required
        var optional = declared.filter {
            !required.contains($0) && !facts.forbidden.contains($0) && !isExcludedByDirection($0, facts)
        }
        if let hint {
            keys += optional.filter { hint[$0] != nil }
        } else if !small {
            keys += optional.filter { _ in random.chance(0.8) }
        }
        optional.removeAll { keys.contains($0) }
        if let maximum = facts.maxProperties, keys.count > maximum {
            guard required.count <= maximum else { return nil }
            keys = Array(keys.prefix(maximum))
        }
        // `dependentRequired`: a present member brings the ones it requires.
        var index = 0
        while index < keys.count {
            for requirement in facts.dependentRequired where requirement.property == keys[index] {
                for name in requirement.required where !keys.contains(name) {
                    keys.append(name)
                    required.append(name)
                }
            }
            index += 1
        }
        var fresh = 0
        while keys.count < facts.minProperties, fresh < facts.minProperties + 8 {
            fresh += 1
            if !optional.isEmpty {
                keys.append(optional.removeFirst())
            } else if let name = freshName(facts, taken: keys, attempt: fresh) {
                keys.append(name)
            }
        }
        var members: [String: JSONValue] = [:]
        for key in keys {
            if !facts.propertyNames.isEmpty, !accepts(facts.propertyNames, negated: [], .string(key)) {
                if required.contains(key) { return nil }
                continue
            }
            guard let value = solve(schemas(for: key, facts), negated: [], hint: hint?[key]) else {
                if required.contains(key) { return nil }
                continue
            }
            members[key] = value
        }
        return .object(members)
    }

    /// The schemas a member's value must satisfy: for each `properties` group, the property's schema, else the
    /// `patternProperties` its name matches, else `additionalProperties`; `unevaluatedProperties` when none
    /// evaluated it.
    private func schemas(for key: String, _ facts: GenerationFacts) -> [Int] {
        var nodes: [Int] = []
        var evaluated = false
        for declaration in facts.members {
            var matched = false
            if let schema = declaration.propertyIndex[key] {
                nodes.append(schema)
                matched = true
            }
            for pattern in declaration.patterns where pattern.pattern.matches(key) {
                nodes.append(pattern.schema)
                matched = true
            }
            if !matched, let additional = declaration.additional {
                nodes.append(additional)
                matched = true
            }
            evaluated = evaluated || matched
        }
        if !evaluated { nodes += facts.unevaluatedProperties }
        return nodes
    }

    /// A member name for `minProperties`: drawn from a `patternProperties` pattern, or made for `propertyNames`,
    /// or plain; `nil` when it would be taken.
    private mutating func freshName(_ facts: GenerationFacts, taken: [String], attempt: Int) -> String? {
        var names: [String] = []
        for declaration in facts.members {
            for pattern in declaration.patterns {
                if let sample = PatternSample(pattern.pattern.source) { names.append(sample.draw(using: &random)) }
            }
        }
        if !facts.propertyNames.isEmpty, let name = solve(facts.propertyNames, negated: [], hint: nil)?.stringValue {
            names.append(name)
        }
        names.append("property\(attempt)")
        return names.first { !taken.contains($0) }
    }

    /// Whether the message direction leaves a declared member out: `readOnly` in a request, `writeOnly` in a
    /// response.
    private func isExcludedByDirection(_ key: String, _ facts: GenerationFacts) -> Bool {
        guard let direction = configuration.direction else { return false }
        return facts.members.contains { declaration in
            declaration.propertyIndex[key].map { storage.isLeftOut($0, in: direction) } ?? false
        }
    }
}

/// The candidates of one solve, built one at a time: a value of a kind is only built when the one before it failed.
struct CandidateSequence {
    private var values: [JSONValue]
    private var kinds: [JSONTypes] = []
    private var facts: GenerationFacts?
    private var hint: JSONValue?
    private var small = false

    init(values: [JSONValue]) {
        self.values = values
    }

    init(kinds: [JSONTypes], facts: GenerationFacts, hint: JSONValue?, small: Bool) {
        values = []
        self.kinds = kinds
        self.facts = facts
        self.hint = hint
        self.small = small
    }

    /// The next candidate, or `nil` when there is none left.
    mutating func next(_ run: inout GenerationRun) -> JSONValue? {
        if !values.isEmpty { return values.removeFirst() }
        guard let facts else { return nil }
        while !kinds.isEmpty {
            let kind = kinds.removeFirst()
            // The hint is for the first try only: the later draws of a kind are fresh, and the last ones as small as
            // they can be (only required members: what a `not`, a `maxProperties` or a dependent schema may need).
            let hint = self.hint
            self.hint = nil
            let last = kinds.isEmpty
            if let value = run.build(kind, facts, hint: hint, small: small || last) { return value }
        }
        return nil
    }
}

extension Array {
    fileprivate subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
