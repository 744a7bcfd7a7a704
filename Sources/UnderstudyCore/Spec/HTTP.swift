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

    /// The path split at `/`, each segment a literal, a parameter, or both within one segment (`{name}.{ext}`).
    public var segments: [Segment] {
        template.split(separator: "/").map(Segment.init)
    }

    /// The names of the path parameters, in order.
    public var parameterNames: [String] {
        segments.flatMap(\.parameterNames)
    }

    /// The path with each parameter replaced by its value (values are percent-encoded), a trailing slash kept:
    /// `/flow_runs/` and `/flow_runs` are different routes to many servers.
    public func expand(_ values: [String: String]) -> String {
        let path = "/" + segments.map { $0.expand(values) }.joined(separator: "/")
        return template.hasSuffix("/") && path != "/" ? path + "/" : path
    }

    /// Matches a concrete path against the template, returning the parameter values.
    public func match(_ path: String) -> [String: String]? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        let segments = self.segments
        guard parts.count == segments.count else { return nil }
        var values: [String: String] = [:]
        for (part, segment) in zip(parts, segments) {
            guard let found = segment.match(part) else { return nil }
            for (name, value) in found { values[name] = String(value).removingPercentEncodingIfPossible }
        }
        return values
    }

    public var description: String { template }

    /// One segment of a path template.
    public enum Segment: Sendable, Hashable {
        case literal(String)
        case parameter(String)
        /// Literal text and parameters within one segment, as RFC 6570 level 1 allows: `{name}.{ext}`, `v{version}`,
        /// `{id}:cancel`.
        case template([Part])

        /// A part of a ``Segment/template(_:)`` segment.
        public enum Part: Sendable, Hashable {
            case literal(String)
            case parameter(String)
        }

        /// Reads one segment of a template.
        public init(_ text: Substring) {
            if text.hasPrefix("{"), text.hasSuffix("}"), text.dropFirst().firstIndex(of: "{") == nil,
                text.dropLast().firstIndex(of: "}") == nil
            {
                self = .parameter(String(text.dropFirst().dropLast()))
                return
            }
            var parts: [Part] = []
            var rest = text
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                if open > rest.startIndex { parts.append(.literal(String(rest[..<open]))) }
                parts.append(.parameter(String(rest[rest.index(after: open)..<close])))
                rest = rest[rest.index(after: close)...]
            }
            guard parts.contains(where: { if case .parameter = $0 { true } else { false } }) else {
                self = .literal(String(text))
                return
            }
            if !rest.isEmpty { parts.append(.literal(String(rest))) }
            self = .template(parts)
        }

        /// The parameters the segment names, in order.
        public var parameterNames: [String] {
            switch self {
            case .literal: []
            case .parameter(let name): [name]
            case .template(let parts):
                parts.compactMap { if case .parameter(let name) = $0 { name } else { nil } }
            }
        }

        /// How much a segment pins a path down: a literal most, a parameter least; routes prefer the most pinned.
        public var specificity: Int {
            switch self {
            case .literal: 2
            case .template: 1
            case .parameter: 0
            }
        }

        /// The segment with its parameters' values, percent-encoded.
        func expand(_ values: [String: String]) -> String {
            switch self {
            case .literal(let literal): literal
            case .parameter(let name): PathTemplate.percentEncode(values[name] ?? "{\(name)}")
            case .template(let parts):
                parts.map { part in
                    switch part {
                    case .literal(let literal): literal
                    case .parameter(let name): PathTemplate.percentEncode(values[name] ?? "{\(name)}")
                    }
                }.joined()
            }
        }

        /// The values a path segment gives the segment's parameters (not yet percent-decoded); `nil` when it does
        /// not match. Within a segment, each parameter takes at least one character and as many as the literal
        /// text after it allows, the earlier ones first (`{name}.{ext}` reads `a.b.c` as `a.b` and `c`).
        public func match(_ text: Substring) -> [String: Substring]? {
            switch self {
            case .literal(let literal): return text == literal ? [:] : nil
            case .parameter(let name): return [name: text]
            case .template(let parts):
                // A segment longer than any real id is refused.
                guard text.utf8.count <= 1024 else { return nil }
                return Self.match(parts, text)
            }
        }

        /// One pass from the right, without backtracking, whatever the number of parameters (200 in one segment of a
        /// hostile document): each literal at its last place that leaves the parameter after it a character, which
        /// gives the earlier parameters as much as the later ones allow.
        private static func match(_ parts: [Part], _ text: Substring) -> [String: Substring]? {
            var values: [String: Substring] = [:]
            var end = text.endIndex
            for index in parts.indices.reversed() {
                switch parts[index] {
                case .literal(let literal):
                    guard text[..<end].hasSuffix(literal) else { return nil }
                    end = text.index(end, offsetBy: -literal.count)
                case .parameter(let name):
                    guard end > text.startIndex else { return nil }
                    var start = text.startIndex
                    if index > 0 {
                        // Two parameters side by side: the later one takes one character.
                        start = text.index(before: end)
                        if case .literal(let literal) = parts[index - 1] {
                            // The literal's last end at or before `start`: the searches of the parameters scan
                            // disjoint stretches, so the whole match reads the segment once.
                            while !text[..<start].hasSuffix(literal) {
                                guard start > text.startIndex else { return nil }
                                start = text.index(before: start)
                            }
                        }
                    }
                    values[name] = text[start..<end]
                    end = start
                }
            }
            return end == text.startIndex ? values : nil
        }
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
    /// The document's own schema of the value, compiled as JSON Schema reads it (an imported document's), which the
    /// value is judged by; `nil` for a built-in spec's parameter, judged by ``schema``.
    public package(set) var documentSchema: CompiledSchema?
    public var required: Bool
    /// The value the server assumes when the parameter is absent.
    public var defaultValue: JSONValue?
    public var summary: String?
    /// What the parameter asks of a list's items, when the documents say.
    public var meaning: QueryMeaning?
    /// Whether an array is sent one pair per element (`status=a&status=b`, OpenAPI's default `form` style with
    /// `explode`) rather than joined with commas (`status=a,b`).
    public var explode = true
    /// A value the document shows for the parameter (its `example`, or the first of its `examples`).
    public var example: JSONValue?
    /// Whether the server refuses a request that lacks or breaks it. `false` for what the app sends of its own
    /// accord (EasyCo's `Prefer: return=representation` on a create whose rows it decodes, which PostgREST never
    /// requires): documented as the app sends it, sent by `check`, expected of the app by `proxy`, not enforced by
    /// the mock.
    public var enforced = true
    /// Whether the document marks the parameter deprecated: the app was told to stop sending it, so its removal
    /// breaks no client that listened.
    public var deprecated = false

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

    /// A path parameter (always required). With a `meaning`, it filters a list's items rather than naming the parent
    /// they sit under (`/v2/campus/{id}/locations`: the sessions whose `campus_id` is `id`, whoever's they are).
    public static func path(
        _ name: String, _ schema: Schema = .string(), summary: String? = nil, meaning: QueryMeaning? = nil
    ) -> Parameter {
        Parameter(name, in: .path, schema, required: true, summary: summary, meaning: meaning)
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

    /// A header the app always sends, which the server does not require (see ``enforced``).
    public static func sentByTheApp(_ name: String, _ schema: Schema, summary: String? = nil) -> Parameter {
        var parameter = Parameter(name, in: .header, schema, required: true, summary: summary)
        parameter.enforced = false
        return parameter
    }
}
