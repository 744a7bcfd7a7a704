import Foundation
import UnderstudyCore

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

    /// `range[name]=begin,end`: two ISO 8601 instants or dates, `nil` when absent.
    /// - Throws: ``MockError`` 400 when the value is not two instants separated by a comma.
    static func range(_ name: String, in query: QueryItems) throws(MockError) -> ClosedRange<Date>? {
        let parameter = "range[\(name)]"
        guard let text = query[parameter] else { return nil }
        guard let range = QueryMeaning.range(text) else {
            throw MockError(
                .badRequest,
                "query parameter \(parameter): expected two ISO 8601 instants separated by a comma "
                    + "(2025-11-15T00:00:00.000Z,2025-11-16T00:00:00.000Z), found \"\(text)\"")
        }
        return range
    }
}
