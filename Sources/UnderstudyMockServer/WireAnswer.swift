import HTTPTypes
import Hummingbird
import NIOCore
import UnderstudyMock

/// An answer with its head and body ready for the wire, so the server can send it again without building
/// anything but the `Date` header: the form a ``CachedAnswer`` keeps for this server.
struct WireAnswer: Sendable {
    /// Status, headers and `Content-Length`, as Hummingbird writes the response (it adds `Date` and `Server`).
    let head: HTTPResponse
    let body: ByteBuffer

    init(_ response: MockResponse) {
        body = ByteBuffer(bytes: response.body)
        head =
            Response(
                status: .init(code: response.status), headers: MockHTTPResponder.fields(response),
                body: ResponseBody(byteBuffer: body)
            ).head
    }
}

extension CachedAnswer {
    /// The answer as this server writes it.
    var wire: WireAnswer { wire(WireAnswer.init) }
}
