import Foundation
import UnderstudyCore

/// A compiled filter over the row at a position: `true`, `false`, or `nil` for SQL's unknown (a comparison
/// with NULL).
package typealias PostgrestPredicate = (Int) -> Bool?

/// Turns parsed filters into predicates over one table's rows, checking columns and operand types once,
/// so evaluating a row never parses anything: values come from column vectors, by row position.
package struct PostgrestFilterCompiler {
    package let table: PostgrestTableInfo
    /// Checked while regular expressions backtrack, whose cost can grow exponentially with the pattern.
    package let timeout: PostgrestStatementTimeout
    /// The values of a field for every row of the table.
    package let values: (PostgrestExtractor) -> [PostgrestValue?]
    /// Whether a row's embed of this name is present, for `embed=is.null` / `embed=not.is.null` filters.
    package let embedPresence: (String) -> ((Int) -> Bool)?

    package func compile(_ condition: PostgrestCondition) throws(PostgrestError) -> PostgrestPredicate {
        switch condition {
        case .filter(let filter):
            let predicate = try compile(filter)
            guard filter.negated else { return predicate }
            return { predicate($0).map { !$0 } }
        case .group(let isOr, let negated, let terms):
            var predicates: [PostgrestPredicate] = []
            for term in terms { predicates.append(try compile(term)) }
            let combined: PostgrestPredicate = isOr ? Self.or(predicates) : Self.and(predicates)
            guard negated else { return combined }
            return { combined($0).map { !$0 } }
        }
    }

    /// SQL's three-valued AND.
    package static func and(_ predicates: [PostgrestPredicate]) -> PostgrestPredicate {
        if predicates.count == 1 { return predicates[0] }
        return { position in
            var unknown = false
            for predicate in predicates {
                switch predicate(position) {
                case false?: return false
                case nil: unknown = true
                case true?: continue
                }
            }
            return unknown ? nil : true
        }
    }

    /// SQL's three-valued OR.
    package static func or(_ predicates: [PostgrestPredicate]) -> PostgrestPredicate {
        { position in
            var unknown = false
            for predicate in predicates {
                switch predicate(position) {
                case true?: return true
                case nil: unknown = true
                case false?: continue
                }
            }
            return unknown ? nil : false
        }
    }

    private func compile(_ filter: PostgrestFilter) throws(PostgrestError) -> PostgrestPredicate {
        guard table.column(filter.field.column) != nil else {
            if filter.field.path.isEmpty, filter.op == .is, case .value(let value) = filter.operand,
                let present = embedPresence(filter.field.column)
            {
                switch value.lowercased() {
                case "null": return { !present($0) }
                case "not_null": return { present($0) }
                default: break
                }
            }
            throw PostgrestErrors.unknownColumn(table.name, filter.field.column)
        }
        let extractor = try PostgrestExtractor(filter.field, in: table)
        let type = extractor.type
        let column = values(extractor)
        switch filter.op {
        case .eq, .neq, .gt, .gte, .lt, .lte:
            let test = Self.comparison(filter.op)
            if filter.quantifier != nil {
                let values = try literals(filter, type: type)
                return quantified(filter, column) { value in values.map { test(PostgrestValue.compare(value, $0)) } }
            }
            let literal = try PostgrestLiteral.value(try single(filter), type: type)
            return { position in
                guard let value = column[position] else { return nil }
                return test(PostgrestValue.compare(value, literal))
            }
        case .like, .ilike:
            guard type == .text else { throw PostgrestErrors.noOperator(type, filter.op.symbol) }
            let patterns = try texts(filter).map { PostgrestLikePattern($0, caseInsensitive: filter.op == .ilike) }
            return quantified(filter, column) { value in patterns.map { $0.matches(value.text) } }
        case .match, .imatch:
            guard type == .text else { throw PostgrestErrors.noOperator(type, filter.op.symbol) }
            var expressions: [NSRegularExpression] = []
            for pattern in try texts(filter) {
                do {
                    expressions.append(
                        try NSRegularExpression(
                            pattern: pattern, options: filter.op == .imatch ? [.caseInsensitive] : []))
                } catch {
                    throw PostgrestErrors.make(
                        .badRequest, code: "2201B", "invalid regular expression: \(pattern)")
                }
            }
            let timeout = timeout
            return quantified(filter, column) { value in
                let text = value.text
                let range = NSRange(text.startIndex..., in: text)
                return expressions.map { Self.firstMatch($0, in: text, range: range, timeout: timeout) }
            }
        case .in:
            guard case .list(let items) = filter.operand else { throw PostgrestErrors.noOperator(type, "IN") }
            var values = Set<PostgrestValue>()
            for item in items { values.insert(try PostgrestLiteral.value(item, type: type)) }
            if type == .jsonb || type == .timestamp {
                // Values equal for SQL may differ as Swift values (`1` and `1.0` in JSON): compare one by one.
                let list = Array(values)
                return { position in
                    guard let value = column[position] else { return nil }
                    return list.contains { PostgrestValue.compare(value, $0) == 0 }
                }
            }
            return { position in
                guard let value = column[position] else { return nil }
                return values.contains(value)
            }
        case .is:
            let value = try single(filter).lowercased()
            switch value {
            case "null": return { column[$0] == nil }
            case "not_null": return { column[$0] != nil }
            default:
                guard type == .boolean else {
                    throw PostgrestErrors.make(
                        .badRequest, code: "42804",
                        "argument of IS \(value.uppercased()) must be type boolean, not type \(type.sqlName)")
                }
                switch value {
                case "true": return { column[$0] == .bool(true) }
                case "false": return { column[$0] == .bool(false) }
                default: return { column[$0] == nil }
                }
            }
        case .isdistinct:
            let literal = try PostgrestLiteral.value(try single(filter), type: type)
            return { position in
                guard let value = column[position] else { return true }
                return PostgrestValue.compare(value, literal) != 0
            }
        case .fts, .plfts, .phfts, .wfts:
            guard type == .text else { throw PostgrestErrors.noOperator(type, filter.op.symbol) }
            let query = try single(filter)
            let phrase = filter.op == .phfts
            let words = Self.words(query)
            return { position in
                guard let value = column[position] else { return nil }
                let text = Self.words(value.text)
                if phrase {
                    guard !words.isEmpty, words.count <= text.count else { return words.isEmpty }
                    return (0...(text.count - words.count)).contains { Array(text[$0..<$0 + words.count]) == words }
                }
                let present = Set(text)
                return words.allSatisfy(present.contains)
            }
        case .cs, .cd, .ov:
            guard type == .jsonb || type == .textArray, filter.op != .ov || type == .textArray else {
                throw PostgrestErrors.noOperator(type, filter.op.symbol)
            }
            guard case .json(let operand) = try PostgrestLiteral.value(try single(filter), type: type) else {
                throw PostgrestErrors.invalidInput(type, try single(filter))
            }
            let op = filter.op
            return { position in
                guard case .json(let value)? = column[position] else { return nil }
                switch op {
                case .cs: return Self.contains(value, operand)
                case .cd: return Self.contains(operand, value)
                default:
                    let elements = Set(value.arrayValue ?? [])
                    return (operand.arrayValue ?? []).contains(where: elements.contains)
                }
            }
        case .sl, .sr, .nxr, .nxl, .adj:
            throw PostgrestErrors.noOperator(type, filter.op.symbol)
        }
    }

    /// Whether `expression` matches somewhere in `text`; `false` once the statement is out of time.
    ///
    /// `.reportProgress` makes ICU call back while it backtracks, so a catastrophic pattern is stopped
    /// within milliseconds of the deadline instead of running on after the client gave up.
    private static func firstMatch(
        _ expression: NSRegularExpression, in text: String, range: NSRange, timeout: PostgrestStatementTimeout
    ) -> Bool {
        guard !timeout.expired else { return false }
        var found = false
        expression.enumerateMatches(in: text, options: [.reportProgress], range: range) { result, _, stop in
            if result != nil {
                found = true
                stop.pointee = true
            } else if timeout.check() {
                stop.pointee = true
            }
        }
        return found
    }

    private static func comparison(_ op: PostgrestOperator) -> (Int) -> Bool {
        switch op {
        case .eq: { $0 == 0 }
        case .neq: { $0 != 0 }
        case .gt: { $0 > 0 }
        case .gte: { $0 >= 0 }
        case .lt: { $0 < 0 }
        default: { $0 <= 0 }
        }
    }

    /// Applies `(any)` / `(all)` to the per-item results (one item without a quantifier).
    private func quantified(
        _ filter: PostgrestFilter, _ column: [PostgrestValue?], _ results: @escaping (PostgrestValue) -> [Bool]
    ) -> PostgrestPredicate {
        let all = filter.quantifier == .all
        return { position in
            guard let value = column[position] else { return nil }
            let outcomes = results(value)
            return all ? outcomes.allSatisfy { $0 } : outcomes.contains(true)
        }
    }

    private func single(_ filter: PostgrestFilter) throws(PostgrestError) -> String {
        switch filter.operand {
        case .value(let value): return value
        case .list(let items): return "{" + items.joined(separator: ",") + "}"
        }
    }

    private func texts(_ filter: PostgrestFilter) throws(PostgrestError) -> [String] {
        switch filter.operand {
        case .value(let value): return [value]
        case .list(let items): return items
        }
    }

    private func literals(_ filter: PostgrestFilter, type: PostgrestType) throws(PostgrestError) -> [PostgrestValue] {
        var values: [PostgrestValue] = []
        for text in try texts(filter) { values.append(try PostgrestLiteral.value(text, type: type)) }
        return values
    }

    /// Lower-cased words, as a simple stand-in for `to_tsvector`.
    private static func words(_ text: String) -> [String] {
        text.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
            .filter { !["and", "or", "not"].contains($0) }
    }

    /// jsonb containment (`@>`): objects by member, arrays by element, scalars by equality.
    package static func contains(_ container: JSONValue, _ contained: JSONValue) -> Bool {
        switch (container, contained) {
        case (.object(let outer), .object(let inner)):
            return inner.allSatisfy { key, value in outer[key].map { contains($0, value) } ?? false }
        case (.array(let outer), .array(let inner)):
            return inner.allSatisfy { element in outer.contains { contains($0, element) } }
        case (.array(let outer), _):
            return outer.contains { $0 == contained }
        case (.number(let a), .number(let b)):
            return a.doubleValue == b.doubleValue
        default:
            return container == contained
        }
    }
}
