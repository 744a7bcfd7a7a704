import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import UnderstudyCore

/// Sends requests with AsyncHTTPClient and turns whatever happens into an ``Exchange``: a response, or a
/// ``TransportFailure`` (timeout, refused, closed mid-body, over the size cap). Never throws, never hangs
/// past the timeout.
///
/// Redirects are not followed: a redirect is a finding, and following one could send credentials to
/// another host.
public final class HTTPTransport: Sendable {
    public struct Options: Sendable {
        /// The whole exchange, from connecting to the last body byte.
        public var timeout: Duration
        /// Bodies larger than this are abandoned (`body.too-large`).
        public var maximumBodyBytes: Int
        /// How many times a transport failure (not an HTTP status) is retried.
        public var retries: Int

        public init(timeout: Duration = .seconds(10), maximumBodyBytes: Int = 32 << 20, retries: Int = 0) {
            self.timeout = timeout
            self.maximumBodyBytes = maximumBodyBytes
            self.retries = retries
        }
    }

    public let options: Options
    private let client: HTTPClient

    public init(options: Options = Options()) {
        self.options = options
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
        configuration.timeout = .init(connect: .seconds(Int64(options.timeout.inSeconds.rounded(.up))))
        // A refused connection is a finding to report at once, not a reason to retry until the deadline;
        // `retries` is the user's choice.
        configuration.connectionPool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    /// Closes the connections; call once, when done.
    public func shutdown() async {
        try? await client.shutdown()
    }

    /// Sends `request`, retrying transport failures `options.retries` times.
    public func send(_ request: OutgoingRequest) async -> Exchange {
        var attempt = 0
        while true {
            let started = ContinuousClock.now
            let outcome = await sendOnce(request)
            let duration = (ContinuousClock.now - started).inSeconds
            if case .failure(let failure) = outcome, failure.kind != .tooLarge, attempt < options.retries,
                !Task.isCancelled
            {
                attempt += 1
                continue
            }
            return Exchange(request: request, outcome: outcome, duration: duration)
        }
    }

    private func sendOnce(_ request: OutgoingRequest) async -> ExchangeOutcome {
        var outgoing = HTTPClientRequest(url: request.url)
        outgoing.method = NIOHTTP1.HTTPMethod(rawValue: request.method.rawValue)
        for field in request.headers { outgoing.headers.add(name: field.name, value: field.value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        let prepared = outgoing
        let client = self.client
        let limit = options.maximumBodyBytes
        let timeout = options.timeout
        // The client's deadline stops at the response head; racing a timer bounds the body too.
        return await withTaskGroup(of: ExchangeOutcome?.self) { group in
            group.addTask {
                do {
                    let response = try await client.execute(prepared, deadline: .now() + .nanoseconds(Int64(timeout.inSeconds * 1e9)))
                    if let length = response.headers.first(name: "Content-Length").flatMap(Int.init), length > limit {
                        return .failure(Self.tooLarge(limit, found: "Content-Length \(length)"))
                    }
                    // Straight into the bytes the checks read: collecting a ByteBuffer first would hold the
                    // body twice (and its doubling growth) at the moment of the copy.
                    var body: [UInt8] = []
                    if let length = response.headers.first(name: "Content-Length").flatMap(Int.init) {
                        body.reserveCapacity(length)
                    }
                    for try await chunk in response.body {
                        guard body.count + chunk.readableBytes <= limit else { throw NIOTooManyBytesError(maxBytes: limit) }
                        chunk.withUnsafeReadableBytes { body.append(contentsOf: $0) }
                    }
                    var headers = HeaderFields()
                    for (name, value) in response.headers { headers.add(name, value) }
                    return .response(RecordedResponse(status: Int(response.status.code), headers: headers, body: body))
                } catch is NIOTooManyBytesError {
                    return .failure(Self.tooLarge(limit, found: "more"))
                } catch {
                    return .failure(Self.failure(for: error))
                }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return Task.isCancelled ? nil : .failure(TransportFailure(.timeout, "no complete response within \(timeout)"))
            }
            // The timer gives way (nil) when the run is interrupted: the request's own outcome comes next.
            while let next = await group.next() {
                guard let outcome = next else { continue }
                group.cancelAll()
                return outcome
            }
            return .failure(TransportFailure(.other, "interrupted"))
        }
    }

    static func tooLarge(_ limit: Int, found: String) -> TransportFailure {
        TransportFailure(.tooLarge, "the body is larger than the \(limit)-byte cap (\(found)); raise --max-body-bytes to check it")
    }

    /// Classifies an AsyncHTTPClient or NIO error.
    static func failure(for error: any Error) -> TransportFailure {
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout:
                return TransportFailure(.timeout, "no complete response within the timeout (\(error))")
            case .remoteConnectionClosed, .cancelled:
                return TransportFailure(.connectionClosed, "the server closed the connection before the response was complete")
            default:
                break
            }
        }
        if let error = error as? HTTPParserError, error == .invalidEOFState {
            return TransportFailure(.connectionClosed, "the server closed the connection before the body was complete")
        }
        let text = String(describing: error)
        if text.contains("connectionRefused") || text.contains("Connection refused") || text.contains("ECONNREFUSED") {
            return TransportFailure(.connectionRefused, "cannot connect: the connection was refused")
        }
        if text.contains("reset") || text.contains("EOF") || text.contains("ioOnClosedChannel") || text.contains("closed") {
            return TransportFailure(.connectionClosed, "the connection was closed before the response was complete (\(text))")
        }
        return TransportFailure(.other, "the request failed: \(text)")
    }
}

extension Duration {
    /// The duration in seconds, for reports and for clients that take a number.
    package var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
