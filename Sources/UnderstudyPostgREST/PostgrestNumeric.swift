import Foundation
import UnderstudyCore

/// A `numeric(precision, scale)` column's values as PostgreSQL stores them: rounded to `scale` digits, half away
/// from zero, and written with exactly that many (`123.455` → `123.46`, `777` → `777.00`); a value whose integer
/// part needs more than `precision - scale` digits is refused (22003, "numeric field overflow").
package enum PostgrestNumeric {
    /// The stored literal of a number, `nil` when the column cannot hold it.
    package static func stored(_ literal: String, _ numeric: NumericScale) -> String? {
        guard var value = Decimal(string: literal, locale: Locale(identifier: "en_US_POSIX")), value.isFinite else {
            return nil
        }
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, numeric.scale, .plain)
        let negative = rounded < 0
        var units = (negative ? -rounded : rounded) * pow(Decimal(10), numeric.scale)
        var whole = Decimal()
        NSDecimalRound(&whole, &units, 0, .plain)
        var digits = "\(whole)"
        if digits.count <= numeric.scale {
            digits = String(repeating: "0", count: numeric.scale - digits.count + 1) + digits
        }
        let integerDigits = digits.count - numeric.scale
        guard
            integerDigits <= max(1, numeric.precision - numeric.scale)
                || digits.prefix(integerDigits).allSatisfy({ $0 == "0" })
        else { return nil }
        let integer = digits.prefix(integerDigits)
        let fraction = digits.suffix(numeric.scale)
        let text = numeric.scale == 0 ? String(integer) : "\(integer).\(fraction)"
        return negative && whole != 0 ? "-" + text : text
    }

    /// 22003, as PostgreSQL words it.
    package static func overflow(_ numeric: NumericScale) -> PostgrestError {
        PostgrestErrors.make(
            .badRequest, code: "22003", "numeric field overflow",
            details: "A field with precision \(numeric.precision), scale \(numeric.scale) must round to an absolute "
                + "value less than 10^\(numeric.precision - numeric.scale).")
    }
}
