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
}

/// Compares two versions of canonical spec documents (``APISpec/canonicalJSON``) and classifies every
/// change by what it does to a Swift client decoding with the old models.
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
    /// The changes between two sets of specs keyed by API id.
    public static func compare(old: [String: JSONValue], new: [String: JSONValue]) -> [SpecChange] {
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
        let api = new["api"]?.stringValue ?? old["api"]?.stringValue ?? "?"
        var oldEndpoints = endpoints(old)
        let newEndpoints = endpoints(new)
        var changes: [SpecChange] = []
        // A path parameter renamed (`/books/{bookId}` → `/books/{id}`) is the same URL: the endpoints are matched by
        // method and template, parameters by position, and the old one is compared under its new names.
        let gone = oldEndpoints.keys.filter { newEndpoints[$0] == nil }.sorted()
        var fresh = newEndpoints.keys.filter { oldEndpoints[$0] == nil }
        for id in gone {
            let matches = fresh.filter { shape(of: $0) == shape(of: id) }
            guard matches.count == 1, let renamed = matches.first, let endpoint = oldEndpoints.removeValue(forKey: id)
            else { continue }
            fresh.removeAll { $0 == renamed }
            let names = zip(pathParameters(of: id), pathParameters(of: renamed)).filter { $0.0 != $0.1 }
            changes.append(
                SpecChange(
                    .warning, .pathParameterRenamed, api: api, endpoint: renamed, location: "path",
                    message: "was \(id): "
                        + names.map { "{\($0.0)} is now {\($0.1)}" }.joined(separator: ", ")
                        + "; the URL is the same, a client that names the parameter (a generated one) changes"))
            oldEndpoints[renamed] = renaming(endpoint, Dictionary(uniqueKeysWithValues: names))
        }
        for id in Set(oldEndpoints.keys).union(newEndpoints.keys).sorted() {
            switch (oldEndpoints[id], newEndpoints[id]) {
            case (_?, nil):
                changes.append(SpecChange(.breaking, .endpointRemoved, api: api, endpoint: id, message: "the endpoint was removed"))
            case (nil, _?):
                changes.append(SpecChange(.compatible, .endpointAdded, api: api, endpoint: id, message: "a new endpoint"))
            case (let before?, let after?):
                var walk = EndpointWalk(
                    api: api, endpoint: id, oldDefinitions: old["definitions"]?.objectValue ?? [:],
                    newDefinitions: new["definitions"]?.objectValue ?? [:])
                walk.compare(before, after)
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

    private static func endpoints(_ document: JSONValue) -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        for endpoint in document["endpoints"]?.arrayValue ?? [] {
            if let id = endpoint["id"]?.stringValue { result[id] = endpoint }
        }
        return result
    }
}

private struct EndpointWalk {
    enum Side { case request, response }

    let api: String
    let endpoint: String
    let oldDefinitions: [String: JSONValue]
    let newDefinitions: [String: JSONValue]
    var changes: [SpecChange] = []
    private var visited: Set<String> = []

    init(api: String, endpoint: String, oldDefinitions: [String: JSONValue], newDefinitions: [String: JSONValue]) {
        self.api = api
        self.endpoint = endpoint
        self.oldDefinitions = oldDefinitions
        self.newDefinitions = newDefinitions
    }

    mutating func add(_ impact: SpecChange.Impact, _ rule: RuleID, _ location: String?, _ message: String) {
        changes.append(SpecChange(impact, rule, api: api, endpoint: endpoint, location: location, message: message))
    }

    mutating func compare(_ old: JSONValue, _ new: JSONValue) {
        if old["success"] != new["success"] {
            add(.breaking, .successStatusChanged, "status", "the success status changed from \(old["success"] ?? .null) to \(new["success"] ?? .null)")
        }
        if old["auth"] != new["auth"] {
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
        compareRules(old[RequestRule.extensionName]?.arrayValue ?? [], new[RequestRule.extensionName]?.arrayValue ?? [])
        compareBody(old["request"], new["request"], body: (old["body"]?.stringValue, new["body"]?.stringValue), side: .request)
        compareBody(old["response"], new["response"], body: nil, side: .response)
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
        let before = Dictionary(old.map { (key($0), $0) }, uniquingKeysWith: { first, _ in first })
        let after = Dictionary(new.map { (key($0), $0) }, uniquingKeysWith: { first, _ in first })
        for name in Set(before.keys).union(after.keys).sorted() {
            switch (before[name], after[name]) {
            case (_?, nil):
                add(.breaking, .parameterRemoved, name, "the parameter was removed")
            case (nil, let added?):
                if added["required"] == .bool(true) {
                    add(.breaking, .parameterAdded, name, "a new required parameter")
                } else {
                    add(.compatible, .parameterAdded, name, "a new optional parameter")
                }
            case (let oldParameter?, let newParameter?):
                let wasRequired = oldParameter["required"] == .bool(true)
                let isRequired = newParameter["required"] == .bool(true)
                if !wasRequired && isRequired { add(.breaking, .parameterRequired, name, "the parameter became required") }
                if wasRequired && !isRequired { add(.compatible, .parameterOptional, name, "the parameter became optional") }
                if oldParameter["schema"] != newParameter["schema"] {
                    // A parameter is a value the app sends: its schema's changes are judged as a request's are (an
                    // enum value added or a bound widened is compatible, a type changed or a bound narrowed breaks).
                    let mark = changes.count
                    compareSchema(oldParameter["schema"] ?? [:], newParameter["schema"] ?? [:], side: .request, path: "")
                    for index in changes.indices.dropFirst(mark) {
                        let inner = changes[index].location.map { String($0.dropFirst("request ".count)) } ?? "/"
                        changes[index].location = inner == "/" ? name : "\(name) \(inner)"
                    }
                    if changes.count == mark {
                        add(.warning, .parameterChanged, name, "the parameter's schema changed from \(describe(oldParameter["schema"])) to \(describe(newParameter["schema"]))")
                    }
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

    mutating func compareBody(_ old: JSONValue?, _ new: JSONValue?, body: (String?, String?)?, side: Side) {
        let label = side == .request ? "request" : "response"
        switch (old?["schema"], new?["schema"]) {
        case (nil, nil): break
        case (nil, _?):
            if side == .request, body?.1 == "required" {
                add(.breaking, .requestBodyChanged, label, "a request body is now required (\(new?["model"]?.stringValue ?? "?"))")
            } else {
                add(side == .request ? .compatible : .breaking, side == .request ? .requestBodyChanged : .responseBodyChanged, label, "a \(label) body was added")
            }
        case (_?, nil):
            add(side == .request ? .warning : .breaking, side == .request ? .requestBodyChanged : .responseBodyChanged, label, "the \(label) body was removed")
        case (let before?, let after?):
            if side == .request, body?.0 == "optional", body?.1 == "required" {
                add(.breaking, .requestBodyChanged, label, "the request body became required")
            }
            compareSchema(before, after, side: side, path: "")
        }
    }

    private func resolve(_ schema: JSONValue, old: Bool) -> JSONValue {
        var current = schema
        var seen: Set<String> = []
        while let reference = current["$ref"]?.stringValue {
            let name = String(reference.dropFirst("#/definitions/".count))
            guard seen.insert(name).inserted, let definition = (old ? oldDefinitions : newDefinitions)[name] else { break }
            current = definition
        }
        return current
    }

    /// Splits `anyOf: [X, {"type": "null"}]` into X and whether null is allowed.
    private func unwrapNull(_ schema: JSONValue) -> (JSONValue, Bool) {
        if let alternatives = schema["anyOf"]?.arrayValue, alternatives.count == 2, alternatives[1] == ["type": "null"] {
            return (alternatives[0], true)
        }
        return (schema, false)
    }

    private func type(_ schema: JSONValue) -> String {
        if let type = schema["type"]?.stringValue {
            if type == "array", schema["x-pairs"] != nil { return "array of key/value pairs" }
            if type == "object", schema["properties"] == nil { return "map" }
            return type
        }
        if schema["oneOf"] != nil { return "oneOf" }
        return schema.objectValue?.isEmpty == true ? "any" : "unknown"
    }

    /// The schema as JSON; a long enumeration (a time zone parameter's 419 names) shows its count instead.
    private func describe(_ schema: JSONValue?) -> String {
        guard var schema else { return "nothing" }
        if let values = schema.arrayValue, values.count > 12 { return "\(values.count) values" }
        if case .object(var members) = schema, let values = members["enum"]?.arrayValue, values.count > 12 {
            members["enum"] = .string("\(values.count) values")
            schema = .object(members)
        }
        return schema.serialized()
    }

    mutating func compareSchema(_ old: JSONValue, _ new: JSONValue, side: Side, path: String) {
        // A model behind `anyOf: [model, null]` counts too: `Ping.pong` may be a `Pong` whose `ping` is a `Ping`.
        let oldName = old["$ref"]?.stringValue ?? unwrapNull(old).0["$ref"]?.stringValue
        let newName = new["$ref"]?.stringValue ?? unwrapNull(new).0["$ref"]?.stringValue
        if let oldName, let newName {
            // A pair of definitions is compared once per side: recursion ends, and a model used twice
            // is reported at its first location only.
            guard visited.insert("\(side) \(oldName) \(newName)").inserted else { return }
        }
        let location = "\(side == .request ? "request" : "response") \(path.isEmpty ? "/" : path)"
        let (oldSchema, oldNullable) = unwrapNull(resolve(old, old: true))
        let (newSchema, newNullable) = unwrapNull(resolve(new, old: false))
        let (before, after) = (resolve(oldSchema, old: true), resolve(newSchema, old: false))

        if !oldNullable && newNullable {
            if side == .response {
                add(.breaking, .nullableAdded, location, "the value may now be null, which the app's non-optional property cannot decode")
            } else {
                add(.compatible, .nullableAdded, location, "null is now accepted")
            }
        }
        if oldNullable && !newNullable {
            if side == .request {
                add(.breaking, .nullableRemoved, location, "null is no longer accepted, and the app may send it")
            } else {
                add(.compatible, .nullableRemoved, location, "the value is never null any more")
            }
        }

        let oldType = type(before)
        let newType = type(after)
        guard oldType == newType else {
            let widening = side == .request ? (oldType == "integer" && newType == "number") : (oldType == "number" && newType == "integer")
            if widening || newType == "any" && side == .request {
                add(.compatible, .typeChanged, location, "the type changed from \(oldType) to \(newType), which still accepts what is sent")
            } else {
                add(.breaking, .typeChanged, location, "the type changed from \(oldType) to \(newType)")
            }
            return
        }
        compareScalars(before, after, side: side, location: location)
        switch oldType {
        case "object": compareObjects(before, after, side: side, path: path)
        case "array":
            if let oldItems = before["items"], let newItems = after["items"] {
                compareSchema(oldItems, newItems, side: side, path: path + "/*")
            }
        case "map":
            if let oldValues = before["additionalProperties"], let newValues = after["additionalProperties"] {
                compareSchema(oldValues, newValues, side: side, path: path + "/*")
            }
            if before["propertyNames"] != after["propertyNames"] {
                add(.breaking, .constraintChanged, location, "the keys changed from \(describe(before["propertyNames"])) to \(describe(after["propertyNames"]))")
            }
        case "array of key/value pairs":
            if let oldPairs = before["x-pairs"], let newPairs = after["x-pairs"] {
                compareSchema(oldPairs["key"] ?? [:], newPairs["key"] ?? [:], side: side, path: path + "/key")
                compareSchema(oldPairs["value"] ?? [:], newPairs["value"] ?? [:], side: side, path: path + "/value")
            }
        case "oneOf":
            if before != after { add(.breaking, .typeChanged, location, "the alternatives changed") }
        default: break
        }
    }

    mutating func compareScalars(_ old: JSONValue, _ new: JSONValue, side: Side, location: String) {
        let oldValues = old["enum"]?.arrayValue
        let newValues = new["enum"]?.arrayValue
        switch (oldValues, newValues) {
        case (let before?, let after?):
            for value in after where !before.contains(value) {
                if side == .response {
                    add(.breaking, .enumValueAdded, location, "new enum value \(value); the app's enum cannot decode it")
                } else {
                    add(.compatible, .enumValueAdded, location, "new accepted value \(value)")
                }
            }
            for value in before where !after.contains(value) {
                if side == .request {
                    add(.breaking, .enumValueRemoved, location, "enum value \(value) is no longer accepted, and the app may send it")
                } else {
                    add(.compatible, .enumValueRemoved, location, "enum value \(value) is no longer sent")
                }
            }
        case (_?, nil):
            add(side == .response ? .breaking : .compatible, .enumValueAdded, location, "the value is no longer limited to an enumeration")
        case (nil, _?):
            add(side == .request ? .breaking : .compatible, .enumValueRemoved, location, "the value is now limited to \(describe(new["enum"]))")
        case (nil, nil): break
        }
        if old["format"] != new["format"] {
            let from = old["format"]?.stringValue ?? "none"
            let to = new["format"]?.stringValue ?? "none"
            add(side == .response ? .breaking : .warning, .formatChanged, location, "the format changed from \(from) to \(to)")
        }
        for bound in Self.bounds where old[bound] != new[bound] {
            let from = old[bound].map { "\($0)" } ?? "none"
            let to = new[bound].map { "\($0)" } ?? "none"
            // A request that accepts less refuses what the app may send; one that accepts more is compatible. An answer
            // in narrower bounds decodes as before; one in wider bounds decodes too (a Swift model checks no bound),
            // but may hold what the app's logic did not expect.
            switch (Self.narrows(bound, old[bound], new[bound]), side) {
            case (true?, .request):
                add(.breaking, .constraintChanged, location, "\(bound) changed from \(from) to \(to): values the app may send are refused")
            case (false?, .request):
                add(.compatible, .constraintChanged, location, "\(bound) changed from \(from) to \(to): more values are accepted")
            case (true?, .response):
                add(.compatible, .constraintChanged, location, "\(bound) changed from \(from) to \(to): the values sent are within the old bounds")
            case (false?, .response):
                add(.warning, .constraintChanged, location, "\(bound) changed from \(from) to \(to): values outside the old bounds may be sent")
            case (nil, _):
                add(.warning, .constraintChanged, location, "\(bound) changed from \(from) to \(to)")
            }
        }
    }

    /// The bounds the canonical model keeps, lower ones first.
    private static let bounds = [
        "minimum", "exclusiveMinimum", "minLength", "minItems", "maximum", "exclusiveMaximum", "maxLength", "maxItems",
        "pattern",
    ]

    /// Whether a change of `bound` from `old` to `new` admits fewer values (`true`), more (`false`), or neither can be
    /// said (`nil`: a pattern changed for another).
    private static func narrows(_ bound: String, _ old: JSONValue?, _ new: JSONValue?) -> Bool? {
        let lower = ["minimum", "exclusiveMinimum", "minLength", "minItems"].contains(bound)
        switch (old, new) {
        case (nil, _?): return true
        case (_?, nil): return false
        case (let before?, let after?):
            guard let from = before.numberValue?.doubleValue, let to = after.numberValue?.doubleValue else { return nil }
            return lower ? to > from : to < from
        case (nil, nil): return nil
        }
    }

    mutating func compareObjects(_ old: JSONValue, _ new: JSONValue, side: Side, path: String) {
        if old[ObjectRule.extensionName] != new[ObjectRule.extensionName] {
            let location = "\(side == .request ? "request" : "response") \(path.isEmpty ? "/" : path)"
            let from = old[ObjectRule.extensionName]?.serialized() ?? "none"
            let to = new[ObjectRule.extensionName]?.serialized() ?? "none"
            add(.warning, .constraintChanged, location, "the rules between properties changed from \(from) to \(to)")
        }
        let oldProperties = old["properties"]?.objectValue ?? [:]
        let newProperties = new["properties"]?.objectValue ?? [:]
        // A `readOnly` property is not in requests, a `writeOnly` one not in answers: required or not, the app
        // neither sends the first nor decodes the second.
        func required(_ schema: JSONValue) -> Set<String> {
            let absent = side == .request ? "readOnly" : "writeOnly"
            let leftOut = Set((schema[absent]?.arrayValue ?? []).compactMap(\.stringValue))
            return Set((schema["required"]?.arrayValue ?? []).compactMap(\.stringValue)).subtracting(leftOut)
        }
        let oldRequired = required(old)
        let newRequired = required(new)
        var removed = Set(oldProperties.keys).subtracting(newProperties.keys)
        var added = Set(newProperties.keys).subtracting(oldProperties.keys)

        // One property removed and one with the same schema added: a rename.
        for name in removed.sorted() {
            let candidates = added.filter { oldProperties[name] == newProperties[$0] }
            if candidates.count == 1, let renamed = candidates.first {
                let location = "\(side == .request ? "request" : "response") \(path)/\(name)"
                let required = side == .response ? oldRequired.contains(name) : newRequired.contains(renamed)
                add(required ? .breaking : .warning, .propertyRenamed, location, "the property was renamed to \"\(renamed)\"")
                removed.remove(name)
                added.remove(renamed)
            }
        }
        for name in removed.sorted() {
            let location = "\(side == .request ? "request" : "response") \(path)/\(name)"
            if side == .response {
                if oldRequired.contains(name) {
                    add(.breaking, .propertyRemoved, location, "a property the app's model requires was removed")
                } else {
                    add(.warning, .propertyRemoved, location, "an optional property was removed; the app now always gets nil")
                }
            } else {
                add(.warning, .propertyRemoved, location, "the property is no longer read; the app still sends it")
            }
        }
        for name in added.sorted() {
            let location = "\(side == .request ? "request" : "response") \(path)/\(name)"
            if side == .request && newRequired.contains(name) {
                add(.breaking, .propertyAdded, location, "a new required property the app does not send")
            } else {
                add(.compatible, .propertyAdded, location, side == .request ? "a new optional property" : "a new property the app ignores")
            }
        }
        for name in Set(oldProperties.keys).intersection(newProperties.keys).sorted() {
            let location = "\(side == .request ? "request" : "response") \(path)/\(name)"
            let wasRequired = oldRequired.contains(name)
            let isRequired = newRequired.contains(name)
            if wasRequired && !isRequired {
                if side == .response {
                    add(.breaking, .propertyOptional, location, "the property may now be absent, which the app's non-optional property cannot decode")
                } else {
                    add(.compatible, .propertyOptional, location, "the property became optional")
                }
            }
            if !wasRequired && isRequired {
                if side == .request {
                    add(.breaking, .propertyRequired, location, "the property became required, and the app may omit it")
                } else {
                    add(.compatible, .propertyRequired, location, "the property is now always present")
                }
            }
            compareSchema(oldProperties[name]!, newProperties[name]!, side: side, path: path + "/" + name)
        }
    }
}
