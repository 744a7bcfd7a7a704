import Foundation
import UnderstudyCore

/// One request made up from an operation of an OpenAPI document.
struct GeneratedRequest: CustomStringConvertible {
    let endpoint: AnyEndpoint
    let target: String
    let headers: [String: String]
    let body: [UInt8]
    /// `valid`, or the way the request was broken (`malformed JSON`, `missing required /title`, ...).
    let kind: String

    var description: String {
        "\(endpoint.method.rawValue) \(target) [\(kind)]"
            + (body.isEmpty ? "" : " body \(String(decoding: body.prefix(200), as: UTF8.self))")
    }
}

/// The credentials a mock hands out for its default user.
struct Credentials {
    let token: String?
    let apikey: String?

    /// Reads the token (and Supabase `apikey`) from a `POST /__understudy/token` answer, whatever the API calls them.
    init(_ answer: JSONValue) {
        token = Self.find(answer) { $0.lowercased().replacingOccurrences(of: "_", with: "") == "accesstoken" }
        apikey = Self.find(answer) { $0 == "apikey" }
    }

    private static func find(_ value: JSONValue, _ matches: (String) -> Bool) -> String? {
        for (key, member) in value.objectValue ?? [:] {
            if matches(key), let text = member.stringValue { return text }
            if let nested = find(member, matches) { return nested }
        }
        return nil
    }
}

/// Makes requests from each operation's parameters and request body schema: mostly valid ones, and a
/// share broken in one way (wrong type, missing required, out of range, malformed JSON, no credential).
///
/// Deterministic for a seed; values come from Core's ``FixtureGenerator``.
struct RequestGenerator {
    let spec: APISpec
    private var random: SeededRandom

    init(spec: APISpec, seed: UInt64) {
        self.spec = spec
        random = SeededRandom(seed: seed).derived(spec.id)
    }

    /// `valid` valid and `invalid` broken requests for an operation.
    ///
    /// The credentials are the caller's for each operation: an earlier logout may have revoked older ones.
    mutating func requests(_ endpoint: AnyEndpoint, valid: Int, invalid: Int, credentials: Credentials)
        -> [GeneratedRequest]
    {
        (0..<valid).map { _ in request(endpoint, broken: false, credentials: credentials) }
            + (0..<invalid).map { _ in request(endpoint, broken: true, credentials: credentials) }
    }

    private mutating func request(_ endpoint: AnyEndpoint, broken: Bool, credentials: Credentials) -> GeneratedRequest {
        var values = FixtureGenerator(
            seed: random.next(), definitions: spec.definitions, settings: spec.wire, optionalKeys: .sometimesAbsent)
        var path: [String: String] = [:]
        var query: [(String, String)] = []
        var headers: [String: String] = [:]
        for parameter in endpoint.parameters {
            if parameter.location == .header, parameter.name.lowercased() == "apikey", let apikey = credentials.apikey {
                headers[parameter.name] = apikey
                continue
            }
            guard parameter.required || random.chance(parameter.location == .header ? 0.2 : 0.4) else { continue }
            let text = Self.text(
                parameter.defaultValue.flatMap { random.chance(0.5) ? $0 : nil } ?? values.value(for: parameter.schema))
            switch parameter.location {
            case .path: path[parameter.name] = text
            case .query: query.append((parameter.name, text))
            case .header: headers[parameter.name] = text
            }
        }
        if endpoint.auth != .none, let token = credentials.token { headers["Authorization"] = "Bearer \(token)" }
        var body: [UInt8] = []
        if let model = endpoint.request, endpoint.body == .required || random.chance(0.7) {
            body = values.value(for: model.schema).serializedBytes()
            headers["Content-Type"] = "application/json"
        }

        var kind = "valid"
        if broken {
            var breakages: [String] = []
            if endpoint.request != nil { breakages += ["malformed JSON", "body of the wrong type", "property"] }
            if endpoint.parameters.contains(where: { $0.location != .header && Self.wrongValue(for: $0.schema) != nil })
            {
                breakages.append("parameter")
            }
            if endpoint.parameters.contains(where: { $0.location == .query && $0.required }) {
                breakages.append("missing query parameter")
            }
            if endpoint.auth != .none && endpoint.auth != .optional { breakages.append("no credential") }
            if breakages.isEmpty { breakages.append("unknown query parameter") }

            switch random.pick(breakages) {
            case "malformed JSON":
                body = Array(#"{"broken": "#.utf8)
                headers["Content-Type"] = "application/json"
                kind = "malformed JSON"
            case "body of the wrong type":
                body = Array(random.pick(["[]", "42", "\"text\"", "null"]).utf8)
                headers["Content-Type"] = "application/json"
                kind = "body of the wrong type"
            case "property":
                let value = values.value(for: endpoint.request!.schema)
                (body, kind) = breakProperty(value, schema: endpoint.request!.schema, generator: &values)
                headers["Content-Type"] = "application/json"
            case "parameter":
                let candidates = endpoint.parameters.filter {
                    $0.location != .header && Self.wrongValue(for: $0.schema) != nil
                }
                let parameter = random.pick(candidates)
                let wrong = Self.wrongValue(for: parameter.schema)!
                if parameter.location == .path {
                    path[parameter.name] = wrong
                } else {
                    query.removeAll { $0.0 == parameter.name }
                    query.append((parameter.name, wrong))
                }
                kind = "\(parameter.location.rawValue) parameter \(parameter.name)=\(wrong)"
            case "missing query parameter":
                let parameter = random.pick(endpoint.parameters.filter { $0.location == .query && $0.required })
                query.removeAll { $0.0 == parameter.name }
                kind = "missing query parameter \(parameter.name)"
            case "no credential":
                headers["Authorization"] = nil
                kind = "no credential"
            default:
                query.append(("understudy_unknown", "1"))
                kind = "unknown query parameter"
            }
        }

        let queryText = query.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        let target = endpoint.path.expand(path) + (queryText.isEmpty ? "" : "?" + queryText)
        return GeneratedRequest(endpoint: endpoint, target: target, headers: headers, body: body, kind: kind)
    }

    /// The body with one property removed (when required) or given a value of the wrong type.
    private mutating func breakProperty(_ value: JSONValue, schema: Schema, generator: inout FixtureGenerator)
        -> ([UInt8], String)
    {
        guard case .object(let object) = resolved(schema), var members = value.objectValue, !object.properties.isEmpty
        else {
            return (Array("[1, 2]".utf8), "body of the wrong type")
        }
        let property = random.pick(object.properties)
        if property.required && random.chance(0.5) {
            members[property.name] = nil
            return (JSONValue.object(members).serializedBytes(), "missing required /\(property.name)")
        }
        let wrong: JSONValue =
            switch resolved(property.schema).nonNull {
            case .string: .integer(12345)
            case .integer, .number, .decimal: .string("not a number")
            case .boolean: .string("yes")
            case .array: .object(["not": "an array"])
            case .object, .map: .array([.integer(1)])
            default: .object(["unexpected": true])
            }
        members[property.name] = wrong
        return (JSONValue.object(members).serializedBytes(), "wrong type /\(property.name)=\(wrong.serialized())")
    }

    private func resolved(_ schema: Schema) -> Schema {
        var current = schema.nonNull
        var seen: Set<String> = []
        while case .ref(let name) = current, seen.insert(name).inserted, let definition = spec.definitions[name] {
            current = definition.nonNull
        }
        return current
    }

    /// A value a parameter's schema rejects: text for a number, a number out of range, a value off the enum.
    static func wrongValue(for schema: Schema) -> String? {
        switch schema.nonNull {
        case .integer(let constraints):
            if let minimum = constraints.minimum { return String(minimum - 1) }
            if let maximum = constraints.maximum { return String(maximum + 1) }
            return "not-a-number"
        case .number, .decimal: return "not-a-number"
        case .boolean: return "maybe"
        case .string(let constraints):
            if constraints.values != nil { return "not-a-listed-value" }
            if constraints.format == .uuid { return "not-a-uuid" }
            return nil
        default: return nil
        }
    }

    static func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .number(let number): number.literal
        case .bool(let flag): flag ? "true" : "false"
        case .null: "null"
        default: value.serialized()
        }
    }

    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(
            withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~[]()*,:"))) ?? text
    }
}
