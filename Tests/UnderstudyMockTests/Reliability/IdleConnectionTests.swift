import Foundation
import Testing
import UnderstudyMock

/// Connections that send nothing, or a request head that never ends, are closed after the idle timeout.
struct IdleConnectionTests {
    @Test func idleAndSlowConnectionsAreClosedAndTheServerStillAnswers() async throws {
        let configuration = MockConfiguration(idleTimeout: .milliseconds(300))
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

    @Test func aConnectionInUseIsKeptWhileItsRequestsComeIn() async throws {
        let configuration = MockConfiguration(idleTimeout: .seconds(30))
        try await LiveMock.with(.apinest, configuration: configuration) { mock in
            let connection = try RawConnection(port: mock.server.port)
            try connection.send("GET /activities HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            let answer = String(decoding: try await connection.readUntilClosed(patience: .seconds(120)), as: UTF8.self)
            #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"))
        }
    }
}
