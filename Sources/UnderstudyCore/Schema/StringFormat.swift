import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A format a string must follow, checked by the validator and honoured by fixture generation.
public enum StringFormat: Sendable, Hashable, CustomStringConvertible {
    /// RFC 3339 date-time; fractional seconds allowed (`2025-11-15T14:30:00Z`, `...:00.000Z`).
    case dateTime
    /// RFC 3339 date-time without fractional seconds: what Apple's `JSONDecoder` accepts with
    /// `.iso8601` (`ISO8601DateFormatter` with `.withInternetDateTime`).
    case dateTimeWithoutFraction
    /// RFC 3339 date-time with fractional seconds (`2025-11-15T14:30:00.123Z`).
    case dateTimeWithFraction
    /// A full date, `YYYY-MM-DD`.
    case date
    /// A time of day, `HH:mm:ss` with optional fractional seconds: RFC 3339's `partial-time` (JSON Schema's `time`
    /// is RFC 3339's `full-time`, which needs an offset).
    case time
    /// A UUID (`123e4567-e89b-12d3-a456-426614174000`, any case).
    case uuid
    /// A MongoDB ObjectId: 24 hexadecimal digits.
    case objectId
    /// An e-mail address (`local@domain`).
    case email
    /// An absolute URI with a scheme (`https://...`).
    case uri
    /// A `DateFormatter` pattern (`yyyy-MM-dd HH:mm`), from `.formatted(_:)` date decoding.
    case datePattern(String)
    /// The decimal text of an integer (`"42"`), as map keys of `[Int: T]` are written.
    case integer
    /// An IPv4 address in dotted-quad form (`192.0.2.7`), as JSON Schema's `ipv4`.
    case ipv4
    /// An IPv6 address in RFC 4291 text form (`2001:db8::7`), as JSON Schema's `ipv6`.
    case ipv6

    /// The name used in exported specs and messages.
    public var description: String {
        switch self {
        case .dateTime: "date-time"
        case .dateTimeWithoutFraction: "date-time-no-fraction"
        case .dateTimeWithFraction: "date-time-fraction"
        case .date: "date"
        case .time: "partial-time"
        case .uuid: "uuid"
        case .objectId: "objectid"
        case .email: "email"
        case .uri: "uri"
        case .datePattern(let pattern): "date-pattern(\(pattern))"
        case .integer: "integer"
        case .ipv4: "ipv4"
        case .ipv6: "ipv6"
        }
    }

    /// An ECMA-262 expression of the days that exist, `yyyy-MM-dd`, unanchored: months and days in their ranges
    /// (`0000-00-00` and `2025-06-31` are no dates), days by the month's length, February 29 in leap years only, as
    /// `DateTimeSyntax` judges.
    public static let dayExpression: String = {
        let monthDay = "(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])|(0[13-9]|1[0-2])-(29|30)|(0[13578]|1[02])-31"
        let leapDay = "([0-9]{2}(0[48]|[2468][048]|[13579][26])|([02468][048]|[13579][26])00)-02-29"
        return "([0-9]{4}-(\(monthDay))|\(leapDay))"
    }()

    /// A regular expression (ECMA-262) for tools that do not know the format, so what they generate meets it: `nil`
    /// for the formats JSON Schema defines and for date patterns.
    public var pattern: String? {
        // Hours, minutes and seconds in their ranges, and offsets within ±14:00, the farthest any zone is from UTC
        // (.NET's DateTimeOffset refuses more, Foundation more than ±18:00).
        let date = Self.dayExpression
        let time = "([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]"
        let offset = "(Z|[+-](0[0-9]|1[0-3]):[0-5][0-9]|[+-]14:00)"
        return switch self {
        case .dateTimeWithoutFraction: "^\(date)T\(time)\(offset)$"
        case .dateTimeWithFraction: "^\(date)T\(time)\\.[0-9]+\(offset)$"
        case .time: "^\(time)(\\.[0-9]+)?$"
        case .objectId: "^[0-9a-fA-F]{24}$"
        case .integer: "^-?[0-9]+$"
        case .dateTime, .date, .uuid, .email, .uri, .datePattern, .ipv4, .ipv6: nil
        }
    }

    /// The format named `name`, as ``description`` writes it; `nil` for a name Understudy does not know.
    public init?(name: String) {
        if name.hasPrefix("date-pattern("), name.hasSuffix(")") {
            self = .datePattern(String(name.dropFirst("date-pattern(".count).dropLast()))
            return
        }
        let simple: [StringFormat] = [
            .dateTime, .dateTimeWithoutFraction, .dateTimeWithFraction, .date, .time, .uuid, .objectId, .email, .uri,
            .integer, .ipv4, .ipv6,
        ]
        guard let format = simple.first(where: { $0.description == name }) else { return nil }
        self = format
    }

    /// Whether `string` follows this format.
    public func matches(_ string: String) -> Bool {
        var string = string
        // Native strings are contiguous UTF-8: check their bytes in place, without a copy.
        return string.withUTF8 { utf8 in
            switch self {
            case .dateTime: return DateTimeSyntax.matchesDateTime(utf8, fraction: .optional)
            case .dateTimeWithoutFraction: return DateTimeSyntax.matchesDateTime(utf8, fraction: .forbidden)
            case .dateTimeWithFraction: return DateTimeSyntax.matchesDateTime(utf8, fraction: .required)
            case .date: return DateTimeSyntax.matchesDate(utf8)
            case .time: return DateTimeSyntax.matchesTime(utf8)
            case .objectId: return utf8.count == 24 && utf8.allSatisfy(\.isHexDigit)
            default: return matchesText(String(decoding: utf8, as: UTF8.self))
            }
        }
    }

    private func matchesText(_ string: String) -> Bool {
        switch self {
        case .dateTime, .dateTimeWithoutFraction, .dateTimeWithFraction, .date, .time, .objectId: return false
        case .uuid: return UUID(uuidString: string) != nil
        case .email: return Self.isEmail(string)
        case .uri: return Self.isURI(string)
        case .datePattern(let pattern): return DateTimeSyntax.formatter(pattern).date(from: string) != nil
        case .integer: return Int(string) != nil
        case .ipv4: return Self.isAddress(string, family: AF_INET)
        case .ipv6: return Self.isAddress(string, family: AF_INET6)
        }
    }

    /// Whether `inet_pton` reads the text as an address of the family (glibc's and Darwin's refuse a leading zero in
    /// an IPv4 octet, as JSON Schema's dotted-quad does).
    private static func isAddress(_ string: String, family: Int32) -> Bool {
        var address = in6_addr()
        return inet_pton(family, string, &address) == 1
    }

    private static func isEmail(_ string: String) -> Bool {
        let parts = string.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."),
            !parts[1].hasSuffix("."), !string.contains(where: \.isWhitespace)
        else { return false }
        return true
    }

    private static func isURI(_ string: String) -> Bool {
        guard let colon = string.firstIndex(of: ":"), colon != string.startIndex,
            !string.contains(where: \.isWhitespace), URL(string: string) != nil
        else { return false }
        let scheme = string[..<colon]
        return scheme.first!.isLetter && scheme.allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) }
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}

/// Hand-written RFC 3339 syntax checks: exact, allocation-free, and identical on every platform.
package enum DateTimeSyntax {
    package enum Fraction { case optional, forbidden, required }

    package static func matchesDateTime(_ utf8: UnsafeBufferPointer<UInt8>, fraction: Fraction) -> Bool {
        guard utf8.count >= 20 else { return false }
        guard matchesDate(UnsafeBufferPointer(rebasing: utf8[0..<10])),
            utf8[10] == UInt8(ascii: "T") || utf8[10] == UInt8(ascii: "t")
        else { return false }
        var index = 11
        guard matchesTime(UnsafeBufferPointer(rebasing: utf8[index..<index + 8])) else { return false }
        index += 8
        var hasFraction = false
        if index < utf8.count, utf8[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < utf8.count, utf8[index].isDigit { index += 1 }
            guard index > start else { return false }
            hasFraction = true
        }
        switch fraction {
        case .forbidden where hasFraction: return false
        case .required where !hasFraction: return false
        default: break
        }
        guard index < utf8.count else { return false }
        if utf8[index] == UInt8(ascii: "Z") || utf8[index] == UInt8(ascii: "z") { return index + 1 == utf8.count }
        guard utf8[index] == UInt8(ascii: "+") || utf8[index] == UInt8(ascii: "-"), utf8.count == index + 6 else {
            return false
        }
        return twoDigits(utf8, index + 1, max: 23) && utf8[index + 3] == UInt8(ascii: ":")
            && twoDigits(utf8, index + 4, max: 59)
    }

    /// Convenience for callers holding a `String`.
    package static func matchesDateTime(_ string: String, fraction: Fraction) -> Bool {
        var string = string
        return string.withUTF8 { matchesDateTime($0, fraction: fraction) }
    }

    package static func matchesDate(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[0].isDigit, bytes[1].isDigit, bytes[2].isDigit, bytes[3].isDigit, twoDigits(bytes, 5, max: 12),
            twoDigits(bytes, 8, max: 31)
        else { return false }
        let month = Int(bytes[5] - 48) * 10 + Int(bytes[6] - 48)
        let day = Int(bytes[8] - 48) * 10 + Int(bytes[9] - 48)
        guard month >= 1, day >= 1 else { return false }
        let year = bytes[0..<4].reduce(0) { $0 * 10 + Int($1 - 48) }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = month == 2 ? (leap ? 29 : 28) : (month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31)
        return day <= days
    }

    /// `HH:mm:ss` with optional `.fff...` (seconds up to 60 for leap seconds).
    package static func matchesTime(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 8, bytes[2] == UInt8(ascii: ":"), bytes[5] == UInt8(ascii: ":"),
            twoDigits(bytes, 0, max: 23), twoDigits(bytes, 3, max: 59), twoDigits(bytes, 6, max: 60)
        else { return false }
        if bytes.count == 8 { return true }
        return bytes[8] == UInt8(ascii: ".") && bytes.count > 9 && bytes[9...].allSatisfy(\.isDigit)
    }

    private static func twoDigits(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int, max: Int) -> Bool {
        guard bytes[index].isDigit, bytes[index + 1].isDigit else { return false }
        return Int(bytes[index] - 48) * 10 + Int(bytes[index + 1] - 48) <= max
    }

    /// A POSIX, UTC `DateFormatter` for a pattern, as apps configure them for `.formatted(_:)`.
    package static func formatter(_ pattern: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        // ISO 8601's calendar is the proleptic Gregorian one: without this, dates before October 1582 are Julian and
        // 1500-02-29 exists.
        formatter.gregorianStartDate = .distantPast
        formatter.dateFormat = pattern
        return formatter
    }
}

extension UInt8 {
    fileprivate var isDigit: Bool { self &- UInt8(ascii: "0") < 10 }
}
