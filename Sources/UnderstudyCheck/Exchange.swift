import UnderstudyCore

/// Header fields in the order they were sent, looked up without regard to case.
public struct HeaderFields: Sendable, Hashable, ExpressibleByDictionaryLiteral, Sequence {
    public private(set) var fields: [(name: String, value: String)]

    public init(_ fields: [(name: String, value: String)] = []) {
        self.fields = fields
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The first value of `name`, if present.
    public subscript(name: String) -> String? {
        fields.first { $0.name.caseInsensitiveEquals(name) }?.value
    }

    /// Adds a field, keeping the ones already present.
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces every field named `name` with one field.
    public mutating func set(_ name: String, _ value: String) {
        fields.removeAll { $0.name.caseInsensitiveEquals(name) }
        fields.append((name: name, value: value))
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    public static func == (lhs: HeaderFields, rhs: HeaderFields) -> Bool {
        lhs.fields.elementsEqual(rhs.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        for field in fields {
            hasher.combine(field.name)
            hasher.combine(field.value)
        }
    }
}

extension String {
    func caseInsensitiveEquals(_ other: String) -> Bool {
        utf8.count == other.utf8.count && lowercased() == other.lowercased()
    }
}

/// A request the checker sends (or the proxy forwards).
public struct OutgoingRequest: Sendable, Hashable {
    public var method: HTTPMethod
    /// The absolute URL, query included.
    public var url: String
    public var headers: HeaderFields
    public var body: [UInt8]?

    public init(method: HTTPMethod, url: String, headers: HeaderFields = [:], body: [UInt8]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// What came back for a request: a response, or the reason none (or only part of one) arrived.
public enum ExchangeOutcome: Sendable, Hashable {
    case response(RecordedResponse)
    case failure(TransportFailure)
}

/// A complete response as received.
public struct RecordedResponse: Sendable, Hashable {
    public var status: Int
    public var headers: HeaderFields
    public var body: [UInt8]

    public init(status: Int, headers: HeaderFields = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Why no usable response arrived.
public struct TransportFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// Nothing listened at the address.
        case connectionRefused = "connection-refused"
        /// The connection closed before the response was complete (reset, truncated body).
        case connectionClosed = "connection-closed"
        /// The whole exchange took longer than the timeout.
        case timeout
        /// The body was larger than the cap.
        case tooLarge = "too-large"
        /// Any other transport error (DNS, TLS, protocol).
        case other
    }

    public var kind: Kind
    public var description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}

/// One request and what came back, with the time it took.
public struct Exchange: Sendable, Hashable {
    public var request: OutgoingRequest
    public var outcome: ExchangeOutcome
    /// Seconds from sending to the last byte (or the failure).
    public var duration: Double

    public init(request: OutgoingRequest, outcome: ExchangeOutcome, duration: Double = 0) {
        self.request = request
        self.outcome = outcome
        self.duration = duration
    }

    /// The response, when one arrived.
    public var response: RecordedResponse? {
        if case .response(let response) = outcome { return response }
        return nil
    }
}
