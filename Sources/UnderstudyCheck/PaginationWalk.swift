import Foundation
import UnderstudyCore

/// Walks a paged list over two pages of one item each, in the API's own paging style, and checks the
/// pages are distinct and the paging metadata agrees.
struct PaginationWalk {
    let session: CheckSession
    let endpoint: AnyEndpoint
    let path: [String: String]
    let query: [(String, String)]

    /// - Parameter body: the first answer, or its skeleton (three items are enough to know there are two).
    func run(first body: JSONValue) async {
        switch endpoint.pagination {
        case .none: return
        case .pageInBody(let page, let size, _): await walkPages(page: page, size: size, first: body)
        case .linkHeader: await walkLinks()
        case .range: await walkRange()
        }
    }

    /// `page`/`pageSize` in the query, metadata in the body: pages 1 and 2 of size 1 hold different items.
    private func walkPages(page: String, size: String, first: JSONValue) async {
        guard (Self.items(in: first)?.count ?? 0) >= 2 else { return }
        var items: [JSONValue] = []
        for number in 1...2 {
            // Only the count and the first item's skeleton outlive the request: a server that ignores the page
            // size sends its whole list again, and two such trees must not be alive at once.
            let request = session.request(endpoint, path: path, query: query + [(page, String(number)), (size, "1")])
            guard let (count, first) = await pageSummary(request) else { return }
            if count > 1 {
                session.add([
                    finding(
                        .pageSize, "page \(number) with \(size)=1 holds \(count) items", expected: "at most 1 item",
                        found: "\(count) items")
                ])
                return
            }
            guard let first else { return }
            items.append(first)
        }
        if items.count == 2, items[0] == items[1] {
            session.add([
                finding(
                    .repeatedPage, "pages 1 and 2 (\(size)=1) hold the same item: the \(page) parameter is ignored",
                    expected: "a different item on page 2", found: "the item of page 1", severity: .warning)
            ])
        }
    }

    /// The response (without its body) when it carried a parsed 2xx body.
    private func answerHead(_ request: OutgoingRequest) async -> RecordedResponse? {
        let (exchange, body) = await session.perform(endpoint, request, expecting: [endpoint.success])
        return body == nil ? nil : exchange.response
    }

    /// The number of items on a page and the first one's skeleton; `nil` when the answer has no list.
    private func pageSummary(_ request: OutgoingRequest) async -> (count: Int, first: JSONValue?)? {
        guard let body = await session.perform(endpoint, request, expecting: [endpoint.success]).body,
            let items = Self.items(in: body)
        else { return nil }
        return (items.count, items.first?.skeleton)
    }

    /// 42: `page[size]=1`, then the `Link` header's `next` URL; `X-Page` must follow.
    private func walkLinks() async {
        let request = session.request(endpoint, path: path, query: query + [("page[number]", "1"), ("page[size]", "1")])
        guard let response = await answerHead(request),
            let total = response.headers["X-Total"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }), total >= 2
        else { return }
        guard let link = response.headers["Link"].flatMap(LinkHeader.init), let next = link.links["next"] else {
            session.add([
                finding(
                    .nextMissing, "X-Total is \(total) with page[size]=1, but the Link header has no rel=\"next\"",
                    expected: "Link: <...>; rel=\"next\"", found: response.headers["Link"] ?? "no Link header")
            ])
            return
        }
        var nextRequest = request
        nextRequest.url = next.hasPrefix("/") ? session.options.baseURL + next : next
        let (nextExchange, _) = await session.perform(endpoint, nextRequest, expecting: [endpoint.success])
        if let page = nextExchange.response?.headers["X-Page"], page.trimmingCharacters(in: .whitespaces) != "2" {
            session.add([
                finding(.headerInvalid, "the Link header's next page answers X-Page \(page)", expected: "X-Page 2", found: page)
            ])
        }
    }

    /// PostgREST: `Range: 0-0` then `Range: 1-1` with `Prefer: count=exact`; `Content-Range` must echo them.
    private func walkRange() async {
        var total: Int?
        for lower in 0...1 {
            if lower == 1, (total ?? 0) < 2 { return }
            let headers: HeaderFields = ["Range-Unit": "items", "Range": "\(lower)-\(lower)", "Prefer": "count=exact"]
            let request = session.request(endpoint, path: path, query: query, headers: headers)
            let (exchange, _) = await session.perform(endpoint, request, expecting: [.ok, .partialContent])
            guard let response = exchange.response, (200..<300).contains(response.status),
                let header = response.headers["Content-Range"], let range = ContentRange(header)
            else { return }
            total = range.total
            let expected = lower...lower
            if let total, total > lower, range.range != expected {
                session.add([
                    finding(
                        .rangeMismatch, "Range: \(lower)-\(lower) was answered with Content-Range \(header)",
                        expected: "\(lower)-\(lower)/\(total)", found: header)
                ])
                return
            }
        }
    }

    private func finding(
        _ rule: RuleID, _ message: String, expected: String, found: String, severity: Diagnostic.Severity = .error
    ) -> Diagnostic {
        Diagnostic(severity, rule: rule, endpoint: endpoint.id, message: message, expected: expected, found: found)
    }

    /// The first array of objects in a body (the page's items).
    static func items(in body: JSONValue) -> [JSONValue]? {
        if case .array(let elements) = body { return elements }
        var queue = [body]
        while !queue.isEmpty {
            let value = queue.removeFirst()
            if case .object(let members) = value {
                for key in members.keys.sorted() {
                    if case .array(let elements) = members[key]!, elements.allSatisfy({ $0.objectValue != nil }) {
                        return elements
                    }
                    queue.append(members[key]!)
                }
            }
        }
        return nil
    }
}
