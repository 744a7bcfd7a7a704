/// One difference between two versions of a spec, classified by what it does to an app built against
/// the old version.
public struct SpecChange: Sendable, Hashable, Comparable {
    /// What the change does to a Swift client that decodes with the old models.
    public enum Impact: String, Sendable, Hashable, Comparable, CaseIterable {
        /// The change can make a request fail or a response undecodable.
        case breaking
        /// The app keeps working but may lose data or behave differently.
        case warning
        /// Nothing the app relies on changes.
        case compatible

        public static func < (lhs: Impact, rhs: Impact) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    public var impact: Impact
    public var rule: RuleID
    public var api: String
    /// `METHOD /path`, when the change is inside an endpoint.
    public var endpoint: String?
    /// Where inside the endpoint: `response /data/*/title`, `request /title`, `query parameter page`, `status`.
    public var location: String?
    public var message: String

    public init(_ impact: Impact, _ rule: RuleID, api: String, endpoint: String? = nil, location: String? = nil, message: String) {
        self.impact = impact
        self.rule = rule
        self.api = api
        self.endpoint = endpoint
        self.location = location
        self.message = message
    }

    /// `breaking diff.response.property-removed fitness GET /activities response /*/title: message`.
    public var line: String {
        var parts = [impact.rawValue, rule.rawValue, api]
        if let endpoint { parts.append(endpoint) }
        if let location { parts.append(location) }
        return parts.joined(separator: " ") + ": " + message
    }

    public static func < (lhs: SpecChange, rhs: SpecChange) -> Bool {
        (lhs.impact, lhs.api, lhs.endpoint ?? "", lhs.location ?? "", lhs.rule.rawValue, lhs.message)
            < (rhs.impact, rhs.api, rhs.endpoint ?? "", rhs.location ?? "", rhs.rule.rawValue, rhs.message)
    }
}

extension RuleID {
    public static let apiRemoved: RuleID = "diff.api-removed"
    public static let apiAdded: RuleID = "diff.api-added"
    public static let endpointRemoved: RuleID = "diff.endpoint-removed"
    public static let endpointAdded: RuleID = "diff.endpoint-added"
    public static let successStatusChanged: RuleID = "diff.success-status-changed"
    public static let errorStatusAdded: RuleID = "diff.error-status-added"
    public static let errorStatusRemoved: RuleID = "diff.error-status-removed"
    public static let authChanged: RuleID = "diff.auth-changed"
    public static let parameterAdded: RuleID = "diff.parameter-added"
    public static let parameterRemoved: RuleID = "diff.parameter-removed"
    public static let parameterRequired: RuleID = "diff.parameter-required"
    public static let parameterOptional: RuleID = "diff.parameter-optional"
    public static let parameterChanged: RuleID = "diff.parameter-changed"
    public static let requestBodyChanged: RuleID = "diff.request-body-changed"
    public static let responseBodyChanged: RuleID = "diff.response-body-changed"
    public static let propertyRemoved: RuleID = "diff.property-removed"
    public static let propertyRenamed: RuleID = "diff.property-renamed"
    public static let pathParameterRenamed: RuleID = "diff.path-parameter-renamed"
    public static let propertyAdded: RuleID = "diff.property-added"
    public static let propertyRequired: RuleID = "diff.property-required"
    public static let propertyOptional: RuleID = "diff.property-optional"
    public static let typeChanged: RuleID = "diff.type-changed"
    public static let nullableAdded: RuleID = "diff.nullable-added"
    public static let nullableRemoved: RuleID = "diff.nullable-removed"
    public static let enumValueAdded: RuleID = "diff.enum-value-added"
    public static let enumValueRemoved: RuleID = "diff.enum-value-removed"
    public static let formatChanged: RuleID = "diff.format-changed"
    public static let constraintChanged: RuleID = "diff.constraint-changed"
    public static let alternativeAdded: RuleID = "diff.alternative-added"
    public static let alternativeRemoved: RuleID = "diff.alternative-removed"
    public static let webhookAdded: RuleID = "diff.webhook-added"
    public static let webhookRemoved: RuleID = "diff.webhook-removed"
    public static let callbackAdded: RuleID = "diff.callback-added"
    public static let callbackRemoved: RuleID = "diff.callback-removed"
    public static let parameterDefaultChanged: RuleID = "diff.parameter-default-changed"
    public static let headerRemoved: RuleID = "diff.header-removed"
    public static let headerAdded: RuleID = "diff.header-added"
    public static let headerOptional: RuleID = "diff.header-optional"
    public static let headerRequired: RuleID = "diff.header-required"
}

/// Compares two versions of an API (``SpecVersion``: a canonical spec, ``APISpec/canonicalJSON``, or an imported
/// document) and classifies every change by what it does to a client built against the old version. Schemas are
/// compared as the schema engine compiles them, every keyword (``SchemaFacts``).
///
/// Responses are judged as the old app decodes the new server's answers (a removed required property,
/// a new enum case, a property that became nullable or optional are breaking); requests as the new
/// server receives the old app's bodies (a new required property, a removed enum value are breaking).
///
/// ```swift
/// let changes = SpecDiff.compare(old: baseline, new: spec.canonicalJSON)
/// changes.filter { $0.impact == .breaking }.map(\.line)
/// ```
public enum SpecDiff {
    /// The changes between two sets of canonical specs keyed by API id.
    public static func compare(old: [String: JSONValue], new: [String: JSONValue]) -> [SpecChange] {
        compare(old: old.mapValues(SpecVersion.init(canonical:)), new: new.mapValues(SpecVersion.init(canonical:)))
    }

    /// The changes between two sets of specs keyed by API id.
    public static func compare(old: [String: SpecVersion], new: [String: SpecVersion]) -> [SpecChange] {
        var changes: [SpecChange] = []
        for api in Set(old.keys).union(new.keys).sorted() {
            switch (old[api], new[api]) {
            case (let before?, let after?): changes += compare(old: before, new: after)
            case (_?, nil): changes.append(SpecChange(.breaking, .apiRemoved, api: api, message: "the API is no longer described"))
            case (nil, _?): changes.append(SpecChange(.compatible, .apiAdded, api: api, message: "a new API is described"))
            case (nil, nil): break
            }
        }
        return changes.sorted()
    }

    /// The changes between two canonical documents of one API.
    public static func compare(old: JSONValue, new: JSONValue) -> [SpecChange] {
        compare(old: SpecVersion(canonical: old), new: SpecVersion(canonical: new))
    }

    /// The changes between two versions of one API.
    public static func compare(old: SpecVersion, new: SpecVersion) -> [SpecChange] {
        let api = new.canonical["api"]?.stringValue ?? old.canonical["api"]?.stringValue ?? "?"
        var oldEndpoints = endpoints(old.canonical)
        let newEndpoints = endpoints(new.canonical)
        let schemas = (old: DiffSchemas(old), new: DiffSchemas(new))
        let memo = SchemaMemo()
        var changes: [SpecChange] = []
        // A path parameter renamed (`/books/{bookId}` → `/books/{id}`) is the same URL: the endpoints are matched by
        // method and template, parameters by position, and the old one is compared under its new names.
        let gone = oldEndpoints.keys.filter { newEndpoints[$0] == nil }.sorted()
        var fresh = newEndpoints.keys.filter { oldEndpoints[$0] == nil }
        for id in gone {
            let matches = fresh.filter { shape(of: $0) == shape(of: id) }
            guard matches.count == 1, let renamed = matches.first, var endpoint = oldEndpoints.removeValue(forKey: id)
            else { continue }
            fresh.removeAll { $0 == renamed }
            let names = zip(pathParameters(of: id), pathParameters(of: renamed)).filter { $0.0 != $0.1 }
            changes.append(
                SpecChange(
                    .warning, .pathParameterRenamed, api: api, endpoint: renamed, location: "path",
                    message: "was \(id): "
                        + names.map { "{\($0.0)} is now {\($0.1)}" }.joined(separator: ", ")
                        + "; the URL is the same, a client that names the parameter (a generated one) changes"))
            endpoint.json = renaming(endpoint.json, Dictionary(uniqueKeysWithValues: names))
            oldEndpoints[renamed] = endpoint
        }
        let webhooks = (old: Self.webhooks(old.canonical), new: Self.webhooks(new.canonical))
        for name in Set(webhooks.old.keys).union(webhooks.new.keys).sorted() {
            switch (webhooks.old[name], webhooks.new[name]) {
            case (_?, nil):
                changes.append(SpecChange(.breaking, .webhookRemoved, api: api, location: "webhook \(name)", message: "the webhook is no longer called; a subscriber's handler waits for it in vain"))
            case (nil, _?):
                changes.append(SpecChange(.compatible, .webhookAdded, api: api, location: "webhook \(name)", message: "a new webhook"))
            case (let before?, let after?):
                // A baseline of the older format names its webhooks only: their operations are not compared.
                guard !before.isEmpty, !after.isEmpty else { continue }
                changes += compareCalls(
                    before, after, in: (schemas.old.webhook, schemas.new.webhook), api: api, endpoint: nil,
                    memo: memo, kind: "webhook")
            case (nil, nil): break
            }
        }
        for id in Set(oldEndpoints.keys).union(newEndpoints.keys).sorted() {
            switch (oldEndpoints[id], newEndpoints[id]) {
            case (_?, nil):
                changes.append(SpecChange(.breaking, .endpointRemoved, api: api, endpoint: id, message: "the endpoint was removed"))
            case (nil, _?):
                changes.append(SpecChange(.compatible, .endpointAdded, api: api, endpoint: id, message: "a new endpoint"))
            case (let before?, let after?):
                var walk = EndpointWalk(
                    api: api, endpoint: id, old: schemas.old.endpoint(before), new: schemas.new.endpoint(after),
                    memo: memo)
                walk.compare(before.json, after.json)
                changes += walk.changes
            case (nil, nil): break
            }
        }
        return changes.sorted()
    }

    /// `GET /books/{}`: an endpoint id with its path parameters unnamed.
    private static func shape(of id: String) -> String {
        var shape = ""
        var inParameter = false
        for character in id {
            if character == "{" { inParameter = true; shape.append("{") }
            if character == "}" { inParameter = false }
            if !inParameter { shape.append(character) }
        }
        return shape
    }

    private static func pathParameters(of id: String) -> [String] {
        id.split(separator: "{").dropFirst().compactMap { $0.split(separator: "}").first.map(String.init) }
    }

    /// The endpoint with its path parameters named as `names` says.
    private static func renaming(_ endpoint: JSONValue, _ names: [String: String]) -> JSONValue {
        guard case .object(var members) = endpoint, let parameters = members["parameters"]?.arrayValue else {
            return endpoint
        }
        members["parameters"] = .array(
            parameters.map { parameter in
                guard case .object(var fields) = parameter, fields["in"] == "path",
                    let name = fields["name"]?.stringValue, let renamed = names[name]
                else { return parameter }
                fields["name"] = .string(renamed)
                return .object(fields)
            })
        return .object(members)
    }

    private static func endpoints(_ document: JSONValue) -> [String: DiffSchemas.Endpoint] {
        var result: [String: DiffSchemas.Endpoint] = [:]
        for (index, endpoint) in (document["endpoints"]?.arrayValue ?? []).enumerated() {
            if let id = endpoint["id"]?.stringValue {
                result[id] = DiffSchemas.Endpoint(
                    id: id, pointer: JSONPointer(tokens: ["endpoints", String(index)]), json: endpoint)
            }
        }
        return result
    }

    /// The webhooks of a canonical document by name, each with its operations by ``OutgoingCall/id``; a baseline
    /// of the older format, which lists their names only, gives none.
    private static func webhooks(_ document: JSONValue) -> [String: [String: DiffSchemas.Endpoint]] {
        let entries = document["webhooks"]?.arrayValue ?? []
        var result: [String: [String: DiffSchemas.Endpoint]] = [:]
        for name in entries.compactMap(\.stringValue) { result[name] = [:] }
        for (id, call) in calls(entries, in: JSONPointer(tokens: ["webhooks"])) {
            result[call.json["name"]?.stringValue ?? "", default: [:]][id] = call
        }
        return result
    }

    /// The calls of a canonical `webhooks` or `callbacks` list (at `list`) by ``OutgoingCall/id``.
    static func calls(_ entries: [JSONValue], in list: JSONPointer) -> [String: DiffSchemas.Endpoint] {
        var result: [String: DiffSchemas.Endpoint] = [:]
        for (index, entry) in entries.enumerated() {
            guard let name = entry["name"]?.stringValue, let id = entry["id"]?.stringValue else { continue }
            result["\(name) \(id)"] = DiffSchemas.Endpoint(
                id: "\(name) \(id)", pointer: list.appending(String(index)), json: entry)
        }
        return result
    }

    /// The calls the API makes (a webhook's operations, an operation's callbacks) compared: one that goes leaves its
    /// subscriber's handler waiting, one added is new; each kept is compared with the roles turned round, the
    /// request as an answer the subscriber reads and the answer as a request it writes. Every change is located
    /// under `webhook newPet POST` or `callback onEvent POST {$request.body#/url}`.
    static func compareCalls(
        _ old: [String: DiffSchemas.Endpoint], _ new: [String: DiffSchemas.Endpoint],
        in schemas: (old: (DiffSchemas.Endpoint) -> DiffSchemas.EndpointSchemas,
            new: (DiffSchemas.Endpoint) -> DiffSchemas.EndpointSchemas),
        api: String, endpoint: String?, memo: SchemaMemo, kind: String
    ) -> [SpecChange] {
        var changes: [SpecChange] = []
        for id in Set(old.keys).union(new.keys).sorted() {
            let entry = old[id]?.json ?? new[id]?.json ?? [:]
            let (name, path) = (entry["name"]?.stringValue ?? "", entry["path"]?.stringValue ?? "")
            let call = "\(kind) \(name) \(entry["method"]?.stringValue ?? "")"
            let place = path == name ? call : "\(call) \(path)"
            switch (old[id], new[id]) {
            case (_?, nil):
                changes.append(SpecChange(.breaking, kind == "webhook" ? .webhookRemoved : .callbackRemoved, api: api, endpoint: endpoint, location: place, message: "the API no longer makes the call; a subscriber's handler waits for it in vain"))
            case (nil, _?):
                changes.append(SpecChange(.compatible, kind == "webhook" ? .webhookAdded : .callbackAdded, api: api, endpoint: endpoint, location: place, message: "a new call the API makes"))
            case (let before?, let after?):
                var walk = EndpointWalk(
                    api: api, endpoint: endpoint, old: schemas.old(before), new: schemas.new(after), memo: memo,
                    reversed: true)
                walk.compare(before.json, after.json)
                changes += walk.changes.map { change in
                    var change = change
                    change.location = change.location.map { "\(place) \($0)" } ?? place
                    return change
                }
            case (nil, nil): break
            }
        }
        return changes
    }
}

struct EndpointWalk {
    typealias Side = MessageDirection

    let api: String
    /// The endpoint compared, or the one whose callback is; `nil` for a webhook.
    let endpoint: String?
    /// Where each side's schemas of the endpoint are compiled.
    let old: DiffSchemas.EndpointSchemas
    let new: DiffSchemas.EndpointSchemas
    var changes: [SpecChange] = []
    /// The definition pairs compared so far, shared by the API's endpoints.
    let memo: SchemaMemo
    /// Whether the operation is a call the API makes (``OutgoingCall``): the app's side reads its request and
    /// writes its answer.
    let reversed: Bool

    init(
        api: String, endpoint: String?, old: DiffSchemas.EndpointSchemas, new: DiffSchemas.EndpointSchemas,
        memo: SchemaMemo, reversed: Bool = false
    ) {
        self.api = api
        self.endpoint = endpoint
        self.old = old
        self.new = new
        self.memo = memo
        self.reversed = reversed
    }

    mutating func add(_ impact: SpecChange.Impact, _ rule: RuleID, _ location: String?, _ message: String) {
        changes.append(SpecChange(impact, rule, api: api, endpoint: endpoint, location: location, message: message))
    }

    mutating func compare(_ old: JSONValue, _ new: JSONValue) {
        if old["success"] != new["success"] {
            add(.breaking, .successStatusChanged, "status", "the success status changed from \(old["success"] ?? .null) to \(new["success"] ?? .null)")
        }
        if old["auth"] != new["auth"], !reversed {
            let from = old["auth"]?.stringValue ?? "?"
            let to = new["auth"]?.stringValue ?? "?"
            // A credential no longer needed is compatible: the app's requests still carry theirs. One needed now (or
            // another role) refuses a caller without it.
            if Self.authStrictness(to) < Self.authStrictness(from) {
                add(.compatible, .authChanged, "auth", "the auth requirement changed from \(from) to \(to): fewer credentials are needed")
            } else {
                add(.breaking, .authChanged, "auth", "the auth requirement changed from \(from) to \(to)")
            }
        }
        let oldErrors = Set((old["errors"]?.arrayValue ?? []).compactMap(\.numberValue?.intValue))
        let newErrors = Set((new["errors"]?.arrayValue ?? []).compactMap(\.numberValue?.intValue))
        for status in newErrors.subtracting(oldErrors).sorted() {
            add(.warning, .errorStatusAdded, "status", "a new documented error status \(status)")
        }
        for status in oldErrors.subtracting(newErrors).sorted() {
            add(.warning, .errorStatusRemoved, "status", "error status \(status) is no longer documented")
        }
        compareParameters(old["parameters"]?.arrayValue ?? [], new["parameters"]?.arrayValue ?? [])
        if reversed {
            // The subscriber reads what the API sends and answers what the API reads.
            compareBody(old["request"], new["request"], body: nil, part: .request, side: .response)
            compareBody(old["response"], new["response"], body: nil, part: .response, side: .request)
            return
        }
        compareRules(old[RequestRule.extensionName]?.arrayValue ?? [], new[RequestRule.extensionName]?.arrayValue ?? [])
        compareBody(old["request"], new["request"], body: (old["body"]?.stringValue, new["body"]?.stringValue), part: .request, side: .request)
        compareBody(old["response"], new["response"], body: nil, part: .response, side: .response)
        compareHeaders()
        changes += SpecDiff.compareCalls(
            SpecDiff.calls(old["callbacks"]?.arrayValue ?? [], in: self.old.pointer.appending("callbacks")),
            SpecDiff.calls(new["callbacks"]?.arrayValue ?? [], in: self.new.pointer.appending("callbacks")),
            in: (self.old.callback, self.new.callback), api: api, endpoint: endpoint, memo: memo, kind: "callback")
    }

    /// Puts the changes found since `mark` (located `request /…` or `response /…`, as a body's are) under `place`: a
    /// parameter's or a header's value.
    mutating func relocate(since mark: Int, dropping prefix: String, under place: String) {
        for index in changes.indices.dropFirst(mark) {
            let inner = changes[index].location.map { String($0.dropFirst(prefix.count)) } ?? "/"
            changes[index].location = inner == "/" ? place : "\(place) \(inner)"
        }
    }

    /// The headers a document declares on each response (only documents declare them): one the app may read that
    /// goes, or may now be absent, breaks it; one added, or now always sent, does not. Their schemas are judged as
    /// an answer's.
    mutating func compareHeaders() {
        guard let before = old.responseHeaders, let after = new.responseHeaders else { return }
        for status in Set(before.keys).intersection(after.keys).sorted() {
            let oldHeaders = Dictionary(
                (before[status] ?? []).map { ($0.header.name.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
            let newHeaders = Dictionary(
                (after[status] ?? []).map { ($0.header.name.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
            for name in Set(oldHeaders.keys).union(newHeaders.keys).sorted() {
                let place = "\(status) header \(oldHeaders[name]?.header.name ?? newHeaders[name]?.header.name ?? name)"
                switch (oldHeaders[name], newHeaders[name]) {
                case (let removed?, nil):
                    add(
                        removed.header.required ? .breaking : .warning, .headerRemoved, place,
                        "the response header is no longer sent")
                case (nil, _?):
                    add(.compatible, .headerAdded, place, "a new response header")
                case (let was?, let now?):
                    if was.header.required && !now.header.required {
                        add(.breaking, .headerOptional, place, "the response header may now be absent")
                    }
                    if !was.header.required && now.header.required {
                        add(.compatible, .headerRequired, place, "the response header is now always sent")
                    }
                    let mark = changes.count
                    compareSchema(was.schema, now.schema, side: .response, path: "")
                    relocate(since: mark, dropping: "response ", under: place)
                case (nil, nil): break
                }
            }
        }
    }

    /// `none` < `optional` < `required` < `role:…` (``Auth/description``).
    private static func authStrictness(_ auth: String) -> Int {
        switch auth {
        case "none": 0
        case "optional": 1
        case "required": 2
        default: 3
        }
    }

    mutating func compareParameters(_ old: [JSONValue], _ new: [JSONValue]) {
        func key(_ parameter: JSONValue) -> String {
            "\(parameter["in"]?.stringValue ?? "?") parameter \(parameter["name"]?.stringValue ?? "?")"
        }
        // Each parameter with its position, where its schema is.
        let before = Dictionary(old.enumerated().map { (key($1), ($0, $1)) }, uniquingKeysWith: { first, _ in first })
        let after = Dictionary(new.enumerated().map { (key($1), ($0, $1)) }, uniquingKeysWith: { first, _ in first })
        for name in Set(before.keys).union(after.keys).sorted() {
            switch (before[name], after[name]) {
            case (let (_, removed)?, nil) where reversed:
                add(removed["required"] == .bool(true) ? .breaking : .warning, .parameterRemoved, name, "the API no longer sends the parameter")
            case (nil, _?) where reversed:
                add(.compatible, .parameterAdded, name, "the API sends a new parameter")
            case (let (_, removed)?, nil):
                if removed["deprecated"] == .bool(true) {
                    add(.warning, .parameterRemoved, name, "the deprecated parameter was removed")
                } else {
                    add(.breaking, .parameterRemoved, name, "the parameter was removed")
                }
            case (nil, let (_, added)?):
                if added["required"] == .bool(true) {
                    add(.breaking, .parameterAdded, name, "a new required parameter")
                } else {
                    add(.compatible, .parameterAdded, name, "a new optional parameter")
                }
            case (let (oldPosition, oldParameter)?, let (newPosition, newParameter)?):
                let wasRequired = oldParameter["required"] == .bool(true)
                let isRequired = newParameter["required"] == .bool(true)
                // A parameter the API sends is read by the subscriber: one that may now be absent breaks its reading.
                if !wasRequired && isRequired {
                    add(reversed ? .compatible : .breaking, .parameterRequired, name, reversed ? "the API now always sends the parameter" : "the parameter became required")
                }
                if wasRequired && !isRequired {
                    add(reversed ? .breaking : .compatible, .parameterOptional, name, reversed ? "the parameter may now be absent" : "the parameter became optional")
                }
                switch reversed ? (nil, nil) : (oldParameter["default"], newParameter["default"]) {
                case (let from?, let to?) where from != to:
                    add(.breaking, .parameterDefaultChanged, name, "the default changed from \(from) to \(to): a request that leaves the parameter out now asks for something else")
                case (let from?, nil):
                    add(.warning, .parameterDefaultChanged, name, "the default \(from) is no longer documented")
                case (nil, let to?):
                    add(.compatible, .parameterDefaultChanged, name, "the parameter defaults to \(to)")
                default: break
                }
                // A parameter is a value the app sends: its schema's changes are judged as a request's are (an enum
                // value added or a bound widened is compatible, a type changed or a bound narrowed breaks). Two
                // documents' parameters are compared by their own schemas, every keyword.
                let (before, after) = DiffSchemas.EndpointSchemas.parameters(
                    self.old, self.new, at: (oldPosition, newPosition))
                guard oldParameter["schema"] != newParameter["schema"] || before?.json != after?.json else { continue }
                let mark = changes.count
                let side: MessageDirection = reversed ? .response : .request
                compareSchema(before, after, side: side, path: "")
                relocate(since: mark, dropping: side == .request ? "request " : "response ", under: name)
                if changes.count == mark, oldParameter["schema"] != newParameter["schema"] {
                    add(.warning, .parameterChanged, name, "the parameter's schema changed from \(describe(oldParameter["schema"])) to \(describe(newParameter["schema"]))")
                }
            case (nil, nil): break
            }
        }
    }

    /// A new rule between a request's values refuses requests that were valid: breaking; a rule dropped lets
    /// more in.
    mutating func compareRules(_ old: [JSONValue], _ new: [JSONValue]) {
        for rule in new where !old.contains(rule) {
            add(.breaking, .constraintChanged, "request", "a new rule between the request's values: \(rule.serialized())")
        }
        for rule in old where !new.contains(rule) {
            add(.compatible, .constraintChanged, "request", "the rule \(rule.serialized()) was dropped")
        }
    }

    /// Compares a request or an answer (`part`), judged as `side`: the side whose reader is the app's old client
    /// (an endpoint's answer, a callback's request) or whose writer is (an endpoint's request, a callback's answer).
    mutating func compareBody(
        _ old: JSONValue?, _ new: JSONValue?, body: (String?, String?)?, part: MessageDirection, side: Side
    ) {
        let label = part == .request ? "request" : "response"
        let rule: RuleID = part == .request ? .requestBodyChanged : .responseBodyChanged
        // A client sends one of the media types it was given: one no longer accepted gets it a 415, whatever else
        // is; a body in another media type is no body added or removed.
        var typed = false
        if part == .request, side == .request, let before = self.old.requestMediaTypes,
            let after = self.new.requestMediaTypes, !before.isEmpty, !after.isEmpty
        {
            typed = true
            for type in before where !after.contains(type) {
                add(.breaking, rule, label, "media type \(type) is no longer accepted; a client that sends it gets 415")
            }
            for type in after where !before.contains(type) {
                add(.compatible, rule, label, "media type \(type) is accepted too")
            }
        }
        switch (old?["schema"], new?["schema"]) {
        case (nil, nil): break
        case (nil, _?) where typed, (_?, nil) where typed: break
        case (nil, _?):
            if side == .request, body?.1 == "required" {
                add(.breaking, rule, label, "a request body is now required (\(new?["model"]?.stringValue ?? "?"))")
            } else {
                add(side == .request ? .compatible : .breaking, rule, label, "a \(label) body was added")
            }
        case (_?, nil):
            // The app still sends its body: what it says is no longer read (oasdiff: request-body-removed, ERR).
            add(.breaking, rule, label, side == .request ? "the \(label) body was removed: what the app sends is no longer read" : "the \(label) body was removed")
        case (_?, _?):
            if side == .request, body?.0 == "optional", body?.1 == "required" {
                add(.breaking, rule, label, "the request body became required")
            }
            let (before, after) = DiffSchemas.EndpointSchemas.bodies(self.old, self.new, part)
            let mark = changes.count
            compareSchema(before, after, side: side, path: "")
            // Located in the part they are in: `request /data` of a callback, judged as an answer.
            for index in changes.indices.dropFirst(mark) where part != side {
                changes[index].location = changes[index].location.map { label + $0.drop { $0 != " " } }
            }
        }
    }

    /// The schema as JSON; a long enumeration (a time zone parameter's 419 names) shows its count instead.
    private func describe(_ schema: JSONValue?) -> String {
        guard var schema else { return "nothing" }
        if case .object(var members) = schema, let values = members["enum"]?.arrayValue, values.count > 12 {
            members["enum"] = .string("\(values.count) values")
            schema = .object(members)
        }
        return schema.serialized()
    }
}
