import UnderstudyCore

/// A column with an optional JSON path: `metadata->card->>brand`.
package struct PostgrestField: Sendable, Hashable, CustomStringConvertible {
    /// One `->key` (JSON) or `->>key` (text) step.
    package struct Step: Sendable, Hashable {
        package var key: String
        package var asText: Bool
    }

    package var column: String
    package var path: [Step] = []

    package init(column: String, path: [Step] = []) {
        self.column = column
        self.path = path
    }

    /// The name PostgREST gives the output key: the last path key, or the column.
    package var outputName: String { path.last?.key ?? column }

    package var description: String {
        column + path.map { ($0.asText ? "->>" : "->") + $0.key }.joined()
    }
}

/// The horizontal filter operators of PostgREST.
package enum PostgrestOperator: String, Sendable, Hashable, CaseIterable {
    case eq, neq, gt, gte, lt, lte, like, ilike, match, imatch
    case `in`, `is`, isdistinct
    case fts, plfts, phfts, wfts
    case cs, cd, ov, sl, sr, nxr, nxl, adj

    /// The SQL operator, as PostgreSQL names it in errors.
    package var symbol: String {
        switch self {
        case .eq: "="
        case .neq: "<>"
        case .gt: ">"
        case .gte: ">="
        case .lt: "<"
        case .lte: "<="
        case .like: "~~"
        case .ilike: "~~*"
        case .match: "~"
        case .imatch: "~*"
        case .in: "IN"
        case .is: "IS"
        case .isdistinct: "IS DISTINCT FROM"
        case .fts, .plfts, .phfts, .wfts: "@@"
        case .cs: "@>"
        case .cd: "<@"
        case .ov: "&&"
        case .sl: "<<"
        case .sr: ">>"
        case .nxr: "&<"
        case .nxl: "&>"
        case .adj: "-|-"
        }
    }

    /// Operators that take `(any)` / `(all)` with a `{a,b}` list.
    package var allowsQuantifier: Bool {
        switch self {
        case .eq, .gt, .gte, .lt, .lte, .like, .ilike, .match, .imatch: true
        default: false
        }
    }
}

/// A single horizontal filter: `status=not.in.(a,b)`.
package struct PostgrestFilter: Sendable, Hashable {
    package enum Quantifier: String, Sendable, Hashable { case any, all }

    package enum Operand: Sendable, Hashable {
        case value(String)
        case list([String])
    }

    package var field: PostgrestField
    package var negated: Bool
    package var op: PostgrestOperator
    package var quantifier: Quantifier?
    /// The text search configuration of `fts(english)`.
    package var language: String?
    package var operand: Operand
}

/// A filter tree: single filters combined by `and=(...)` / `or=(...)`, possibly negated.
package indirect enum PostgrestCondition: Sendable, Hashable {
    case filter(PostgrestFilter)
    case group(isOr: Bool, negated: Bool, [PostgrestCondition])
}

/// One item of `select=`.
package indirect enum PostgrestSelectItem: Sendable, Hashable {
    case star
    case column(alias: String?, field: PostgrestField, cast: String?)
    case embed(PostgrestEmbed)
}

/// `alias:relation!hint!inner(items)` or `...relation(items)`.
package struct PostgrestEmbed: Sendable, Hashable {
    package var alias: String?
    package var relation: String
    /// Foreign-key or column hints (`!property_id`, `!favorites_property_id_fkey`).
    package var hints: [String]
    package var inner: Bool
    package var spread: Bool
    package var items: [PostgrestSelectItem]

    /// The key of the embed in the output, and of its `name.order` / `name.col` parameters.
    package var name: String { alias ?? relation }
}

/// One term of `order=`: a column (or a to-one embed's column), its direction and null placement.
package struct PostgrestOrderTerm: Sendable, Hashable {
    /// `properties` in `order=properties(title).desc`.
    package var embed: String?
    package var field: PostgrestField
    package var descending: Bool
    /// `nil` for PostgreSQL's default (nulls last ascending, first descending).
    package var nullsFirst: Bool?

    package var placesNullsFirst: Bool { nullsFirst ?? descending }
}

/// Parses PostgREST's query grammar: filters, logic trees, `select` and `order`.
///
/// Top-level filter values are taken literally (`eq.a,b` compares with `a,b`); inside logic trees and
/// lists, values holding `,` `.` `:` `(` `)` must be quoted with `"`, where `\"` and `\\` escape.
package struct PostgrestParser {
    private let bytes: [UInt8]
    private let text: String
    private let what: String
    private var index = 0
    /// How many logic groups or embeds enclose the current position.
    private var depth = 0

    /// The deepest nesting of `or`/`and` groups or of `select` embeds: far beyond any real query, and low
    /// enough that neither the parser's recursion nor the evaluation of the tree can exhaust the stack.
    package static let maximumDepth = 64

    private init(_ text: String, what: String) {
        self.text = text
        self.what = what
        bytes = Array(text.utf8)
    }

    // MARK: Entry points

    /// `column=op.value` (the key may carry a JSON path).
    package static func filter(key: String, value: String) throws(PostgrestError) -> PostgrestCondition {
        var keyParser = PostgrestParser(key, what: "filter")
        let field = try keyParser.field()
        try keyParser.expectEnd()
        var parser = PostgrestParser(value, what: "filter")
        let filter = try parser.operation(field: field, inLogic: false)
        try parser.expectEnd()
        return .filter(filter)
    }

    /// `or=(a.eq.1,b.gt.2)`, `and=(...)`, `not.or=(...)`, `not.and=(...)`.
    package static func logic(key: String, value: String) throws(PostgrestError) -> PostgrestCondition {
        let negated = key.hasPrefix("not.")
        let isOr = key.hasSuffix("or")
        var parser = PostgrestParser(value, what: "logic tree")
        let terms = try parser.logicTerms()
        try parser.expectEnd()
        return .group(isOr: isOr, negated: negated, terms)
    }

    /// `*,property:properties(id,title)`.
    package static func select(_ value: String) throws(PostgrestError) -> [PostgrestSelectItem] {
        var parser = PostgrestParser(value, what: "select parameter")
        parser.skipSpaces()
        if parser.atEnd { return [] }
        let items = try parser.selectItems()
        try parser.expectEnd()
        return items
    }

    /// `created_at.desc.nullslast,title`.
    package static func order(_ value: String) throws(PostgrestError) -> [PostgrestOrderTerm] {
        var parser = PostgrestParser(value, what: "order")
        var terms: [PostgrestOrderTerm] = []
        repeat {
            terms.append(try parser.orderTerm())
        } while parser.take(",")
        try parser.expectEnd()
        return terms
    }

    // MARK: Filters

    private mutating func operation(field: PostgrestField, inLogic: Bool) throws(PostgrestError) -> PostgrestFilter {
        var negated = false
        if take("not.") { negated = true }
        let start = index
        let name = word()
        guard let op = PostgrestOperator(rawValue: name) else {
            index = start
            throw failure("\"not\" or operator (eq, gt, ...)")
        }
        var quantifier: PostgrestFilter.Quantifier?
        var language: String?
        if take("(") {
            let modifier = word()
            guard take(")") else { throw failure("\")\"") }
            switch op {
            case .fts, .plfts, .phfts, .wfts: language = modifier
            default:
                guard op.allowsQuantifier, let parsed = PostgrestFilter.Quantifier(rawValue: modifier) else {
                    throw failure("\"any\" or \"all\"")
                }
                quantifier = parsed
            }
        }
        guard take(".") else { throw failure("\".\"") }
        let operand: PostgrestFilter.Operand
        if op == .in {
            guard take("(") else { throw failure("\"(\"") }
            operand = .list(try listItems(closing: UInt8(ascii: ")")))
        } else if quantifier != nil {
            guard take("{") else { throw failure("\"{\"") }
            operand = .list(try listItems(closing: UInt8(ascii: "}")))
        } else if inLogic {
            operand = .value(try logicValue())
        } else {
            operand = .value(rest())
        }
        if op == .is, case .value(let value) = operand {
            guard ["null", "not_null", "true", "false", "unknown"].contains(value.lowercased()) else {
                throw failure("null or trilean value (unknown, true, false)")
            }
        }
        return PostgrestFilter(
            field: field, negated: negated, op: op, quantifier: quantifier, language: language, operand: operand)
    }

    /// The items of `(a,"b,c")` or `{a,b}`, after the opening bracket.
    private mutating func listItems(closing: UInt8) throws(PostgrestError) -> [String] {
        var items: [String] = []
        if take(closing) { return items }
        while true {
            if peek == UInt8(ascii: "\"") {
                items.append(try quoted())
            } else {
                let start = index
                while let byte = peek, byte != UInt8(ascii: ","), byte != closing { index += 1 }
                items.append(string(start, index))
            }
            if take(",") { continue }
            guard take(closing) else { throw failure("\",\" or \"\(Character(Unicode.Scalar(closing)))\"") }
            return items
        }
    }

    /// A value inside a logic tree: quoted, a `{...}` array literal, or everything up to `,` or `)`.
    private mutating func logicValue() throws(PostgrestError) -> String {
        if peek == UInt8(ascii: "\"") { return try quoted() }
        let start = index
        if peek == UInt8(ascii: "{") {
            while let byte = peek, byte != UInt8(ascii: "}") { index += 1 }
            guard take("}") else { throw failure("\"}\"") }
            return string(start, index)
        }
        while let byte = peek, byte != UInt8(ascii: ","), byte != UInt8(ascii: ")") { index += 1 }
        return string(start, index)
    }

    /// The terms of a logic tree, from its opening parenthesis to its closing one.
    private mutating func logicTerms() throws(PostgrestError) -> [PostgrestCondition] {
        guard take("(") else { throw failure("\"(\"") }
        try enter()
        defer { depth -= 1 }
        var terms: [PostgrestCondition] = []
        repeat {
            terms.append(try logicTerm())
        } while take(",")
        guard take(")") else { throw failure("\",\" or \")\"") }
        return terms
    }

    private mutating func logicTerm() throws(PostgrestError) -> PostgrestCondition {
        let start = index
        let negated = take("not.")
        for (keyword, isOr) in [("and(", false), ("or(", true)] where lookingAt(keyword) {
            index += keyword.utf8.count - 1
            return .group(isOr: isOr, negated: negated, try logicTerms())
        }
        index = start
        let field = try field()
        guard take(".") else { throw failure("\".\"") }
        return .filter(try operation(field: field, inLogic: true))
    }

    // MARK: Fields

    /// `name`, `"quoted name"`, with `->key` / `->>key` steps.
    private mutating func field() throws(PostgrestError) -> PostgrestField {
        var field = PostgrestField(column: try name())
        while lookingAt("->") {
            index += 2
            let asText = take(">")
            field.path.append(PostgrestField.Step(key: try name(allowingDash: true), asText: asText))
        }
        return field
    }

    /// An identifier: quoted, or a run of characters that are not reserved.
    private mutating func name(allowingDash: Bool = false) throws(PostgrestError) -> String {
        if peek == UInt8(ascii: "\"") { return try quoted() }
        let start = index
        while let byte = peek, !Self.reserved.contains(byte) {
            if byte == UInt8(ascii: "-") {
                if lookingAt("->") { break }
                if !allowingDash && index == start { break }
            }
            index += 1
        }
        guard index > start else { throw failure("field name (* or [a..z0..9_$])") }
        return string(start, index)
    }

    private static let reserved: Set<UInt8> = Set(",.:()!\"*{} ".utf8)

    // MARK: Select

    private mutating func selectItems() throws(PostgrestError) -> [PostgrestSelectItem] {
        var items: [PostgrestSelectItem] = []
        repeat {
            skipSpaces()
            items.append(try selectItem())
            skipSpaces()
        } while take(",")
        return items
    }

    private mutating func selectItem() throws(PostgrestError) -> PostgrestSelectItem {
        if take("*") { return .star }
        if take("...") { return .embed(try embed(alias: nil, relation: try name(), spread: true)) }
        let first = try name()
        var alias: String?
        var target = first
        if peek == UInt8(ascii: ":") && !lookingAt("::") {
            index += 1
            alias = first
            target = try name()
        }
        if peek == UInt8(ascii: "!") || peek == UInt8(ascii: "(") {
            return .embed(try embed(alias: alias, relation: target, spread: false))
        }
        var field = PostgrestField(column: target)
        while lookingAt("->") {
            index += 2
            let asText = take(">")
            field.path.append(PostgrestField.Step(key: try name(allowingDash: true), asText: asText))
        }
        var cast: String?
        if take("::") { cast = try name() }
        return .column(alias: alias, field: field, cast: cast)
    }

    private mutating func embed(alias: String?, relation: String, spread: Bool) throws(PostgrestError) -> PostgrestEmbed
    {
        var hints: [String] = []
        var inner = false
        while take("!") {
            let hint = try name()
            switch hint {
            case "inner": inner = true
            case "left": inner = false
            default: hints.append(hint)
            }
        }
        guard take("(") else { throw failure("\"(\"") }
        try enter()
        defer { depth -= 1 }
        skipSpaces()
        var items: [PostgrestSelectItem] = []
        if !take(")") {
            items = try selectItems()
            guard take(")") else { throw failure("\",\" or \")\"") }
        }
        return PostgrestEmbed(
            alias: alias, relation: relation, hints: hints, inner: inner, spread: spread, items: items)
    }

    // MARK: Order

    private mutating func orderTerm() throws(PostgrestError) -> PostgrestOrderTerm {
        skipSpaces()
        let first = try name()
        var embed: String?
        var field: PostgrestField
        if take("(") {
            embed = first
            field = try self.field()
            guard take(")") else { throw failure("\")\"") }
        } else {
            field = PostgrestField(column: first)
            while lookingAt("->") {
                index += 2
                let asText = take(">")
                field.path.append(PostgrestField.Step(key: try name(allowingDash: true), asText: asText))
            }
        }
        var term = PostgrestOrderTerm(embed: embed, field: field, descending: false, nullsFirst: nil)
        var sawDirection = false
        while take(".") {
            let start = index
            let keyword = word()
            index = start
            switch keyword {
            case "asc" where !sawDirection && term.nullsFirst == nil: sawDirection = true
            case "desc" where !sawDirection && term.nullsFirst == nil:
                sawDirection = true
                term.descending = true
            case "nullsfirst" where term.nullsFirst == nil: term.nullsFirst = true
            case "nullslast" where term.nullsFirst == nil: term.nullsFirst = false
            default: throw failure("\"asc\", \"desc\", \"nullsfirst\" or \"nullslast\"")
            }
            index += keyword.utf8.count
        }
        skipSpaces()
        return term
    }

    // MARK: Scanning

    private var atEnd: Bool { index >= bytes.count }
    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private func lookingAt(_ literal: String) -> Bool {
        let literal = Array(literal.utf8)
        guard index + literal.count <= bytes.count else { return false }
        return bytes[index..<index + literal.count].elementsEqual(literal)
    }

    private mutating func take(_ literal: String) -> Bool {
        guard lookingAt(literal) else { return false }
        index += literal.utf8.count
        return true
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipSpaces() {
        while peek == UInt8(ascii: " ") { index += 1 }
    }

    /// A run of letters, digits and `_`.
    private mutating func word() -> String {
        let start = index
        while let byte = peek,
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
        {
            index += 1
        }
        return string(start, index)
    }

    private mutating func rest() -> String {
        defer { index = bytes.count }
        return string(index, bytes.count)
    }

    /// `"..."` with `\"` and `\\` escapes.
    private mutating func quoted() throws(PostgrestError) -> String {
        let start = index
        index += 1
        var value: [UInt8] = []
        while let byte = peek {
            index += 1
            switch byte {
            case UInt8(ascii: "\\"):
                guard let escaped = peek else { break }
                value.append(escaped)
                index += 1
            case UInt8(ascii: "\""):
                return String(decoding: value, as: UTF8.self)
            default:
                value.append(byte)
            }
        }
        index = start
        throw failure("closing quote \"\\\"\"")
    }

    private func string(_ start: Int, _ end: Int) -> String {
        String(decoding: bytes[start..<end], as: UTF8.self)
    }

    private func expectEnd() throws(PostgrestError) {
        guard atEnd else { throw failure("end of input") }
    }

    /// One level deeper, or PGRST100 past ``maximumDepth``.
    private mutating func enter() throws(PostgrestError) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            depth -= 1
            throw failure("at most \(Self.maximumDepth) nested levels", unexpected: "nesting too deep")
        }
    }

    /// PGRST100 naming what was found where, as Parsec does for PostgREST.
    private func failure(_ expected: String, unexpected: String? = nil) -> PostgrestError {
        let found: String
        if let unexpected {
            found = unexpected
        } else if let byte = peek {
            let scalar = String(decoding: bytes[index..<min(bytes.count, index + (byte < 0x80 ? 1 : 4))], as: UTF8.self)
            found = "unexpected \"\(scalar.prefix(1))\""
        } else {
            found = "unexpected end of input"
        }
        let column = String(decoding: bytes[0..<min(index, bytes.count)], as: UTF8.self).count + 1
        return PostgrestErrors.make(
            .badRequest, code: "PGRST100", "\"failed to parse \(what) (\(text))\" (line 1, column \(column))",
            details: "\(found) expecting \(expected)")
    }
}
