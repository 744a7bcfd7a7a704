/// Where a schema comparison is: the message's direction, the JSON path inside it, and whether an odd number of
/// `not`s is above (a `not` schema that admits more makes its parent admit less: the judgement turns round).
struct SchemaPlace {
    var side: MessageDirection
    var path: String
    var negated = false

    /// The direction object members and branches are judged in: the side's, or the other under a `not`.
    var judged: MessageDirection {
        negated ? (side == .request ? .response : .request) : side
    }

    /// `response /data/*/title`.
    var location: String {
        "\(side == .request ? "request" : "response") \(path.isEmpty ? "/" : path)"
    }

    func appending(_ segment: String) -> SchemaPlace {
        var place = self
        place.path += "/" + segment
        return place
    }
}

extension EndpointWalk {
    /// Compares two schemas as the engine compiles them, every keyword in its direction: what a request accepts
    /// less of breaks the app's requests, what an answer holds more of breaks its decoding.
    mutating func compareSchema(_ old: CompiledSchema?, _ new: CompiledSchema?, side: MessageDirection, path: String) {
        guard let old, let new else { return }
        compare(SchemaFacts(old), SchemaFacts(new), at: SchemaPlace(side: side, path: path))
    }

    private mutating func compare(_ old: [CompiledSchema], _ new: [CompiledSchema], at place: SchemaPlace) {
        compare(old.isEmpty ? .any : SchemaFacts(old), new.isEmpty ? .any : SchemaFacts(new), at: place)
    }

    private mutating func compare(_ before: SchemaFacts, _ after: SchemaFacts, at place: SchemaPlace) {
        // A pair of definitions is compared once per side for the whole diff, its changes found relative to it and
        // replayed wherever it is used (1,800 operations on 900 models linked in a ring cost one pass over the
        // models). A pair met again while it is compared ends the recursion: its changes are reported where it began.
        guard !before.definitions.isEmpty || !after.definitions.isEmpty else { return compareKeywords(before, after, at: place) }
        let key = "\(place.side) \(place.negated) \(before.definitions) \(after.definitions)"
        if let found = memo.found[key] { return replay(found, at: place) }
        // A chain deeper than the stack allows is compared from where another operation starts on it.
        guard !memo.stack.isExhausted, memo.comparing.insert(key).inserted else { return }
        let mark = changes.count
        var relative = place
        relative.path = ""
        compareKeywords(before, after, at: relative)
        let found = Array(changes[mark...])
        changes.removeSubrange(mark...)
        memo.comparing.remove(key)
        memo.found[key] = found
        replay(found, at: place)
    }

    /// Changes found relative to a definition, at the place it is used.
    private mutating func replay(_ found: [SpecChange], at place: SchemaPlace) {
        let label = place.side == .request ? "request " : "response "
        for var change in found {
            let inner = change.location.map { String($0.dropFirst(label.count)) } ?? "/"
            change.location = label + (inner == "/" ? (place.path.isEmpty ? "/" : place.path) : place.path + inner)
            change.endpoint = endpoint
            changes.append(change)
        }
    }

    private mutating func compareKeywords(_ before: SchemaFacts, _ after: SchemaFacts, at place: SchemaPlace) {
        if place.negated {
            compareNegated(before, after, at: place)
        } else if !compareTypes(before, after, at: place) {
            return
        }
        compareLimits(before, after, at: place)
        compareObjects(before, after, at: place)
        compareArrays(before, after, at: place)
        compareAlternatives(before, after, at: place)
        compareApplied(before.subschemas(Self.not), after.subschemas(Self.not), "not", at: place, negating: true)
        compareConditional(before, after, at: place)
    }

    /// Nullability, types, values and format; `false` when the type changed so that nothing below compares.
    private mutating func compareTypes(_ before: SchemaFacts, _ after: SchemaFacts, at place: SchemaPlace) -> Bool {
        let location = place.location
        let judged = place.side
        switch (before.nullable, after.nullable) {
        case (false, true):
            if judged == .response {
                add(.breaking, .nullableAdded, location, "the value may now be null, which the app's non-optional property cannot decode")
            } else {
                add(.compatible, .nullableAdded, location, "null is now accepted")
            }
        case (true, false):
            if judged == .request {
                add(.breaking, .nullableRemoved, location, "null is no longer accepted, and the app may send it")
            } else {
                add(.compatible, .nullableRemoved, location, "the value is never null any more")
            }
        default: break
        }
        let (oldTypes, newTypes) = (before.types, after.types)
        if oldTypes != newTypes {
            let change = "the type changed from \(before.kind) to \(after.kind)"
            if judged == .request, oldTypes.isSubset(of: newTypes) {
                add(.compatible, .typeChanged, location, change + ", which still accepts what is sent")
            } else if judged == .response, newTypes.isSubset(of: oldTypes) {
                add(.compatible, .typeChanged, location, change + ", within what the app decodes")
            } else {
                add(.breaking, .typeChanged, location, change)
                return false
            }
        }
        compareValues(before, after, at: place)
        return true
    }

    /// Under a `not`, what its schema admits more of, its parent admits less of: each change is judged as a
    /// constraint of the parent.
    private mutating func compareNegated(_ before: SchemaFacts, _ after: SchemaFacts, at place: SchemaPlace) {
        func narrows(_ old: Set<String>, _ new: Set<String>) -> Bool? {
            new.isSubset(of: old) ? true : old.isSubset(of: new) ? false : nil
        }
        if before.nullable != after.nullable {
            judge(!after.nullable, "null is \(after.nullable ? "now" : "no longer") among what not rules out", at: place)
        }
        if before.types != after.types {
            judge(
                after.types.isSubset(of: before.types) ? true : before.types.isSubset(of: after.types) ? false : nil,
                "the type not rules out changed from \(before.kind) to \(after.kind)", at: place)
        }
        let values = { (facts: SchemaFacts) in facts.values.map { Set($0.map { $0.serialized() }) } }
        if values(before) != values(after) {
            let (old, new) = (values(before), values(after))
            let narrowing: Bool? =
                switch (old, new) {
                case (let old?, let new?): narrows(old, new)
                case (nil, _?): true
                case (_?, nil): false
                case (nil, nil): nil
                }
            judge(narrowing, "the values not rules out changed from \(old.map { $0.sorted().joined(separator: ", ") } ?? "any") to \(new.map { $0.sorted().joined(separator: ", ") } ?? "any")", at: place)
        }
    }

    private static func not(_ keyword: SchemaKeyword) -> Int? { if case .not(let schema) = keyword { schema } else { nil } }

    /// A long enumeration (a time zone parameter's 419 names) shows its count.
    private func describe(_ values: [JSONValue]) -> String {
        values.count > 12 ? "\(values.count) values" : JSONValue.array(values).serialized()
    }

    private mutating func compareValues(_ before: SchemaFacts, _ after: SchemaFacts, at place: SchemaPlace) {
        let location = place.location
        let judged = place.judged
        switch (before.values, after.values) {
        case (let old?, let new?):
            for value in new where !old.contains(value) {
                if judged == .response {
                    add(.breaking, .enumValueAdded, location, "new enum value \(value); the app's enum cannot decode it")
                } else {
                    add(.compatible, .enumValueAdded, location, "new accepted value \(value)")
                }
            }
            for value in old where !new.contains(value) {
                if judged == .request {
                    add(.breaking, .enumValueRemoved, location, "enum value \(value) is no longer accepted, and the app may send it")
                } else {
                    add(.compatible, .enumValueRemoved, location, "enum value \(value) is no longer sent")
                }
            }
        case (_?, nil):
            add(judged == .response ? .breaking : .compatible, .enumValueAdded, location, "the value is no longer limited to an enumeration")
        case (nil, let new?):
            add(judged == .request ? .breaking : .compatible, .enumValueRemoved, location, "the value is now limited to \(describe(new))")
        case (nil, nil): break
        }
        let (oldFormat, newFormat) = (before.raw("format"), after.raw("format"))
        if oldFormat != newFormat {
            let from = oldFormat?.stringValue ?? "none"
            let to = newFormat?.stringValue ?? "none"
            add(judged == .response ? .breaking : .warning, .formatChanged, location, "the format changed from \(from) to \(to)")
        }
        // A string's content (JSON Schema's content vocabulary, annotations the engine does not assert): another
        // encoding or media type is read otherwise on both ends; its schema is a constraint.
        for keyword in ["contentEncoding", "contentMediaType"] where before.raw(keyword) != after.raw(keyword) {
            let from = before.raw(keyword)?.stringValue ?? "none"
            let to = after.raw(keyword)?.stringValue ?? "none"
            add(.breaking, .formatChanged, location, "\(keyword) changed from \(from) to \(to)")
        }
        switch (before.raw("contentSchema"), after.raw("contentSchema")) {
        case (nil, _?): judge(true, "contentSchema was added", at: place)
        case (_?, nil): judge(false, "contentSchema was removed", at: place)
        case (let old?, let new?) where old != new: judge(nil, "contentSchema changed", at: place)
        default: break
        }
    }

    /// What a constraint's change does: a request that accepts less refuses what the app may send, one that accepts
    /// more is compatible; an answer in narrower bounds holds what it held, one in wider bounds may hold what the old
    /// contract ruled out: a client that relies on it (a slider's range, a `switch`, a validating client) breaks, as
    /// oasdiff judges it. A change that neither widens nor narrows (a pattern for another) is a warning.
    private mutating func judge(
        _ narrows: Bool?, _ change: String, at place: SchemaPlace, relaxedAnswer: SpecChange.Impact = .breaking
    ) {
        // Under a `not`, a schema that admits less makes its parent admit more.
        switch (place.negated ? narrows.map(!) : narrows, place.side) {
        case (true?, .request): add(.breaking, .constraintChanged, place.location, change + ": values the app may send are refused")
        case (false?, .request): add(.compatible, .constraintChanged, place.location, change + ": more values are accepted")
        case (true?, .response): add(.compatible, .constraintChanged, place.location, change + ": the values sent are within the old bounds")
        case (false?, .response): add(relaxedAnswer, .constraintChanged, place.location, change + ": values outside the old bounds may be sent")
        case (nil, _): add(.warning, .constraintChanged, place.location, change)
        }
    }

    private mutating func compareLimits(_ before: SchemaFacts, _ after: SchemaFacts, at place: SchemaPlace) {
        let (old, new) = (before.limits, after.limits)
        for name in Set(old.keys).union(new.keys).sorted() where old[name] != new[name] {
            let change = "\(name) changed from \(old[name]?.literal ?? "none") to \(new[name]?.literal ?? "none")"
            // A pattern no client reads its values by: one relaxed in an answer is a warning (oasdiff reports none).
            judge(
                SchemaFacts.Limit.narrows(old[name], new[name]), change, at: place,
                relaxedAnswer: name == "pattern" ? .warning : .breaking)
        }
        let (oldRules, newRules) = (before.raw(ObjectRule.extensionName), after.raw(ObjectRule.extensionName))
        if oldRules != newRules {
            let from = oldRules?.serialized() ?? "none"
            let to = newRules?.serialized() ?? "none"
            add(.warning, .constraintChanged, place.location, "the rules between properties changed from \(from) to \(to)")
        }
    }

    /// A keyword that applies one sub-schema (`not`, `contains`, `propertyNames`, ...): both compared, or its
    /// arrival (fewer values admitted) and departure judged.
    private mutating func compareApplied(
        _ old: [CompiledSchema], _ new: [CompiledSchema], _ keyword: String, at place: SchemaPlace, negating: Bool = false
    ) {
        switch (old.isEmpty, new.isEmpty) {
        case (true, true): return
        case (false, false):
            var inner = place.appending("(\(keyword))")
            if negating { inner.negated.toggle() }
            compare(old, new, at: inner)
        case (true, false): judge(true, "\(keyword) was added", at: place)
        case (false, true): judge(false, "\(keyword) was removed", at: place)
        }
    }

    private mutating func compareObjects(_ before: SchemaFacts, _ after: SchemaFacts, at place: SchemaPlace) {
        let side = place.side
        let judged = place.judged
        let oldProperties = Dictionary(before.properties.map { ($0.name, $0.schemas) }, uniquingKeysWith: { a, _ in a })
        let newProperties = Dictionary(after.properties.map { ($0.name, $0.schemas) }, uniquingKeysWith: { a, _ in a })
        let oldRequired = before.required(in: side)
        let newRequired = after.required(in: side)
        var removed = Set(oldProperties.keys).subtracting(newProperties.keys)
        var added = Set(newProperties.keys).subtracting(oldProperties.keys)
        let json = { (schemas: [CompiledSchema]?) in schemas?.map(\.json) }

        // One property removed and one with the same schema added: a rename.
        for name in removed.sorted() {
            let candidates = added.filter { json(oldProperties[name]) == json(newProperties[$0]) }
            if candidates.count == 1, let renamed = candidates.first {
                let required = judged == .response ? oldRequired.contains(name) : newRequired.contains(renamed)
                add(required ? .breaking : .warning, .propertyRenamed, place.appending(name).location, "the property was renamed to \"\(renamed)\"")
                removed.remove(name)
                added.remove(renamed)
            }
        }
        // A request that refuses undeclared members refuses the one the app still sends.
        let refusesUndeclared = after.additional.contains { $0.registry.storage.isFalse($0.node) }
        for name in removed.sorted() {
            let location = place.appending(name).location
            if judged == .response {
                if oldRequired.contains(name) {
                    add(.breaking, .propertyRemoved, location, "a property the app's model requires was removed")
                } else {
                    add(.warning, .propertyRemoved, location, "an optional property was removed; the app now always gets nil")
                }
            } else if refusesUndeclared {
                add(.breaking, .propertyRemoved, location, "the property was removed and undeclared ones are refused; the app still sends it")
            } else {
                add(.warning, .propertyRemoved, location, "the property is no longer read; the app still sends it")
            }
        }
        for name in added.sorted() {
            let location = place.appending(name).location
            if judged == .request && newRequired.contains(name) {
                add(.breaking, .propertyAdded, location, "a new required property the app does not send")
            } else {
                add(.compatible, .propertyAdded, location, judged == .request ? "a new optional property" : "a new property the app ignores")
            }
        }
        for (name, oldSchemas) in before.properties {
            guard let newSchemas = newProperties[name] else { continue }
            let location = place.appending(name).location
            switch (oldRequired.contains(name), newRequired.contains(name)) {
            case (true, false):
                if judged == .response {
                    add(.breaking, .propertyOptional, location, "the property may now be absent, which the app's non-optional property cannot decode")
                } else {
                    add(.compatible, .propertyOptional, location, "the property became optional")
                }
            case (false, true):
                if judged == .request {
                    add(.breaking, .propertyRequired, location, "the property became required, and the app may omit it")
                } else {
                    add(.compatible, .propertyRequired, location, "the property is now always present")
                }
            default: break
            }
            compare(oldSchemas, newSchemas, at: place.appending(name))
        }
        // A name required but not declared: the object must have the member, whatever its value.
        for name in newRequired.subtracting(oldRequired).subtracting(newProperties.keys).sorted() {
            judge(true, "member \"\(name)\" became required", at: place)
        }
        for name in oldRequired.subtracting(newRequired).subtracting(oldProperties.keys).sorted() {
            judge(false, "member \"\(name)\" is no longer required", at: place)
        }
        compareMembers(before, after, at: place)
    }

    /// What the object's members other than its declared properties may be.
    private mutating func compareMembers(_ before: SchemaFacts, _ after: SchemaFacts, at place: SchemaPlace) {
        let (oldAdditional, newAdditional) = (before.additional, after.additional)
        let refuses = { (schemas: [CompiledSchema]) in schemas.contains { $0.registry.storage.isFalse($0.node) } }
        switch (refuses(oldAdditional), refuses(newAdditional)) {
        // The app's model sends and reads its declared properties only: members it does not declare being refused or
        // allowed changes nothing it does (a removed property it still sends is judged as such).
        case (false, true):
            add(place.judged == .request ? .warning : .compatible, .constraintChanged, place.location, "undeclared members are now refused")
        case (true, false):
            add(.compatible, .constraintChanged, place.location, "undeclared members are now allowed")
        case (true, true): break
        case (false, false):
            if !oldAdditional.isEmpty || !newAdditional.isEmpty {
                compare(oldAdditional, newAdditional, at: place.appending("*"))
            }
        }
        let (oldPatterns, newPatterns) = (before.patterns, after.patterns)
        for pattern in Set(oldPatterns.keys).union(newPatterns.keys).sorted() {
            let label = "patternProperties \(JSONValue.string(pattern))"
            compareApplied(oldPatterns[pattern] ?? [], newPatterns[pattern] ?? [], label, at: place)
        }
        let names = { (keyword: SchemaKeyword) -> Int? in if case .propertyNames(let schema) = keyword { schema } else { nil } }
        compareApplied(before.subschemas(names), after.subschemas(names), "propertyNames", at: place)
        let unevaluated = { (keyword: SchemaKeyword) -> Int? in
            if case .unevaluatedProperties(let schema) = keyword { schema } else { nil }
        }
        compareApplied(before.subschemas(unevaluated), after.subschemas(unevaluated), "unevaluatedProperties", at: place)
        let (oldDependent, newDependent) = (before.dependentRequired, after.dependentRequired)
        for name in Set(oldDependent.keys).union(newDependent.keys).sorted() {
            let (old, new) = (oldDependent[name] ?? [], newDependent[name] ?? [])
            guard old != new else { continue }
            let narrows: Bool? = new.isSuperset(of: old) ? true : new.isSubset(of: old) ? false : nil
            let change = "dependentRequired of \"\(name)\" changed from \(old.sorted()) to \(new.sorted())"
            judge(narrows, change, at: place)
        }
        let (oldSchemas, newSchemas) = (before.dependentSchemas, after.dependentSchemas)
        for name in Set(oldSchemas.keys).union(newSchemas.keys).sorted() {
            compareApplied(oldSchemas[name] ?? [], newSchemas[name] ?? [], "dependentSchemas \"\(name)\"", at: place)
        }
    }

    private mutating func compareArrays(_ before: SchemaFacts, _ after: SchemaFacts, at place: SchemaPlace) {
        if let oldKey = before.pairs("key"), let newKey = after.pairs("key") {
            compare(SchemaFacts(oldKey), SchemaFacts(newKey), at: place.appending("key"))
        }
        if let oldValue = before.pairs("value"), let newValue = after.pairs("value") {
            compare(SchemaFacts(oldValue), SchemaFacts(newValue), at: place.appending("value"))
        }
        let rest = { (keyword: SchemaKeyword) -> Int? in if case .items(_, let rest?) = keyword { rest } else { nil } }
        let (oldRest, newRest) = (before.subschemas(rest), after.subschemas(rest))
        let (oldPrefix, newPrefix) = (before.prefixItems, after.prefixItems)
        // An element the prefix does not name is the rest's.
        for index in 0..<max(oldPrefix.count, newPrefix.count) {
            let old = index < oldPrefix.count ? [oldPrefix[index]] : oldRest
            let new = index < newPrefix.count ? [newPrefix[index]] : newRest
            compare(old, new, at: place.appending("\(index)"))
        }
        if !oldRest.isEmpty || !newRest.isEmpty {
            compare(oldRest, newRest, at: place.appending("*"))
        }
        let contains = { (keyword: SchemaKeyword) -> Int? in if case .contains(let schema, _, _) = keyword { schema } else { nil } }
        compareApplied(before.subschemas(contains), after.subschemas(contains), "contains", at: place)
        let unevaluated = { (keyword: SchemaKeyword) -> Int? in
            if case .unevaluatedItems(let schema) = keyword { schema } else { nil }
        }
        compareApplied(before.subschemas(unevaluated), after.subschemas(unevaluated), "unevaluatedItems", at: place)
    }

    /// `anyOf`/`oneOf` branches, matched as written, then by the model they name, then the one left on each side:
    /// a branch more is a shape an answer may have that the app cannot decode, a branch less one a request may have
    /// that is refused.
    private mutating func compareAlternatives(_ before: SchemaFacts, _ after: SchemaFacts, at place: SchemaPlace) {
        let (oldGroups, newGroups) = (before.alternatives, after.alternatives)
        guard !oldGroups.isEmpty || !newGroups.isEmpty else { return }
        guard let old = oldGroups.first, let new = newGroups.first else {
            let keyword = (oldGroups.first ?? newGroups.first)!.keyword
            judge(oldGroups.isEmpty, "\(keyword) was \(oldGroups.isEmpty ? "added" : "removed")", at: place)
            return
        }
        var unmatched = Array(new.branches.indices)
        var pairs: [(Int, Int)] = []
        var left: [Int] = []
        for (index, branch) in old.branches.enumerated() {
            if let match = unmatched.first(where: { new.branches[$0].json == branch.json }) {
                pairs.append((index, match))
                unmatched.removeAll { $0 == match }
            } else {
                left.append(index)
            }
        }
        for index in left {
            guard let reference = old.branches[index].json["$ref"],
                let match = unmatched.first(where: { new.branches[$0].json["$ref"] == reference })
            else { continue }
            pairs.append((index, match))
            unmatched.removeAll { $0 == match }
            left.removeAll { $0 == index }
        }
        if left.count == 1, unmatched.count == 1 {
            pairs.append((left[0], unmatched[0]))
            left = []
            unmatched = []
        }
        // A branch that admits what a branch on the other side admits (`Rabbit` written as `Cat` is) changes
        // nothing the union admits.
        let oldShapes = old.branches.map(Self.shape)
        let newShapes = new.branches.map(Self.shape)
        left.removeAll { newShapes.contains(oldShapes[$0]) }
        unmatched.removeAll { oldShapes.contains(newShapes[$0]) }
        let judged = place.judged
        for index in left {
            if judged == .request {
                add(.breaking, .alternativeRemoved, place.location, "\(old.keyword) branch \(index) is no longer accepted, and the app may send it")
            } else {
                add(.compatible, .alternativeRemoved, place.location, "\(old.keyword) branch \(index) is no longer sent")
            }
        }
        for index in unmatched {
            if judged == .response {
                add(.breaking, .alternativeAdded, place.location, "new \(new.keyword) branch \(index); the app cannot decode it")
            } else {
                add(.compatible, .alternativeAdded, place.location, "new accepted \(new.keyword) branch \(index)")
            }
        }
        for (oldIndex, newIndex) in pairs {
            compare(SchemaFacts(old.branches[oldIndex]), SchemaFacts(new.branches[newIndex]), at: place.appending("(\(new.keyword) \(newIndex))"))
        }
        if old.keyword == "anyOf", new.keyword == "oneOf" {
            judge(true, "anyOf became oneOf: a value may match only one branch", at: place)
        } else if old.keyword == "oneOf", new.keyword == "anyOf" {
            judge(false, "oneOf became anyOf", at: place)
        }
    }

    /// A branch as written behind its `$ref`s, without the annotations that do not change what it admits.
    private static func shape(_ schema: CompiledSchema) -> JSONValue {
        var current = schema
        for _ in 0..<16 {
            let keywords = current.registry.storage.nodes[current.node].keywords
            guard keywords.count == 1, case .reference(.resolved(let target), _) = keywords[0] else { break }
            current = current.at(target)
        }
        guard case .object(var members) = current.json else { return current.json }
        for annotation in ["title", "description", "example", "examples", "$comment"] { members[annotation] = nil }
        return .object(members)
    }

    private mutating func compareConditional(_ before: SchemaFacts, _ after: SchemaFacts, at place: SchemaPlace) {
        switch (before.conditional, after.conditional) {
        case (nil, nil): return
        case (nil, _?): judge(true, "if/then/else was added", at: place)
        case (_?, nil): judge(false, "if/then/else was removed", at: place)
        case (let old?, let new?):
            if old.condition.json != new.condition.json { judge(nil, "the if condition changed", at: place) }
            compare(old.then.map { [$0] } ?? [], new.then.map { [$0] } ?? [], at: place.appending("(then)"))
            compare(old.otherwise.map { [$0] } ?? [], new.otherwise.map { [$0] } ?? [], at: place.appending("(else)"))
        }
    }
}
