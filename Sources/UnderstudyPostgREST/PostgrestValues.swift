import Foundation
import UnderstudyCore

/// A row as the mock stores it: every column of the table, `null` included.
package typealias PostgrestRow = [String: JSONValue]

/// A non-null value as SQL compares it: timestamps become seconds, uuids and dates stay text.
package enum PostgrestValue: Sendable, Hashable {
    case bool(Bool)
    case number(Double)
    case text(String)
    case json(JSONValue)

    /// PostgreSQL's ordering within a type; values of different kinds (only met in JSON) by kind.
    package static func compare(_ lhs: PostgrestValue, _ rhs: PostgrestValue) -> Int {
        switch (lhs, rhs) {
        case (.number(let a), .number(let b)): return a < b ? -1 : a > b ? 1 : 0
        case (.text(let a), .text(let b)): return a < b ? -1 : a > b ? 1 : 0
        case (.bool(let a), .bool(let b)): return a == b ? 0 : a ? 1 : -1
        case (.json(let a), .json(let b)): return compareJSON(a, b)
        default: return lhs.rank < rhs.rank ? -1 : lhs.rank > rhs.rank ? 1 : 0
        }
    }

    private var rank: Int {
        switch self {
        case .text: 0
        case .number: 1
        case .bool: 2
        case .json: 3
        }
    }

    /// jsonb ordering: null < string < number < boolean < array < object; equal kinds by content.
    private static func compareJSON(_ lhs: JSONValue, _ rhs: JSONValue) -> Int {
        func rank(_ value: JSONValue) -> Int {
            switch value {
            case .null: 0
            case .string: 1
            case .number: 2
            case .bool: 3
            case .array: 4
            case .object: 5
            }
        }
        switch (lhs, rhs) {
        case (.number(let a), .number(let b)):
            let (x, y) = (a.doubleValue ?? 0, b.doubleValue ?? 0)
            return x < y ? -1 : x > y ? 1 : 0
        case (.string(let a), .string(let b)): return a < b ? -1 : a > b ? 1 : 0
        case (.bool(let a), .bool(let b)): return a == b ? 0 : a ? 1 : -1
        case (.null, .null): return 0
        default:
            if rank(lhs) != rank(rhs) { return rank(lhs) < rank(rhs) ? -1 : 1 }
            let (a, b) = (lhs.serialized(), rhs.serialized())
            return a < b ? -1 : a > b ? 1 : 0
        }
    }

    /// The text PostgreSQL prints for the value (`::text`, `->>`).
    package var text: String {
        switch self {
        case .bool(let bool): bool ? "true" : "false"
        case .number(let number):
            number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
        case .text(let text): text
        case .json(let json): json.stringValue ?? json.serialized()
        }
    }
}

/// How to read one field of a row as a ``PostgrestValue``.
package struct PostgrestExtractor: Sendable {
    package let field: PostgrestField
    package let columnType: PostgrestType

    /// An extractor for a column of `table`.
    /// - Throws: 42703 for an unknown column, 42883 for a JSON path on a column that is not `jsonb`.
    package init(_ field: PostgrestField, in table: PostgrestTableInfo) throws(PostgrestError) {
        guard let column = table.column(field.column) else {
            throw PostgrestErrors.unknownColumn(table.name, field.column)
        }
        if let step = field.path.first, column.type != .jsonb {
            throw PostgrestErrors.noOperator(column.type, step.asText ? "->>" : "->")
        }
        self.field = field
        columnType = column.type
    }

    /// The type of what the field yields: the column's, `text` after `->>`, `jsonb` after `->`.
    package var type: PostgrestType {
        guard let last = field.path.last else { return columnType }
        return last.asText ? .text : .jsonb
    }

    /// The raw JSON at the field (`nil` when the column is SQL NULL or the path leads nowhere).
    package func json(_ row: PostgrestRow) -> JSONValue? {
        guard var value = row[field.column], value != .null else { return nil }
        if field.path.isEmpty { return value }
        for step in field.path {
            switch value {
            case .object(let members):
                guard let member = members[step.key] else { return nil }
                value = member
            case .array(let elements):
                guard let index = Int(step.key) else { return nil }
                let position = index < 0 ? elements.count + index : index
                guard elements.indices.contains(position) else { return nil }
                value = elements[position]
            default:
                return nil
            }
        }
        return value
    }

    /// The value at the field, `nil` for SQL NULL.
    package func value(_ row: PostgrestRow) -> PostgrestValue? {
        guard let json = json(row) else { return nil }
        if let last = field.path.last {
            if last.asText {
                switch json {
                case .null: return nil
                case .string(let string): return .text(string)
                case .number(let number): return .text(number.literal)
                case .bool(let bool): return .text(bool ? "true" : "false")
                default: return .text(json.serialized())
                }
            }
            return .json(json)
        }
        return Self.value(json, type: columnType)
    }

    /// A stored JSON value read as a column of `type`.
    package static func value(_ json: JSONValue, type: PostgrestType) -> PostgrestValue? {
        switch (json, type) {
        case (.null, _): return nil
        case (_, .jsonb), (_, .textArray): return .json(json)
        case (.string(let string), .timestamp):
            return PostgrestTime.seconds(string).map(PostgrestValue.number) ?? .text(string)
        case (.string(let string), _): return .text(string)
        case (.number(let number), _): return .number(number.doubleValue ?? 0)
        case (.bool(let bool), _): return .bool(bool)
        default: return .json(json)
        }
    }
}

/// Filter operands read as the type of the column they are compared with.
package enum PostgrestLiteral {
    /// The value of `text` as a `type`, or 22P02 as PostgreSQL answers a bad literal.
    package static func value(_ text: String, type: PostgrestType) throws(PostgrestError) -> PostgrestValue {
        switch type {
        case .text:
            return .text(text)
        case .date:
            _ = try PostgrestInput.instant(text, type: type)
            return .text(String(text.trimmingSpaces.prefix(10)))
        case .uuid:
            guard let uuid = canonicalUUID(text) else { throw PostgrestErrors.invalidInput(type, text) }
            return .text(uuid)
        case .integer:
            return .number(Double(try PostgrestInput.integer(text)))
        case .numeric, .double:
            guard let double = Double(text.trimmingCharacters(in: .whitespaces)), double.isFinite else {
                throw PostgrestErrors.invalidInput(type, text)
            }
            return .number(double)
        case .boolean:
            guard let bool = boolean(text) else { throw PostgrestErrors.invalidInput(type, text) }
            return .bool(bool)
        case .timestamp:
            return .number(Double(try PostgrestInput.instant(text, type: type)) / 1_000_000)
        case .jsonb:
            guard let json = try? JSONParser().parse(text) else {
                throw PostgrestErrors.make(.badRequest, code: "22P02", "invalid input syntax for type json")
            }
            return .json(json)
        case .textArray:
            guard let elements = arrayLiteral(text) else {
                throw PostgrestErrors.make(.badRequest, code: "22P02", "malformed array literal: \"\(text)\"")
            }
            return .json(.array(elements.map(JSONValue.string)))
        }
    }

    /// PostgreSQL's boolean input: `t`, `true`, `yes`, `on`, `1` and their opposites, without case.
    package static func boolean(_ text: String) -> Bool? {
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "t", "tr", "tru", "true", "y", "ye", "yes", "on", "1": true
        case "f", "fa", "fal", "fals", "false", "n", "no", "of", "off", "0": false
        default: nil
        }
    }

    /// The lower-case, hyphenated form of a uuid (PostgreSQL also accepts braces and no hyphens).
    package static func canonicalUUID(_ text: String) -> String? {
        var hex = text.lowercased()
        if hex.hasPrefix("{") && hex.hasSuffix("}") { hex = String(hex.dropFirst().dropLast()) }
        hex.removeAll { $0 == "-" }
        guard hex.utf8.count == 32, hex.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) }) else {
            return nil
        }
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }

    /// The elements of a PostgreSQL array literal, `{a,"b c"}`.
    package static func arrayLiteral(_ text: String) -> [String]? {
        let bytes = Array(text.utf8)
        guard bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}") else { return nil }
        var elements: [String] = []
        var current: [UInt8] = []
        var quoted = false
        var wasQuoted = false
        var index = 1
        while index < bytes.count - 1 {
            let byte = bytes[index]
            if quoted {
                if byte == UInt8(ascii: "\\"), index + 1 < bytes.count - 1 {
                    index += 1
                    current.append(bytes[index])
                } else if byte == UInt8(ascii: "\"") {
                    quoted = false
                } else {
                    current.append(byte)
                }
            } else if byte == UInt8(ascii: "\"") {
                quoted = true
                wasQuoted = true
            } else if byte == UInt8(ascii: ",") {
                elements.append(String(decoding: current, as: UTF8.self))
                current = []
                wasQuoted = false
            } else {
                current.append(byte)
            }
            index += 1
        }
        if quoted { return nil }
        if !current.isEmpty || wasQuoted || !elements.isEmpty {
            elements.append(String(decoding: current, as: UTF8.self))
        }
        return elements
    }
}

/// Dates and timestamps read and written as PostgreSQL does, by hand: sorting 100 000 rows must not call a date
/// formatter.
package enum PostgrestTime {
    /// What reading a date or timestamp found.
    package enum Reading: Equatable {
        /// Microseconds since 1970-01-01 UTC.
        case valid(Int64)
        /// Well formed, but a field is past its range (a 30 February): PostgreSQL's 22008.
        case outOfRange
        /// Not a date: PostgreSQL's 22007.
        case invalid
    }

    /// The instant of a timestamp in seconds since 1970, `nil` when it is not one.
    package static func seconds(_ text: String) -> Double? {
        guard case .valid(let microseconds) = read(text) else { return nil }
        return Double(microseconds) / 1_000_000
    }

    /// `YYYY-MM-DD[( |T)HH:MM[:SS[.ffffff]]][Z|±HH[:MM]]`, UTC when no offset is given (Supabase's `TimeZone`),
    /// fractions rounded to the microsecond as `timestamptz` stores them.
    package static func read(_ text: String) -> Reading {
        var text = text
        return text.withUTF8 { read($0) }
    }

    private static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> Reading {
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= bytes.count else { return nil }
            var value = 0
            for offset in 0..<digits {
                let byte = bytes[index + offset]
                guard byte >= 48 && byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            index += digits
            return value
        }
        func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard let year = number(4), take(UInt8(ascii: "-")), let month = number(2), take(UInt8(ascii: "-")),
            let day = number(2)
        else { return .invalid }
        var inRange = (1...12).contains(month) && day >= 1 && day <= daysIn(month: month, year: year)
        var microseconds = Int64(inRange ? daysFromCivil(year: year, month: month, day: day) : 0) * 86_400_000_000
        func result() -> Reading { inRange ? .valid(microseconds) : .outOfRange }
        if index == bytes.count { return result() }
        guard take(UInt8(ascii: "T")) || take(UInt8(ascii: " ")) || take(UInt8(ascii: "t")),
            let hour = number(2), take(UInt8(ascii: ":")), let minute = number(2)
        else { return .invalid }
        var second = 0
        var fraction: Int64 = 0
        if take(UInt8(ascii: ":")) {
            guard let seconds = number(2) else { return .invalid }
            second = seconds
            if take(UInt8(ascii: ".")) {
                var digits = 0
                var rounding = false
                while index < bytes.count, bytes[index] >= 48 && bytes[index] <= 57 {
                    if digits < 6 {
                        fraction = fraction * 10 + Int64(bytes[index] - 48)
                    } else if digits == 6 {
                        rounding = bytes[index] >= 53
                    }
                    index += 1
                    digits += 1
                }
                guard digits > 0 else { return .invalid }
                for _ in digits..<max(digits, 6) { fraction *= 10 }
                if rounding { fraction += 1 }
            }
        }
        let midnight = hour == 24 && minute == 0 && second == 0 && fraction == 0
        inRange = inRange && (hour < 24 || midnight) && minute < 60 && second <= 60
        microseconds += Int64(hour * 3600 + minute * 60 + second) * 1_000_000 + fraction
        if index == bytes.count || take(UInt8(ascii: "Z")) || take(UInt8(ascii: "z")) {
            return index == bytes.count ? result() : .invalid
        }
        let sign: Int64
        if take(UInt8(ascii: "+")) {
            sign = 1
        } else if take(UInt8(ascii: "-")) {
            sign = -1
        } else {
            return .invalid
        }
        guard let offsetHours = number(2) else { return .invalid }
        var offset = offsetHours * 3600
        _ = take(UInt8(ascii: ":"))
        if index < bytes.count {
            guard let offsetMinutes = number(2) else { return .invalid }
            offset += offsetMinutes * 60
        }
        guard index == bytes.count else { return .invalid }
        microseconds -= sign * Int64(offset) * 1_000_000
        return result()
    }

    /// A `timestamptz` as PostgreSQL's JSON output writes it under `TimeZone=UTC`: ISO 8601 with the seconds'
    /// fraction trimmed of trailing zeros (none when whole) and a `+00:00` offset
    /// (`2025-12-04T10:15:30.1234+00:00`).
    package static func timestamp(_ microseconds: Int64) -> String {
        let (days, remainder) = microseconds.quotientAndRemainder(dividingBy: 86_400_000_000)
        let (day, time) = remainder < 0 ? (days - 1, remainder + 86_400_000_000) : (days, remainder)
        let (seconds, fraction) = time.quotientAndRemainder(dividingBy: 1_000_000)
        var text = date(Int(day)) + "T" + twoDigits(Int(seconds / 3600)) + ":" + twoDigits(Int(seconds / 60 % 60))
        text += ":" + twoDigits(Int(seconds % 60))
        if fraction > 0 {
            var digits = String(fraction)
            digits = String(repeating: "0", count: 6 - digits.count) + digits
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        return text + "+00:00"
    }

    /// A timestamp of the clock, as ``timestamp(_:)`` writes it.
    package static func timestamp(_ date: Date) -> String {
        timestamp(Int64((date.timeIntervalSince1970 * 1_000_000).rounded()))
    }

    /// The `YYYY-MM-DD` of a day counted from 1970-01-01.
    package static func date(_ days: Int) -> String {
        let (year, month, day) = civil(days)
        let yearText = String(year)
        return String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText + "-" + twoDigits(month) + "-"
            + twoDigits(day)
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day since 1970-01-01 (the inverse of ``daysFromCivil(year:month:day:)``).
    private static func civil(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// A compiled `LIKE` pattern: `%` (or `*`) any run, `_` one character, `\` escapes.
package struct PostgrestLikePattern: Sendable {
    private enum Token: Sendable, Hashable {
        case literal(Character)
        case one
        case any
    }

    private let tokens: [Token]
    private let caseInsensitive: Bool

    package init(_ pattern: String, caseInsensitive: Bool) {
        self.caseInsensitive = caseInsensitive
        var tokens: [Token] = []
        var escaping = false
        for character in caseInsensitive ? pattern.lowercased() : pattern {
            if escaping {
                tokens.append(.literal(character))
                escaping = false
                continue
            }
            switch character {
            case "\\": escaping = true
            case "%", "*": if tokens.last != .any { tokens.append(.any) }
            case "_": tokens.append(.one)
            default: tokens.append(.literal(character))
            }
        }
        self.tokens = tokens
    }

    package func matches(_ text: String) -> Bool {
        let characters = Array(caseInsensitive ? text.lowercased() : text)
        // Greedy matching with one backtrack point per `%`: linear in practice, never exponential.
        var textIndex = 0
        var tokenIndex = 0
        var star: (token: Int, text: Int)?
        while textIndex < characters.count {
            if tokenIndex < tokens.count {
                switch tokens[tokenIndex] {
                case .any:
                    star = (tokenIndex, textIndex)
                    tokenIndex += 1
                    continue
                case .one:
                    textIndex += 1
                    tokenIndex += 1
                    continue
                case .literal(let character) where character == characters[textIndex]:
                    textIndex += 1
                    tokenIndex += 1
                    continue
                default: break
                }
            }
            guard let backtrack = star else { return false }
            tokenIndex = backtrack.token + 1
            textIndex = backtrack.text + 1
            star = (backtrack.token, backtrack.text + 1)
        }
        while tokenIndex < tokens.count, tokens[tokenIndex] == .any { tokenIndex += 1 }
        return tokenIndex == tokens.count
    }
}
