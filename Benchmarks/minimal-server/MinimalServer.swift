import Foundation
import Hummingbird
import NIOCore

/// The baseline of the mock benchmark: a Hummingbird 2 server answering fixed paths with fixed bytes.
///
/// Usage: `minimal-server PORT PATH=FILE...` serves `GET PATH` with the bytes of FILE as JSON, so the mock can be
/// compared with the least work a Hummingbird server does for the same answer.
@main
struct MinimalServer {
    static func main() async throws {
        let arguments = CommandLine.arguments.dropFirst()
        let routes = arguments.dropFirst().map { $0.split(separator: "=", maxSplits: 1).map(String.init) }
        guard let port = arguments.first.flatMap({ Int($0) }), !routes.isEmpty, routes.allSatisfy({ $0.count == 2 })
        else {
            FileHandle.standardError.write(Data("usage: minimal-server PORT PATH=FILE...\n".utf8))
            exit(64)
        }
        let router = Router()
        for route in routes {
            let body = ByteBuffer(bytes: try Data(contentsOf: URL(fileURLWithPath: route[1])))
            router.get(RouterPath(route[0])) { _, _ in
                Response(
                    status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                    body: ResponseBody(byteBuffer: body))
            }
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
        try await app.runService()
    }
}
