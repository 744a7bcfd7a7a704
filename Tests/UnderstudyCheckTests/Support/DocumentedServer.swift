import Foundation
import UnderstudyCore

@testable import UnderstudyCheck

/// A stand-in for a staging server that sends exactly the JSON an API's document shows, written without
/// the mock: each endpoint answers the document's own example for its success status, with only what the
/// document leaves as a placeholder made real (`"uuid"`, `"..."`, an object id with letters past `f`, a
/// required timestamp the example omits: each taken from a value generated for the same place); an endpoint
/// the document shows no JSON for answers a value generated from its model, as the document's tables
/// describe it. Sign-in answers carry `token`, and a protected endpoint called without it gets a 401 in the
/// API's envelope.
///
/// It is static: every id finds the documented item, and queries are not applied — what the negative and
/// semantic probes judge is left to the mock tests and the drift tests — but for a PostgREST row named by its
/// primary key (`id=eq.…`), which is that row or none.
enum DocumentedServer {
    /// The answer for any request to an endpoint of `spec`.
    /// - Parameter drift: what the server changes in each documented body, given the request's query (a
    ///   drift test's server; one that applies a query's meaning).
    static func answer(
        _ spec: APISpec, token: String, apiKey: String? = nil, reversedLinks: Bool = false,
        drift: @escaping @Sendable (AnyEndpoint, [String: String], JSONValue) -> JSONValue = { $2 }
    ) -> CannedServer.Answer {
        let bodies = Dictionary(
            uniqueKeysWithValues: spec.endpoints.map { ($0.id, body(for: $0, in: spec, token: token)) })
        return .choose { head in
            let line = head.split(separator: "\r\n").first.map(String.init) ?? ""
            let parts = line.split(separator: " ")
            guard parts.count >= 2 else { return .json("{}", status: 400) }
            let method = String(parts[0])
            let target = parts[1].split(separator: "?", maxSplits: 1)
            let path = String(target.first ?? "")
            let query = Dictionary(
                FormURLEncoding.pairs(target.count > 1 ? String(target[1]) : "").map { ($0.name, $0.value) },
                uniquingKeysWith: { first, _ in first })
            // A literal segment wins over a parameter: /api/events/nearby is not /api/events/{id}.
            let candidates = spec.endpoints.filter { $0.method.rawValue == method && $0.path.match(path) != nil }
            guard let endpoint = candidates.max(by: { literals($0) < literals($1) }) else {
                return error(spec, .notFound)
            }
            let headers = head.lowercased()
            let protected = endpoint.auth != .none && endpoint.auth != .optional
            if let apiKey, !headers.contains("\r\napikey: \(apiKey.lowercased())") { return error(spec, .unauthorized) }
            if protected, !headers.contains("\r\nauthorization: bearer \(token.lowercased())") {
                return error(spec, .unauthorized)
            }
            let status = endpoint.success.rawValue
            guard endpoint.response != nil, status != 204 else {
                return .response(status: status, headers: [], body: [])
            }
            return page(
                drift(endpoint, query, bodies[endpoint.id] ?? .null), of: endpoint, query: query, head: headers,
                path: path,
                reversedLinks: reversedLinks)
        }
    }

    private static func literals(_ endpoint: AnyEndpoint) -> Int {
        endpoint.path.segments.filter { if case .literal = $0 { true } else { false } }.count
    }

    /// The answer holding the page the request asks for, in the endpoint's paging style; every item when
    /// it asks for none.
    private static func page(
        _ body: JSONValue, of endpoint: AnyEndpoint, query: [String: String], head: String, path: String,
        reversedLinks: Bool
    ) -> CannedServer.Answer {
        let status = endpoint.success.rawValue
        var items = PaginationWalk.items(in: body) ?? []
        // A PostgREST row named by its primary key is that row or none (the check reads back what it wrote).
        if endpoint.pagination == .range, let key = query["id"], key.hasPrefix("eq.") {
            items = items.filter { $0["id"]?.stringValue == String(key.dropFirst(3)) }
        }
        func slice(_ range: Range<Int>) -> JSONValue {
            body.replacingItems(with: Array(items[range.clamped(to: items.indices)]))
        }
        switch endpoint.pagination {
        case .pageInBody(let pageName, let sizeName, _):
            guard let size = query[sizeName].flatMap(Int.init), size > 0 else { break }
            let number = query[pageName].flatMap(Int.init) ?? 1
            return .json(slice((number - 1) * size..<number * size).serialized(), status: status)
        case .linkHeader:
            let size = query["page[size]"].flatMap(Int.init) ?? 30
            let number = query["page[number]"].flatMap(Int.init) ?? 1
            var headers = [("X-Page", String(number)), ("X-Per-Page", String(size)), ("X-Total", String(items.count))]
            // 42 sends next and last; the order is not part of the contract (`reversedLinks` turns it round,
            // for a compatible-drift test).
            let last = max(1, (items.count + size - 1) / size)
            var links = ["<\(path)?page[number]=\(last)&page[size]=\(size)>; rel=\"last\""]
            if number < last {
                links.insert("<\(path)?page[number]=\(number + 1)&page[size]=\(size)>; rel=\"next\"", at: 0)
            }
            headers.append(("Link", (reversedLinks ? links.reversed() : links).joined(separator: ", ")))
            return .json(slice((number - 1) * size..<number * size).serialized(), status: status, headers: headers)
        case .range:
            let bounds = head.firstMatch(of: /\r\nrange: (\d+)-(\d+)/).map { (Int($0.1)!, Int($0.2)!) }
            let (lower, upper) = bounds ?? (0, items.count - 1)
            let shown = lower..<min(upper + 1, items.count)
            let range = shown.isEmpty ? "*/\(items.count)" : "\(lower)-\(shown.upperBound - 1)/\(items.count)"
            return .json(
                slice(shown).serialized(), status: shown.count < items.count ? 206 : status,
                headers: [("Content-Range", range)])
        case .none:
            break
        }
        return .json(body.serialized(), status: status)
    }

    /// The documented body of an endpoint's success answer.
    static func body(for endpoint: AnyEndpoint, in spec: APISpec, token: String) -> JSONValue {
        let generated = spec.fixture(for: endpoint, seed: 7).responses[endpoint.success.rawValue] ?? .null
        var body = generated
        if let text = endpoint.examples.responses[endpoint.success.rawValue],
            let example = try? JSONParser().parse(Array(text.utf8)), let model = endpoint.response
        {
            body = example.overlaid(on: generated)
            // Placeholders, one place at a time: each finding's place takes the generated value.
            for _ in 0..<64 {
                let findings = BodyCheck.findings(body, bytes: Array(body.serialized().utf8), model: model, spec: spec)
                    .filter { $0.severity == .error }
                guard let place = findings.first?.pointer.tokens[...] else { break }
                // A member the generated value left out (an optional one, null) is taken from another seed.
                let value = (7..<15).lazy.compactMap { seed in
                    spec.fixture(for: endpoint, seed: seed).responses[endpoint.success.rawValue]?.value(near: place)
                }.first { $0 != .null }
                body = body.setting(place, to: value)
            }
        }
        // What sign-in answers is the token the other requests send.
        for pointer in [JSONPointer(tokens: ["data", "accessToken"]), JSONPointer(tokens: ["access_token"])]
        where DecodeVerdict.value(at: pointer, in: body) != nil {
            body = body.setting(pointer.tokens[...], to: .string(token))
        }
        return body
    }

    private static func error(_ spec: APISpec, _ status: HTTPStatus) -> CannedServer.Answer {
        let headers =
            spec.auth == .oauth2(tokenPath: "/oauth/token") && status == .unauthorized
            ? [("WWW-Authenticate", #"Bearer realm="Doorkeeper", error="invalid_token""#)] : []
        return .json(
            spec.errorEnvelope.make(status, [HTTPStatus.reason(status)]).serialized(), status: status.rawValue,
            headers: headers)
    }
}

extension JSONValue {
    /// This value over `base`: objects keep `base`'s members this one lacks; array elements lie over
    /// `base`'s first element.
    fileprivate func overlaid(on base: JSONValue) -> JSONValue {
        switch (self, base) {
        case (.object(var members), .object(let baseMembers)):
            for (key, value) in members { members[key] = value.overlaid(on: baseMembers[key] ?? .null) }
            for (key, value) in baseMembers where members[key] == nil { members[key] = value }
            return .object(members)
        case (.array(let elements), .array(let baseElements)):
            return .array(
                elements.enumerated().map { index, element in
                    baseElements.isEmpty ? element : element.overlaid(on: baseElements[index % baseElements.count])
                })
        default:
            return self
        }
    }

    /// This value with its first array of objects (``PaginationWalk/items(in:)``) replaced by `items`.
    func replacingItems(with items: [JSONValue]) -> JSONValue {
        if case .array = self { return .array(items) }
        guard case .object(var members) = self else { return self }
        for key in members.keys.sorted() {
            if case .array(let elements) = members[key]!, elements.allSatisfy({ $0.objectValue != nil }) {
                members[key] = .array(items)
                return .object(members)
            }
        }
        for key in members.keys.sorted() {
            let replaced = members[key]!.replacingItems(with: items)
            if replaced != members[key]! {
                members[key] = replaced
                return .object(members)
            }
        }
        return self
    }

    /// The value at `tokens`, an array index past the end read as the last element; `nil` when absent.
    fileprivate func value(near tokens: ArraySlice<String>) -> JSONValue? {
        guard let token = tokens.first else { return self }
        switch self {
        case .object(let members): return members[token]?.value(near: tokens.dropFirst())
        case .array(let elements):
            guard let index = Int(token), !elements.isEmpty else { return nil }
            return elements[min(index, elements.count - 1)].value(near: tokens.dropFirst())
        default: return nil
        }
    }

    /// This value with the value at `tokens` replaced (removed when `value` is `nil`).
    fileprivate func setting(_ tokens: ArraySlice<String>, to value: JSONValue?) -> JSONValue {
        guard let token = tokens.first else { return value ?? .null }
        switch self {
        case .object(var members):
            if tokens.count == 1 {
                members[token] = value
            } else if let member = members[token] {
                members[token] = member.setting(tokens.dropFirst(), to: value)
            }
            return .object(members)
        case .array(var elements):
            guard let index = Int(token), elements.indices.contains(index) else { return self }
            elements[index] = elements[index].setting(tokens.dropFirst(), to: value)
            return .array(elements)
        default:
            return self
        }
    }
}
