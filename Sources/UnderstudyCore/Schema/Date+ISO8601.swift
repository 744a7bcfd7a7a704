import Foundation

extension Date {
    /// An RFC 3339 instant (with or without fractional seconds) or a full date, which names its midnight UTC.
    ///
    /// Read with `Date.ISO8601FormatStyle`, written in Swift: an `ISO8601DateFormatter` opens an ICU date format
    /// each time it is made, which profiling found in every VideGreniers create (the `endDate` after `startDate`
    /// rule), about a tenth of its time.
    package init?(iso8601 text: String) {
        guard Self.mayBeISO8601(text) else { return nil }
        for style in Self.iso8601Styles {
            if let date = try? style.parse(text) {
                self = date
                return
            }
        }
        // RFC 3339 writes any offset up to ±23:59 (`time-hour`, `time-minute`); Foundation's styles stop at ±18:00.
        let utf8 = Array(text.utf8)
        guard utf8.count > 16, [UInt8(ascii: "+"), UInt8(ascii: "-")].contains(utf8[utf8.count - 6]),
            utf8[utf8.count - 3] == UInt8(ascii: ":"),
            let hours = Int(String(decoding: utf8[(utf8.count - 5)..<(utf8.count - 3)], as: UTF8.self)),
            let minutes = Int(String(decoding: utf8[(utf8.count - 2)...], as: UTF8.self)), hours < 24, minutes < 60,
            let local = Self.iso8601Styles.lazy.compactMap({ try? $0.parse(String(text.dropLast(6)) + "Z") }).first
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

    private static let iso8601Styles = [
        Date.ISO8601FormatStyle(includingFractionalSeconds: true), Date.ISO8601FormatStyle(),
        Date.ISO8601FormatStyle().year().month().day(),
    ]
}
