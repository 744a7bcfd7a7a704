import Foundation

/// The `format` values the engine checks, as JSON Schema 2020-12 (and OpenAPI, for `int32`, `int64` and `byte`)
/// defines them; an unknown format is an annotation only.
///
/// Each check is hand-written to the RFC grammar (RFC 3339 dates and durations, RFC 3986 URIs, RFC 5321 e-mail,
/// RFC 1123 host names), allocation-free where it matters; ``StringFormat`` is reused where its reading is the
/// standard one (`date`, `ipv6`).
enum JSONSchemaFormat: String, Sendable, CaseIterable {
    case dateTime = "date-time"
    case date
    case time
    case duration
    case email
    case idnEmail = "idn-email"
    case hostname
    case idnHostname = "idn-hostname"
    case ipv4
    case ipv6
    case uri
    case uriReference = "uri-reference"
    case iri
    case iriReference = "iri-reference"
    case uuid
    case uriTemplate = "uri-template"
    case jsonPointer = "json-pointer"
    case relativeJSONPointer = "relative-json-pointer"
    case regex
    case int32
    case int64
    case byte

    /// Whether `value` is valid in this format; values of the types a format does not speak about are.
    func matches(_ value: JSONValue) -> Bool {
        switch (self, value) {
        case (.int32, .number(let number)): return Self.isIntegral(number, bits: 32)
        case (.int64, .number(let number)): return Self.isIntegral(number, bits: 64)
        case (.int32, _), (.int64, _): return true
        case (_, .string(let string)): return matches(string)
        default: return true
        }
    }

    func matches(_ string: String) -> Bool {
        let bytes = Array(string.utf8)
        switch self {
        case .dateTime: return Self.isDateTime(bytes)
        case .date: return StringFormat.date.matches(string)
        case .time: return Self.isFullTime(bytes[...])
        case .duration: return Self.isDuration(bytes)
        case .email: return Self.isEmail(bytes, international: false)
        case .idnEmail: return Self.isEmail(bytes, international: true)
        case .hostname: return Self.isHostname(bytes[...])
        case .idnHostname: return Self.isInternationalHostname(string)
        case .ipv4: return Self.isIPv4(bytes[...])
        case .ipv6: return !bytes.contains(UInt8(ascii: "%")) && StringFormat.ipv6.matches(string)
        case .uri: return URISyntax(bytes, international: false).isURI(allowRelative: false)
        case .uriReference: return URISyntax(bytes, international: false).isURI(allowRelative: true)
        case .iri: return URISyntax(bytes, international: true).isURI(allowRelative: false)
        case .iriReference: return URISyntax(bytes, international: true).isURI(allowRelative: true)
        case .uuid: return Self.isUUID(bytes)
        case .uriTemplate: return Self.isURITemplate(bytes)
        case .jsonPointer: return Self.isJSONPointer(bytes[...])
        case .relativeJSONPointer: return Self.isRelativeJSONPointer(bytes)
        case .regex: return Self.isRegex(string)
        case .byte: return Self.isBase64(bytes)
        case .int32, .int64: return true
        }
    }

    private static func isIntegral(_ number: JSONNumber, bits: Int) -> Bool {
        guard let exact = ExactDecimal(number), exact.isIntegral else { return false }
        let low = ExactDecimal(literal: bits == 32 ? "-2147483648" : "-9223372036854775808")
        let high = ExactDecimal(literal: bits == 32 ? "2147483647" : "9223372036854775807")
        guard let low, let high else { return false }
        return exact >= low && exact <= high
    }

    // MARK: Dates and times (RFC 3339 §5.6)

    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    private static func number(_ bytes: ArraySlice<UInt8>, _ offset: Int, _ count: Int) -> Int? {
        let start = bytes.startIndex + offset
        guard start + count <= bytes.endIndex else { return nil }
        var value = 0
        for byte in bytes[start..<start + count] {
            guard isDigit(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func isDateTime(_ bytes: [UInt8]) -> Bool {
        guard bytes.count > 11, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t") else { return false }
        let date = String(decoding: bytes[0..<10], as: UTF8.self)
        return StringFormat.date.matches(date) && isFullTime(bytes[11...])
    }

    /// `hh:mm:ss[.fraction](Z|±hh:mm)`; second 60 only where the time is 23:59 in UTC (a leap second).
    private static func isFullTime(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard let hour = number(bytes, 0, 2), bytes.count >= 9, bytes[bytes.startIndex + 2] == UInt8(ascii: ":"),
            let minute = number(bytes, 3, 2), bytes[bytes.startIndex + 5] == UInt8(ascii: ":"),
            let second = number(bytes, 6, 2), hour <= 23, minute <= 59, second <= 60
        else { return false }
        var index = bytes.startIndex + 8
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < bytes.endIndex, isDigit(bytes[index]) { index += 1 }
            guard index > start else { return false }
        }
        guard index < bytes.endIndex else { return false }
        var offsetMinutes = 0
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard index + 1 == bytes.endIndex else { return false }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let offset = bytes[(index + 1)...]
            guard offset.count == 5, let offsetHour = number(offset, 0, 2),
                offset[offset.startIndex + 2] == UInt8(ascii: ":"), let offsetMinute = number(offset, 3, 2),
                offsetHour <= 23, offsetMinute <= 59
            else { return false }
            offsetMinutes = (offsetHour * 60 + offsetMinute) * (bytes[index] == UInt8(ascii: "+") ? 1 : -1)
        default:
            return false
        }
        if second == 60 {
            let utc = ((hour * 60 + minute - offsetMinutes) % 1440 + 1440) % 1440
            return utc == 23 * 60 + 59
        }
        return true
    }

    /// RFC 3339 Appendix A: `P` then date units in the order Y, M, D (a contiguous run), optionally `T` and time
    /// units H, M, S (a contiguous run); or `PnW` alone.
    private static func isDuration(_ bytes: [UInt8]) -> Bool {
        guard bytes.first == UInt8(ascii: "P"), bytes.count > 1 else { return false }
        var index = 1
        func units() -> [UInt8]? {
            var found: [UInt8] = []
            while index < bytes.count, bytes[index] != UInt8(ascii: "T") {
                let start = index
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
                guard index > start, index < bytes.count else { return nil }
                found.append(bytes[index])
                index += 1
            }
            return found
        }
        guard let dateUnits = units() else { return false }
        var timeUnits: [UInt8] = []
        if index < bytes.count {
            index += 1
            guard let found = units(), !found.isEmpty else { return false }
            timeUnits = found
        }
        guard !dateUnits.isEmpty || !timeUnits.isEmpty else { return false }
        if dateUnits == [UInt8(ascii: "W")] { return timeUnits.isEmpty }
        func isRun(_ units: [UInt8], of order: String) -> Bool {
            guard !units.isEmpty else { return true }
            let order = Array(order.utf8)
            guard let first = order.firstIndex(of: units[0]), first + units.count <= order.count else { return false }
            return Array(order[first..<first + units.count]) == units
        }
        return isRun(dateUnits, of: "YMD") && isRun(timeUnits, of: "HMS")
    }

    // MARK: Names and addresses

    /// RFC 1123 host names: dot-separated labels of letters, digits and inner hyphens, 63 bytes each, 253 in all;
    /// a label with `--` at positions 3-4 must be an A-label (`xn--`).
    private static func isHostname(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard !bytes.isEmpty, bytes.count <= 253 else { return false }
        for label in bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false) {
            guard (1...63).contains(label.count), label.first != UInt8(ascii: "-"), label.last != UInt8(ascii: "-"),
                label.allSatisfy({ isDigit($0) || isLetter($0) || $0 == UInt8(ascii: "-") })
            else { return false }
            let characters = Array(label)
            if characters.count >= 4, characters[2] == UInt8(ascii: "-"), characters[3] == UInt8(ascii: "-") {
                let prefix = String(decoding: characters[0..<2], as: UTF8.self).lowercased()
                guard prefix == "xn", characters.count > 4 else { return false }
            }
        }
        return true
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- UInt8(ascii: "a") < 26 }

    private static func isIPv4(_ bytes: ArraySlice<UInt8>) -> Bool {
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        return parts.allSatisfy { part in
            guard (1...3).contains(part.count), part.allSatisfy(isDigit),
                part.count == 1 || part.first != UInt8(ascii: "0")
            else { return false }
            return part.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) } <= 255
        }
    }

    /// RFC 5322's `atext` beyond letters and digits.
    private static let atomSymbols = Set("!#$%&'*+-/=?^_`{|}~".utf8)

    /// RFC 5321's mailbox: a dot-atom or a quoted string, `@`, then a host name or an address literal.
    private static func isEmail(_ bytes: [UInt8], international: Bool) -> Bool {
        guard let at = bytes.lastIndex(of: UInt8(ascii: "@")), at > 0, at < bytes.count - 1 else { return false }
        let local = bytes[..<at]
        let domain = bytes[(at + 1)...]
        let localValid: Bool
        if local.first == UInt8(ascii: "\""), local.count >= 2, local.last == UInt8(ascii: "\"") {
            localValid = local.dropFirst().dropLast().allSatisfy { $0 >= 0x20 && $0 != UInt8(ascii: "\"") }
        } else {
            localValid =
                local.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).allSatisfy { atom in
                    !atom.isEmpty
                        && atom.allSatisfy {
                            isDigit($0) || isLetter($0) || atomSymbols.contains($0) || (international && $0 >= 0x80)
                        }
                }
        }
        guard localValid else { return false }
        if domain.first == UInt8(ascii: "["), domain.last == UInt8(ascii: "]") {
            let literal = domain.dropFirst().dropLast()
            let ipv6Prefix = Array("IPv6:".utf8)
            if literal.starts(with: ipv6Prefix) {
                return StringFormat.ipv6.matches(String(decoding: literal.dropFirst(ipv6Prefix.count), as: UTF8.self))
            }
            return isIPv4(literal)
        }
        if international, domain.contains(where: { $0 >= 0x80 }) {
            return domain.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).allSatisfy {
                !$0.isEmpty && $0.first != UInt8(ascii: "-") && $0.last != UInt8(ascii: "-")
                    && $0.allSatisfy { isDigit($0) || isLetter($0) || $0 == UInt8(ascii: "-") || $0 >= 0x80 }
            }
        }
        return isHostname(domain)
    }

    private static func isUUID(_ bytes: [UInt8]) -> Bool {
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if index == 8 || index == 13 || index == 18 || index == 23 {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard isDigit(byte) || (byte | 0x20) &- UInt8(ascii: "a") < 6 else { return false }
            }
        }
        return true
    }

    // MARK: Pointers and templates

    private static func isJSONPointer(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard bytes.isEmpty || bytes.first == UInt8(ascii: "/") else { return false }
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "~") {
                guard index + 1 < bytes.endIndex,
                    bytes[index + 1] == UInt8(ascii: "0") || bytes[index + 1] == UInt8(ascii: "1")
                else { return false }
                index += 1
            }
            index += 1
        }
        return true
    }

    /// A non-negative integer without leading zeros, then `#` or a JSON pointer.
    private static func isRelativeJSONPointer(_ bytes: [UInt8]) -> Bool {
        let digits = bytes.prefix(while: isDigit)
        guard !digits.isEmpty, digits.count == 1 || digits.first != UInt8(ascii: "0") else { return false }
        let rest = bytes[digits.count...]
        return rest.elementsEqual([UInt8(ascii: "#")]) || isJSONPointer(rest)
    }

    /// RFC 6570: literals without the excluded characters; expressions `{[operator]varspec,...}` with variable
    /// names of letters, digits, `_`, escapes and inner dots, and modifiers `*` or `:1`...`:9999`.
    private static func isURITemplate(_ bytes: [UInt8]) -> Bool {
        let excluded = Set(" \"<>\\^`|}".utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "{") {
                guard let close = bytes[index...].firstIndex(of: UInt8(ascii: "}")),
                    isExpression(bytes[(index + 1)..<close])
                else { return false }
                index = close + 1
                continue
            }
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else {
                    return false
                }
                index += 3
                continue
            }
            guard byte > 0x20, byte != 0x7F, !excluded.contains(byte) else { return false }
            index += 1
        }
        return true
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool { isDigit(byte) || (byte | 0x20) &- UInt8(ascii: "a") < 6 }

    private static func isExpression(_ expression: ArraySlice<UInt8>) -> Bool {
        var body = expression
        if let first = body.first, "+#./;?&".utf8.contains(first) { body = body.dropFirst() }
        guard !body.isEmpty else { return false }
        return body.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).allSatisfy { varspec in
            var name = varspec
            if varspec.last == UInt8(ascii: "*") {
                name = varspec.dropLast()
            } else if let colon = varspec.firstIndex(of: UInt8(ascii: ":")) {
                let length = varspec[(colon + 1)...]
                guard (1...4).contains(length.count), length.allSatisfy(isDigit), length.first != UInt8(ascii: "0")
                else { return false }
                name = varspec[..<colon]
            }
            guard !name.isEmpty, name.first != UInt8(ascii: "."), name.last != UInt8(ascii: ".") else { return false }
            var previousDot = false
            var index = name.startIndex
            while index < name.endIndex {
                let byte = name[index]
                if byte == UInt8(ascii: "%") {
                    guard index + 2 < name.endIndex, isHexDigit(name[index + 1]), isHexDigit(name[index + 2]) else {
                        return false
                    }
                    index += 3
                    previousDot = false
                    continue
                }
                if byte == UInt8(ascii: ".") {
                    guard !previousDot else { return false }
                    previousDot = true
                } else {
                    guard isDigit(byte) || isLetter(byte) || byte == UInt8(ascii: "_") else { return false }
                    previousDot = false
                }
                index += 1
            }
            return true
        }
    }

    /// RFC 5890's host names at the level of their labels: separated by `.` or an ideographic full stop, 1 to 63
    /// code points each, 253 in all, no hyphen at either end, and the ASCII ones host names. (IDNA's code point
    /// and Bidi rules are not checked.)
    private static func isInternationalHostname(_ string: String) -> Bool {
        let separators: Set<Unicode.Scalar> = [".", "\u{3002}", "\u{FF0E}", "\u{FF61}"]
        let scalars = Array(string.unicodeScalars)
        guard !scalars.isEmpty, scalars.count <= 253 else { return false }
        let labels = scalars.split(omittingEmptySubsequences: false) { separators.contains($0) }
        return labels.allSatisfy { label in
            guard (1...63).contains(label.count), label.first != "-", label.last != "-" else { return false }
            if label.allSatisfy(\.isASCII) {
                return isHostname(Array(String(String.UnicodeScalarView(label)).utf8)[...])
            }
            let characters = Array(label)
            return !(characters.count >= 4 && characters[2] == "-" && characters[3] == "-")
                && label.allSatisfy {
                    !$0.isASCII || $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-"
                }
        }
    }

    /// Whether ICU compiles the pattern and it uses no syntax ECMA-262 lacks: groups `(?` other than `(?:`,
    /// `(?=`, `(?!`, `(?<` (inline flags, comments) and the `\a` escape.
    private static func isRegex(_ pattern: String) -> Bool {
        let bytes = Array(pattern.utf8)
        var escaped = false
        for (index, byte) in bytes.enumerated() {
            if escaped {
                escaped = false
                if byte == UInt8(ascii: "a") { return false }
                continue
            }
            if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "("), index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "?"),
                !":=!<".utf8.contains(bytes[index + 2])
            {
                return false
            }
        }
        return (try? NSRegularExpression(pattern: RegularExpression.ecmaToICU(pattern))) != nil
    }

    private static func isBase64(_ bytes: [UInt8]) -> Bool {
        guard bytes.count % 4 == 0 else { return false }
        let padding = bytes.reversed().prefix { $0 == UInt8(ascii: "=") }.count
        guard padding <= 2 else { return false }
        return bytes.dropLast(padding).allSatisfy {
            isDigit($0) || isLetter($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "/")
        }
    }
}

/// RFC 3986 (and RFC 3987, with `international`) syntax of URIs and URI references.
private struct URISyntax {
    let bytes: [UInt8]
    let international: Bool

    init(_ bytes: [UInt8], international: Bool) {
        self.bytes = bytes
        self.international = international
    }

    private static let unreserved = Set("-._~".utf8)
    private static let subDelimiters = Set("!$&'()*+,;=".utf8)

    private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
    private func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- UInt8(ascii: "a") < 26 }
    private func isHex(_ byte: UInt8) -> Bool { isDigit(byte) || (byte | 0x20) &- UInt8(ascii: "a") < 6 }

    /// Whether `part` is made of `pchar`s and the `extra` characters, percent-escapes well-formed.
    private func isMade(_ part: ArraySlice<UInt8>, of extra: Set<UInt8>) -> Bool {
        var index = part.startIndex
        while index < part.endIndex {
            let byte = part[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < part.endIndex, isHex(part[index + 1]), isHex(part[index + 2]) else { return false }
                index += 3
                continue
            }
            guard
                isDigit(byte) || isLetter(byte) || Self.unreserved.contains(byte) || Self.subDelimiters.contains(byte)
                    || extra.contains(byte) || (international && byte >= 0x80)
            else { return false }
            index += 1
        }
        return true
    }

    func isURI(allowRelative: Bool) -> Bool {
        var rest = bytes[...]
        if let hash = rest.firstIndex(of: UInt8(ascii: "#")) {
            guard isMade(rest[(hash + 1)...], of: Set(":@/?".utf8)) else { return false }
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: UInt8(ascii: "?")) {
            guard isMade(rest[(question + 1)...], of: Set(":@/?".utf8)) else { return false }
            rest = rest[..<question]
        }
        let firstDelimiter = rest.firstIndex { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "/") }
        if let colon = firstDelimiter, rest[colon] == UInt8(ascii: ":") {
            let scheme = rest[..<colon]
            guard let first = scheme.first, isLetter(first),
                scheme.allSatisfy({ isLetter($0) || isDigit($0) || "+-.".utf8.contains($0) })
            else { return false }
            rest = rest[(colon + 1)...]
        } else {
            guard allowRelative else { return false }
        }
        if rest.starts(with: "//".utf8) {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
            guard isAuthority(rest[..<end]) else { return false }
            rest = rest[end...]
        }
        return isMade(rest, of: Set(":@/".utf8))
    }

    private func isAuthority(_ authority: ArraySlice<UInt8>) -> Bool {
        var hostAndPort = authority
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) {
            guard isMade(authority[..<at], of: [UInt8(ascii: ":")]) else { return false }
            hostAndPort = authority[(at + 1)...]
        }
        var host = hostAndPort
        if hostAndPort.first == UInt8(ascii: "[") {
            guard let close = hostAndPort.firstIndex(of: UInt8(ascii: "]")) else { return false }
            let literal = String(decoding: hostAndPort[(hostAndPort.startIndex + 1)..<close], as: UTF8.self)
            guard literal.first == "v" || literal.first == "V" || StringFormat.ipv6.matches(literal) else {
                return false
            }
            let after = hostAndPort[(close + 1)...]
            guard after.isEmpty || (after.first == UInt8(ascii: ":") && after.dropFirst().allSatisfy(isDigit)) else {
                return false
            }
            return true
        }
        if let colon = hostAndPort.lastIndex(of: UInt8(ascii: ":")) {
            guard hostAndPort[(colon + 1)...].allSatisfy(isDigit) else { return false }
            host = hostAndPort[..<colon]
        }
        return isMade(host, of: [])
    }
}
