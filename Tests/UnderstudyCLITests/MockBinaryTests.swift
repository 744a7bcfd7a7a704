import ArgumentParser
import Foundation
import Testing
import UnderstudyCore
import UnderstudyTestSupport

@testable import UnderstudyCLI

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The built `understudy mock` binary against the requests that used to kill it: each is answered, and the
/// process still serves every API afterwards.
struct MockBinaryTests {
    @Test func theKillerRequestsAreAnsweredAndTheProcessLives() async throws {
        let mock = try RunningMock()
        defer { mock.stop() }
        let videgreniers = try #require(mock.urls["videgreniers"])
        let easyco = try #require(mock.urls["easyco"])
        let fitness = try #require(mock.urls["fitness"])
        let huge = "9223372036854775807"
        let tokenReply = try await LoopbackHTTP.send("POST", "\(easyco)/__understudy/token", text: "{}")
        let apikey = try #require(
            tokenReply.text.split(separator: "\"").drop { $0 != "apikey" }.dropFirst(2).first.map(String.init))
        let anon = ["apikey": apikey, "Authorization": "Bearer \(apikey)"]
        let deep = String(repeating: "or(", count: 10_500) + "title.eq.x" + String(repeating: ")", count: 10_500)

        let killers: [(method: String, url: String, headers: [String: String], body: String?, status: Int)] = [
            ("GET", "\(videgreniers)/api/events?page=\(huge)", [:], nil, 400),
            ("GET", "\(easyco)/rest/v1/properties?offset=\(huge)", anon, nil, 200),
            ("GET", "\(easyco)/rest/v1/properties?limit=\(huge)", anon, nil, 200),
            ("GET", "\(easyco)/rest/v1/properties", anon.merging(["Range": "0-\(huge)"]) { $1 }, nil, 200),
            ("GET", "\(easyco)/rest/v1/properties?or=(\(deep.dropFirst(3))", anon, nil, 400),
            (
                "GET", "\(easyco)/rest/v1/properties?title=match.(.*)(.*)(.*)(.*)(.*)(.*)(.*)(.*)x$", anon, nil,
                500
            ),
            ("PUT", "\(fitness)/__understudy/faults", [:], #"{"rules": ["*: latency=1e300s"]}"#, 400),
            ("PUT", "\(fitness)/__understudy/faults", [:], #"{"rules": ["*: latency=\#(huge)ms"]}"#, 400),
        ]
        for killer in killers {
            let reply = try await LoopbackHTTP.send(killer.method, killer.url, headers: killer.headers, text: killer.body)
            #expect(reply.status == killer.status, "\(killer.method) \(killer.url.prefix(120)): \(reply.text.prefix(300))")
        }
        #expect(mock.process.isRunning)
        for (label, url) in mock.urls.sorted(by: { $0.key < $1.key }) {
            let path = ["videgreniers": "/health", "easyco": "/rest/v1/properties", "intra42": "/v2/campus"][label]
            guard let path else { continue }
            let reply = try await LoopbackHTTP.send("GET", url + path, headers: label == "easyco" ? anon : [:])
            #expect(reply.status < 500, "\(label) after the killers: \(reply.status)")
        }
        let read = try await LoopbackHTTP.send("GET", "\(fitness)/activities")
        #expect(read.status == 200)
    }

    @Test func anAbsurdFaultLatencyIsAUsageError() async throws {
        let run = try await UnderstudyBinary.run(["mock", "--port", "0", "--fault", "*: latency=1e300s"])
        #expect(run.status == 64)
        #expect(run.stderr.contains(#"fault "latency=1e300s": latency must be between 0 and 3600s (1 hour)"#))
    }
}

/// `--host` as users write it: an IPv6 address with or without brackets, a host name. The mock binds it and prints a
/// URL that reaches it (`http://[::1]:PORT`); before, `--host ::1` ended the process with a trap on a URL it could
/// not build (issue #22).
struct MockHostTests {
    @Test(arguments: ["::1", "[::1]", "localhost"])
    func aHostIsBoundAndPrintedAsAURL(_ host: String) async throws {
        let mock = try RunningMock(["mock", "--api", "fitness", "--host", host, "--port", "0"])
        defer { mock.stop() }
        let url = try #require(mock.urls["fitness"])
        #expect(url.hasPrefix(host == "localhost" ? "http://localhost:" : "http://[::1]:"))
        let port = try #require(url.split(separator: ":").last.flatMap { Int($0) })
        // FoundationNetworking's URLSession cannot reach `http://[::1]:…` on Linux; a socket can.
        #expect(try Self.status(of: "/activities", port: port, ipv6: host != "localhost") == 200)
    }

    /// The status of a GET sent over a plain TCP connection to loopback (`::1`, or `127.0.0.1`).
    static func status(of path: String, port: Int, ipv6: Bool) throws -> Int {
        let descriptor = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw SupportError("socket: \(errno)") }
        defer { close(descriptor) }
        var connected: Int32
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            address.sin6_addr = in6addr_loopback
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard connected == 0 else { throw SupportError("connect to port \(port): \(errno)") }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        var head = [UInt8](repeating: 0, count: 64)
        let count = read(descriptor, &head, head.count)
        let line = String(decoding: head.prefix(max(0, count)), as: UTF8.self)
        guard let status = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
            throw SupportError("no status line in \(line)")
        }
        return status
    }

    @Test func addressesAreReadAndRefusedClearly() throws {
        #expect(try ServerAddress("[::1]").host == "::1")
        #expect(try ServerAddress("::1").baseURL(port: 4010).absoluteString == "http://[::1]:4010")
        #expect(try ServerAddress("0.0.0.0").baseURL(port: 80).absoluteString == "http://0.0.0.0:80")
        #expect(try ServerAddress("localhost").baseURL(port: 1).absoluteString == "http://localhost:1")
        #expect(throws: ServerAddressError(host: "bad host")) { try ServerAddress("bad host") }
        #expect(
            ServerAddressError(host: "").description
                == #"the host "" is not a host name or an IP address (such as 127.0.0.1, localhost, 0.0.0.0, ::1 or [::1])"#)
        #expect(throws: (any Error).self) { try Mock.parse(["--host", "a/b"]).validate() }
    }
}
