import Foundation
import Testing
import UnderstudyCore
import UnderstudySpecs

@testable import UnderstudyCLI

/// The resource graph inferred from each test document, pinned as a golden file under `Tests/Documents/resources/`
/// (`understudy list --resources --format json`), and what inference must get right on its own.
///
/// A golden is written when missing, and anew with `UNDERSTUDY_RECORD_GOLDENS=1`; either way the test fails once so
/// the change is reviewed. CI never records. The graphs are what `mock --spec` keeps state by and `check` explores
/// by: `StatefulSpecMockTests` and `SpecExplorationTests` run them.
struct ResourceGraphTests {
    static let goldens = SpecMockTests.documents.appendingPathComponent("resources")

    /// Every document the tests serve: the ones written for them, and the public ones no one here wrote.
    static var documents: [String] {
        let publicFolder = SpecMockTests.documents.appendingPathComponent("public")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: publicFolder.path)) ?? []
        return ["petstore.yaml", "inventory.json", "shelter.yaml", "zoo-swagger2.yaml", "inbox.yaml", "telephony.yaml"]
            + names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".json") }.sorted().map { "public/\($0)" }
    }

    @Test(arguments: documents)
    func inferredGraphMatchesItsGolden(_ document: String) throws {
        let spec = try SpecMockTests.spec(SpecMockTests.documents.appendingPathComponent(document).path)
        let rendered = List.renderResources([spec], format: .json)
        let name = URL(fileURLWithPath: document).deletingPathExtension().lastPathComponent
        let golden = Self.goldens.appendingPathComponent("\(name).json")
        let recorded = try? String(contentsOf: golden, encoding: .utf8)
        if recorded == nil || ProcessInfo.processInfo.environment["UNDERSTUDY_RECORD_GOLDENS"] == "1" {
            try FileManager.default.createDirectory(at: Self.goldens, withIntermediateDirectories: true)
            try rendered.write(to: golden, atomically: true, encoding: .utf8)
            Issue.record("recorded \(golden.path): review it, then run again")
            return
        }
        #expect(rendered == recorded, "the inferred graph of \(document) changed; see \(golden.path)")
    }

    /// An OpenAPI link is the strongest evidence of an item's identifier: `{ref}` is filled by `handle`, which no
    /// naming rule would pair with it. Links name their target by `operationId` or by `operationRef`
    /// (spec.openapis.org/oas/v3.1.0#link-object).
    @Test func linksNameTheIdentifierInferenceCannotGuess() throws {
        let document = """
            openapi: 3.1.0
            info: {title: Linked, version: "1"}
            paths:
              /badges:
                get:
                  responses:
                    '200':
                      description: the badges
                      content: {application/json: {schema: {type: array, items: {$ref: '#/components/schemas/Badge'}}}}
                      links:
                        first: {operationRef: '#/paths/~1badges~1{ref}/get', parameters: {ref: '$response.body#/0/handle'}}
                post:
                  requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/Badge'}}}}
                  responses:
                    '201':
                      description: created
                      content: {application/json: {schema: {$ref: '#/components/schemas/Badge'}}}
                      links:
                        created: {operationId: getBadge, parameters: {ref: '$response.body#/handle'}}
              /badges/{ref}:
                get:
                  operationId: getBadge
                  parameters: [{name: ref, in: path, required: true, schema: {type: string}}]
                  responses:
                    '200':
                      description: the badge
                      content: {application/json: {schema: {$ref: '#/components/schemas/Badge'}}}
            components:
              schemas:
                Badge:
                  type: object
                  required: [handle, label]
                  properties: {handle: {type: string, readOnly: true}, label: {type: string}}
            """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("linked-\(UUID()).yaml")
        try document.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let spec = try SpecMockTests.spec(file.path)
        #expect(spec.endpoint("POST /badges")?.links == [
            ResponseLink(target: "GET /badges/{ref}", values: ["ref": .responseBody(JSONPointer(tokens: ["handle"]))])
        ])
        #expect(spec.endpoint("GET /badges")?.links.first?.target == "GET /badges/{ref}")
        let badges = try #require(ResourceGraph(spec: spec).resource(named: "badges"))
        #expect(badges.identifier == ResourceIdentifier(parameter: "ref", member: "handle"))
        #expect(badges.basis.contains(.links))
    }

    /// The shelter document says everything inference reads: a nested collection under its parent's item, an
    /// identifier member under another name than the parameter, a custom method, and declarations.
    @Test func shelterIsInferredWithItsDeclarations() throws {
        let spec = try SpecMockTests.spec(SpecMockTests.shelter)
        let graph = ResourceGraph(spec: spec)
        let owners = try #require(graph.resource(named: "owners"))
        #expect(owners.item == "/owners/{ownerId}")
        #expect(owners.identifier == ResourceIdentifier(parameter: "ownerId", member: "id"))
        #expect(owners.operation(.list)?.answer == "/data")
        #expect(owners.basis == [.pathShape, .identifierMember, .location, .listItems, .declared])
        // Declared: a search by POST, which a create would otherwise be taken for.
        #expect(owners.operation(.search) == ResourceOperation(.search, "POST /owners/query", answer: .root))
        let pets = try #require(graph.resource(named: "pets"))
        #expect(pets.parent == ResourceParent(resource: "owners", parameter: "ownerId"))
        #expect(pets.identifier == ResourceIdentifier(parameter: "petId", member: "id"))
        #expect(pets.operations(.action).map(\.endpoint) == ["POST /owners/{ownerId}/pets/{petId}:adopt"])
        // Declared out of every resource.
        #expect(graph.others == ["GET /health"])
    }

    /// 42's slots have no read: the declared list (`GET /v2/me/slots`) gives the item, not the create's request
    /// model, and the create, which answers the slots it opened as a list, is found to answer items.
    @Test func aDeclaredListGivesTheItemOfAResourceWithoutARead() throws {
        let slots = try #require(ResourceGraph(spec: Intra42.spec).resource(named: "slots"))
        #expect(slots.modelName == "Intra42.Slot")
        #expect(slots.operation(.list)?.answer == .root)
        #expect(slots.operation(.create)?.answer == .root)
        #expect(slots.identifier == ResourceIdentifier(parameter: "id", member: "id"))
    }

    /// A path whose read answers a list is a collection named by its parameter, not an item; a write named like a
    /// read is a write.
    @Test func listsByParameterAndWritesNamedLikeReadsAreToldApart() throws {
        let link = try SpecMockTests.spec(SpecMockTests.documents.appendingPathComponent("public/link-example.yaml").path)
        let graph = ResourceGraph(spec: link)
        #expect(graph.resource(withItem: "/2.0/repositories/{username}") == nil)
        let repositories = try #require(graph.resource(withCollection: "/2.0/repositories/{username}"))
        #expect(repositories.operation(.list)?.endpoint == "GET /2.0/repositories/{username}")
        #expect(repositories.identifier == ResourceIdentifier(parameter: "slug", member: "slug"))
        let petstore = try SpecMockTests.spec(
            SpecMockTests.documents.appendingPathComponent("public/swagger-petstore.yaml").path)
        let user = try #require(ResourceGraph(spec: petstore).resource(named: "user"))
        #expect(user.operations(.search).isEmpty)
        #expect(user.operations(.action).map(\.endpoint).contains("POST /user/createWithList"))
        let pet = try #require(ResourceGraph(spec: petstore).resource(named: "pet"))
        #expect(pet.operations(.search).map(\.endpoint) == ["GET /pet/findByStatus", "GET /pet/findByTags"])
        // `PUT /pet` names the pet in its body.
        #expect(pet.operation(.replace)?.endpoint == "PUT /pet")
    }
}
