import Foundation
import UnderstudyCore

@testable import UnderstudyMock

/// Malformed requests for every endpoint of a spec: huge and garbage numbers wherever a number goes, deep
/// nesting, hostile `Range` headers, wrong media types, unknown methods, invalid UTF-8 and bad tokens.
///
/// The list is deterministic and bounded (a few hundred requests per API), so a failure names the exact
/// request that caused it.
struct HostileRequests {
    let spec: APISpec
    /// A valid credential, so requests get past authentication to the code that parses numbers.
    let headers: [String: String]

    static let numbers = [
        "9223372036854775807", "-9223372036854775808", "9223372036854775808", "99999999999999999999999", "1e308",
        "-1", "0", "NaN", "", "%FF%FE",
    ]

    static let deepJSON = Array((String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)).utf8)

    /// Every hostile request, with a label for failure messages.
    var all: [(label: String, request: RawRequest)] {
        var requests: [(String, RawRequest)] = []
        for endpoint in spec.endpoints {
            let path = Self.path(endpoint, value: "1")
            let method = endpoint.method.rawValue
            func add(_ label: String, _ raw: RawRequest) { requests.append(("\(endpoint.id) \(label)", raw)) }
            for number in Self.numbers {
                add("path=\(number)", RawRequest(method: method, path: Self.path(endpoint, value: number), headers: headers))
                for parameter in endpoint.parameters where parameter.location == .query {
                    add(
                        "\(parameter.name)=\(number)",
                        RawRequest(method: method, path: path, query: "\(Self.escape(parameter.name))=\(number)", headers: headers))
                }
            }
            add("invalid UTF-8 query", RawRequest(method: method, path: path, query: "q=%C3%28&%FF=%FE", headers: headers))
            add("bad token", RawRequest(method: method, path: path, headers: headers.merging(["authorization": "Bearer a.b.c"]) { $1 }))
            add(
                "huge token",
                RawRequest(
                    method: method, path: path,
                    headers: headers.merging(["authorization": "Bearer " + String(repeating: "x", count: 20_000)]) { $1 }))
            for method in ["TRACE", "CONNECT", "BREW", "OPTIONS", "HEAD"] {
                add(method, RawRequest(method: method, path: path, headers: headers))
            }
            if endpoint.method != .get {
                let json = headers.merging(["content-type": "application/json"]) { $1 }
                add("deep JSON", RawRequest(method: method, path: path, headers: json, body: Self.deepJSON))
                add("invalid UTF-8 body", RawRequest(method: method, path: path, headers: json, body: [0x22, 0xFF, 0xFE, 0x22]))
                add(
                    "huge integers",
                    RawRequest(method: method, path: path, headers: json, body: Self.hugeIntegers(endpoint)))
                for type in ["text/plain", "application/xml", "multipart/form-data; boundary=x", "garbage"] {
                    add(
                        type,
                        RawRequest(
                            method: method, path: path, headers: headers.merging(["content-type": type]) { $1 },
                            body: Array(#"{"title": "x"}"#.utf8)))
                }
            }
        }
        return requests
    }

    /// PostgREST's own grammar: deep logic trees and embeds, hostile ranges, counts and orders.
    static func postgrest(table: String, headers: [String: String]) -> [(label: String, request: RawRequest)] {
        let path = "/rest/v1/\(table)"
        let deepOr = "or=(" + String(repeating: "or(", count: 10_500) + "id.eq.1" + String(repeating: ")", count: 10_501)
        let deepNot = "and=(" + String(repeating: "not.and(", count: 2_000) + "id.eq.1" + String(repeating: ")", count: 2_001)
        let deepSelect = "select=" + String(repeating: "properties(", count: 5_000) + "id" + String(repeating: ")", count: 5_000)
        var requests: [(String, RawRequest)] = []
        for query in [
            deepOr, deepNot, deepSelect, "limit=9223372036854775807&offset=9223372036854775807", "offset=-1",
            "limit=99999999999999999999", "order=" + String(repeating: "id.desc,", count: 2_000) + "id",
            "id=in.(" + String(repeating: "1,", count: 5_000) + "1)", "title=like." + String(repeating: "%_", count: 2_000),
            "title=imatch.(a|a)*b", "title=match.[", "select=*,owner:users(*,x:users(*))",
        ] {
            requests.append(("GET \(path)?\(query.prefix(60))", RawRequest(method: "GET", path: path, query: query, headers: headers)))
        }
        for range in [
            "0-9223372036854775807", "9223372036854775807-", "9223372036854775807-0", "5-1", "-", "a-b",
            "0-99999999999999999999", "items=0-", String(repeating: "9", count: 5_000) + "-",
        ] {
            for prefer in ["", "count=exact"] {
                requests.append(
                    (
                        "GET \(path) Range: \(range.prefix(40)) \(prefer)",
                        RawRequest(
                            method: "GET", path: path, headers: headers.merging(["range": range, "prefer": prefer]) { $1 })
                    ))
            }
        }
        return requests
    }

    /// The endpoint's path with every parameter set to `value`.
    static func path(_ endpoint: AnyEndpoint, value: String) -> String {
        "/" + endpoint.path.segments.map { segment in
            switch segment {
            case .literal(let literal): literal
            case .parameter: value
            case .template(let parts):
                parts.map { part in
                    switch part {
                    case .literal(let literal): literal
                    case .parameter: value
                    }
                }.joined()
            }
        }.joined(separator: "/")
    }

    static func escape(_ name: String) -> String {
        name.replacingOccurrences(of: "[", with: "%5B").replacingOccurrences(of: "]", with: "%5D")
    }

    /// The endpoint's example body (or `{}`) with every member set to an integer beyond Int64.
    static func hugeIntegers(_ endpoint: AnyEndpoint) -> [UInt8] {
        let example = endpoint.examples.request.flatMap { try? JSONValue(parsing: Array($0.utf8)) }
        guard case .object(let members)? = example else { return Array(#"{"id": 99999999999999999999}"#.utf8) }
        let huge = JSONValue.number(JSONNumber(uncheckedLiteral: "99999999999999999999"))
        return JSONValue.object(members.mapValues { _ in huge }).serializedBytes()
    }
}
