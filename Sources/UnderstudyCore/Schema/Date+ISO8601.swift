import Foundation

extension Date {
    /// An RFC 3339 instant (with or without fractional seconds) or a full date, which names its midnight UTC.
    package init?(iso8601 text: String) {
        let formatter = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [
            [.withInternetDateTime, .withFractionalSeconds], [.withInternetDateTime], [.withFullDate],
        ] {
            formatter.formatOptions = options
            if let date = formatter.date(from: text) {
                self = date
                return
            }
        }
        return nil
    }
}
