import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPCompression

extension RecordedResponse {
    /// The response as the app sees it: a `gzip` or `deflate` body inflated (`URLSession` does this before
    /// the app decodes), with `Content-Encoding` and `Content-Length` removed. Any other response is returned
    /// unchanged.
    ///
    /// Bomb-safe: inflating stops as soon as the output passes `limit` bytes, so a small body that inflates to
    /// gigabytes costs at most about `limit` bytes of memory.
    /// - Throws: a ``TransportFailure`` of kind `.tooLarge` past `limit`, or `.other` for a body that is not
    ///   what its `Content-Encoding` says.
    func inflated(limit: Int) throws(TransportFailure) -> RecordedResponse {
        guard let encoding = headers["Content-Encoding"]?.trimmingCharacters(in: .whitespaces).lowercased(),
            encoding == "gzip" || encoding == "deflate"
        else { return self }
        var output: [UInt8] = []
        do {
            // NIO's response decompressor is the one AsyncHTTPClient uses; it checks the limit after every
            // inflate step.
            let channel = EmbeddedChannel(handler: NIOHTTPResponseDecompressor(limit: .size(limit)))
            defer { _ = try? channel.finish() }
            var head = HTTPResponseHead(version: .http1_1, status: .init(statusCode: status))
            head.headers.add(name: "Content-Encoding", value: encoding)
            try channel.writeInbound(HTTPClientResponsePart.head(head))
            try channel.writeInbound(HTTPClientResponsePart.body(ByteBuffer(bytes: body)))
            try channel.writeInbound(HTTPClientResponsePart.end(nil))
            while let part = try channel.readInbound(as: HTTPClientResponsePart.self) {
                if case .body(let buffer) = part { output += buffer.readableBytesView }
            }
        } catch NIOHTTPDecompression.DecompressionError.limit {
            throw HTTPTransport.tooLarge(limit, found: "more once inflated from \(encoding)")
        } catch {
            throw TransportFailure(.other, "the \(encoding) body cannot be inflated (\(error)); the app cannot read it")
        }
        var inflated = self
        inflated.body = output
        inflated.headers = HeaderFields(
            headers.fields.filter {
                !$0.name.caseInsensitiveEquals("Content-Encoding") && !$0.name.caseInsensitiveEquals("Content-Length")
            })
        return inflated
    }
}

extension Exchange {
    /// The exchange with its response body inflated (see ``RecordedResponse/inflated(limit:)``); a body that
    /// cannot be inflated within `limit` becomes the failure.
    func inflated(limit: Int) -> Exchange {
        guard let response else { return self }
        var copy = self
        do {
            copy.outcome = .response(try response.inflated(limit: limit))
        } catch {
            copy.outcome = .failure(error)
        }
        return copy
    }
}
