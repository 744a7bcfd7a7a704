import Foundation

/// The `JSONDecoder` configuration an app really uses, recorded on each ``APISpec``.
///
/// Schema inference and the app-decode verdict both follow it, so a response is judged the way
/// the app on the phone will decode it.
///
/// ```swift
/// let settings = DecoderSettings(dates: .iso8601)
/// let decoder = settings.makeDecoder()
/// ```
public struct DecoderSettings: Sendable, Hashable {
    /// How `Date` values are decoded.
    public enum DateStrategy: Sendable, Hashable, CustomStringConvertible {
        /// `JSONDecoder()`'s default: a number of seconds since 2001-01-01T00:00:00Z.
        case deferredToDate
        case secondsSince1970
        case millisecondsSince1970
        /// Apple's `.iso8601`: RFC 3339 without fractional seconds. (The Linux toolchain's
        /// `.iso8601` also accepts fractions; the app runs on Apple platforms, so this one does not.)
        case iso8601
        /// RFC 3339 with fractional seconds, as an `ISO8601DateFormatter` with `.withFractionalSeconds` reads
        /// them on Apple platforms: the fraction is required. Written with milliseconds, as JavaScript's
        /// `Date.toJSON` does (`2025-11-14T10:30:00.000Z`).
        case iso8601WithFractionalSeconds
        /// `.formatted(DateFormatter)` with a POSIX locale, UTC, and this pattern.
        case formatted(String)

        /// Reads a strategy as ``description`` writes it, or by its short command-line name
        /// (`deferred`, `seconds`, `milliseconds`, `iso8601`, `iso8601-fractions`).
        public init?(name: String) {
            switch name {
            case "deferredToDate", "deferred": self = .deferredToDate
            case "secondsSince1970", "seconds": self = .secondsSince1970
            case "millisecondsSince1970", "milliseconds": self = .millisecondsSince1970
            case "iso8601": self = .iso8601
            case "iso8601WithFractionalSeconds", "iso8601-fractions": self = .iso8601WithFractionalSeconds
            case let text where text.hasPrefix("formatted(") && text.hasSuffix(")") && text.count > 11:
                self = .formatted(String(text.dropFirst("formatted(".count).dropLast()))
            default: return nil
            }
        }

        public var description: String {
            switch self {
            case .deferredToDate: "deferredToDate"
            case .secondsSince1970: "secondsSince1970"
            case .millisecondsSince1970: "millisecondsSince1970"
            case .iso8601: "iso8601"
            case .iso8601WithFractionalSeconds: "iso8601WithFractionalSeconds"
            case .formatted(let pattern): "formatted(\(pattern))"
            }
        }
    }

    /// How JSON keys map to `CodingKey`s.
    public enum KeyStrategy: String, Sendable, Hashable, CustomStringConvertible {
        case useDefaultKeys
        case convertFromSnakeCase

        /// Reads a strategy by its raw value or its short command-line name (`default`, `snake-case`).
        public init?(name: String) {
            switch name {
            case "useDefaultKeys", "default": self = .useDefaultKeys
            case "convertFromSnakeCase", "snake-case": self = .convertFromSnakeCase
            default: return nil
            }
        }

        public var description: String { rawValue }
    }

    public var dates: DateStrategy
    public var keys: KeyStrategy

    /// `dates: iso8601, keys: useDefaultKeys`, as reports echo it.
    public var summary: String { "dates: \(dates), keys: \(keys)" }

    /// Creates settings; the defaults are those of a plain `JSONDecoder()`.
    public init(dates: DateStrategy = .deferredToDate, keys: KeyStrategy = .useDefaultKeys) {
        self.dates = dates
        self.keys = keys
    }

    /// A plain `JSONDecoder()`.
    public static let plain = DecoderSettings()

    /// A `JSONDecoder` configured like the app's.
    public func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = foundationDateStrategy
        if keys == .convertFromSnakeCase { decoder.keyDecodingStrategy = .convertFromSnakeCase }
        return decoder
    }

    /// A `JSONEncoder` writing dates and keys the way ``makeDecoder()`` reads them, keys sorted.
    public func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        switch dates {
        case .deferredToDate: encoder.dateEncodingStrategy = .deferredToDate
        case .secondsSince1970: encoder.dateEncodingStrategy = .secondsSince1970
        case .millisecondsSince1970: encoder.dateEncodingStrategy = .millisecondsSince1970
        case .iso8601: encoder.dateEncodingStrategy = .iso8601
        case .iso8601WithFractionalSeconds:
            encoder.dateEncodingStrategy = .custom { date, encoder in
                var container = encoder.singleValueContainer()
                try container.encode(date.formatted(Self.fractionalStyle))
            }
        case .formatted(let pattern): encoder.dateEncodingStrategy = .formatted(DateTimeSyntax.formatter(pattern))
        }
        if keys == .convertFromSnakeCase { encoder.keyEncodingStrategy = .convertToSnakeCase }
        return encoder
    }

    /// The Foundation strategy, with `.iso8601` made as strict as on Apple platforms.
    public var foundationDateStrategy: JSONDecoder.DateDecodingStrategy {
        switch dates {
        case .deferredToDate: return .deferredToDate
        case .secondsSince1970: return .secondsSince1970
        case .millisecondsSince1970: return .millisecondsSince1970
        case .formatted(let pattern): return .formatted(DateTimeSyntax.formatter(pattern))
        case .iso8601: return Self.rfc3339(fraction: .forbidden, style: Date.ISO8601FormatStyle())
        case .iso8601WithFractionalSeconds: return Self.rfc3339(fraction: .required, style: Self.fractionalStyle)
        }
    }

    private static let fractionalStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// Apple's strictness on every platform: the syntax is checked by hand before Foundation parses.
    private static func rfc3339(
        fraction: DateTimeSyntax.Fraction, style: Date.ISO8601FormatStyle
    ) -> JSONDecoder.DateDecodingStrategy {
        .custom { decoder in
            let container = try decoder.singleValueContainer()
            let string = try container.decode(String.self)
            guard DateTimeSyntax.matchesDateTime(string, fraction: fraction),
                let date = (try? style.parse(string)) ?? (try? Date.ISO8601FormatStyle().parse(string))
            else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "Expected date string to be ISO8601-formatted.")
            }
            return date
        }
    }
}
