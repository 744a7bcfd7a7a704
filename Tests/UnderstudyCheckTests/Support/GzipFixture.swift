/// Gzip bodies built by hand (RFC 1951/1952), so tests control every byte a server sends: a faithful
/// encoding of a JSON body, and a bomb of zeros.
enum GzipFixture {
    /// `bytes` in gzip, in stored (uncompressed) deflate blocks: valid, with its CRC-32 and length.
    static func gzip(_ bytes: [UInt8]) -> [UInt8] {
        header + stored(bytes) + littleEndian(crc32(bytes), bytes: 4)
            + littleEndian(UInt32(truncatingIfNeeded: bytes.count), bytes: 4)
    }

    /// `bytes` as HTTP's `deflate` coding: a zlib stream (RFC 1950) of stored blocks with its Adler-32.
    static func deflate(_ bytes: [UInt8]) -> [UInt8] {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return [0x78, 0x01] + stored(bytes) + littleEndian(b << 16 | a, bytes: 4).reversed()
    }

    private static func stored(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var start = 0
        repeat {
            let end = min(start + 65_535, bytes.count)
            let length = UInt16(end - start)
            output.append(end == bytes.count ? 1 : 0)  // BFINAL, BTYPE 00 (stored)
            output += littleEndian(UInt32(length), bytes: 2) + littleEndian(UInt32(~length), bytes: 2)
            output += bytes[start..<end]
            start = end
        } while start < bytes.count
        return output
    }

    /// About `size` bytes of gzip that inflate to roughly 160 times as many zeros: one fixed-Huffman block
    /// of a literal 0 followed by (length 258, distance 1) matches. It never ends: an inflater must give up
    /// at its limit long before the missing trailer matters.
    static func zeros(size: Int) -> [UInt8] {
        var writer = BitWriter()
        writer.write(1, count: 1)  // BFINAL
        writer.write(1, count: 2)  // BTYPE 01: fixed Huffman codes
        writer.code(0x30, length: 8)  // literal 0
        for _ in 0..<16 {
            writer.code(0xC5, length: 8)  // length symbol 285: 258 bytes
            writer.code(0, length: 5)  // distance symbol 0: distance 1
        }
        // A match takes 13 bits, so 8 of them fill exactly 13 bytes: from byte 2 on, the stream repeats
        // with that period.
        let period = Array(writer.bytes[2..<15])
        var output = header + writer.bytes[0..<2]
        output.reserveCapacity(size)
        while output.count < size { output += period }
        return output
    }

    private static let header: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]

    private static func littleEndian(_ value: UInt32, bytes: Int) -> [UInt8] {
        (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }

    /// Deflate's bit order: values least significant bit first, Huffman codes most significant bit first.
    private struct BitWriter {
        var bytes: [UInt8] = []
        var used = 0

        mutating func write(_ value: UInt32, count: Int) {
            for index in 0..<count { bit((value >> index) & 1) }
        }

        mutating func code(_ code: UInt32, length: Int) {
            for index in (0..<length).reversed() { bit((code >> index) & 1) }
        }

        private mutating func bit(_ bit: UInt32) {
            if used % 8 == 0 { bytes.append(0) }
            bytes[bytes.count - 1] |= UInt8(bit) << (used % 8)
            used += 1
        }
    }
}
