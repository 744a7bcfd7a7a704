import Foundation
import Hummingbird
import NIOCore

/// A tiny Hummingbird server on a free loopback port, standing in for a drifted or vanished upstream.
struct TestUpstream {
    let port: Int
    private let task: Task<Void, any Error>

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Starts `router`; returns once the socket is bound.
    static func start(_ router: Router<BasicRequestContext>) async throws -> TestUpstream {
        let (bound, continuation) = AsyncThrowingStream<Int, any Error>.makeStream()
        let application = Application(
            router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) })
        let task = Task {
            defer { continuation.finish() }
            try await application.runService(gracefulShutdownSignals: [])
        }
        for try await port in bound { return TestUpstream(port: port, task: task) }
        throw CancellationError()
    }

    /// A JSON answer with exactly these bytes.
    static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// Stops the server (cancelling its service group closes the socket).
    func stop() async {
        task.cancel()
        _ = try? await task.value
    }
}
