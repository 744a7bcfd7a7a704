/// An HTTP method.
public enum HTTPMethod: String, Sendable, Hashable, CaseIterable, Comparable {
    case get = "GET"
    case post = "POST"
    case put = "PUT"
    case patch = "PATCH"
    case delete = "DELETE"

    public static func < (lhs: HTTPMethod, rhs: HTTPMethod) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// An HTTP status code, with names for the ones the documents use.
public struct HTTPStatus: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible,
    ExpressibleByIntegerLiteral
{
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }
    public init(integerLiteral value: Int) { self.rawValue = value }

    public static let ok: HTTPStatus = 200
    public static let created: HTTPStatus = 201
    public static let noContent: HTTPStatus = 204
    public static let partialContent: HTTPStatus = 206
    public static let badRequest: HTTPStatus = 400
    public static let unauthorized: HTTPStatus = 401
    public static let forbidden: HTTPStatus = 403
    public static let notFound: HTTPStatus = 404
    public static let notAcceptable: HTTPStatus = 406
    public static let conflict: HTTPStatus = 409
    public static let payloadTooLarge: HTTPStatus = 413
    public static let rangeNotSatisfiable: HTTPStatus = 416
    public static let unprocessableEntity: HTTPStatus = 422
    public static let tooManyRequests: HTTPStatus = 429
    public static let internalServerError: HTTPStatus = 500

    public static func < (lhs: HTTPStatus, rhs: HTTPStatus) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { String(rawValue) }
}

/// A path with `{name}` placeholders, such as `/api/events/{id}/publish`.
public struct PathTemplate: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The template as written in the document inventory.
    public let template: String

    public init(_ template: String) { self.template = template }
    public init(stringLiteral value: String) { self.init(value) }

    /// The path split at `/`, each segment a literal or a parameter.
    public var segments: [Segment] {
        template.split(separator: "/").map { part in
            if part.hasPrefix("{") && part.hasSuffix("}") { return .parameter(String(part.dropFirst().dropLast())) }
            return .literal(String(part))
        }
    }

    /// The names of the path parameters, in order.
    public var parameterNames: [String] {
        segments.compactMap { if case .parameter(let name) = $0 { return name } else { return nil } }
    }

    /// The path with each parameter replaced by its value (values are percent-encoded).
    public func expand(_ values: [String: String]) -> String {
        "/"
            + segments.map { segment in
                switch segment {
                case .literal(let literal): literal
                case .parameter(let name): Self.percentEncode(values[name] ?? "{\(name)}")
                }
            }.joined(separator: "/")
    }

    /// Matches a concrete path against the template, returning the parameter values.
    public func match(_ path: String) -> [String: String]? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        let segments = self.segments
        guard parts.count == segments.count else { return nil }
        var values: [String: String] = [:]
        for (part, segment) in zip(parts, segments) {
            switch segment {
            case .literal(let literal): guard part == literal else { return nil }
            case .parameter(let name): values[name] = String(part).removingPercentEncodingIfPossible
            }
        }
        return values
    }

    public var description: String { template }

    /// One segment of a path template.
    public enum Segment: Sendable, Hashable {
        case literal(String)
        case parameter(String)
    }

    /// Percent-encodes all but the unreserved characters of RFC 3986.
    package static func percentEncode(_ value: String) -> String {
        var result = ""
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return result
    }
}

extension String {
    fileprivate var removingPercentEncodingIfPossible: String {
        guard contains("%") else { return self }
        var bytes: [UInt8] = []
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%"), let high = iterator.next(), let low = iterator.next(),
                let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self) ?? self
    }
}

/// A path, query or header parameter of an endpoint.
public struct Parameter: Sendable, Hashable {
    /// Where a parameter is sent.
    public enum Location: String, Sendable, Hashable, CaseIterable {
        case path, query, header
    }

    public var name: String
    public var location: Location
    /// The schema of the parameter's value, read from its text (an integer schema accepts `"42"`).
    public var schema: Schema
    public var required: Bool
    /// The value the server assumes when the parameter is absent.
    public var defaultValue: JSONValue?
    public var summary: String?
    /// What the parameter asks of a list's items, when the documents say.
    public var meaning: QueryMeaning?

    public init(
        _ name: String, in location: Location, _ schema: Schema, required: Bool = false,
        default defaultValue: JSONValue? = nil, summary: String? = nil, meaning: QueryMeaning? = nil
    ) {
        self.name = name
        self.location = location
        self.schema = schema
        self.required = required
        self.defaultValue = defaultValue
        self.summary = summary
        self.meaning = meaning
    }

    /// A path parameter (always required).
    public static func path(_ name: String, _ schema: Schema = .string(), summary: String? = nil) -> Parameter {
        Parameter(name, in: .path, schema, required: true, summary: summary)
    }

    /// A query parameter.
    public static func query(
        _ name: String, _ schema: Schema, required: Bool = false, default defaultValue: JSONValue? = nil,
        summary: String? = nil, meaning: QueryMeaning? = nil
    ) -> Parameter {
        Parameter(name, in: .query, schema, required: required, default: defaultValue, summary: summary, meaning: meaning)
    }

    /// A request header.
    public static func header(_ name: String, _ schema: Schema = .string(), required: Bool = false, summary: String? = nil)
        -> Parameter
    {
        Parameter(name, in: .header, schema, required: required, summary: summary)
    }
}
