import Foundation
import Testing
import UnderstudyMock
import UnderstudyMockServer

/// Connections that send nothing, or whose request never finishes arriving, are closed; connections beyond the
/// cap are refused with a 503. Over real loopback sockets, with short timeouts configured.
struct IdleConnectionTests {
    @Test func idleAndSlowConnectionsAreClosedAndTheServerStillAnswers() async throws {
        let configuration = MockConfiguration(idleTimeout: .milliseconds(300), requestTimeout: .milliseconds(300))
        try await LiveMock.with(.apinest, configuration: configuration) { mock in
            let idle = try RawConnection(port: mock.server.port)
            let slow = try RawConnection(port: mock.server.port)
            try slow.send("GET /activities HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            // The verdict is that the server closes both (EOF), whenever it does; the wait is generous.
            #expect(try await idle.readUntilClosed(patience: .seconds(120)).isEmpty)
            #expect(try await slow.readUntilClosed(patience: .seconds(120)).isEmpty)
            #expect(try await mock.send("GET", "/activities").status == 200)
        }
    }

    @Test func aSlowlorisClientIsCutOffAlthoughItKeepsSending() async throws {
        // An hour of idle time: only the request deadline can close a connection that sends a byte every 50 ms.
        let configuration = MockConfiguration(idleTimeout: .seconds(3600), requestTimeout: .milliseconds(500))
        try await LiveMock.with(.apinest, configuration: configuration) { mock in
            let slowloris = try RawConnection(port: mock.server.port)
            try slowloris.send("GET /activities HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            var cutOff = false
            for _ in 0..<6_000 where !cutOff {
                try await Task.sleep(for: .milliseconds(50))
                cutOff = slowloris.isClosedByPeer || (try? slowloris.send("x")) == nil
            }
            #expect(cutOff)
            #expect(try await mock.send("GET", "/activities").status == 200)
        }
    }

    @Test func aConnectionInUseIsKeptWhileItsRequestsComeIn() async throws {
        let configuration = MockConfiguration(idleTimeout: .seconds(30))
        try await LiveMock.with(.apinest, configuration: configuration) { mock in
            let connection = try RawConnection(port: mock.server.port)
            let request = "GET /activities HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            // The second answer comes from the cache, outside Hummingbird's handler: the connection stays open.
            for _ in 0..<3 {
                try connection.send(request)
                #expect(
                    try await connection.readResponse(patience: .seconds(120)).head.hasPrefix("HTTP/1.1 200 OK\r\n"))
            }
            try connection.send("GET /activities HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            let answer = String(decoding: try await connection.readUntilClosed(patience: .seconds(120)), as: UTF8.self)
            #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"))
        }
    }

    @Test func connectionsBeyondTheCapAreAnswered503AndClosed() async throws {
        let configuration = MockConfiguration(maximumConnections: 2)
        try await LiveMock.with(.apinest, configuration: configuration) { mock in
            let request = "GET /activities HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            // Two connections answered, and kept open: the cap is spent.
            var held: [RawConnection] = []
            for _ in 0..<2 {
                let connection = try RawConnection(port: mock.server.port)
                try connection.send(request)
                #expect(
                    try await connection.readResponse(patience: .seconds(120)).head.hasPrefix("HTTP/1.1 200 OK\r\n"))
                held.append(connection)
            }
            let third = try RawConnection(port: mock.server.port)
            try? third.send(request)
            let refusal = String(decoding: try await third.readUntilClosed(patience: .seconds(120)), as: UTF8.self)
            #expect(refusal.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
            #expect(refusal.lowercased().contains("connection: close\r\n"))
            #expect(refusal.contains("too many connections"))
            // The held connections still work; once one closes, a new connection is served again.
            try held[0].send(request)
            #expect(try await held[0].readResponse(patience: .seconds(120)).head.hasPrefix("HTTP/1.1 200 OK\r\n"))
            held.removeLast()
            var status = 0
            for _ in 0..<3_000 where status != 200 {
                status = try await mock.send("GET", "/activities").status
                if status != 200 { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(status == 200)
        }
    }
}
