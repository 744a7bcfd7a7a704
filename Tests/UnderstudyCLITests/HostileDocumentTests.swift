import ArgumentParser
import Foundation
import Testing
import UnderstudyCheck
import UnderstudyCore
import UnderstudyTestSupport
import UnderstudyMock
import UnderstudyMockServer

@testable import UnderstudyCLI

/// Documents a user brings that used to kill the mock or hang a command (issue #22): models that refer to
/// themselves (directly, through `allOf`, through another model), a required self-reference no value satisfies, a
/// 50,000-link `$ref` chain, two templates in one path segment, a 5 MB document. Each is read by `list`, served by
/// `mock --spec` (whose answers must validate against the document), checked by `check --spec` and compared by
/// `diff`: no crash, and a clear error where the document cannot be served. `HostileDocumentBinaryTests` runs the
/// same cases through the built binary.
struct HostileDocumentTests {
    /// An OpenAPI 3.1 document with these paths and component schemas.
    static func document(paths: JSONValue, schemas: JSONValue) -> JSONValue {
        [
            "openapi": "3.1.0", "info": ["title": "Hostile", "version": "1"], "paths": paths,
            "components": ["schemas": schemas],
        ]
    }

    /// A collection and an item of `model`, under `/name`.
    static func resource(_ name: String, _ model: String) -> [String: JSONValue] {
        let item: JSONValue = ["$ref": .string("#/components/schemas/\(model)")]
        let answer = { (status: String, schema: JSONValue) -> JSONValue in
            [status: ["description": "ok", "content": ["application/json": ["schema": schema]]]]
        }
        return [
            "/\(name)": [
                "get": ["responses": answer("200", ["type": "array", "items": item])],
                "post": [
                    "requestBody": ["required": true, "content": ["application/json": ["schema": item]]],
                    "responses": answer("201", item),
                ],
            ],
            "/\(name)/{id}": [
                "parameters": [["name": "id", "in": "path", "required": true, "schema": ["type": "integer"]]],
                "get": ["responses": ["200": answer("200", item)["200"]!, "404": ["description": "gone"]]],
            ],
        ]
    }

    /// Trees, threads and org charts: models that refer to themselves in each way that ends.
    static let recursive: JSONValue = document(
        paths: .object(
            resource("nodes", "Node").merging(resource("pings", "Ping")) { $1 }.merging(resource("folders", "Folder")) {
                $1
            }),
        schemas: [
            // Directly: optional members and arrays end it.
            "Node": [
                "type": "object", "required": ["id", "name", "children"],
                "properties": [
                    "id": ["type": "integer", "readOnly": true], "name": ["type": "string"],
                    "children": ["type": "array", "items": ["$ref": "#/components/schemas/Node"]],
                    "parent": ["$ref": "#/components/schemas/Node"],
                ],
            ],
            // Through another model, required but nullable.
            "Ping": [
                "type": "object", "required": ["id", "pong"],
                "properties": [
                    "id": ["type": "integer", "readOnly": true],
                    "pong": ["oneOf": [["$ref": "#/components/schemas/Pong"], ["type": "null"]]],
                ],
            ],
            "Pong": [
                "type": "object", "required": ["ping"],
                "properties": ["ping": ["oneOf": [["$ref": "#/components/schemas/Ping"], ["type": "null"]]]],
            ],
            // Through `allOf`, which names the model itself.
            "Folder": [
                "allOf": [
                    ["$ref": "#/components/schemas/Folder"],
                    [
                        "type": "object", "required": ["id", "title"],
                        "properties": [
                            "id": ["type": "integer", "readOnly": true], "title": ["type": "string"],
                            "subfolders": ["type": "array", "items": ["$ref": "#/components/schemas/Folder"]],
                        ],
                    ],
                ]
            ],
        ])

    /// `Node` requires `child`, a `Node`: no value exists.
    static let impossible: JSONValue = document(
        paths: .object(resource("nodes", "Node")),
        schemas: [
            "Node": [
                "type": "object", "required": ["child"],
                "properties": ["child": ["$ref": "#/components/schemas/Node"]],
            ]
        ])

    /// `Link0 → Link1 → … → Link49999 → Leaf`.
    static let chain: JSONValue = {
        var schemas: [String: JSONValue] = [
            "Leaf": [
                "type": "object", "required": ["id", "name"],
                "properties": ["id": ["type": "integer", "readOnly": true], "name": ["type": "string"]],
            ]
        ]
        let links = 50_000
        for index in 0..<links {
            let next = index == links - 1 ? "Leaf" : "Link\(index + 1)"
            schemas["Link\(index)"] = ["$ref": .string("#/components/schemas/\(next)")]
        }
        return document(paths: .object(resource("leaves", "Link0")), schemas: .object(schemas))
    }()

    /// `/files/{name}.{ext}`: two templates in one segment.
    static let templated: JSONValue = document(
        paths: [
            "/files/{name}.{ext}": [
                "parameters": [
                    ["name": "name", "in": "path", "required": true, "schema": ["type": "string"]],
                    ["name": "ext", "in": "path", "required": true, "schema": ["type": "string", "enum": ["pdf", "txt"]]],
                ],
                "get": [
                    "responses": [
                        "200": ["description": "the file", "content": ["application/json": ["schema": ["type": "object"]]]],
                        "400": ["description": "bad name"],
                    ]
                ],
            ]
        ],
        schemas: [:])

    /// About 5 MB: 1,500 resources of 40 described members each.
    static let large: JSONValue = {
        var paths: [String: JSONValue] = [:]
        var schemas: [String: JSONValue] = [:]
        for index in 0..<1_500 {
            paths.merge(resource("things\(index)", "Thing\(index)")) { $1 }
            var properties: [String: JSONValue] = ["id": ["type": "integer", "readOnly": true]]
            for member in 0..<40 {
                properties["member\(member)"] = [
                    "type": "string", "description": .string(String(repeating: "A member of thing \(index). ", count: 3)),
                ]
            }
            schemas["Thing\(index)"] = ["type": "object", "required": ["id"], "properties": .object(properties)]
        }
        return document(paths: .object(paths), schemas: .object(schemas))
    }()

    static func write(_ document: JSONValue, _ name: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-hostile-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent(name)
        try Data(document.serializedBytes()).write(to: file)
        return file.path
    }

    static func spec(_ document: JSONValue) throws -> APISpec {
        try SpecFiles.load([try write(document, "hostile.json")])[0]
    }

    /// Serves `spec` statefully on loopback, checks it with `--allow-writes`, and returns the mock's answers to a
    /// list and to a create of `resource` with `body`, each validated against the document.
    static func serveAndCheck(_ spec: APISpec, resource: String, body: JSONValue) async throws {
        let server = try await MockServer.start(try await ResourceMock(spec: spec))
        do {
            let engine = server.engine
            let endpoint = try #require(spec.endpoint("GET /\(resource)"))
            let list = await engine.respond(to: RawRequest(method: "GET", path: "/\(resource)"))
            #expect(list.status == 200)
            let validator = Validator(definitions: spec.definitions)
            let listed = try JSONValue(parsing: list.body)
            #expect(validator.validate(listed, against: try #require(endpoint.response).schema).filter { $0.severity == .error } == [])
            let created = await engine.respond(
                to: RawRequest(
                    method: "POST", path: "/\(resource)", headers: ["Content-Type": "application/json"],
                    body: body.serializedBytes()))
            #expect(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
            let create = try #require(spec.endpoint("POST /\(resource)"))
            #expect(
                validator.validate(try JSONValue(parsing: created.body), against: try #require(create.response).schema)
                    .filter { $0.severity == .error } == [])
            let report = await Checker(
                spec: spec,
                options: CheckOptions(
                    baseURL: server.baseURL.absoluteString, allowWrites: true,
                    transport: HTTPTransport.Options(timeout: .seconds(120)))
            ).run()
            #expect(report.findings.filter { $0.severity == .error }.map(\.summary) == [])
            #expect(report.coverage.reached == report.coverage.operations)
            await server.stop()
        } catch {
            await server.stop()
            throw error
        }
    }

    @Test func recursiveModelsAreListedServedAndChecked() async throws {
        let spec = try Self.spec(Self.recursive)
        #expect(List.renderResources([spec], format: .text).contains("nodes  /nodes  /nodes/{id}  id <-> id  Node"))
        #expect(SchemaCycles.impossible(in: spec.definitions) == [])
        let tree: JSONValue = [
            "name": "root", "children": [["name": "leaf", "children": []], ["name": "branch", "children": [["name": "twig", "children": []]]]],
        ]
        try await Self.serveAndCheck(spec, resource: "nodes", body: tree)
        try await Self.serveAndCheck(spec, resource: "pings", body: ["pong": ["ping": ["pong": .null]]])
        try await Self.serveAndCheck(spec, resource: "folders", body: ["title": "a", "subfolders": [["title": "b"]]])
    }

    @Test func aRequiredCycleIsAClearStartUpError() async throws {
        let path = try Self.write(Self.impossible, "impossible.json")
        let spec = try SpecFiles.load([path])[0]
        #expect(SchemaCycles.impossible(in: spec.definitions) == [["Node", "child", "Node"]])
        await #expect(throws: MockServerError.self) { _ = try await Mock.parse(["--spec", path, "--port", "0"]).start() }
        do {
            _ = try await Mock.parse(["--spec", path, "--port", "0"]).start()
        } catch {
            #expect(
                "\(error)"
                    == "impossible: no Node can exist: its required members lead back to it (Node.child → Node) without "
                    + "end; make one of them optional or nullable, or give it an alternative")
        }
    }

    @Test func aFiftyThousandLinkChainIsFollowed() async throws {
        let spec = try Self.spec(Self.chain)
        #expect(spec.definitions.count == 50_001)
        try await Self.serveAndCheck(spec, resource: "leaves", body: ["name": "the end"])
        let wrong = Validator(definitions: spec.definitions).validate(["name": 5], against: .ref("Link0"))
        #expect(wrong.map(\.rule) == [.requiredMissing, .typeMismatch])
    }

    @Test func twoTemplatesInOneSegmentAreRouted() async throws {
        let spec = try Self.spec(Self.templated)
        let engine = MockEngine(behaviour: try await ResourceMock(spec: spec))
        #expect(await engine.respond(to: RawRequest(method: "GET", path: "/files/report.final.pdf")).status == 200)
        let refused = await engine.respond(to: RawRequest(method: "GET", path: "/files/report.doc"))
        #expect(refused.status == 400)
        #expect(String(decoding: refused.body, as: UTF8.self).contains("ext"))
        #expect(PathTemplate("/files/{name}.{ext}").match("/files/report.final.pdf") == ["name": "report.final", "ext": "pdf"])
        #expect(PathTemplate("/files/{name}.{ext}").expand(["name": "a b", "ext": "txt"]) == "/files/a%20b.txt")
    }

    /// `/q/{p0}-{p1}-…-{p199}`: matching is one pass over the segment, however many parameters it has (it was
    /// backtracking, and a request that did not match kept both threads busy for good).
    @Test(.timeLimit(.minutes(1))) func twoHundredParametersInOneSegmentAreMatchedInOnePass() async throws {
        let names = (0..<200).map { "p\($0)" }
        let template = "/q/" + names.map { "{\($0)}" }.joined(separator: "-")
        let spec = try Self.spec(
            Self.document(
                paths: [
                    .init(template): [
                        "get": [
                            "parameters": .array(
                                names.map { ["name": .string($0), "in": "path", "required": true, "schema": ["type": "string"]] }),
                            "responses": ["200": ["description": "ok", "content": ["application/json": ["schema": ["type": "object"]]]]],
                        ]
                    ]
                ], schemas: [:]))
        let values = (0..<200).map { "v\($0)" }
        #expect(PathTemplate(template).match("/q/" + values.joined(separator: "-"))?["p199"] == "v199")
        #expect(PathTemplate(template).match("/q/" + values.prefix(150).joined(separator: "-")) == nil)
        let engine = MockEngine(behaviour: try await ResourceMock(spec: spec))
        let served = await engine.respond(to: RawRequest(method: "GET", path: "/q/" + values.joined(separator: "-")))
        #expect(served.status == 200)
        let unmatched = await engine.respond(to: RawRequest(method: "GET", path: "/q/" + values.prefix(150).joined(separator: "-")))
        #expect(unmatched.status == 404)
    }

    @Test func aFiveMegabyteDocumentIsServed() async throws {
        let bytes = Self.large.serializedBytes()
        #expect(bytes.count > 5_000_000)
        let spec = try Self.spec(Self.large)
        #expect(spec.endpoints.count == 4_500)
        #expect(ResourceGraph(spec: spec).resources.count == 1_500)
        let engine = MockEngine(behaviour: try await ResourceMock(spec: spec))
        #expect(await engine.respond(to: RawRequest(method: "GET", path: "/things1499")).status == 200)
    }

    @Test func recursiveDocumentsAreCompared() throws {
        let old = try Self.write(Self.recursive, "hostile.json")
        var changed = Self.recursive
        changed[pointer: "/components/schemas/Node/properties/label"] = ["type": "string"]
        let new = try Self.write(changed, "hostile.json")
        let changes = try Diff.changes(old: old, new: new, baseline: nil, api: .all)
        #expect(SpecChangeRenderer.render(changes, as: .text).contains("diff.property-added"))
        #expect(try Diff.changes(old: old, new: old, baseline: nil, api: .all) == [])
    }
}

/// The hostile documents as command lines, through the built binary: `list`, `mock`, `check` and `diff` answer, and
/// the document no value satisfies stops `mock` with status 2 and the cycle named.
struct HostileDocumentBinaryTests {
    @Test func everyCommandAnswersARecursiveDocument() async throws {
        let recursive = try HostileDocumentTests.write(HostileDocumentTests.recursive, "hostile.json")
        let listed = try await UnderstudyBinary.run(["list", "--resources", "--spec", recursive])
        #expect(listed.status == 0)
        #expect(listed.stdout.contains("folders  /folders  /folders/{id}  id <-> id  Folder"))

        let mock = try RunningMock(["mock", "--spec", recursive, "--port", "0"])
        defer { mock.stop() }
        let base = try #require(mock.urls["hostile"])
        let tree = #"{"name": "root", "children": [{"name": "leaf", "children": []}], "parent": {"name": "up", "children": []}}"#
        let created = try await LoopbackHTTP.send("POST", "\(base)/nodes", text: tree)
        #expect(created.status == 201)
        // What the client sent is kept, nested nodes given the ids the server adds.
        let node = try JSONValue(parsing: Array(created.body))
        #expect(node["parent"]?["name"] == "up" && node["parent"]?["id"]?.numberValue != nil)
        #expect(node["children"]?[0]?["name"] == "leaf" && node["children"]?[0]?["children"] == [])
        let checked = try await UnderstudyBinary.run(["check", "--spec", recursive, "--base-url", base, "--allow-writes"])
        #expect(checked.status == 0, "\(checked.stdout)")

        var changed = HostileDocumentTests.recursive
        changed[pointer: "/components/schemas/Pong/properties/label"] = ["type": "string"]
        let new = try HostileDocumentTests.write(changed, "hostile.json")
        let compatible = try await UnderstudyBinary.run(["diff", recursive, new])
        #expect(compatible.status == 0)
        #expect(compatible.stdout.contains("compatible diff.property-added"))
        changed[pointer: "/components/schemas/Ping/required"] = ["id"]
        let breaking = try await UnderstudyBinary.run(
            ["diff", recursive, try HostileDocumentTests.write(changed, "hostile.json")])
        #expect(breaking.status == 1)
        #expect(breaking.stdout.contains("breaking"))
    }

    @Test func aDocumentNoValueSatisfiesStopsTheMockClearly() async throws {
        let impossible = try HostileDocumentTests.write(HostileDocumentTests.impossible, "impossible.json")
        let run = try await UnderstudyBinary.run(["mock", "--spec", impossible, "--port", "0"])
        #expect(run.status == 2)
        #expect(
            run.stderr
                == "error: cannot start the mock: impossible: no Node can exist: its required members lead back to it "
                + "(Node.child → Node) without end; make one of them optional or nullable, or give it an alternative\n")

        // `lint` names it as an error, with the operations whose bodies it is; a recursive model that ends is clean.
        let lint = try await UnderstudyBinary.run(["lint", "--spec", impossible])
        #expect(lint.status == 1)
        #expect(
            lint.stdout.contains(
                "error no Node can exist: its required members lead back to it (Node.child → Node) without end; "
                    + "make one of them optional or nullable, or give it an alternative [lint.impossible-cycle]"),
            "\(lint.stdout)")
        #expect(lint.stdout.contains("endpoints (3): GET /nodes, GET /nodes/{id}, POST /nodes"), "\(lint.stdout)")
        let recursive = try HostileDocumentTests.write(HostileDocumentTests.recursive, "recursive.json")
        let clean = try await UnderstudyBinary.run(["lint", "--spec", recursive])
        #expect(!clean.stdout.contains("lint.impossible-cycle"), "\(clean.stdout)")
    }
}
