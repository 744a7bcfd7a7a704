/// A JSON number as the JSON text means it: sign, significant digits and a power of ten, without `Double` rounding.
///
/// JSON Schema compares numbers by their mathematical value: `9007199254740993 > 9007199254740992` holds, `1.0`
/// is an integer, `19.99` is a multiple of `0.01`, and `1e308` is no multiple of `0.123456789`. Bounds and
/// `multipleOf` are decided on the literal, exactly.
struct ExactDecimal: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Whether the value is below zero (never set for zero, so `-0 == 0`).
    let isNegative: Bool
    /// The significant digits (0...9), without leading or trailing zeros; empty for zero.
    let digits: [UInt8]
    /// The power of ten the digits are scaled by: value = digits × 10^exponent.
    let exponent: Int

    /// Exponents beyond this magnitude are clamped: no JSON text in memory can need more, and clamping keeps the
    /// arithmetic below from overflowing.
    private static let exponentLimit = 1 << 50

    /// Parses a JSON number literal (`-12.50e+3`); `nil` for text that is not one.
    init?(literal: String) {
        var negative = false
        var digits: [UInt8] = []
        var fractionDigits = 0
        var exponent = 0
        var exponentNegative = false
        var sawDigit = false
        var state = 0  // 0 integer part, 1 fraction, 2 exponent
        var exponentDigits = 0
        for (offset, byte) in literal.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "-") where offset == 0:
                negative = true
            case UInt8(ascii: "-") where state == 2 && exponentDigits == 0:
                exponentNegative = true
            case UInt8(ascii: "+") where state == 2 && exponentDigits == 0:
                continue
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let digit = byte - UInt8(ascii: "0")
                if state == 2 {
                    exponentDigits += 1
                    if exponent < Self.exponentLimit { exponent = exponent * 10 + Int(digit) }
                } else {
                    sawDigit = true
                    if state == 1 { fractionDigits += 1 }
                    // Leading zeros carry no value.
                    if !(digits.isEmpty && digit == 0) { digits.append(digit) }
                }
            case UInt8(ascii: ".") where state == 0:
                state = 1
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                guard state < 2 else { return nil }
                state = 2
            default:
                return nil
            }
        }
        guard sawDigit, state != 2 || exponentDigits > 0 else { return nil }
        var scale = (exponentNegative ? -exponent : exponent) - fractionDigits
        var trailing = 0
        while trailing < digits.count, digits[digits.count - 1 - trailing] == 0 { trailing += 1 }
        digits.removeLast(trailing)
        scale += trailing
        self.isNegative = negative && !digits.isEmpty
        self.digits = digits
        self.exponent = digits.isEmpty ? 0 : max(-Self.exponentLimit, min(Self.exponentLimit, scale))
    }

    /// The number as JSON wrote it, read exactly.
    init?(_ number: JSONNumber) {
        self.init(literal: number.literal)
    }

    var isZero: Bool { digits.isEmpty }

    /// Whether the value has no fractional part (`1.0`, `1e3` and `12345678901234567890` are integral).
    var isIntegral: Bool { exponent >= 0 }

    /// The position of the leading digit: values with a larger one have a larger magnitude.
    private var magnitude: Int { digits.count + exponent }

    static func < (lhs: ExactDecimal, rhs: ExactDecimal) -> Bool { compare(lhs, rhs) < 0 }

    /// -1, 0 or 1 as `lhs` is below, equal to or above `rhs`.
    static func compare(_ lhs: ExactDecimal, _ rhs: ExactDecimal) -> Int {
        if lhs.isNegative != rhs.isNegative { return lhs.isNegative ? -1 : 1 }
        let sign = lhs.isNegative ? -1 : 1
        if lhs.isZero || rhs.isZero {
            if lhs.isZero && rhs.isZero { return 0 }
            return lhs.isZero ? -sign : sign
        }
        if lhs.magnitude != rhs.magnitude { return lhs.magnitude < rhs.magnitude ? -sign : sign }
        // Same leading position: the digit strings, aligned at their first digit, decide.
        for index in 0..<max(lhs.digits.count, rhs.digits.count) {
            let left = index < lhs.digits.count ? lhs.digits[index] : 0
            let right = index < rhs.digits.count ? rhs.digits[index] : 0
            if left != right { return left < right ? -sign : sign }
        }
        return 0
    }

    /// How much digit work a `multipleOf` check may do before it settles for `Double` arithmetic.
    private static let workLimit = 10_000_000

    /// Whether this value is an integral multiple of `divisor`, decided exactly.
    ///
    /// With value = a × 10^ea and divisor = b × 10^eb (a, b without trailing zeros), the value is a multiple iff
    /// ea ≥ eb and a × 10^(ea − eb) ≡ 0 (mod b): a remainder computed digit by digit and by modular powers of ten,
    /// so `1e308` against `0.123456789` costs a few dozen steps.
    func isMultiple(of divisor: ExactDecimal) -> Bool {
        if isZero { return true }
        // A zero divisor is no valid schema; refusing nothing keeps a broken schema from refusing every value.
        if divisor.isZero { return true }
        // `a` has no trailing zero, so it is not divisible by 10 and no shift below `eb` can make it a multiple.
        guard exponent >= divisor.exponent else { return false }
        let shift = exponent - divisor.exponent
        if let modulus = divisor.smallValue {
            var remainder: UInt64 = 0
            for digit in digits { remainder = Self.mulMod(remainder, 10, modulus, plus: UInt64(digit)) }
            return Self.mulMod(remainder, Self.powMod(10, shift, modulus), modulus) == 0
        }
        let length = digits.count + shift
        guard length.multipliedReportingOverflow(by: divisor.digits.count).partialValue < Self.workLimit,
            length < Self.workLimit
        else { return isMultipleByDouble(of: divisor) }
        return Self.remainderIsZero(dividend: digits, zeros: shift, divisor: divisor.digits)
    }

    /// The digits as an integer when there are at most 19 of them (below 10^19 < 2^64).
    private var smallValue: UInt64? {
        guard digits.count <= 19 else { return nil }
        return digits.reduce(0) { $0 * 10 + UInt64($1) }
    }

    /// (a × b + c) mod m without overflow, for a, c < m.
    private static func mulMod(_ a: UInt64, _ b: UInt64, _ modulus: UInt64, plus: UInt64 = 0) -> UInt64 {
        let product = a.multipliedFullWidth(by: b)
        let (sum, carry) = product.low.addingReportingOverflow(plus)
        let high = product.high + (carry ? 1 : 0)
        return modulus.dividingFullWidth((high % modulus, sum)).remainder
    }

    /// base^exponent mod m by squaring.
    private static func powMod(_ base: UInt64, _ exponent: Int, _ modulus: UInt64) -> UInt64 {
        var result: UInt64 = 1 % modulus
        var base = base % modulus
        var exponent = exponent
        while exponent > 0 {
            if exponent & 1 == 1 { result = mulMod(result, base, modulus) }
            base = mulMod(base, base, modulus)
            exponent >>= 1
        }
        return result
    }

    /// Schoolbook remainder of (dividend followed by `zeros` zeros) by a divisor of more than 19 digits.
    private static func remainderIsZero(dividend: [UInt8], zeros: Int, divisor: [UInt8]) -> Bool {
        var remainder: [UInt8] = []
        func step(_ digit: UInt8) {
            if !(remainder.isEmpty && digit == 0) { remainder.append(digit) }
            while !lessThan(remainder, divisor) { subtract(&remainder, divisor) }
        }
        for digit in dividend { step(digit) }
        for _ in 0..<zeros { step(0) }
        return remainder.isEmpty
    }

    /// Whether big-endian digit strings without leading zeros compare `a < b`.
    private static func lessThan(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        if a.count != b.count { return a.count < b.count }
        for (x, y) in zip(a, b) where x != y { return x < y }
        return false
    }

    /// a -= b for a ≥ b, keeping `a` free of leading zeros.
    private static func subtract(_ a: inout [UInt8], _ b: [UInt8]) {
        var borrow: Int = 0
        var indexB = b.count - 1
        for indexA in stride(from: a.count - 1, through: 0, by: -1) {
            var digit = Int(a[indexA]) - borrow - (indexB >= 0 ? Int(b[indexB]) : 0)
            borrow = digit < 0 ? 1 : 0
            if digit < 0 { digit += 10 }
            a[indexA] = UInt8(digit)
            indexB -= 1
        }
        let leading = a.prefix { $0 == 0 }.count
        a.removeFirst(leading)
    }

    /// The fallback past the work limit: a quotient `Double` cannot hold as an integer is no multiple.
    private func isMultipleByDouble(of divisor: ExactDecimal) -> Bool {
        guard let value = Double(description), let step = Double(divisor.description) else { return false }
        let quotient = value / step
        return quotient.isFinite && quotient.rounded() == quotient
    }

    /// Scientific form (`-1.25e3`), exact.
    var description: String {
        guard !digits.isEmpty else { return "0" }
        var text = isNegative ? "-" : ""
        text += String(decoding: digits.map { $0 + UInt8(ascii: "0") }, as: UTF8.self)
        if exponent != 0 { text += "e\(exponent)" }
        return text
    }
}
