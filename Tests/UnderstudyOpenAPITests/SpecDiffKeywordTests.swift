import Testing
import UnderstudyCore
import UnderstudyOpenAPI

/// The keywords the schema engine compiles and `diff` now compares (JSON Schema 2020-12's applicators, `not` with its
/// polarity, `anyOf`/`oneOf` branches), each in both directions and on both forms (canonical, and an OpenAPI document
/// changed and imported). The levels follow oasdiff's checker tests (`../shared/conformance/oasdiff`), where the
/// pair's rule is named.
struct SpecDiffKeywordTests {
    func lines(_ form: SpecForm, _ old: JSONValue, _ new: JSONValue) throws -> [String] {
        SpecDiff.compare(old: try form.version(old), new: try form.version(new)).map(\.line)
    }

    /// The demo document whose request body is `schema`.
    func request(_ schema: JSONValue) -> JSONValue { SpecDiffTests.document(request: schema) }

    /// The demo document whose item has a property `value` of `schema`.
    func answer(_ schema: JSONValue) -> JSONValue { SpecDiffTests.document(item: SpecDiffTests.property("value", schema)) }

    @Test(arguments: SpecForm.allCases)
    func containsAndPrefixItems(_ form: SpecForm) throws {
        let plain: JSONValue = ["type": "array", "items": ["type": "string"]]
        let containing: JSONValue = ["type": "array", "items": ["type": "string"], "contains": ["const": "a"]]
        // oasdiff: request-body-contains-added ERR, response-body-contains-removed ERR.
        #expect(try lines(form, request(plain), request(containing)) == ["breaking diff.constraint-changed demo GET /items request /: contains was added: values the app may send are refused"])
        #expect(try lines(form, request(containing), request(plain)) == ["compatible diff.constraint-changed demo GET /items request /: contains was removed: more values are accepted"])
        #expect(try lines(form, answer(containing), answer(plain)) == ["breaking diff.constraint-changed demo GET /items response /*/value: contains was removed: values outside the old bounds may be sent"])
        let pair: JSONValue = ["type": "array", "prefixItems": [["type": "string"], ["type": "integer"]]]
        let widened: JSONValue = ["type": "array", "prefixItems": [["type": "string"], ["type": "number"]]]
        #expect(try lines(form, request(pair), request(widened)) == ["compatible diff.type-changed demo GET /items request /1: the type changed from integer to number, which still accepts what is sent"])
        #expect(try lines(form, answer(pair), answer(widened)) == ["breaking diff.type-changed demo GET /items response /*/value/1: the type changed from integer to number"])
    }

    @Test(arguments: SpecForm.allCases)
    func notTurnsTheJudgementRound(_ form: SpecForm) throws {
        let one: JSONValue = ["type": "string", "not": ["enum": ["x"]]]
        let two: JSONValue = ["type": "string", "not": ["enum": ["x", "y"]]]
        // What not rules out grows: the request accepts less.
        #expect(try lines(form, request(["type": "object", "properties": ["kind": one]]), request(["type": "object", "properties": ["kind": two]])) == [
            #"breaking diff.constraint-changed demo GET /items request /kind/(not): the values not rules out changed from "x" to "x", "y": values the app may send are refused"#
        ])
        #expect(try lines(form, request(["type": "object", "properties": ["kind": two]]), request(["type": "object", "properties": ["kind": one]])) == [
            #"compatible diff.constraint-changed demo GET /items request /kind/(not): the values not rules out changed from "x", "y" to "x": more values are accepted"#
        ])
        let short: JSONValue = ["type": "string", "not": ["maxLength": 2]]
        let shorter: JSONValue = ["type": "string", "not": ["maxLength": 1]]
        // A `not` schema that admits less rules out less: the answer may now hold more.
        #expect(try lines(form, answer(short), answer(shorter)) == ["breaking diff.constraint-changed demo GET /items response /*/value/(not): maxLength changed from 2 to 1: values outside the old bounds may be sent"])
    }

    @Test(arguments: SpecForm.allCases)
    func conditionalsAndDependencies(_ form: SpecForm) throws {
        let base: JSONValue = ["type": "object", "properties": ["kind": ["type": "string"], "size": ["type": "integer"]]]
        var conditional = base.objectValue!
        conditional["if"] = ["properties": ["kind": ["const": "big"]], "required": ["kind"]]
        conditional["then"] = ["required": ["size"]]
        // oasdiff: request-body-if-added ERR; response-property-if-removed ERR.
        #expect(try lines(form, request(base), request(.object(conditional))) == ["breaking diff.constraint-changed demo GET /items request /: if/then/else was added: values the app may send are refused"])
        #expect(try lines(form, answer(.object(conditional)), answer(base)) == ["breaking diff.constraint-changed demo GET /items response /*/value: if/then/else was removed: values outside the old bounds may be sent"])
        var dependent = base.objectValue!
        dependent["dependentRequired"] = ["kind": ["size"]]
        #expect(try lines(form, request(base), request(.object(dependent))) == [#"breaking diff.constraint-changed demo GET /items request /: dependentRequired of "kind" changed from [] to ["size"]: values the app may send are refused"#])
        var names = base.objectValue!
        names["propertyNames"] = ["maxLength": 4]
        #expect(try lines(form, answer(.object(names)), answer(base)) == ["breaking diff.constraint-changed demo GET /items response /*/value: propertyNames was removed: values outside the old bounds may be sent"])
        var patterned = base.objectValue!
        patterned["patternProperties"] = ["^x-": ["type": "string"]]
        var patternedInteger = patterned
        patternedInteger["patternProperties"] = ["^x-": ["type": "integer"]]
        #expect(try lines(form, request(.object(patterned)), request(.object(patternedInteger))) == [#"breaking diff.type-changed demo GET /items request /(patternProperties "^x-"): the type changed from string to integer"#])
    }

    @Test(arguments: SpecForm.allCases)
    func branchesAddedRemovedAndTheSameShapeUnderAnotherName(_ form: SpecForm) throws {
        let cat: JSONValue = ["type": "object", "properties": ["name": ["type": "string"]]]
        let dog: JSONValue = ["type": "object", "properties": ["bark": ["type": "boolean"]], "required": ["bark"]]
        let fish: JSONValue = ["type": "object", "properties": ["fins": ["type": "integer"]], "required": ["fins"]]
        let two: JSONValue = ["anyOf": [cat, dog]]
        let three: JSONValue = ["anyOf": [cat, dog, fish]]
        #expect(try lines(form, answer(two), answer(three)) == ["breaking diff.alternative-added demo GET /items response /*/value: new anyOf branch 2; the app cannot decode it"])
        #expect(try lines(form, answer(three), answer(two)) == ["compatible diff.alternative-removed demo GET /items response /*/value: anyOf branch 2 is no longer sent"])
        #expect(try lines(form, request(three), request(two)) == ["breaking diff.alternative-removed demo GET /items request /: anyOf branch 2 is no longer accepted, and the app may send it"])
        // A branch written as one already there admits nothing new (oasdiff: response-property-any-of-added, INFO).
        let rabbit: JSONValue = ["title": "Rabbit", "type": "object", "properties": ["name": ["type": "string"]]]
        #expect(try lines(form, answer(two), answer(["anyOf": [cat, dog, rabbit]])) == [])
        // A branch changed in place is compared as itself.
        let bigDog: JSONValue = ["type": "object", "properties": ["bark": ["type": "boolean"], "size": ["type": "integer"]], "required": ["bark", "size"]]
        #expect(try lines(form, request(two), request(["anyOf": [cat, bigDog]])) == ["breaking diff.property-added demo GET /items request /(anyOf 1)/size: a new required property the app does not send"])
    }

    /// A definition is compared once for the whole diff and its changes replayed wherever it is used.
    @Test(arguments: SpecForm.allCases)
    func aSharedModelsChangeIsReportedAtEveryEndpoint(_ form: SpecForm) throws {
        let endpoints = ["GET /items", "GET /others"]
        #expect(try lines(form, SpecDiffTests.document(endpoints: endpoints), SpecDiffTests.document(item: SpecDiffTests.property("count", ["type": "string"]), endpoints: endpoints)) == [
            "breaking diff.type-changed demo GET /items response /*/count: the type changed from integer to string",
            "breaking diff.type-changed demo GET /others response /*/count: the type changed from integer to string",
        ])
    }

    @Test(arguments: SpecForm.allCases)
    func parameterDefaultsAndDeprecatedParameters(_ form: SpecForm) throws {
        func page(_ fields: [String: JSONValue]) -> JSONValue {
            .object(["name": "page", "in": "query", "required": false, "schema": ["type": "integer"]].merging(fields) { $1 })
        }
        // oasdiff: request-parameter-default-value-changed, ERR.
        #expect(try lines(form, SpecDiffTests.document(parameters: [page(["default": 1])]), SpecDiffTests.document(parameters: [page(["default": 0])])) == ["breaking diff.parameter-default-changed demo GET /items query parameter page: the default changed from 1 to 0: a request that leaves the parameter out now asks for something else"])
        // A parameter the app was told to stop sending goes without breaking it (oasdiff: none).
        #expect(try lines(form, SpecDiffTests.document(parameters: [page(["deprecated": true])]), SpecDiffTests.document()) == ["warning diff.parameter-removed demo GET /items query parameter page: the deprecated parameter was removed"])
    }

    /// Two documents' parameters are compared by their own schemas, every keyword: `multipleOf`, `uniqueItems` and
    /// `const`, which the descriptors' reading of a parameter leaves out, narrow what the app may send.
    @Test func parametersAreComparedByTheDocumentsOwnSchemas() throws {
        func lines(_ old: JSONValue, _ new: JSONValue) throws -> [String] {
            let document = { (schema: JSONValue) -> [UInt8] in
                JSONValue.object([
                    "openapi": "3.1.0", "info": ["title": "demo", "version": "1"],
                    "paths": [
                        "/items": [
                            "get": [
                                "parameters": [["name": "q", "in": "query", "schema": schema]],
                                "responses": ["200": ["description": "ok"]],
                            ]
                        ]
                    ],
                ]).serializedBytes()
            }
            return SpecDiff.compare(
                old: SpecVersion(try OpenAPIImport.spec(document(old), source: "v1.json")),
                new: SpecVersion(try OpenAPIImport.spec(document(new), source: "v2.json"))
            ).map(\.line)
        }
        #expect(try lines(["type": "integer"], ["type": "integer", "multipleOf": 5]) == ["breaking diff.constraint-changed demo GET /items query parameter q: multipleOf changed from none to 5: values the app may send are refused"])
        #expect(try lines(["type": "integer", "multipleOf": 5], ["type": "integer"]) == ["compatible diff.constraint-changed demo GET /items query parameter q: multipleOf changed from 5 to none: more values are accepted"])
        let list: JSONValue = ["type": "array", "items": ["type": "string"]]
        #expect(try lines(list, ["type": "array", "items": ["type": "string"], "uniqueItems": true]) == ["breaking diff.constraint-changed demo GET /items query parameter q: uniqueItems changed from none to true: values the app may send are refused"])
        #expect(try lines(["type": "string"], ["const": "x"]) == ["breaking diff.enum-value-removed demo GET /items query parameter q: the value is now limited to [\"x\"]"])
        // A keyword that applies to no type the value may have constrains nothing (oasdiff's
        // TestRequestParameterMaxDecreased judges it breaking; the README lists why not).
        #expect(try lines(["type": "array", "items": ["type": "integer"], "maximum": 10], ["type": "array", "items": ["type": "integer"], "maximum": 5]) == [])
    }

    /// A null branch is a null branch however it is spelled: `{"type": "null"}`, `{"enum": [null]}`, `{"const": null}`.
    @Test func nullBranchesOfEverySpellingAreOne() throws {
        func document(_ null: JSONValue) -> JSONValue {
            let item: JSONValue = ["type": "object", "properties": ["id": ["type": "string"]], "required": ["id"]]
            return TestDocument.answering(schema: ["type": "object", "properties": ["item": ["anyOf": [item, null]]]])
        }
        let spellings: [JSONValue] = [["type": "null"], ["enum": [.null]], ["const": .null]]
        for old in spellings {
            for new in spellings {
                let changes = SpecDiff.compare(
                    old: SpecVersion(try OpenAPIImport.spec(document(old).serializedBytes(), source: "v1.json")),
                    new: SpecVersion(try OpenAPIImport.spec(document(new).serializedBytes(), source: "v2.json")))
                #expect(changes.map(\.line) == [], "\(old) → \(new)")
            }
        }
    }

    /// A request media type removed refuses the clients that send it, whatever stays; one added takes nothing away;
    /// springdoc's `*/*` is a JSON body. A webhook removed leaves its subscribers waiting.
    @Test func mediaTypesAnyMediaAndWebhooks() throws {
        func document(
            request: [String: JSONValue], answer: String = "application/json", required: [JSONValue] = ["id"],
            webhooks: [String] = []
        ) -> JSONValue {
            let schema: JSONValue = ["type": "object", "properties": ["id": ["type": "string"]], "required": .array(required)]
            return [
                "openapi": "3.1.0", "info": ["title": "media", "version": "1"],
                "paths": [
                    "/items": [
                        "post": [
                            "requestBody": ["required": true, "content": .object(request)],
                            "responses": [
                                "200": [
                                    "description": "ok",
                                    "content": .object([answer: ["schema": schema]]),
                                ]
                            ],
                        ]
                    ]
                ],
                "webhooks": .object(Dictionary(uniqueKeysWithValues: webhooks.map { ($0, ["post": ["responses": ["200": ["description": "ok"]]]]) })),
            ]
        }
        func lines(_ old: JSONValue, _ new: JSONValue) throws -> [String] {
            SpecDiff.compare(
                old: SpecVersion(try OpenAPIImport.spec(old.serializedBytes(), source: "media.json")),
                new: SpecVersion(try OpenAPIImport.spec(new.serializedBytes(), source: "media.json"))
            ).map(\.line)
        }
        let json: JSONValue = ["schema": ["type": "object"]]
        let text: JSONValue = ["schema": ["type": "string"]]
        #expect(try lines(document(request: ["application/json": json, "text/plain": text]), document(request: ["text/plain": text])) == ["breaking diff.request-body-changed media POST /items request: media type application/json is no longer accepted; a client that sends it gets 415"])
        #expect(try lines(document(request: ["text/plain": text]), document(request: ["application/json": json, "text/plain": text])) == ["compatible diff.request-body-changed media POST /items request: media type application/json is accepted too"])
        let before = document(request: ["application/json": json], answer: "*/*")
        let after = document(request: ["application/json": json], answer: "*/*", required: [])
        #expect(try lines(before, after) == ["breaking diff.property-optional media POST /items response /id: the property may now be absent, which the app's non-optional property cannot decode"])
        #expect(try lines(document(request: ["application/json": json], webhooks: ["newPet", "oldPet"]), document(request: ["application/json": json], webhooks: ["newPet", "petSold"])) == [
            "breaking diff.webhook-removed media webhook oldPet: the webhook is no longer called; a subscriber's handler waits for it in vain",
            "compatible diff.webhook-added media webhook petSold: a new webhook",
        ])
    }
}

/// Webhooks and callbacks: the API sends their requests and reads their answers, so each change is judged with the
/// roles turned round (a subscriber's handler reads the request as an app reads an answer).
struct SpecDiffCallTests {
    static func document(
        event: JSONValue, eventRequired: [JSONValue] = ["id"], reply: JSONValue = ["type": "object"],
        callbacks: [String] = ["onEvent"]
    ) -> JSONValue {
        let payload: JSONValue = ["type": "object", "properties": event, "required": .array(eventRequired)]
        let call: JSONValue = [
            "post": [
                "requestBody": ["content": ["application/json": ["schema": payload]]],
                "responses": ["200": ["description": "ok", "content": ["application/json": ["schema": reply]]]],
            ]
        ]
        return [
            "openapi": "3.1.0", "info": ["title": "demo", "version": "1"],
            "paths": [
                "/subscriptions": [
                    "post": [
                        "responses": ["201": ["description": "subscribed"]],
                        "callbacks": .object(Dictionary(uniqueKeysWithValues: callbacks.map {
                            ($0, ["{$request.body#/callbackUrl}": call])
                        })),
                    ]
                ]
            ],
            "webhooks": ["newPet": call],
        ]
    }

    static func lines(_ old: JSONValue, _ new: JSONValue) throws -> [String] {
        SpecDiff.compare(
            old: SpecVersion(try OpenAPIImport.spec(old.serializedBytes(), source: "v1.json")),
            new: SpecVersion(try OpenAPIImport.spec(new.serializedBytes(), source: "v2.json"))
        ).map(\.line)
    }

    @Test func requestsAreReadByTheSubscriber() throws {
        let id: JSONValue = ["type": "string"]
        let kind: JSONValue = ["type": "string", "enum": ["created"]]
        let before = Self.document(event: ["id": id, "kind": kind])
        // A member that may now be absent breaks a handler's decoding; a new member does not; a new enum value does.
        let after = Self.document(
            event: ["id": id, "kind": ["type": "string", "enum": ["created", "deleted"]], "name": ["type": "string"]],
            eventRequired: ["name"])
        let expected = [
            "breaking diff.enum-value-added demo POST /subscriptions callback onEvent POST {$request.body#/callbackUrl} request /kind: new enum value \"deleted\"; the app's enum cannot decode it",
            "breaking diff.property-optional demo POST /subscriptions callback onEvent POST {$request.body#/callbackUrl} request /id: the property may now be absent, which the app's non-optional property cannot decode",
            "breaking diff.enum-value-added demo webhook newPet POST request /kind: new enum value \"deleted\"; the app's enum cannot decode it",
            "breaking diff.property-optional demo webhook newPet POST request /id: the property may now be absent, which the app's non-optional property cannot decode",
            "compatible diff.property-added demo POST /subscriptions callback onEvent POST {$request.body#/callbackUrl} request /name: a new property the app ignores",
            "compatible diff.property-added demo webhook newPet POST request /name: a new property the app ignores",
        ]
        #expect(try Self.lines(before, after).sorted() == expected.sorted())
        // Back again: what the handler reads is now always there, or one value fewer: nothing breaks it.
        #expect(try Self.lines(after, before).allSatisfy { !$0.hasPrefix("breaking") || $0.contains("/name") })
    }

    @Test func answersAreWrittenByTheSubscriber() throws {
        let event: JSONValue = ["id": ["type": "string"]]
        let before = Self.document(event: event, reply: ["type": "object", "properties": ["ok": ["type": "boolean"]]])
        let after = Self.document(
            event: event,
            reply: ["type": "object", "properties": ["ok": ["type": "boolean"]], "required": ["ok"]])
        // The API now requires a member of the answer its subscriber's handler may leave out.
        #expect(try Self.lines(before, after) == [
            "breaking diff.property-required demo webhook newPet POST response /ok: the property became required, and the app may omit it",
            "breaking diff.property-required demo POST /subscriptions callback onEvent POST {$request.body#/callbackUrl} response /ok: the property became required, and the app may omit it",
        ])
    }

    @Test func callbacksRemovedAndAdded() throws {
        let event: JSONValue = ["id": ["type": "string"]]
        #expect(try Self.lines(Self.document(event: event), Self.document(event: event, callbacks: ["onDone"])) == [
            "breaking diff.callback-removed demo POST /subscriptions callback onEvent POST {$request.body#/callbackUrl}: the API no longer makes the call; a subscriber's handler waits for it in vain",
            "compatible diff.callback-added demo POST /subscriptions callback onDone POST {$request.body#/callbackUrl}: a new call the API makes",
        ])
    }
}

/// Response headers, which only documents declare (oasdiff's `response-header-removed`: ERR for a required header,
/// WARN for an optional one; `response-header-became-optional` ERR).
struct SpecDiffHeaderTests {
    static func document(_ headers: [String: JSONValue]) throws -> SpecVersion {
        let document = TestDocument.answering([
            "headers": .object(headers),
            "content": ["application/json": ["schema": ["type": "array", "items": ["type": "string"]]]],
        ])
        return SpecVersion(try OpenAPIImport.spec(document.serializedBytes(), source: "demo.json", fallbackID: "demo"))
    }

    static func header(required: Bool, _ schema: JSONValue = ["type": "integer"]) -> JSONValue {
        ["required": .bool(required), "schema": schema]
    }

    func lines(_ old: [String: JSONValue], _ new: [String: JSONValue]) throws -> [String] {
        SpecDiff.compare(old: try Self.document(old), new: try Self.document(new)).map(\.line)
    }

    @Test func headersAreJudgedAsAnAnswer() throws {
        let limit = ["X-Rate-Limit": Self.header(required: true)]
        let optional = ["X-Rate-Limit": Self.header(required: false)]
        #expect(try lines(limit, limit) == [])
        #expect(try lines(limit, [:]) == ["breaking diff.header-removed demo GET /items 200 header X-Rate-Limit: the response header is no longer sent"])
        #expect(try lines(optional, [:]) == ["warning diff.header-removed demo GET /items 200 header X-Rate-Limit: the response header is no longer sent"])
        #expect(try lines([:], optional) == ["compatible diff.header-added demo GET /items 200 header X-Rate-Limit: a new response header"])
        #expect(try lines(limit, optional) == ["breaking diff.header-optional demo GET /items 200 header X-Rate-Limit: the response header may now be absent"])
        #expect(try lines(optional, limit) == ["compatible diff.header-required demo GET /items 200 header X-Rate-Limit: the response header is now always sent"])
        // A header's value is read by the app: a wider one breaks it, a narrower one does not.
        let number = ["X-Rate-Limit": Self.header(required: true, ["type": "number"])]
        let widened = try lines(limit, number)
        #expect(widened.count == 1 && widened[0].hasPrefix("breaking diff.type-changed demo GET /items 200 header X-Rate-Limit"), "\(widened)")
        #expect(try lines(number, limit).allSatisfy { !$0.hasPrefix("breaking") })
    }
}
