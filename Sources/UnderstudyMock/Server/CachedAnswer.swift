import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// A finished GET answer the engine keeps, with its head and body ready for the wire, so the server can send it
/// again without building anything but the `Date` header.
final class CachedAnswer: Sendable {
    let response: MockResponse
    /// Status, headers and `Content-Length`, as Hummingbird writes ``response`` (it adds `Date` and `Server`).
    let head: HTTPResponse
    let body: ByteBuffer
    /// When the credential the answer was computed for expires; `nil` for an anonymous request.
    let validUntil: Date?

    init(_ response: MockResponse, validUntil: Date?) {
        self.response = response
        body = ByteBuffer(bytes: response.body)
        head =
            Response(
                status: .init(code: response.status), headers: MockHTTPResponder.fields(response),
                body: ResponseBody(byteBuffer: body)
            ).head
        self.validUntil = validUntil
    }

    /// What the answer costs in a cache: the body twice (as bytes and as a buffer), headers and bookkeeping.
    var bytes: Int {
        2 * response.body.count + 256 + response.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count }
    }
}
