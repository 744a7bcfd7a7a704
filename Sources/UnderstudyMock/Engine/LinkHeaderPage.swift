import Foundation
import UnderstudyCore

/// A page of a list paged as ``Pagination/linkHeader`` declares, the style of the 42 API (Rails' api-pagination):
/// `page[number]`/`page[size]`, or the older `page`/`per_page` (the bracket form wins when both are sent), 30 a
/// page by default and at most 100. The resource engine and the fixture answers page alike.
///
/// The answer carries the headers the API's pagination writes: `X-Page`, `X-Per-Page`, `X-Total` (the
/// number of records) and `Link` with `first` and `prev` after the first page and `next` and `last` before
/// the last one. Link URLs are absolute when the request names its host (`Host`, or `X-Forwarded-Host` and
/// `X-Forwarded-Proto` behind a proxy) and path-absolute otherwise; they keep every other query parameter
/// and the request's pagination style, percent-encoded as Rails writes them (`page%5Bnumber%5D=2`).
struct LinkHeaderPage {
    static let defaultSize = 30
    static let maximumSize = 100
    /// The parameters a page is read from, declared by the document or not.
    static let parameterNames: Set = ["page[number]", "page[size]", "page", "per_page"]

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

    /// The rows of the page and the headers that describe it; `path` is the request's full path (the API's base path
    /// included), which the `Link` URLs repeat.
    func paging(_ rows: [JSONValue], for request: MockRequest, path: String)
        -> (rows: [JSONValue], headers: [(name: String, value: String)])
    {
        (Array(rows[window(total: rows.count)]), headers(total: rows.count, for: request, path: path))
    }

    /// The offsets of the page in a list of `total` items; empty past the last page.
    func window(total: Int) -> Range<Int> {
        let lastPage = (total + size - 1) / size
        // A page past the last one is empty; checking first keeps `(number - 1) * size` from overflowing.
        let start = number - 1 >= lastPage ? total : (number - 1) * size
        return start..<min(total, start + size)
    }

    /// The headers that describe the page in a list of `total` items: `Link` (first, prev, next, last, where there
    /// are), `X-Page`, `X-Per-Page` and `X-Total`.
    func headers(total: Int, for request: MockRequest, path: String) -> [(name: String, value: String)] {
        let lastPage = (total + size - 1) / size
        var links: [(rel: String, page: Int)] = []
        if number > 1 { links += [("first", 1), ("prev", number - 1)] }
        if number < lastPage { links += [("next", number + 1), ("last", lastPage)] }
        var headers: [(name: String, value: String)] = []
        if !links.isEmpty {
            headers.append(
                (
                    "Link",
                    links.map { "<\(url(page: $0.page, for: request, path: path))>; rel=\"\($0.rel)\"" }
                        .joined(separator: ", ")
                ))
        }
        headers += [("X-Page", String(number)), ("X-Per-Page", String(size)), ("X-Total", String(total))]
        return headers
    }

    /// The request's URL for another page.
    private func url(page: Int, for request: MockRequest, path: String) -> String {
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
        let query = items.map { PathTemplate.percentEncode($0.name) + "=" + PathTemplate.percentEncode($0.value) }
            .joined(separator: "&")
        return "\(request.origin)\(path)?\(query)"
    }
}
