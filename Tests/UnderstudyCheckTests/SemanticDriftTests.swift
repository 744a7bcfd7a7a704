import Foundation
import Testing
import UnderstudyCore
import UnderstudySpecs

@testable import UnderstudyCheck

/// PostgREST servers that answer every query with rows, but not the rows asked for: each `semantics.*`
/// rule fires on the server that ignores its part of the grammar, and none on one that honours it.
struct SemanticDriftTests {
    /// What a drifted server ignores.
    enum Drift: Sendable {
        case order, filters, or, limit, alias, count
    }

    /// A few rows of one table and just enough PostgREST to serve them: `eq`, `not.eq`, `in`, `or` with
    /// `eq`, `order`, `limit`, `Range`, `count=exact`, one aliased embed, and 401 for another token.
    struct TinyPostgrest: Sendable {
        var rows: [[String: JSONValue]]
        var ignoring: Drift?

        func answer(_ head: String) -> CannedServer.Answer {
            let lines = head.components(separatedBy: "\r\n")
            guard lines.contains("Authorization: Bearer \(DriftTests.token)") else {
                return .json(
                    #"{"code":"PGRST301","message":"JWSError JWSInvalidSignature","details":null,"hint":null}"#,
                    status: 401, headers: [("WWW-Authenticate", #"Bearer error="invalid_token""#)])
            }
            let target = lines[0].split(separator: " ").dropFirst().first.map(String.init) ?? "/"
            let query = FormURLEncoding.pairs(
                target.split(separator: "?", maxSplits: 1).dropFirst().first.map(String.init) ?? "")
            var rows = self.rows
            for (name, value) in query {
                switch name {
                case "order" where ignoring != .order:
                    let parts = value.split(separator: ".").map(String.init)
                    rows.sort { ($0[parts[0]]?.stringValue ?? "") < ($1[parts[0]]?.stringValue ?? "") }
                    if parts.last == "desc" { rows.reverse() }
                case "limit":
                    guard let limit = Int(value) else {
                        return .json(
                            #"{"code":"PGRST100","message":"bad limit","details":null,"hint":null}"#, status: 400)
                    }
                    if ignoring != .limit { rows = Array(rows.prefix(limit)) }
                case "or" where ignoring != .or:
                    let terms = value.dropFirst().dropLast().split(separator: ",").map {
                        $0.split(separator: ".", maxSplits: 2).map(String.init)
                    }
                    rows = rows.filter { row in terms.contains { row[$0[0]]?.stringValue == $0[2] } }
                case "select" where value.contains("property:properties("):
                    let key = ignoring == .alias ? "properties" : "property"
                    rows = rows.map { row in
                        var row = row
                        row["property"] = nil
                        row[key] = ["id": "p-1", "title": "Studio"]
                        return row
                    }
                case "order", "or", "select": break
                default:
                    guard ignoring != .filters else { break }
                    if value.hasPrefix("eq.") {
                        rows = rows.filter { $0[name]?.stringValue == String(value.dropFirst(3)) }
                    } else if value.hasPrefix("not.eq.") {
                        rows = rows.filter { $0[name]?.stringValue != String(value.dropFirst(7)) }
                    } else if value.hasPrefix("in.(") {
                        let values = value.dropFirst(4).dropLast().split(separator: ",").map(String.init)
                        rows = rows.filter { values.contains($0[name]?.stringValue ?? "") }
                    }
                }
            }
            var lower = 0
            let range = lines.first { $0.hasPrefix("Range: ") }?.dropFirst(7).split(separator: "-").compactMap {
                Int($0)
            }
            if let range, range.count == 2 {
                lower = range[0]
                rows = Array(rows.dropFirst(range[0]).prefix(range[1] - range[0] + 1))
            }
            let counted = lines.contains("Prefer: count=exact")
            let total = counted ? String(self.rows.count) : "*"
            var contentRange = rows.isEmpty ? "*/\(total)" : "\(lower)-\(lower + rows.count - 1)/\(total)"
            if ignoring == .count, counted, range == nil { contentRange = "0-24/\(self.rows.count)" }
            return .json(
                JSONValue.array(rows.map(JSONValue.object)).serialized(), headers: [("Content-Range", contentRange)])
        }
    }

    /// Three rows of `endpoint`'s fixture with distinct ids, statuses and creation times, stored oldest first.
    static func rows(_ endpoint: String, statuses: [String]) -> [[String: JSONValue]] {
        let row = DriftTests.fixture(EasyCo.spec, endpoint).arrayValue?.first?.objectValue ?? [:]
        return statuses.enumerated().map { index, status in
            row.merging([
                "id": .string("00000000-0000-4000-8000-00000000000\(index)"), "status": .string(status),
                "created_at": .string("2025-0\(index + 1)-01T09:00:00+00:00"),
            ]) { $1 }
        }
    }

    /// The lines and the messages (with what was found) of the findings above notes.
    static func check(_ endpoint: String, statuses: [String], ignoring: Drift?) async throws
        -> (lines: [String], messages: [String])
    {
        let server = TinyPostgrest(rows: rows(endpoint, statuses: statuses), ignoring: ignoring)
        let path = String(endpoint.dropFirst(4))
        let (lines, findings) = try await DriftTests.check(
            EasyCo.spec, [endpoint], answers: [path: .choose { server.answer($0) }], probes: true)
        // Probes of one rule on one endpoint are one finding; the others are its examples.
        let messages = findings.filter { $0.severity > .note }.flatMap { finding in
            ["\(finding.message) (found: \(finding.found ?? "-"))"] + finding.examples.map { String($0.dropFirst("/: ".count)) }
        }
        return (lines, messages)
    }

    static let members = "GET /rest/v1/property_members"
    static let memberStatuses = ["active", "pending", "moved_out"]

    @Test func aServerThatHonoursTheGrammarIsClean() async throws {
        #expect(try await Self.check(Self.members, statuses: Self.memberStatuses, ignoring: nil).lines == [])
        let applications = try await Self.check(
            "GET /rest/v1/applications", statuses: ["pending", "reviewing", "approved"], ignoring: nil)
        #expect(applications.lines == [])
    }

    static let id0 = "00000000-0000-4000-8000-000000000000"

    @Test(arguments: [
        (
            Drift.order, "semantics.order-ignored",
            [
                #"order=created_at.desc returned "2025-02-01T09:00:00+00:00" after "2025-01-01T09:00:00+00:00" "#
                    + #"(found: created_at "2025-01-01T09:00:00+00:00", then "2025-02-01T09:00:00+00:00")"#
            ]
        ),
        (
            Drift.filters, "semantics.filter-ignored",
            [
                "id=eq.\(id0) returned row 1, which does not match it (found: id \"00000000-0000-4000-8000-000000000001\")",
                "id=not.eq.\(id0) returned row 0, which does not match it (found: id \"\(id0)\")",
                "id=in.(\(id0),00000000-0000-4000-8000-000000000001) returned row 2, which does not match it "
                    + "(found: id \"00000000-0000-4000-8000-000000000002\")",
            ]
        ),
        (
            Drift.or, "semantics.filter-ignored",
            [
                "or=(id.eq.\(id0),status.eq.active) returned row 1, which does not match it "
                    + "(found: id \"00000000-0000-4000-8000-000000000001\", status \"pending\")"
            ]
        ),
        (Drift.limit, "semantics.limit-ignored", ["limit=1 returned 3 rows (found: 3 rows)"]),
        (
            Drift.count, "semantics.count-mismatch",
            ["Content-Range 0-24/3 (Prefer: count=exact) does not match the 3 rows in the body (found: 0-24/3)"]
        ),
    ])
    func eachIgnoredPartIsReported(drift: Drift, rule: String, messages: [String]) async throws {
        let found = try await Self.check(Self.members, statuses: Self.memberStatuses, ignoring: drift)
        #expect(found.lines == ["error \(rule) GET /rest/v1/property_members /"])
        #expect(found.messages.sorted() == messages.sorted())
    }

    @Test func anEmbedWithoutItsAliasIsReported() async throws {
        let found = try await Self.check(
            "GET /rest/v1/applications", statuses: ["pending", "reviewing", "approved"], ignoring: .alias)
        #expect(found.lines == ["error semantics.embed-alias-missing GET /rest/v1/applications /"])
        #expect(
            found.messages == [
                "select=*,property:properties(id,title) returned the embed without its alias property "
                    + "(found: no member property)"
            ])
    }

    // MARK: Other lists

    /// Fitness activities, one public and one for friends; `visibility` honoured or not.
    static func activities(honouringVisibility: Bool) -> [String: CannedServer.Answer] {
        var items = DriftTests.fixture(Fitness.spec, "GET /activities").arrayValue ?? []
        DriftTests.set("public", "visibility", in: &items[0])
        DriftTests.set("friends", "visibility", in: &items[1])
        let list = items
        return [
            "/activities": .choose { head in
                if head.contains("understudy-invalid") { return ProbeDriftTests.error(Fitness.spec, .badRequest) }
                let asked = ["public", "friends"].first { head.contains("visibility=\($0)") }
                guard honouringVisibility, let asked else { return .json(JSONValue.array(list).serialized()) }
                return .json(JSONValue.array(list.filter { $0["visibility"]?.stringValue == asked }).serialized())
            }
        ]
    }

    @Test func aDeclaredFilterMustFilterOnIt() async throws {
        let (clean, _) = try await DriftTests.check(
            Fitness.spec, DriftTests.fitnessList, answers: Self.activities(honouringVisibility: true), probes: true)
        #expect(clean == [])
        let (lines, findings) = try await DriftTests.check(
            Fitness.spec, DriftTests.fitnessList, answers: Self.activities(honouringVisibility: false), probes: true)
        #expect(lines == ["error semantics.filter-ignored GET /activities /"])
        let finding = try #require(findings.first { $0.rule == .semanticsFilter })
        #expect(finding.message == "visibility=public returned item 1, which does not match it")
        #expect(finding.found == #"visibility "friends""#)
    }

    // MARK: Declared meanings (VideGreniers, 42)

    static let now = Date()

    static func iso(_ offset: TimeInterval) -> JSONValue {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions.insert(.withFractionalSeconds)
        return .string(formatter.string(from: now.addingTimeInterval(offset)))
    }

    /// `body` with the items of its list replaced: the documented item, changed by each of `changes`.
    static func items(_ body: JSONValue, _ changes: [(inout JSONValue) -> Void]) -> [JSONValue] {
        let item = PaginationWalk.items(in: body)?.first ?? [:]
        return changes.map { change in
            var copy = item
            change(&copy)
            return copy
        }
    }

    /// The `semantics.*` findings of `check` against the documented server of `api`, whose `endpoint`
    /// answers `items` passed through `apply` (the server's handling of the query).
    static func semantics(
        _ api: String, _ endpoint: String, strict: Bool = false, items: @escaping @Sendable (JSONValue) -> [JSONValue],
        apply: @escaping @Sendable ([String: String], [JSONValue]) -> [JSONValue]
    ) async throws -> [String] {
        let (report, _) = try await DocumentedServerTests.check(api, probes: true, strict: strict) { described, query, body in
            guard described.id == endpoint else { return body }
            return body.replacingItems(with: apply(query, items(body)))
        }
        // The documented server applies no other list's query: only this endpoint's findings count.
        return report.sortedFindings.filter { $0.rule.rawValue.hasPrefix("semantics.") && $0.endpoint == endpoint }.map {
            "\($0.severity) \($0.rule) \($0.endpoint ?? "-"): \($0.message)" + ($0.basis == .document ? "" : " (\($0.basis))")
        }
    }

    static func at(_ pointer: JSONPointer, _ item: JSONValue) -> JSONValue? { DecodeVerdict.value(at: pointer, in: item) }

    static func instant(_ value: JSONValue?) -> Date? {
        guard let text = value?.stringValue else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions.insert(.withFractionalSeconds)
        return formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text)
    }

    @Test func videGreniersSortByMustSort() async throws {
        let endpoint = "GET /api/events"
        let items: @Sendable (JSONValue) -> [JSONValue] = { body in
            Self.items(body, [2, 0, 1].map { day in { $0 = $0.setting("startDate", Self.iso(Double(day + 1) * 86_400)) } })
        }
        let sorted = try await Self.semantics("videgreniers", endpoint, items: items) { query, items in
            let descending = query["sortDescending"] == "true"
            guard query["sortBy"] == "StartDate" else { return items }
            return items.sorted { (Self.instant($0["startDate"])! < Self.instant($1["startDate"])!) != descending }
        }
        #expect(sorted == [])
        let ignored = try await Self.semantics("videgreniers", endpoint, items: items) { _, items in items }
        #expect(ignored.count == 1)
        #expect(ignored.first?.hasPrefix("error semantics.order-ignored GET /api/events: sortBy=StartDate&sortDescending=") == true)
    }

    /// The document names only `sortBy=StartDate`; the other keys are the spec's guess (`query-value-formats`), so a
    /// server that sorts by the documented key alone gets a warning for the guessed one, an error with `--strict`.
    @Test func aSortKeyNoDocumentNamesIsAWarningButWithStrict() async throws {
        let endpoint = "GET /api/events"
        let items: @Sendable (JSONValue) -> [JSONValue] = { body in
            Self.items(
                body,
                [2, 0, 1].map { day in
                    {
                        $0 = $0.setting("startDate", Self.iso(Double(day + 1) * 86_400))
                            .setting("entryFeeAmount", .integer(day * 3 + 1))
                    }
                })
        }
        let documentedOnly: @Sendable ([String: String], [JSONValue]) -> [JSONValue] = { query, items in
            let descending = query["sortDescending"] == "true"
            guard query["sortBy"] == "StartDate" else { return items }
            return items.sorted { (Self.instant($0["startDate"])! < Self.instant($1["startDate"])!) != descending }
        }
        let lenient = try await Self.semantics("videgreniers", endpoint, items: items, apply: documentedOnly)
        #expect(lenient.count == 1)
        #expect(lenient.first?.hasPrefix("warning semantics.order-ignored GET /api/events: sortBy=EntryFeeAmount") == true)
        #expect(lenient.first?.hasSuffix("(assumed: query-value-formats)") == true)
        let strict = try await Self.semantics("videgreniers", endpoint, strict: true, items: items, apply: documentedOnly)
        #expect(strict.first?.hasPrefix("error semantics.order-ignored GET /api/events: sortBy=EntryFeeAmount") == true)
    }

    @Test func videGreniersDaysAheadMustBoundTheEvents() async throws {
        let endpoint = "GET /api/favorites/upcoming"
        let items: @Sendable (JSONValue) -> [JSONValue] = { body in
            Self.items(body, [0.5, 5].map { day in { $0 = $0.setting("event", $0["event"]!.setting("startDate", Self.iso(day * 86_400))) } })
        }
        let bounded = try await Self.semantics("videgreniers", endpoint, items: items) { query, items in
            let days = query["daysAhead"].flatMap(Double.init) ?? 7
            return items.filter { Self.instant(Self.at("/event/startDate", $0))! <= Self.now.addingTimeInterval(days * 86_400) }
        }
        #expect(bounded == [])
        let ignored = try await Self.semantics("videgreniers", endpoint, items: items) { _, items in items }
        #expect(ignored == ["error semantics.window-ignored GET /api/favorites/upcoming: daysAhead=1 returned item 1, which does not match it"])
    }

    /// `unreadOnly=true` keeps the unread notifications; `false` keeps them all (`QueryMeaning.whenTrue`).
    @Test func achievementsUnreadOnlyMustFilter() async throws {
        let endpoint = "GET /achievements/notifications"
        let items: @Sendable (JSONValue) -> [JSONValue] = { body in
            Self.items(body, [{ $0 = $0.setting("isRead", true) }, { $0 = $0.setting("isRead", false) }])
        }
        let unread = try await Self.semantics("achievements", endpoint, items: items) { query, items in
            query["unreadOnly"] == "true" ? items.filter { $0["isRead"] == false } : items
        }
        #expect(unread == [])
        let ignored = try await Self.semantics("achievements", endpoint, items: items) { _, items in items }
        #expect(
            ignored == [
                "error semantics.filter-ignored GET /achievements/notifications: unreadOnly=true returned item 0, which does not match it"
            ])
    }

    /// `search[login]` keeps the users whose login contains the text, ignoring case (`QueryMeaning.contains`): asked
    /// with a part of a login in capitals, a server that ignores the text, or compares it case-sensitively (and so
    /// finds no one), is caught.
    @Test func intra42SearchMustKeepTheLoginsContainingTheText() async throws {
        let endpoint = "GET /v2/users"
        let items: @Sendable (JSONValue) -> [JSONValue] = { body in
            Self.items(body, ["cmartin", "hdubois", "amoreau"].map { login in { $0 = $0.setting("login", .string(login)) } })
        }
        let searched = try await Self.semantics("intra42", endpoint, items: items) { query, items in
            let text = (query["search[login]"] ?? "").lowercased()
            return items.filter { text.isEmpty || $0["login"]?.stringValue?.lowercased().contains(text) == true }
        }
        #expect(searched == [])
        let caseSensitive = try await Self.semantics("intra42", endpoint, items: items) { query, items in
            let text = query["search[login]"] ?? ""
            return text.isEmpty ? items : items.filter { $0["login"]?.stringValue?.contains(text) == true }
        }
        #expect(
            caseSensitive == [
                "error semantics.filter-ignored GET /v2/users: search[login]=ART returned no item, where the list holds "
                    + "one with login \"cmartin\""
            ])
        let ignored = try await Self.semantics("intra42", endpoint, items: items) { _, items in items }
        #expect(
            ignored == [
                "error semantics.filter-ignored GET /v2/users: search[login]=ART returned item 1, which does not match it"
            ])
    }

    /// `startDate` keeps the activities logged at that instant or later, `endDate` those logged then or earlier.
    @Test func videGreniersActivityBoundsMustBound() async throws {
        let endpoint = "GET /api/user-activities"
        let items: @Sendable (JSONValue) -> [JSONValue] = { body in
            Self.items(body, [3, 2, 1].map { days in { $0 = $0.setting("createdOnUtc", Self.iso(-Double(days) * 86_400)) } })
        }
        let bounded = try await Self.semantics("videgreniers", endpoint, items: items) { query, items in
            let from = query["startDate"].flatMap { Self.instant(.string($0)) } ?? .distantPast
            let until = query["endDate"].flatMap { Self.instant(.string($0)) } ?? .distantFuture
            return items.filter { (from...until).contains(Self.instant($0["createdOnUtc"])!) }
        }
        #expect(bounded == [])
        // One root cause, one finding: both bounds ignored are the same rule on the same list.
        let ignored = try await Self.semantics("videgreniers", endpoint, items: items) { _, items in items }
        #expect(ignored.count == 1)
        #expect(ignored.first?.hasPrefix("error semantics.filter-ignored GET /api/user-activities: startDate=") == true)
        let onlyStart = try await Self.semantics("videgreniers", endpoint, items: items) { query, items in
            let from = query["startDate"].flatMap { Self.instant(.string($0)) } ?? .distantPast
            return items.filter { Self.instant($0["createdOnUtc"])! >= from }
        }
        #expect(onlyStart.count == 1)
        #expect(onlyStart.first?.hasPrefix("error semantics.filter-ignored GET /api/user-activities: endDate=") == true)
    }

    @Test func intra42FiltersAndRangesMustHold() async throws {
        // Sessions, one open and one closed; events, one to come and one past; slots ten days apart.
        let locations: @Sendable (JSONValue) -> [JSONValue] = { body in
            Self.items(body, [{ $0 = $0.setting("end_at", .null) }, { $0 = $0.setting("end_at", Self.iso(-3_600)) }])
        }
        let active: @Sendable ([String: String], [JSONValue]) -> [JSONValue] = { query, items in
            guard let flag = query["filter[active]"] else { return items }
            return items.filter { ($0["end_at"] == .null) == (flag == "true") }
        }
        #expect(try await Self.semantics("intra42", "GET /v2/campus/{id}/locations", items: locations, apply: active) == [])
        #expect(
            try await Self.semantics("intra42", "GET /v2/campus/{id}/locations", items: locations) { _, items in items } == [
                "error semantics.filter-ignored GET /v2/campus/{id}/locations: filter[active]=true returned item 1, which does not match it"
            ])

        let events: @Sendable (JSONValue) -> [JSONValue] = { body in
            Self.items(body, [{ $0 = $0.setting("begin_at", Self.iso(86_400)) }, { $0 = $0.setting("begin_at", Self.iso(-86_400)) }])
        }
        let future: @Sendable ([String: String], [JSONValue]) -> [JSONValue] = { query, items in
            guard let flag = query["filter[future]"] else { return items }
            return items.filter { (Self.instant($0["begin_at"])! > Date()) == (flag == "true") }
        }
        #expect(try await Self.semantics("intra42", "GET /v2/campus/{id}/events", items: events, apply: future) == [])
        #expect(
            try await Self.semantics("intra42", "GET /v2/campus/{id}/events", items: events) { _, items in items } == [
                "error semantics.filter-ignored GET /v2/campus/{id}/events: filter[future]=true returned item 1, which does not match it"
            ])

        let slots: @Sendable (JSONValue) -> [JSONValue] = { body in
            Self.items(body, [{ $0 = $0.setting("begin_at", Self.iso(86_400)) }, { $0 = $0.setting("begin_at", Self.iso(11 * 86_400)) }])
        }
        let range: @Sendable ([String: String], [JSONValue]) -> [JSONValue] = { query, items in
            guard let bounds = query["range[begin_at]"]?.split(separator: ",").compactMap({ Self.instant(.string(String($0))) }),
                bounds.count == 2
            else { return items }
            return items.filter { (bounds[0]...bounds[1]).contains(Self.instant($0["begin_at"])!) }
        }
        #expect(try await Self.semantics("intra42", "GET /v2/me/slots", items: slots, apply: range) == [])
        let ignored = try await Self.semantics("intra42", "GET /v2/me/slots", items: slots) { _, items in items }
        #expect(ignored.count == 1)
        #expect(ignored.first?.hasPrefix("error semantics.filter-ignored GET /v2/me/slots: range[begin_at]=") == true)
        #expect(ignored.first?.hasSuffix(" returned item 1, which does not match it") == true)
    }
}

extension JSONValue {
    /// This object with `key` set to `value`.
    fileprivate func setting(_ key: String, _ value: JSONValue) -> JSONValue {
        guard case .object(var members) = self else { return self }
        members[key] = value
        return .object(members)
    }
}
