/// Decoding of `application/x-www-form-urlencoded` text: query strings and form bodies.
package enum FormURLEncoding {
    /// The name/value pairs of `name=value&...`, percent-decoded, `+` as space, in order.
    package static func pairs(_ raw: String) -> [(name: String, value: String)] {
        raw.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    /// Percent-decodes one component; `+` is a space. A malformed escape leaves its `%`.
    package static func decode(_ text: Substring) -> String {
        guard text.contains("%") || text.contains("+") else { return String(text) }
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                if let high = iterator.next(), let low = iterator.next(),
                    let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
                {
                    bytes.append(value)
                } else {
                    bytes.append(byte)
                }
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
