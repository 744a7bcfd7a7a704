import Testing
import UnderstudyCore

/// Every diff rule in both directions (a change and its inverse), with the exact line pinned: once on
/// canonical specs, once on the same specs written as OpenAPI documents, changed there and imported.
struct SpecDiffTests {
    static let item: JSONValue = [
        "type": "object",
        "properties": [
            "id": ["type": "string", "format": "uuid"],
            "title": ["type": "string"],
            "note": ["anyOf": [["type": "string"], ["type": "null"]]],
            "kind": ["type": "string", "enum": ["a", "b"]],
            "count": ["type": "integer", "minimum": 0],
        ],
        "required": ["id", "title", "kind", "count"],
        "additionalProperties": true,
    ]

    static func document(
        item: JSONValue = item, request: JSONValue? = nil, body: String = "required", success: Int = 200,
        auth: String = "required", errors: [Int] = [401], parameters: [JSONValue] = [], endpoints: [String] = ["GET /items"]
    ) -> JSONValue {
        let list: [JSONValue] = endpoints.map { id in
            var endpoint: [String: JSONValue] = [
                "id": .string(id), "auth": .string(auth), "success": .integer(success),
                "errors": .array(errors.map { .integer($0) }), "parameters": .array(parameters), "body": .string(body),
                "response": ["model": "[Item]", "schema": ["type": "array", "items": ["$ref": "#/definitions/Item"]]],
            ]
            if let request { endpoint["request"] = ["model": "NewItem", "schema": request] }
            return .object(endpoint)
        }
        return ["api": "demo", "definitions": ["Item": item], "endpoints": .array(list)]
    }

    static func changing(_ transform: (inout [String: JSONValue]) -> Void) -> JSONValue {
        var object = item.objectValue!
        transform(&object)
        return .object(object)
    }

    /// The item with a property set, or removed (`nil`), from `required` too: a name `required` keeps must still be
    /// there, as any value, in JSON Schema's reading.
    static func property(_ name: String, _ schema: JSONValue?) -> JSONValue {
        changing { object in
            var properties = object["properties"]!.objectValue!
            properties[name] = schema
            object["properties"] = .object(properties)
            if schema == nil, let required = object["required"]?.arrayValue {
                object["required"] = .array(required.filter { $0 != .string(name) })
            }
        }
    }

    static func required(_ names: [String]) -> JSONValue {
        changing { $0["required"] = .array(names.map { .string($0) }) }
    }

    func lines(_ form: SpecForm, _ old: JSONValue, _ new: JSONValue) throws -> [String] {
        SpecDiff.compare(old: try form.version(old), new: try form.version(new)).map(\.line)
    }

    /// A Swift dictionary `JSONDecoder` writes as alternating keys and values (`x-pairs`, only in the canonical form of
    /// a built-in model): its key and value schemas are compared as any other, read by the same dialect as its bodies.
    @Test func pairsCompareTheirKeysAndValues() throws {
        func item(keys: [Int]) -> JSONValue {
            Self.changing {
                $0["properties"] = [
                    "stats": ["type": "array", "x-pairs": ["key": ["type": "integer", "enum": .array(keys.map { .integer($0) })], "value": ["type": "string"]]]
                ]
                $0["required"] = ["stats"]
            }
        }
        let (old, new) = (Self.document(item: item(keys: [0, 1])), Self.document(item: item(keys: [0, 1, 2])))
        #expect(try lines(.canonical, old, old) == [])
        let widened = try lines(.canonical, old, new)
        #expect(widened.count == 1 && widened[0].hasPrefix("breaking diff.enum-value-added demo GET /items response /*/stats"), "\(widened)")
        #expect(try lines(.canonical, new, old).allSatisfy { $0.hasPrefix("compatible diff.enum-value-removed") })
    }

    @Test(arguments: SpecForm.allCases)
    func identicalSpecsHaveNoChanges(_ form: SpecForm) throws {
        #expect(try lines(form, Self.document(), Self.document()) == [])
    }

    @Test(arguments: SpecForm.allCases)
    func endpointsAndAPIs(_ form: SpecForm) throws {
        let two = Self.document(endpoints: ["GET /items", "POST /items"])
        #expect(try lines(form, two, Self.document()) == ["breaking diff.endpoint-removed demo POST /items: the endpoint was removed"])
        #expect(try lines(form, Self.document(), two) == ["compatible diff.endpoint-added demo POST /items: a new endpoint"])
        #expect(SpecDiff.compare(old: ["demo": try form.version(Self.document())], new: [:]).map(\.line) == ["breaking diff.api-removed demo: the API is no longer described"])
        #expect(SpecDiff.compare(old: [:], new: ["demo": try form.version(Self.document())]).map(\.line) == ["compatible diff.api-added demo: a new API is described"])
    }

    @Test(arguments: SpecForm.allCases)
    func statusAuthAndErrors(_ form: SpecForm) throws {
        #expect(try lines(form, Self.document(), Self.document(success: 201)) == ["breaking diff.success-status-changed demo GET /items status: the success status changed from 200 to 201"])
        #expect(try lines(form, Self.document(success: 201), Self.document()) == ["breaking diff.success-status-changed demo GET /items status: the success status changed from 201 to 200"])
        // A credential no longer needed is compatible (the app's requests still carry theirs); oasdiff rates both INFO.
        #expect(try lines(form, Self.document(), Self.document(auth: "none")) == ["compatible diff.auth-changed demo GET /items auth: the auth requirement changed from required to none: fewer credentials are needed"])
        #expect(try lines(form, Self.document(auth: "none"), Self.document()) == ["breaking diff.auth-changed demo GET /items auth: the auth requirement changed from none to required"])
        #expect(try lines(form, Self.document(), Self.document(errors: [401, 404])) == ["warning diff.error-status-added demo GET /items status: a new documented error status 404"])
        #expect(try lines(form, Self.document(errors: [401, 404]), Self.document()) == ["warning diff.error-status-removed demo GET /items status: error status 404 is no longer documented"])
    }

    @Test(arguments: SpecForm.allCases)
    func parameters(_ form: SpecForm) throws {
        let page: JSONValue = ["name": "page", "in": "query", "required": false, "schema": ["type": "integer"]]
        let requiredPage: JSONValue = ["name": "page", "in": "query", "required": true, "schema": ["type": "integer"]]
        let stringPage: JSONValue = ["name": "page", "in": "query", "required": false, "schema": ["type": "string"]]
        #expect(try lines(form, Self.document(), Self.document(parameters: [page])) == ["compatible diff.parameter-added demo GET /items query parameter page: a new optional parameter"])
        #expect(try lines(form, Self.document(), Self.document(parameters: [requiredPage])) == ["breaking diff.parameter-added demo GET /items query parameter page: a new required parameter"])
        #expect(try lines(form, Self.document(parameters: [page]), Self.document()) == ["breaking diff.parameter-removed demo GET /items query parameter page: the parameter was removed"])
        #expect(try lines(form, Self.document(parameters: [page]), Self.document(parameters: [requiredPage])) == ["breaking diff.parameter-required demo GET /items query parameter page: the parameter became required"])
        #expect(try lines(form, Self.document(parameters: [requiredPage]), Self.document(parameters: [page])) == ["compatible diff.parameter-optional demo GET /items query parameter page: the parameter became optional"])
        // A parameter's schema is judged as a request's: what the app may send and is now refused breaks.
        #expect(try lines(form, Self.document(parameters: [page]), Self.document(parameters: [stringPage])) == ["breaking diff.type-changed demo GET /items query parameter page: the type changed from integer to string"])
        #expect(try lines(form, Self.document(parameters: [stringPage]), Self.document(parameters: [page])) == ["breaking diff.type-changed demo GET /items query parameter page: the type changed from string to integer"])
        let bounded: JSONValue = ["name": "page", "in": "query", "required": false, "schema": ["type": "integer", "minimum": 1, "maximum": 50]]
        let wider: JSONValue = ["name": "page", "in": "query", "required": false, "schema": ["type": "integer", "minimum": 0, "maximum": 100]]
        #expect(try lines(form, Self.document(parameters: [bounded]), Self.document(parameters: [wider])) == [
            "compatible diff.constraint-changed demo GET /items query parameter page: maximum changed from 50 to 100: more values are accepted",
            "compatible diff.constraint-changed demo GET /items query parameter page: minimum changed from 1 to 0: more values are accepted",
        ])
        #expect(try lines(form, Self.document(parameters: [wider]), Self.document(parameters: [bounded])) == [
            "breaking diff.constraint-changed demo GET /items query parameter page: maximum changed from 100 to 50: values the app may send are refused",
            "breaking diff.constraint-changed demo GET /items query parameter page: minimum changed from 0 to 1: values the app may send are refused",
        ])
        // A long enumeration is counted, not listed (42's time_zone has 419 names).
        let zones: JSONValue = [
            "name": "page", "in": "query", "required": false,
            "schema": ["type": "string", "enum": .array((1...20).map { .string("zone\($0)") })],
        ]
        #expect(try lines(form, Self.document(parameters: [stringPage]), Self.document(parameters: [zones])) == ["breaking diff.enum-value-removed demo GET /items query parameter page: the value is now limited to 20 values"])
        #expect(try lines(form, Self.document(parameters: [zones]), Self.document(parameters: [stringPage])) == ["compatible diff.enum-value-added demo GET /items query parameter page: the value is no longer limited to an enumeration"])
    }

    @Test(arguments: SpecForm.allCases)
    func responsePropertyRemovedRenamedAdded(_ form: SpecForm) throws {
        #expect(try lines(form, Self.document(), Self.document(item: Self.property("title", nil))) == ["breaking diff.property-removed demo GET /items response /*/title: a property the app's model requires was removed"])
        #expect(try lines(form, Self.document(item: Self.property("title", nil)), Self.document()) == ["compatible diff.property-added demo GET /items response /*/title: a new property the app ignores"])
        #expect(try lines(form, Self.document(), Self.document(item: Self.property("note", nil))) == ["warning diff.property-removed demo GET /items response /*/note: an optional property was removed; the app now always gets nil"])
        let renamed = Self.changing { object in
            var properties = object["properties"]!.objectValue!
            properties["name"] = properties.removeValue(forKey: "title")
            object["properties"] = .object(properties)
            object["required"] = ["id", "name", "kind", "count"]
        }
        #expect(try lines(form, Self.document(), Self.document(item: renamed)) == [#"breaking diff.property-renamed demo GET /items response /*/title: the property was renamed to "name""#])
        #expect(try lines(form, Self.document(item: renamed), Self.document()) == [#"breaking diff.property-renamed demo GET /items response /*/name: the property was renamed to "title""#])
    }

    @Test(arguments: SpecForm.allCases)
    func responseTypesNullabilityOptionalityEnumsFormats(_ form: SpecForm) throws {
        #expect(try lines(form, Self.document(), Self.document(item: Self.property("count", ["type": "string"]))) == ["breaking diff.type-changed demo GET /items response /*/count: the type changed from integer to string"])
        #expect(try lines(form, Self.document(item: Self.property("count", ["type": "string"])), Self.document()) == ["breaking diff.type-changed demo GET /items response /*/count: the type changed from string to integer"])
        let nullableTitle = Self.property("title", ["anyOf": [["type": "string"], ["type": "null"]]])
        #expect(try lines(form, Self.document(), Self.document(item: nullableTitle)) == ["breaking diff.nullable-added demo GET /items response /*/title: the value may now be null, which the app's non-optional property cannot decode"])
        #expect(try lines(form, Self.document(item: nullableTitle), Self.document()) == ["compatible diff.nullable-removed demo GET /items response /*/title: the value is never null any more"])
        #expect(try lines(form, Self.document(), Self.document(item: Self.required(["id", "kind", "count"]))) == ["breaking diff.property-optional demo GET /items response /*/title: the property may now be absent, which the app's non-optional property cannot decode"])
        #expect(try lines(form, Self.document(item: Self.required(["id", "kind", "count"])), Self.document()) == ["compatible diff.property-required demo GET /items response /*/title: the property is now always present"])
        let threeKinds = Self.property("kind", ["type": "string", "enum": ["a", "b", "c"]])
        #expect(try lines(form, Self.document(), Self.document(item: threeKinds)) == [#"breaking diff.enum-value-added demo GET /items response /*/kind: new enum value "c"; the app's enum cannot decode it"#])
        #expect(try lines(form, Self.document(item: threeKinds), Self.document()) == [#"compatible diff.enum-value-removed demo GET /items response /*/kind: enum value "c" is no longer sent"#])
        let fractional = Self.property("id", ["type": "string", "format": "date-time"])
        #expect(try lines(form, Self.document(), Self.document(item: fractional)) == ["breaking diff.format-changed demo GET /items response /*/id: the format changed from uuid to date-time"])
        #expect(try lines(form, Self.document(item: fractional), Self.document()) == ["breaking diff.format-changed demo GET /items response /*/id: the format changed from date-time to uuid"])
        // An answer in narrower bounds holds what it held; in wider ones it may hold what the old contract ruled out,
        // which a client that relies on it breaks on (oasdiff: response-property-min-decreased and its kin, ERR).
        #expect(try lines(form, Self.document(), Self.document(item: Self.property("count", ["type": "integer", "minimum": 1]))) == ["compatible diff.constraint-changed demo GET /items response /*/count: minimum changed from 0 to 1: the values sent are within the old bounds"])
        #expect(try lines(form, Self.document(item: Self.property("count", ["type": "integer", "minimum": 1])), Self.document()) == ["breaking diff.constraint-changed demo GET /items response /*/count: minimum changed from 1 to 0: values outside the old bounds may be sent"])
    }

    static let request: JSONValue = [
        "type": "object",
        "properties": ["title": ["type": "string"], "kind": ["type": "string", "enum": ["a", "b"]], "note": ["type": "string"]],
        "required": ["title", "kind"], "additionalProperties": true,
    ]

    static func request(_ transform: (inout [String: JSONValue]) -> Void) -> JSONValue {
        var object = request.objectValue!
        transform(&object)
        return .object(object)
    }

    @Test(arguments: SpecForm.allCases)
    func requestRules(_ form: SpecForm) throws {
        let withRequiredNote = Self.request { $0["required"] = ["title", "kind", "note"] }
        #expect(try lines(form, Self.document(request: Self.request), Self.document(request: withRequiredNote)) == ["breaking diff.property-required demo GET /items request /note: the property became required, and the app may omit it"])
        #expect(try lines(form, Self.document(request: withRequiredNote), Self.document(request: Self.request)) == ["compatible diff.property-optional demo GET /items request /note: the property became optional"])
        let withTag = Self.request { object in
            var properties = object["properties"]!.objectValue!
            properties["tag"] = ["type": "string"]
            object["properties"] = .object(properties)
            object["required"] = ["title", "kind", "tag"]
        }
        #expect(try lines(form, Self.document(request: Self.request), Self.document(request: withTag)) == ["breaking diff.property-added demo GET /items request /tag: a new required property the app does not send"])
        #expect(try lines(form, Self.document(request: withTag), Self.document(request: Self.request)) == ["warning diff.property-removed demo GET /items request /tag: the property is no longer read; the app still sends it"])
        let onlyA = Self.request { object in
            var properties = object["properties"]!.objectValue!
            properties["kind"] = ["type": "string", "enum": ["a"]]
            object["properties"] = .object(properties)
        }
        #expect(try lines(form, Self.document(request: Self.request), Self.document(request: onlyA)) == [#"breaking diff.enum-value-removed demo GET /items request /kind: enum value "b" is no longer accepted, and the app may send it"#])
        #expect(try lines(form, Self.document(request: onlyA), Self.document(request: Self.request)) == [#"compatible diff.enum-value-added demo GET /items request /kind: new accepted value "b""#])
        #expect(try lines(form, Self.document(), Self.document(request: Self.request)) == ["breaking diff.request-body-changed demo GET /items request: a request body is now required (NewItem)"])
        // What the app sends is no longer read (oasdiff: request-body-removed, ERR).
        #expect(try lines(form, Self.document(request: Self.request), Self.document()) == ["breaking diff.request-body-changed demo GET /items request: the request body was removed: what the app sends is no longer read"])
    }

    @Test(arguments: SpecForm.allCases)
    func realSpecsCompareCleanAgainstThemselvesAndRecursionEnds(_ form: SpecForm) throws {
        let tree: JSONValue = [
            "api": "tree",
            "definitions": [
                "Node": ["type": "object", "properties": ["children": ["type": "array", "items": ["$ref": "#/definitions/Node"]], "name": ["type": "string"]], "required": ["children", "name"], "additionalProperties": true]
            ],
            "endpoints": [["id": "GET /tree", "response": ["model": "Node", "schema": ["$ref": "#/definitions/Node"]]]],
        ]
        #expect(try lines(form, tree, tree) == [])
        var changed = tree.objectValue!
        changed["definitions"] = [
            "Node": ["type": "object", "properties": ["children": ["type": "array", "items": ["$ref": "#/definitions/Node"]], "name": ["type": "integer"]], "required": ["children", "name"], "additionalProperties": true]
        ]
        #expect(try lines(form, tree, .object(changed)) == ["breaking diff.type-changed tree GET /tree response /name: the type changed from string to integer"])
    }

    @Test func theTextReportGroupsOneCauseAcrossEndpoints() {
        // A shared date that changed type shows in three answers: one cause, one line and its places; a lone
        // change keeps its own line.
        let message = "the type changed from number to string"
        let changes = [
            SpecChange(.breaking, .typeChanged, api: "vg", endpoint: "GET /a", location: "response /data/*/startDate", message: message),
            SpecChange(.breaking, .typeChanged, api: "vg", endpoint: "GET /b", location: "response /data/startDate", message: message),
            SpecChange(.breaking, .typeChanged, api: "vg", endpoint: "GET /c", location: "response /data/*/event/startDate", message: message),
            SpecChange(.breaking, .typeChanged, api: "vg", endpoint: "POST /a", location: "request /startDate", message: message),
        ]
        #expect(
            SpecChangeRenderer.render(changes, as: .text) == """
                breaking diff.type-changed vg response …/startDate, 3 places on 3 endpoints: \(message)
                    GET /a response /data/*/startDate; GET /b response /data/startDate; GET /c response /data/*/event/startDate
                breaking diff.type-changed vg POST /a request /startDate: \(message)
                4 breaking, 0 warning, 0 compatible

                """)
        // Every change stays in the JSON.
        #expect(SpecChangeRenderer.render(changes, as: .json).matches(of: /"location"/).count == 4)
    }
}
