import Foundation
import UnderstudyMock

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A blocking loopback TCP connection, for requests no HTTP client would send.
final class RawConnection {
    let descriptor: Int32

    init(port: Int) throws {
        #if canImport(Glibc)
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw LiveMockError("socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw LiveMockError("connect() to 127.0.0.1:\(port) failed: errno \(errno)")
        }
    }

    deinit { close(descriptor) }

    func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) throws {
        // MSG_NOSIGNAL: writing to a connection the server has closed must fail, not kill the test process.
        #if canImport(Glibc)
            let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        #else
            let sent = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        #endif
        guard sent == bytes.count else { throw LiveMockError("write() sent \(sent) of \(bytes.count) bytes") }
    }

    /// Whether the server has closed the connection (without waiting: nothing is read).
    var isClosedByPeer: Bool {
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        return count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
    }

    /// One whole answer (head and a `Content-Length` body) on a connection that stays open.
    func readResponse(patience: Duration) async throws -> (head: String, body: [UInt8]) {
        let descriptor = descriptor
        let seconds = Int(patience.components.seconds)
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try Self.blockingReadResponse(descriptor, seconds: seconds) })
            }
        }
    }

    private static func blockingReadResponse(_ descriptor: Int32, seconds: Int) throws -> (head: String, body: [UInt8]) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var byte: UInt8 = 0
        // Byte by byte up to the end of the head, so nothing of a following answer is consumed.
        while !received.suffix(4).elementsEqual("\r\n\r\n".utf8) {
            guard read(descriptor, &byte, 1) == 1 else { throw LiveMockError("the answer's head did not arrive") }
            received.append(byte)
        }
        let head = String(decoding: received, as: UTF8.self)
        let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
        var body = [UInt8](repeating: 0, count: length)
        var filled = 0
        while filled < length {
            let count = body.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, length - filled) }
            guard count > 0 else { throw LiveMockError("the answer's body ended after \(filled) of \(length) bytes") }
            filled += count
        }
        return (head, body)
    }

    /// Everything the peer sends until it closes the connection; throws when it is still open after `patience`.
    func readUntilClosed(patience: Duration) async throws -> [UInt8] {
        let descriptor = descriptor
        let seconds = Int(patience.components.seconds)
        // A blocking read must not hold one of the few threads of the concurrency pool: the server's
        // handlers run there, and with every thread blocked no answer could ever come.
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try Self.blockingRead(descriptor, seconds: seconds) })
            }
        }
    }

    private static func blockingRead(_ descriptor: Int32, seconds: Int) throws -> [UInt8] {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return received }
            if count < 0 {
                if errno == ECONNRESET { return received }
                throw LiveMockError("the connection is still open after \(seconds) s (errno \(errno))")
            }
            received += buffer[0..<count]
        }
    }

    /// Sends one raw HTTP/1.1 request with `Connection: close` and returns the status and body of the answer.
    static func exchange(
        port: Int, method: String, target: String, headers: [String: String] = [:], body: [UInt8] = []
    ) async throws -> (status: Int, headers: String, body: [UInt8]) {
        let connection = try RawConnection(port: port)
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\n\r\n"
        try connection.send(Array(head.utf8) + body)
        let answer = try await connection.readUntilClosed(patience: .seconds(300))
        let separator = Array("\r\n\r\n".utf8)
        guard let end = answer.indices.first(where: { answer[$0...].starts(with: separator) }) else {
            throw LiveMockError("no complete response head: \(String(decoding: answer.prefix(200), as: UTF8.self))")
        }
        let headText = String(decoding: answer[..<end], as: UTF8.self)
        let statusLine = headText.prefix { $0 != "\r" }.split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw LiveMockError("no status line: \(headText.prefix(200))")
        }
        return (status, headText, Array(answer[(end + separator.count)...]))
    }
}
