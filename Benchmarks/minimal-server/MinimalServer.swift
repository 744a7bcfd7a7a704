import Foundation
import Hummingbird
import NIOCore

/// The baseline of the mock benchmark: a Hummingbird 2 server answering two routes with fixed bytes.
///
/// Usage: `minimal-server PORT LIST.json DETAIL.json` serves `GET /activities` with LIST and
/// `GET /activities/{id}` with DETAIL, so the mock can be compared with the least work a server can do.
@main
struct MinimalServer {
    static func main() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 4, let port = Int(arguments[1]) else {
            FileHandle.standardError.write(Data("usage: minimal-server PORT LIST.json DETAIL.json\n".utf8))
            exit(64)
        }
        let list = ByteBuffer(bytes: try Data(contentsOf: URL(fileURLWithPath: arguments[2])))
        let detail = ByteBuffer(bytes: try Data(contentsOf: URL(fileURLWithPath: arguments[3])))
        let router = Router()
        router.get("activities") { _, _ in Self.json(list) }
        router.get("activities/:id") { _, _ in Self.json(detail) }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
        try await app.runService()
    }

    static func json(_ buffer: ByteBuffer) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: ResponseBody(byteBuffer: buffer))
    }
}
