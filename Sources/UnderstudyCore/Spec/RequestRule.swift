import Foundation

/// A rule between two values of one request that sit in different places (two query parameters, a body member
/// and a path parameter), which no single schema can state: checked by ``RequestInspector`` (so the mocks refuse
/// a request that breaks it and the validating proxy reports one), exported as the operation's
/// `x-understudy-rules` in OpenAPI's runtime expressions, and compared by `diff`.
///
/// ```swift
/// rules: [
///     .notBefore(.query("endDate"), .query("startDate")),
///     .equal(.body("id"), .path("id")),
/// ]
/// ```
///
/// Rules between the members of one body are the body schema's ``ObjectRule``s.
public enum RequestRule: Sendable, Hashable {
    /// When both are present, the first is not earlier than the second: dates, date-times (any offset), or
    /// numbers.
    case notBefore(RequestValue, RequestValue)
    /// When both are present, they are the same value (a UUID in either case, a number in any spelling).
    case equal(RequestValue, RequestValue)

    /// The key exported operations list their rules under (the same key as an object's ``ObjectRule``s).
    public static let extensionName = ObjectRule.extensionName

    /// The two values the rule relates.
    public var operands: (RequestValue, RequestValue) {
        switch self {
        case .notBefore(let value, let other), .equal(let value, let other): (value, other)
        }
    }

    private var keyword: String {
        switch self {
        case .notBefore: "notBefore"
        case .equal: "equal"
        }
    }

    /// The rule as `x-understudy-rules` writes it: `{"notBefore": ["$request.query.endDate",
    /// "$request.query.startDate"]}`, `{"equal": ["$request.body#/id", "$request.path.id"]}`.
    public var json: JSONValue {
        [keyword: [.string(operands.0.expression), .string(operands.1.expression)]]
    }

    /// The rule `json` writes; `nil` for anything else.
    public init?(json: JSONValue) {
        guard let (keyword, operands) = json.objectValue?.first, json.objectValue?.count == 1,
            let pair = operands.arrayValue?.compactMap(\.stringValue), pair.count == 2,
            let value = RequestValue(expression: pair[0]), let other = RequestValue(expression: pair[1])
        else { return nil }
        switch keyword {
        case "notBefore": self = .notBefore(value, other)
        case "equal": self = .equal(value, other)
        default: return nil
        }
    }

    /// The two values a request breaks the rule with; `nil` when it keeps it, when a value is absent, or when they
    /// cannot be compared. `read` gives a value of the request.
    func broken(reading read: (RequestValue) -> JSONValue?) -> (value: JSONValue, other: JSONValue)? {
        guard let value = read(operands.0), let other = read(operands.1), isKept(value, other) == false else {
            return nil
        }
        return (value, other)
    }

    /// Whether the two values keep the rule; `nil` when they cannot be compared (a value of the wrong type is its
    /// parameter's or member's own finding).
    func isKept(_ value: JSONValue, _ other: JSONValue) -> Bool? {
        switch self {
        case .notBefore: return ObjectRule.isAfter(other, value).map { !$0 }
        case .equal:
            switch (value, other) {
            case (.string(let text), .string(let otherText)):
                if let uuid = UUID(uuidString: text), let otherUUID = UUID(uuidString: otherText) {
                    return uuid == otherUUID
                }
                return text == otherText
            case (.number(let number), .number(let otherNumber)):
                return number.doubleValue == otherNumber.doubleValue
            default:
                return value == other
            }
        }
    }

    /// What a request that breaks the rule is told: `expected a value not before query parameter startDate
    /// (2025-06-02), found 2025-06-01`.
    func message(_ value: JSONValue, _ other: JSONValue) -> String {
        let relation = if case .equal = self { "equal to" } else { "not before" }
        return "\(operands.0): expected a value \(relation) \(operands.1) (\(Render.found(other))), "
            + "found \(Render.found(value))"
    }
}

/// A value in a request, named as OpenAPI's runtime expressions name it: `$request.path.id`,
/// `$request.query.endDate`, `$request.body#/id`.
public enum RequestValue: Sendable, Hashable, CustomStringConvertible {
    case path(String)
    case query(String)
    /// A member of the JSON body object.
    case body(String)

    /// The runtime expression: `$request.query.endDate`, `$request.body#/id`.
    public var expression: String {
        switch self {
        case .path(let name): "$request.path.\(name)"
        case .query(let name): "$request.query.\(name)"
        case .body(let member): "$request.body#\(JSONPointer(tokens: [member]))"
        }
    }

    /// The value `expression` names; `nil` for any other expression.
    public init?(expression: String) {
        let parts: [(String, (String) -> RequestValue)] = [
            ("$request.path.", Self.path), ("$request.query.", Self.query),
        ]
        for (prefix, make) in parts where expression.hasPrefix(prefix) && expression.count > prefix.count {
            self = make(String(expression.dropFirst(prefix.count)))
            return
        }
        let body = "$request.body#"
        guard expression.hasPrefix(body),
            case let tokens = JSONPointer(String(expression.dropFirst(body.count))).tokens, tokens.count == 1
        else { return nil }
        self = .body(tokens[0])
    }

    /// `query parameter endDate`, `id` for a body member: as findings name them.
    public var description: String {
        switch self {
        case .path(let name): "\(Parameter.Location.path.rawValue) parameter \(name)"
        case .query(let name): "\(Parameter.Location.query.rawValue) parameter \(name)"
        case .body(let member): member
        }
    }

    /// The value in a request: a declared parameter's text read by its schema (`text` gives it, `nil` when the
    /// request has none), or a body member that is present and not `null`.
    func read(parameters: [Parameter], body: JSONValue?, text: (Parameter) -> String?) -> JSONValue? {
        let (location, name): (Parameter.Location, String)
        switch self {
        case .path(let value): (location, name) = (.path, value)
        case .query(let value): (location, name) = (.query, value)
        case .body(let member):
            guard let value = body?.objectValue?[member], value != .null else { return nil }
            return value
        }
        guard let parameter = parameters.first(where: { $0.location == location && $0.name == name }),
            let text = text(parameter)
        else { return nil }
        return RequestInspector.coerce(text, to: parameter.schema)
    }
}

extension AnyEndpoint {
    /// Changes the values generated for a request so that they keep the endpoint's ``rules``: an `equal` gives
    /// the first value the second's, a `notBefore` moves the first just after the second. An absent value stays
    /// absent. The checker and tests build requests with it.
    public func keepRules(path: inout [String: String], query: inout [(String, String)], body: inout JSONValue?) {
        func read(_ place: RequestValue) -> JSONValue? {
            place.read(parameters: parameters, body: body) { parameter in
                parameter.location == .path ? path[parameter.name] : query.last { $0.0 == parameter.name }?.1
            }
        }
        func write(_ value: JSONValue, to place: RequestValue) {
            let text = value.stringValue ?? value.serialized()
            switch place {
            case .path(let name): path[name] = text
            case .query(let name): query = query.map { $0.0 == name ? (name, text) : $0 }
            case .body(let member):
                guard case .object(var members)? = body else { return }
                members[member] = value
                body = .object(members)
            }
        }
        for rule in rules {
            guard let (_, other) = rule.broken(reading: read) else { continue }
            switch rule {
            case .equal: write(other, to: rule.operands.0)
            case .notBefore: write(ObjectRule.later(other), to: rule.operands.0)
            }
        }
    }
}
