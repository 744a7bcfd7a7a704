import Foundation
import UnderstudyCore

/// A page of a 42 list: `page[number]`/`page[size]`, or the older `page`/`per_page` (the bracket form
/// wins when both are sent), 30 a page by default and at most 100.
///
/// The answer carries the headers the API's pagination writes: `X-Page`, `X-Per-Page`, `X-Total` (the
/// number of records) and `Link` with `first` and `prev` after the first page and `next` and `last` before
/// the last one. Link URLs are absolute when the request names its host (`Host`, or `X-Forwarded-Host` and
/// `X-Forwarded-Proto` behind a proxy) and path-absolute otherwise; they keep every other query parameter
/// and the request's pagination style, percent-encoded as Rails writes them (`page%5Bnumber%5D=2`).
struct Intra42Page {
    static let defaultSize = 30
    static let maximumSize = 100

    var number: Int
    var size: Int
    /// Whether the request used `page[number]`/`page[size]`.
    var bracketStyle: Bool

    init(_ query: QueryItems) {
        let bracketNumber = query["page[number]"].flatMap { Int($0) }
        let bracketSize = query["page[size]"].flatMap { Int($0) }
        number = max(1, bracketNumber ?? query["page"].flatMap { Int($0) } ?? 1)
        size = min(Self.maximumSize, max(1, bracketSize ?? query["per_page"].flatMap { Int($0) } ?? Self.defaultSize))
        bracketStyle = bracketNumber != nil || bracketSize != nil
    }

    /// The page of `rows` with the pagination headers.
    func response(_ rows: [JSONValue], for request: MockRequest) -> MockResponse {
        let total = rows.count
        let lastPage = (total + size - 1) / size
        // A page past the last one is empty; checking first keeps `(number - 1) * size` from overflowing.
        let start = number - 1 >= lastPage ? total : (number - 1) * size
        let slice = Array(rows[start..<min(total, start + size)])
        var links: [(rel: String, page: Int)] = []
        if number > 1 { links += [("first", 1), ("prev", number - 1)] }
        if number < lastPage { links += [("next", number + 1), ("last", lastPage)] }
        var headers: [(name: String, value: String)] = []
        if !links.isEmpty {
            headers.append(
                (
                    "Link",
                    links.map { "<\(url(page: $0.page, for: request))>; rel=\"\($0.rel)\"" }.joined(separator: ", ")
                ))
        }
        headers += [("X-Page", String(number)), ("X-Per-Page", String(size)), ("X-Total", String(total))]
        return .json(.array(slice), headers: headers)
    }

    /// The request's URL for another page.
    func url(page: Int, for request: MockRequest) -> String {
        let pageName = bracketStyle ? "page[number]" : "page"
        let otherStyle = bracketStyle ? "page" : "page[number]"
        var items: [(name: String, value: String)] = []
        var replaced = false
        for item in request.query.items where item.name != otherStyle {
            if item.name == pageName {
                if !replaced { items.append((pageName, String(page))) }
                replaced = true
            } else {
                items.append(item)
            }
        }
        if !replaced { items.append((pageName, String(page))) }
        let query = items.map { PathTemplate.percentEncode($0.name) + "=" + PathTemplate.percentEncode($0.value) }.joined(separator: "&")
        var base = ""
        if let host = request.header("x-forwarded-host") ?? request.header("host"), !host.isEmpty {
            base = "\(request.header("x-forwarded-proto") ?? "http")://\(host)"
        }
        return "\(base)\(request.path)?\(query)"
    }
}

/// The `filter[...]`, `range[...]` and `search[...]` parameters of a list.
enum Intra42Filters {
    /// Refuses the filter, range and search fields the endpoint does not declare: the API answers 400
    /// rather than silently ignoring a filter the client relies on.
    static func rejectUnknown(_ request: MockRequest, endpoint: AnyEndpoint) throws(MockError) {
        let declared = endpoint.parameters.filter { $0.location == .query }.map(\.name)
        let filters = declared.filter { $0.hasPrefix("filter[") || $0.hasPrefix("range[") || $0.hasPrefix("search[") }
        let unknown = request.query.items.map(\.name).filter { name in
            (name.hasPrefix("filter[") || name.hasPrefix("range[") || name.hasPrefix("search["))
                && !declared.contains(name)
        }
        guard unknown.isEmpty else {
            let allowed = filters.isEmpty ? "none" : filters.joined(separator: ", ")
            throw MockError(
                .badRequest,
                messages: unknown.map { "query parameter \($0): not a filter of \(endpoint.id) (valid: \(allowed))" })
        }
    }

    /// `filter[name]=true|false` (the engine has checked the value), `nil` when absent.
    static func flag(_ name: String, in query: QueryItems) -> Bool? {
        query["filter[\(name)]"].map { $0 == "true" }
    }

    /// `range[name]=begin,end`: two ISO 8601 instants or dates, `nil` when absent.
    /// - Throws: ``MockError`` 400 when the value is not two instants separated by a comma.
    static func range(_ name: String, in query: QueryItems) throws(MockError) -> ClosedRange<Date>? {
        let parameter = "range[\(name)]"
        guard let text = query[parameter] else { return nil }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
        guard parts.count == 2, let lower = Intra42Time.parse(parts[0]), let upper = Intra42Time.parse(parts[1]) else {
            throw MockError(
                .badRequest,
                "query parameter \(parameter): expected two ISO 8601 instants separated by a comma "
                    + "(2025-11-15T00:00:00.000Z,2025-11-16T00:00:00.000Z), found \"\(text)\"")
        }
        // A reversed range matches nothing, as the API's BETWEEN does.
        return lower <= upper ? lower...upper : Date.distantFuture...Date.distantFuture
    }
}
