import Foundation

extension Date {
    /// An RFC 3339 instant (with or without fractional seconds) or a full date, which names its midnight UTC.
    ///
    /// Read with `Date.ISO8601FormatStyle`, written in Swift: an `ISO8601DateFormatter` opens an ICU date format
    /// each time it is made, which profiling found in every VideGreniers create (the `endDate` after `startDate`
    /// rule), about a tenth of its time.
    package init?(iso8601 text: String) {
        guard Self.mayBeISO8601(text) else { return nil }
        let utf8 = Array(text.utf8)
        if utf8.count == 10 {
            guard let date = try? Self.dayStyle.parse(text) else { return nil }
            self = date
            return
        }
        // The time's fields in range: Foundation's styles read 25:00 as 01:00 the next day (and the day style reads
        // the date at the start of any text, which is why it is tried on a date alone).
        guard Self.timeIsInRange(utf8) else { return nil }
        for style in Self.instantStyles {
            if let date = try? style.parse(text) {
                self = date
                return
            }
        }
        // RFC 3339 writes any offset up to ±23:59 (`time-hour`, `time-minute`); Foundation's styles stop at ±18:00.
        guard [UInt8(ascii: "+"), UInt8(ascii: "-")].contains(utf8[utf8.count - 6]),
            utf8[utf8.count - 3] == UInt8(ascii: ":"),
            let hours = Self.number(utf8, at: utf8.count - 5), let minutes = Self.number(utf8, at: utf8.count - 2),
            hours < 24, minutes < 60,
            let local = Self.instantStyles.lazy.compactMap({ try? $0.parse(String(text.dropLast(6)) + "Z") }).first
        else { return nil }
        let offset = Double(hours * 3600 + minutes * 60)
        self = local.addingTimeInterval(utf8[utf8.count - 6] == UInt8(ascii: "+") ? -offset : offset)
    }

    /// Whether a text begins as an RFC 3339 date does (`2025-`, at least a full date long): most text that does not (an
    /// id, a name) is told apart here, before the styles, which each fail slowly (a list's `-/id` tie-break is a UUID).
    package static func mayBeISO8601(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard utf8.count >= 10 else { return false }
        return utf8.prefix(5).enumerated().allSatisfy { offset, byte in
            offset == 4 ? byte == UInt8(ascii: "-") : (48...57).contains(byte)
        }
    }

    /// Whether `2025-11-15T14:30:00…` has an hour, a minute and a second in range (a second of 60 is a leap second's).
    private static func timeIsInRange(_ utf8: [UInt8]) -> Bool {
        guard utf8.count >= 20, utf8[13] == UInt8(ascii: ":"), utf8[16] == UInt8(ascii: ":"),
            let hour = number(utf8, at: 11), let minute = number(utf8, at: 14), let second = number(utf8, at: 17)
        else { return false }
        return hour < 24 && minute < 60 && second <= 60
    }

    /// The two-digit number at `offset`.
    private static func number(_ utf8: [UInt8], at offset: Int) -> Int? {
        guard offset >= 0, offset + 1 < utf8.count, (48...57).contains(utf8[offset]), (48...57).contains(utf8[offset + 1])
        else { return nil }
        return Int(utf8[offset] - 48) * 10 + Int(utf8[offset + 1] - 48)
    }

    private static let instantStyles = [
        Date.ISO8601FormatStyle(includingFractionalSeconds: true), Date.ISO8601FormatStyle(),
    ]
    private static let dayStyle = Date.ISO8601FormatStyle().year().month().day()
}
