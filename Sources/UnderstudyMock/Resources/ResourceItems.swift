import Foundation
import UnderstudyCore

/// How a ``ResourceMock`` makes, keeps and presents the items of one resource: identifiers in the schema's format,
/// the members the server adds, and answers in the shape each operation documents.
struct ResourceItems {
    let spec: APISpec
    let resource: Resource
    let seed: UInt64
    let now: Date
    /// The item's object schema, when it is an object.
    let object: ObjectSchema?
    /// The generated envelope of each endpoint's answer, by endpoint, kept across requests by the engine: the same
    /// for every request (the clock's timestamps are set after), and generating it was a fifth of a list's time.
    let envelopes: Locked<[String: JSONValue]>?

    init(spec: APISpec, resource: Resource, seed: UInt64, now: Date, envelopes: Locked<[String: JSONValue]>? = nil) {
        self.spec = spec
        self.resource = resource
        self.seed = seed
        self.now = now
        self.envelopes = envelopes
        object = Self.object(resource.schema, spec.definitions)
    }

    private static func object(_ schema: Schema, _ definitions: SchemaDefinitions) -> ObjectSchema? {
        if case .object(let object)? = schema.resolved(in: definitions) { return object }
        return nil
    }

    private var validator: Validator { Validator(spec: spec) }

    /// The identifier member's property, when the item has one.
    private var identifierProperty: Property? {
        resource.identifier?.member.flatMap { object?[$0] }
    }

    // MARK: Identifiers

    /// The identifier a client wrote in a body, when the member is the client's to write and the value fits it.
    func givenID(in body: JSONValue) -> String? {
        guard let member = resource.identifier?.member else { return nil }
        let body = object.map { Self.unwrapped(body, $0) } ?? body
        guard let value = body[member] else { return nil }
        // A member the item's schema leaves out (named by the list or the create only) is taken as it comes.
        if let property = identifierProperty {
            guard property.access != .readOnly, validator.isValid(value, against: property.schema) else { return nil }
        }
        return Self.text(value)
    }

    /// A new identifier in the member's format: the next integer of the resource's sequence, a UUID, or a string
    /// generated from the member's schema (the sequence's number added when the schema gives few values); unique
    /// under the parent.
    func newID(under parent: [String: String], in state: inout ResourceState) -> String {
        let name = resource.name
        let table = state.tables[name]
        let schema = identifierProperty?.schema.resolved(in: spec.definitions)
        var next = state.sequences.value[name] ?? Self.largestInteger(in: table)
        // A schema may give one value only (an enumeration, its `examples`): after a few tries, the number decides.
        var candidate = ""
        for attempt in 0..<16 {
            // Past the largest integer (a client wrote 9223372036854775807), the smallest one no item has.
            next = next == .max ? Self.smallestFreeInteger(in: table) : next + 1
            switch schema {
            case .string(let constraints)? where constraints.format == .uuid:
                var random = SeededRandom(seed: seed).derived("\(spec.id) \(name) id \(next)")
                candidate = random.uuid()
            case .string(let constraints)? where constraints.format != .integer:
                var random = SeededRandom(seed: seed).derived("\(spec.id) \(name) id \(next)")
                var generator = FixtureGenerator(seed: random.next(), spec: spec)
                let value = generator.value(for: Schema.string(constraints), name: identifierProperty?.name)
                candidate = Self.text(value).map { $0.isEmpty ? String(next) : $0 } ?? String(next)
            default:
                candidate = String(next)
            }
            if attempt >= 8 { candidate = "\(candidate)-\(next)" }
            if table?[key: ResourceRow.key(parent: parent, id: candidate)] == nil { break }
        }
        state.sequences.value[name] = next
        return candidate
    }

    private static func largestInteger(in table: StateTable<ResourceRow>?) -> Int {
        table?.compactMap { Int($0.id) }.max() ?? 0
    }

    private static func smallestFreeInteger(in table: StateTable<ResourceRow>?) -> Int {
        let taken = Set(table?.compactMap { Int($0.id) } ?? [])
        return (1...).first { !taken.contains($0) }!
    }

    // MARK: Stored items

    /// The item as the server keeps it after a write: the members of `body` the item schema declares (and the
    /// client may write), members named after declared query parameters, the identifier and the parent's ids,
    /// the server's `readOnly` members (kept from `old`, else generated), timestamps, and the other required
    /// members generated.
    /// - Parameter trusted: whether `body` is the server's own (a seed), whose `readOnly` members are kept.
    func stored(
        _ body: JSONValue, endpoint: AnyEndpoint?, query: QueryItems, id: String, parent: [String: String],
        old: JSONValue?, trusted: Bool = false
    ) -> JSONValue {
        guard let object, !object.properties.isEmpty else { return body }
        let key = ResourceRow.key(parent: parent, id: id)
        var members: [String: JSONValue] = [:]
        if case .object(let previous)? = old {
            for property in object.properties where property.access == .readOnly {
                members[property.name] = previous[property.name]
            }
        }
        var generator = generator("\(key) stored")
        if case .object(let sent) = Self.unwrapped(body, object) {
            // What the client may send: nested items come without the `readOnly` members the server adds.
            let request = Validator(spec: spec, direction: .request)
            for (sentName, value) in sent {
                guard let property = Self.property(writtenAs: sentName, in: object),
                    trusted || property.access != .readOnly
                else { continue }
                let name = property.name
                if request.isValid(value, against: property.schema) {
                    members[name] = filled(value, property.schema, generator: &generator)
                } else if case .object(let given) = value,
                    case .object(var base)? = members[name] ?? previousMember(old, name)
                {
                    // Part of an object the item's schema describes more strictly (a free map of settings into an
                    // object with required keys): what was sent, over what was there.
                    for (key, member) in given { base[key] = member }
                    if validator.isValid(.object(base), against: property.schema) { members[name] = .object(base) }
                }
            }
        }
        for parameter in endpoint?.parameters ?? [] where parameter.location == .query {
            guard let property = object[parameter.name], property.access != .readOnly,
                let text = query[parameter.name], let value = Self.typed(text, property.schema, spec.definitions),
                validator.isValid(value, against: property.schema)
            else { continue }
            members[parameter.name] = value
        }
        if let property = identifierProperty, let value = Self.typed(id, property.schema, spec.definitions) {
            members[property.name] = value
        } else if let member = resource.identifier?.member {
            // Named by the list's items or the create only (`GET /envvars/{env}/{name}` answers the value alone):
            // kept, so a list shows the name its read is found by.
            members[member] = .string(id)
        }
        // A parent's id names the parent, never the item (`Sid` of `/Calls/{Sid}/Recordings.json` is not the
        // recording's `sid`).
        for (name, text) in parent {
            guard let property = Self.property(writtenAs: name, in: object), property.name != identifierProperty?.name,
                property.name != resource.identifier?.member,
                let value = Self.typed(text, property.schema, spec.definitions),
                validator.isValid(value, against: property.schema)
            else { continue }
            members[property.name] = value
        }
        // What the client left out, the server fills as the document says.
        for property in object.properties where members[property.name] == nil {
            if let value = property.defaultValue, validator.isValid(value, against: property.schema) {
                members[property.name] = value
            }
        }
        // A seed keeps its own times: the first state does not depend on the clock.
        for property in object.properties where !trusted {
            let lowered = property.name.lowercased()
            let created = lowered.contains("creat")
            let updated = Self.isUpdateStamp(property.name)
            guard created && members[property.name] == nil || updated,
                let stamp = timestamp(property.schema)
            else { continue }
            members[property.name] = stamp
        }
        for property in object.properties where members[property.name] == nil {
            guard property.required && property.belongs(in: .response) || property.access == .readOnly else { continue }
            // A server's optional member that may be null starts so (`readAt`, `deletedAt`).
            members[property.name] =
                !property.required && property.schema.acceptsNull
                ? .null : generator.value(for: property.schema, name: property.name)
        }
        return .object(members)
    }

    /// The item's property a sent field or a parent's id writes: the one of its name, else the one spelled alike but
    /// for case and separators (`FriendlyName` → `friendly_name`, `AccountSid` → `account_sid`: one telephony API's
    /// forms are PascalCase and its answers snake_case), when only one is.
    static func property(writtenAs name: String, in object: ObjectSchema) -> Property? {
        if let property = object[name] { return property }
        let spelled = Self.spelling(name)
        let alike = object.properties.filter { Self.spelling($0.name) == spelled }
        return alike.count == 1 ? alike[0] : nil
    }

    /// The item's member a sent field writes (``property(writtenAs:in:)``), or the field's own name.
    func memberName(writtenAs name: String) -> String {
        object.flatMap { Self.property(writtenAs: name, in: $0)?.name } ?? name
    }

    private static func spelling(_ name: String) -> String {
        String(name.lowercased().filter { $0 != "_" && $0 != "-" })
    }

    /// Whether a member says when an item last changed (`updatedAt`, `modifiedOnUtc`).
    private static func isUpdateStamp(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return lowered.contains("updat") || lowered.contains("modif")
    }

    /// Names the owner in the item's owner member, as a value of the member's schema.
    func name(_ owner: String, in item: inout JSONValue, member: String) {
        guard case .object(var members) = item else { return }
        members[member] = object?[member].flatMap { Self.typed(owner, $0.schema, spec.definitions) } ?? .string(owner)
        item = .object(members)
    }

    /// The item after an action's ``ActionEffect``: the members it sets, its defaults where the item has no value,
    /// and, when that changed anything, the item's `updated…` timestamps at the clock's time.
    func applying(_ effect: ActionEffect, to item: JSONValue) -> JSONValue {
        var changed = item
        for (place, value) in effect.defaults where (changed[pointer: place] ?? .null) == .null {
            changed[pointer: place] = resolved(value, at: place)
        }
        for (place, value) in effect.set { changed[pointer: place] = resolved(value, at: place) }
        guard changed != item, let object, case .object(var members) = changed else { return changed }
        for property in object.properties where Self.isUpdateStamp(property.name) {
            let place = JSONPointer(tokens: [property.name])
            guard effect.set[place] == nil, effect.defaults[place] == nil, let stamp = timestamp(property.schema) else {
                continue
            }
            members[property.name] = stamp
        }
        return .object(members)
    }

    private func resolved(_ value: ActionEffect.Value, at place: JSONPointer) -> JSONValue {
        switch value {
        case .value(let value): return value
        case .now: return schema(at: place).flatMap(timestamp) ?? .string(now.formatted(.iso8601))
        }
    }

    /// The schema of a place in the item.
    private func schema(at place: JSONPointer) -> Schema? {
        var schema: Schema? = resource.schema
        for token in place.tokens {
            schema = schema.flatMap { Self.object($0, spec.definitions) }?[token]?.schema
        }
        return schema
    }

    /// A value the client sent, with what the server adds to nested items too: their required members that answers
    /// carry (a nested node's `readOnly` id), generated.
    private func filled(_ value: JSONValue, _ schema: Schema, generator: inout FixtureGenerator) -> JSONValue {
        switch (value, schema.resolved(in: spec.definitions)) {
        case (.object(var members), .object(let object)?):
            for property in object.properties where property.belongs(in: .response) {
                if let member = members[property.name] {
                    members[property.name] = filled(member, property.schema, generator: &generator)
                } else if property.required {
                    members[property.name] = generator.value(for: property.schema, name: property.name)
                }
            }
            return .object(members)
        case (.array(let elements), .array(let array)?):
            return .array(elements.map { filled($0, array.items, generator: &generator) })
        default:
            return value
        }
    }

    private func previousMember(_ old: JSONValue?, _ name: String) -> JSONValue? {
        if case .object(let members)? = old { return members[name] }
        return nil
    }

    /// The item in a body that wraps it (`{"article": {...}}` for an `Article`): the only member, when it is an
    /// object and not a member of the item.
    private static func unwrapped(_ body: JSONValue, _ object: ObjectSchema) -> JSONValue {
        guard case .object(let members) = body, members.count == 1, let (name, inner) = members.first,
            object[name] == nil, case .object = inner
        else { return body }
        return inner
    }

    /// The clock's time in a timestamp member's format (a date-time, a date, epoch seconds); `nil` for a member
    /// that is not a timestamp.
    private func timestamp(_ schema: Schema) -> JSONValue? {
        switch schema.resolved(in: spec.definitions) {
        case .string(let constraints)?:
            switch constraints.format {
            case .dateTime?, .dateTimeWithoutFraction?: return .string(now.formatted(.iso8601))
            case .dateTimeWithFraction?:
                return .string(now.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true)))
            case .date?: return .string(now.formatted(.iso8601.year().month().day()))
            default: return nil
            }
        case .integer?: return .integer(Int(now.timeIntervalSince1970))
        default: return nil
        }
    }

    // MARK: Answers

    /// The answer of an operation that carries the item: the item in the answer's schema, alone or at `pointer`
    /// in a generated envelope.
    func itemAnswer(_ item: JSONValue, key: String, endpoint: AnyEndpoint, pointer: JSONPointer) -> JSONValue {
        guard let answer = endpoint.response?.schema else { return item }
        // A create that answers the items it made as a list answers a list of one.
        if ResourceInference.listItems(in: answer, spec.definitions)?.pointer == pointer {
            return listAnswer([(key, item)], total: 1, endpoint: endpoint, pointer: pointer)
        }
        let target = pointer == .root ? answer : member(pointer, of: answer) ?? resource.schema
        let presented = conform(item, to: target, key: key)
        guard pointer != .root else { return presented }
        var body = envelope(answer, endpoint: endpoint)
        body[pointer: pointer] = presented
        return body
    }

    /// The answer of an operation that names the item without carrying it (`{"id": "…"}` after a create): a
    /// generated body of its schema with the identifier in the member named like the item's; `nil` when the answer
    /// has no such member.
    func identifierAnswer(_ id: String, endpoint: AnyEndpoint) -> JSONValue? {
        guard let answer = endpoint.response?.schema, let identifier = resource.identifier,
            let object = Self.object(answer, spec.definitions),
            let property = [identifier.member, identifier.parameter].compactMap({ $0 }).lazy.compactMap({ object[$0] })
                .first,
            let value = Self.typed(id, property.schema, spec.definitions)
        else { return nil }
        var body = envelope(answer, endpoint: endpoint)
        body[pointer: JSONPointer(tokens: [property.name])] = value
        return body
    }

    /// The answer of a list or a search: the page's items in the answer's item schema, alone or at `pointer` in a
    /// generated envelope whose counts (`total`, `count`, ...) say how many items matched.
    /// - Parameter element: where the item is in each element, when the elements wrap it (`/data`).
    func listAnswer(
        _ rows: [(key: String, item: JSONValue)], total: Int, endpoint: AnyEndpoint, pointer: JSONPointer,
        element: JSONPointer? = nil
    ) -> JSONValue {
        guard let answer = endpoint.response?.schema else { return .array(rows.map(\.item)) }
        let elements = ResourceInference.listItems(in: answer, spec.definitions)?.schema ?? resource.schema
        let presented: JSONValue
        if let element, let itemSchema = member(element, of: elements) {
            var generator = generator("\(endpoint.id) element")
            let wrapper = generator.value(for: elements)
            presented = .array(
                rows.map { row in
                    var wrapped = wrapper
                    wrapped[pointer: element] = conform(row.item, to: itemSchema, key: row.key)
                    return wrapped
                })
        } else {
            presented = .array(rows.map { conform($0.item, to: elements, key: $0.key) })
        }
        guard pointer != .root else { return presented }
        var body = envelope(answer, endpoint: endpoint)
        body[pointer: pointer] = presented
        Self.setCounts(&body, total: total, depth: 0)
        return body
    }

    /// Whether a member counts a list's matching items (`total`, `count`, `totalItems`, `articlesCount`).
    private static func isCount(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return lowered.hasPrefix("total") || lowered.hasSuffix("total") || lowered.hasSuffix("count")
    }

    private static func setCounts(_ body: inout JSONValue, total: Int, depth: Int) {
        guard depth < 2, case .object(var members) = body else { return }
        for (name, value) in members {
            if isCount(name), case .number = value {
                members[name] = .integer(total)
            } else if case .object = value {
                var nested = value
                setCounts(&nested, total: total, depth: depth + 1)
                members[name] = nested
            }
        }
        body = .object(members)
    }

    /// The answer of a write that does not carry the item, where the document shows none (its example is then the
    /// answer): the envelope of its schema.
    func acknowledgement(_ endpoint: AnyEndpoint) -> JSONValue? {
        guard let schema = endpoint.response?.schema,
            endpoint.documentedResponses(in: spec).first(where: { $0.status == endpoint.success.rawValue })?.examples
                .isEmpty ?? true
        else { return nil }
        return envelope(schema, endpoint: endpoint)
    }

    /// What an answer holds beside the items, as a server writes it when all went well: a body of the answer's
    /// schema with its required members generated, its optional ones left out (`null` where the API writes every
    /// key), its `success` or `ok` flag `true` and its required timestamps the clock's time. The same for every
    /// request of an endpoint, the clock aside.
    /// Every envelope of an endpoint is its answer schema's (`endpoint.response`), so it is kept by endpoint.
    private func envelope(_ schema: Schema, endpoint: AnyEndpoint) -> JSONValue {
        let body: JSONValue
        if let kept = envelopes?.withLock({ $0[endpoint.id] }) {
            body = kept
        } else {
            var generator = generator("\(endpoint.id) envelope")
            body = generator.answer(for: schema)
            envelopes?.withLock { $0[endpoint.id] = body }
        }
        guard let object = Self.object(schema, spec.definitions), case .object(var members) = body else { return body }
        for property in object.properties where property.belongs(in: .response) {
            // The success flag ``FixtureGenerator/answer(for:)`` set stays, optional or not.
            guard !["success", "ok"].contains(property.name.lowercased()) else { continue }
            if !property.required {
                members[property.name] = spec.optionalKeys == .alwaysPresent && property.schema.acceptsNull ? .null : nil
            } else if let stamp = timestamp(property.schema) {
                members[property.name] = stamp
            }
        }
        return .object(members)
    }

    /// The schema of an envelope's member.
    private func member(_ pointer: JSONPointer, of schema: Schema) -> Schema? {
        guard let name = pointer.tokens.first, let object = Self.object(schema, spec.definitions) else { return nil }
        return object[name]?.schema.nonNull
    }

    /// An item as an answer's schema shows it: the members it declares that belong in answers (no `writeOnly`
    /// ones), and the required ones it lacks generated (a list of summaries shows fewer members than a read).
    func conform(_ item: JSONValue, to schema: Schema, key: String) -> JSONValue {
        guard case .object(var members) = item, let object = Self.object(schema, spec.definitions),
            !object.properties.isEmpty
        else { return item }
        // The identifier stays where the schema leaves members open: a server names what it made, also where its
        // document's item schema does not declare the member (Kinto's `{"data": {"id": …}}`).
        let identifier = object.additionalProperties == .forbidden ? nil : resource.identifier?.member
        members = members.filter { object[$0.key]?.belongs(in: .response) ?? ($0.key == identifier) }
        var generator: FixtureGenerator?
        for property in object.properties where property.required && property.belongs(in: .response) {
            guard members[property.name] == nil else { continue }
            if generator == nil { generator = self.generator("\(key) conform") }
            members[property.name] = generator!.value(for: property.schema, name: property.name)
        }
        return .object(members)
    }

    private func generator(_ purpose: String) -> FixtureGenerator {
        spec.generator(seed: seed, purpose: "\(resource.name) \(purpose)")
    }

    /// A scalar's text (`42`, `"rex"` → `rex`, `true`).
    static func text(_ value: JSONValue) -> String? {
        switch value {
        case .string(let string): string
        case .number(let number): number.literal
        case .bool(let bool): String(bool)
        default: nil
        }
    }

    /// A path or query text as a value of a member's schema (`"42"` → `42` for an integer); `nil` when it does
    /// not read as one.
    static func typed(_ text: String, _ schema: Schema, _ definitions: SchemaDefinitions) -> JSONValue? {
        switch schema.resolved(in: definitions) {
        case .integer?: return Int(text).map(JSONValue.integer)
        case .number?, .decimal?:
            guard Double(text) != nil else { return nil }
            return try? JSONValue(parsing: Array(text.utf8))
        case .boolean?: return text == "true" ? .bool(true) : text == "false" ? .bool(false) : nil
        case .string?, .any?: return .string(text)
        case .oneOf(let alternatives)?:
            return alternatives.lazy.compactMap { typed(text, $0, definitions) }.first
        default: return nil
        }
    }
}

/// What a list or a search asks of the items: query parameters (and a search's body members) named after an
/// item's member keep the items whose member has one of the values given; `limit`/`offset` or a page and its size
/// cut the page.
struct ListCriteria {
    let endpoint: AnyEndpoint
    let object: ObjectSchema?
    /// The body of a search by POST.
    var body: [String: JSONValue] = [:]
    /// The request's path values, for the path parameters that declare a meaning (`/v2/campus/{id}/locations`).
    var path: [String: String] = [:]

    /// Criteria of the declared meanings and paging alone, for a list that is no resource's.
    init(endpoint: AnyEndpoint) {
        self.endpoint = endpoint
        object = nil
    }

    init(endpoint: AnyEndpoint, resource: Resource, spec: APISpec) {
        self.endpoint = endpoint
        if case .object(let object)? = resource.schema.resolved(in: spec.definitions) {
            self.object = object
        } else {
            object = nil
        }
    }

    private static let sizeNames: Set<String> = [
        "limit", "per_page", "perpage", "pagesize", "page_size", "size", "max", "maxresults", "max_results", "top",
        "page[size]",
    ]
    private static let offsetNames: Set<String> = ["offset", "skip", "start", "from"]
    private static let pageNames: Set<String> = ["page", "pagenumber", "page_number", "pageno", "page[number]"]

    private static func isPaging(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return sizeNames.contains(lowered) || offsetNames.contains(lowered) || pageNames.contains(lowered)
    }

    /// Whether the request asks anything of the items beyond a page: a search's body, a value of a parameter with a
    /// meaning (its default too; a `when-true` flag left `false` asks nothing), or of one named after a member.
    func asksAnything(_ query: QueryItems) -> Bool {
        guard body.isEmpty else { return true }
        if endpoint.filteringPathParameters.contains(where: { path[$0] != nil }) { return true }
        for parameter in endpoint.parameters where parameter.location == .query && !Self.isPaging(parameter.name) {
            if let meaning = parameter.meaning {
                guard let asked = query[parameter.name] ?? parameter.defaultValue.flatMap(ResourceItems.text) else {
                    continue
                }
                if case .whenTrue = meaning, asked.lowercased() == "false" { continue }
                return true
            }
            if object?[parameter.name] != nil, query[parameter.name] != nil { return true }
        }
        return false
    }

    func matches(_ item: JSONValue, query: QueryItems, now: Date) -> Bool {
        // What the parameters' declared meanings keep, a default applying where the query gives no value.
        for parameter in endpoint.parameters where parameter.location != .header {
            guard let meaning = parameter.meaning,
                let asked = parameter.location == .path
                    ? path[parameter.name] : query[parameter.name] ?? parameter.defaultValue.flatMap(ResourceItems.text)
            else { continue }
            if meaning.keeps(item, asked: asked, now: now) == false { return false }
        }
        guard let object else { return true }
        for parameter in endpoint.parameters where parameter.location == .query && !Self.isPaging(parameter.name) {
            guard parameter.meaning == nil, object[parameter.name] != nil else { continue }
            let values = query.all(parameter.name).flatMap { value -> [String] in
                if case .array = parameter.schema.nonNull { return value.split(separator: ",").map(String.init) }
                return [value]
            }
            guard !values.isEmpty else { continue }
            if !values.contains(where: { Self.matches(item[parameter.name], $0) }) { return false }
        }
        for (name, value) in body where object[name] != nil {
            let wanted = value.arrayValue ?? [value]
            let texts = wanted.compactMap(ResourceItems.text)
            guard texts.count == wanted.count, !texts.isEmpty else { continue }
            if !texts.contains(where: { Self.matches(item[name], $0) }) { return false }
        }
        return true
    }

    /// Whether a member has a value: equal as text, or for an array one element that is (or names) it.
    static func matches(_ member: JSONValue?, _ text: String) -> Bool {
        switch member {
        case .string(let string)?: return string == text
        case .number(let number)?: return number.literal == text || Double(number.literal) == Double(text)
        case .bool(let bool)?: return String(bool) == text.lowercased()
        case .array(let elements)?:
            return elements.contains { element in
                if case .object = element {
                    return ["name", "id", "value", "key"].contains { matches(element[$0], text) }
                }
                return matches(element, text)
            }
        default: return false
        }
    }

    /// The rows in the order the request's sort parameters ask (``QueryMeaning/sortKey(_:descending:)``), else in
    /// the list's declared order (``AnyEndpoint/order``).
    func sorted<Row>(_ rows: [Row], by item: (Row) -> JSONValue, query: QueryItems) -> [Row] {
        let ordered = endpoint.order.isEmpty ? rows : QueryMeaning.ordered(rows, by: endpoint.order, item: item)
        return endpoint.parameters.reduce(ordered) { rows, parameter in
            parameter.meaning?.sorted(rows, by: item, query: query, parameter: parameter) ?? rows
        }
    }

    /// The window a request asks for: after `offset` (or `(page - first) × size`), at most `limit` (or size) items.
    /// The page and size parameters are the ones the endpoint's paging declares (`page`/`pageSize`), else the ones
    /// named as APIs name them.
    struct Window {
        var offset = 0
        var size: Int?
        /// The page number asked (or the first), when the list is paged by number.
        var number: Int?
        /// The number of the first page: 0 where the page parameter's minimum says so, else 1.
        var first = 1
    }

    func window(_ query: QueryItems) -> Window {
        let declared = endpoint.parameters.filter { $0.location == .query }
        var sizeNames = Self.sizeNames
        var pageNames = Self.pageNames
        if case .pageInBody(let page, let size, _) = endpoint.pagination {
            (sizeNames, pageNames) = ([size.lowercased()], [page.lowercased()])
        }
        func parameter(_ names: Set<String>) -> Parameter? { declared.first { names.contains($0.name.lowercased()) } }
        func number(_ parameter: Parameter?) -> Int? {
            guard let parameter else { return nil }
            return query[parameter.name].flatMap { Int($0) } ?? parameter.defaultValue?.numberValue?.intValue
        }
        var window = Window(size: number(parameter(sizeNames)).flatMap { $0 > 0 ? $0 : nil })
        let page = parameter(pageNames)
        if case .integer(let constraints)? = page?.schema.nonNull, constraints.minimum == 0 { window.first = 0 }
        if let offset = parameter(Self.offsetNames).flatMap({ query[$0.name] }).flatMap({ Int($0) }) {
            window.offset = max(0, offset)
        } else if let page {
            let first = window.first
            let asked = max(first, number(page) ?? first)
            window.number = asked
            if let size = window.size {
                // A page beyond any list (`page=144768541&pageSize=54710419689283656`) starts past its end.
                let (offset, overflow) = (asked - first).multipliedReportingOverflow(by: size)
                window.offset = overflow ? Int.max : offset
            }
        }
        return window
    }

    /// The page a request asks for (``window(_:)``).
    func page<Rows: Collection>(_ rows: Rows, query: QueryItems) -> Rows.SubSequence {
        let window = window(query)
        let count = rows.count
        let start = min(window.offset, count)
        let end = window.size.map { min(count, start + min($0, count)) } ?? count
        let first = rows.index(rows.startIndex, offsetBy: start)
        return rows[first..<rows.index(first, offsetBy: end - start)]
    }

    /// A list answer made up from the document (an example, a generated body) as the request asks it: its items
    /// filtered and ordered by the parameters' declared meanings, and cut to the page asked where the answer
    /// describes its page. Anything else is left as it is.
    func shaped(_ body: JSONValue, schema: Schema, spec: APISpec, query: QueryItems, now: Date) -> JSONValue {
        let paged = if case .pageInBody = endpoint.pagination { true } else { false }
        guard paged || endpoint.parameters.contains(where: { $0.meaning != nil }),
            let (pointer, _) = ResourceInference.listItems(in: schema, spec.definitions),
            let items = body[pointer: pointer]?.arrayValue
        else { return body }
        let kept = sorted(items.filter { matches($0, query: query, now: now) }, by: { $0 }, query: query)
        var shaped = body
        shaped[pointer: pointer] = .array(paged ? Array(page(kept, query: query)) : kept)
        describePage(&shaped, query: query, total: kept.count)
        return shaped
    }

    /// Writes the page's description in the members a list envelope declares beside its items, at its top or in a
    /// `meta` object, as one telephony API's lists carry them: `page`, `page_size`, `start`, `end`, and the `uri`s
    /// (`url`s) of this page, the first, the next and the previous (`null` where there is none). A member the
    /// envelope does not declare is not added; a value its schema refuses is not written.
    /// - Parameters:
    ///   - path: the request's path, which the page links repeat with another page number.
    ///   - shown: how many items this page holds.
    func describeLinks(
        _ body: inout JSONValue, answer schema: Schema, path: String, query: QueryItems, total: Int, shown: Int,
        spec: APISpec
    ) {
        let definitions = spec.definitions
        guard case .object(let envelope)? = schema.resolved(in: definitions) else { return }
        let window = window(query)
        let declared = endpoint.parameters.filter { $0.location == .query }
        let pageParameter = declared.first { Self.pageNames.contains($0.name.lowercased()) }
        let first = window.first
        let size = window.size ?? max(shown, 1)
        let number = window.number ?? (first + window.offset / max(size, 1))
        func link(_ page: Int) -> JSONValue {
            guard let name = pageParameter?.name else { return .string(path + (query.raw.isEmpty ? "" : "?" + query.raw)) }
            let others = query.items.filter { $0.name != name }.map {
                "\(PathTemplate.percentEncode($0.name))=\(PathTemplate.percentEncode($0.value))"
            }
            return .string(path + "?" + (others + ["\(name)=\(page)"]).joined(separator: "&"))
        }
        let hasNext = window.offset + shown < total
        let values: [String: JSONValue] = [
            "page": .integer(number), "start": .integer(window.offset),
            "end": .integer(max(window.offset, window.offset + shown - 1)),
            "uri": link(number), "url": link(number), "first_page_uri": link(first), "first_page_url": link(first),
            "next_page_uri": hasNext ? link(number + 1) : .null, "next_page_url": hasNext ? link(number + 1) : .null,
            "previous_page_uri": number > first ? link(number - 1) : .null,
            "previous_page_url": number > first ? link(number - 1) : .null,
        ]
        let validator = Validator(spec: spec)
        func describe(_ object: ObjectSchema, at pointer: JSONPointer) {
            for property in object.properties {
                let lowered = property.name.lowercased()
                let value = Self.sizeNames.contains(lowered) ? .integer(size) : values[lowered]
                guard let value, validator.isValid(value, against: property.schema) else { continue }
                body[pointer: JSONPointer(tokens: pointer.tokens + [property.name])] = value
            }
        }
        describe(envelope, at: .root)
        if case .object(let meta)? = envelope["meta"]?.schema.resolved(in: definitions) {
            if body["meta"] == nil { body[pointer: JSONPointer(tokens: ["meta"])] = .object([:]) }
            describe(meta, at: JSONPointer(tokens: ["meta"]))
        }
    }

    /// Writes the page's description where the endpoint's paging keeps it (`/pagination`: `page`, `pageSize` or
    /// `limit`, `totalCount` or `total`, `totalPages`, `hasNextPage`, `hasPreviousPage`), in the members the answer
    /// has.
    func describePage(_ body: inout JSONValue, query: QueryItems, total: Int) {
        guard case .pageInBody(_, _, let pointer) = endpoint.pagination,
            case .object(var members)? = body[pointer: pointer]
        else { return }
        let window = window(query)
        let size = window.size ?? max(total, 1)
        let pages = total / size + (total % size == 0 ? 0 : 1)
        let number = window.number ?? min(window.offset / size, Int.max - 1) + 1
        for name in members.keys {
            let lowered = name.lowercased()
            switch lowered {
            case "page", "currentpage", "pagenumber", "page_number", "current_page": members[name] = .integer(number)
            case _ where Self.sizeNames.contains(lowered): members[name] = .integer(size)
            case "total", "totalcount", "totalitems", "total_count", "count": members[name] = .integer(total)
            case "totalpages", "total_pages", "pagecount", "pages": members[name] = .integer(pages)
            case "hasnextpage", "hasnext", "has_next", "has_next_page":
                members[name] = .bool(window.offset < total && total - window.offset > size)
            case "haspreviouspage", "hasprevious", "has_previous", "has_previous_page", "hasprev":
                members[name] = .bool(window.offset > 0)
            default: continue
            }
        }
        body[pointer: pointer] = .object(members)
    }
}
