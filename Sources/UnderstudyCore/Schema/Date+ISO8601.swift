import Foundation

extension Date {
    /// An RFC 3339 instant (with or without fractional seconds) or a full date, which names its midnight UTC.
    ///
    /// Read with `Date.ISO8601FormatStyle`, written in Swift: an `ISO8601DateFormatter` opens an ICU date format
    /// each time it is made, which profiling found in every VideGreniers create (the `endDate` after `startDate`
    /// rule), about a tenth of its time.
    package init?(iso8601 text: String) {
        for style in Self.iso8601Styles {
            if let date = try? style.parse(text) {
                self = date
                return
            }
        }
        return nil
    }

    private static let iso8601Styles = [
        Date.ISO8601FormatStyle(includingFractionalSeconds: true), Date.ISO8601FormatStyle(),
        Date.ISO8601FormatStyle().year().month().day(),
    ]
}
