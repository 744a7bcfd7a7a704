import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import UnderstudyMock

/// An answer with its head and body ready for the wire, so the server can send it again without building
/// anything but the `Date` header: the form a ``CachedAnswer`` keeps for this server.
struct WireAnswer: Sendable {
    /// Status, headers and `Content-Length`, as Hummingbird writes the response (it adds `Date` and `Server`).
    let head: HTTPResponse
    let body: ByteBuffer
    /// The head as the server's HTTP/1.1 encoder writes it with `Date` and `Server` last, cut where the date goes:
    /// the bytes before the date, and those after it; `nil` when the encoder would frame the body itself (no
    /// `Content-Length`).
    let encodedHead: (beforeDate: ByteBuffer, afterDate: ByteBuffer)?

    init(_ response: MockResponse) {
        body = ByteBuffer(bytes: response.body)
        head =
            Response(
                status: .init(code: response.status), headers: MockHTTPResponder.fields(response),
                body: ResponseBody(byteBuffer: body)
            ).head
        encodedHead = Self.encode(head)
    }

    /// What NIOHTTP1's `HTTPResponseEncoder` writes for a head that `HTTP1ToHTTPServerCodec` converted: the status
    /// line (NIO names a known code's reason, `200 OK`), then each field by its raw name, in order.
    private static func encode(_ head: HTTPResponse) -> (beforeDate: ByteBuffer, afterDate: ByteBuffer)? {
        let fields = head.headerFields
        guard fields[.contentLength] != nil, fields[.transferEncoding] == nil, fields[.date] == nil,
            fields[.server] == nil
        else { return nil }
        let status = HTTPResponseStatus(statusCode: head.status.code, reasonPhrase: head.status.reasonPhrase)
        var before = ByteBuffer(string: "HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\n")
        for field in fields { before.writeString("\(field.name.rawName): \(field.value)\r\n") }
        before.writeString("\(HTTPField.Name.date.rawName): ")
        return (before, ByteBuffer(string: "\r\n\(HTTPField.Name.server.rawName): \(MockServer.serverName)\r\n\r\n"))
    }
}

extension CachedAnswer {
    /// The answer as this server writes it.
    var wire: WireAnswer { wire(WireAnswer.init) }
}
