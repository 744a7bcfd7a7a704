import Foundation
import UnderstudyCore

/// MongoDB-shaped ids and the timestamp formats of the apinest backend.
enum ApinestObjectID {
    /// An ObjectId: 8 hexadecimal digits of the Unix time, then 16 of `counter` (24 lower-case hex digits).
    static func make(timestamp: Date, counter: UInt64) -> String {
        let seconds = UInt32(clamping: Int64(max(0, timestamp.timeIntervalSince1970)))
        return hex(UInt64(seconds), digits: 8) + hex(counter, digits: 16)
    }

    /// A stable ObjectId for a derived record (a leaderboard row, a badge-progress row): the same `key`
    /// always gives the same id for a seed, so answers stay deterministic without storing those ids.
    static func derived(_ key: String, seed: UInt64) -> String {
        var random = SeededRandom(seed: seed).derived("apinest id " + key)
        return hex(random.next() >> 32, digits: 8) + hex(random.next(), digits: 16)
    }

    /// Whether `text` is 24 hexadecimal digits.
    static func isValid(_ text: String) -> Bool {
        text.utf8.count == 24 && text.utf8.allSatisfy { $0.isASCIIHexDigit }
    }

    private static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        let trimmed = text.count > digits ? String(text.suffix(digits)) : text
        return String(repeating: "0", count: digits - trimmed.count) + trimmed
    }
}

/// The two timestamp shapes the guides show: JavaScript's `Date.toJSON` with milliseconds for activities
/// (`2025-11-14T10:30:00.000Z`), and whole seconds for what the achievements app decodes with `.iso8601`
/// (which rejects fractional seconds).
enum ApinestTime {
    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// `2025-11-14T10:30:00.000Z`.
    static func milliseconds(_ date: Date) -> String {
        let parts = components(date)
        let millis = Int((date.timeIntervalSince1970 * 1000).rounded(.down)) % 1000
        return "\(parts.day)T\(parts.time).\(pad(millis < 0 ? millis + 1000 : millis, 3))Z"
    }

    /// `date` without its fraction of a second, which the `.iso8601` wire writes as `2025-11-14T10:30:00Z`.
    static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }

    /// `2025-11-14` (UTC).
    static func day(_ date: Date) -> String { components(date).day }

    /// The instant of an RFC 3339 date-time, with or without fractional seconds, or of a `YYYY-MM-DD` date.
    static func parse(_ text: String) -> Date? { Date(iso8601: text) }

    /// The number of whole days from one UTC day to another (`2025-11-14` → `2025-11-15` is 1).
    static func daysBetween(_ from: String, _ to: String) -> Int? {
        guard let start = parse(from), let end = parse(to) else { return nil }
        return Int(((end.timeIntervalSince1970 - start.timeIntervalSince1970) / 86_400).rounded())
    }

    /// The start of the UTC day of `date`.
    static func startOfDay(_ date: Date) -> Date { calendar.startOfDay(for: date) }

    private static func components(_ date: Date) -> (day: String, time: String) {
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let day = "\(pad(parts.year ?? 1970, 4))-\(pad(parts.month ?? 1, 2))-\(pad(parts.day ?? 1, 2))"
        let time = "\(pad(parts.hour ?? 0, 2)):\(pad(parts.minute ?? 0, 2)):\(pad(parts.second ?? 0, 2))"
        return (day, time)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}

extension UInt8 {
    fileprivate var isASCIIHexDigit: Bool {
        (48...57).contains(self) || (65...70).contains(self) || (97...102).contains(self)
    }
}
