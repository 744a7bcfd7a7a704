import Foundation
import Testing
import UnderstudyCore
import UnderstudyMock
import UnderstudyOpenAPI
import UnderstudySpecs

@testable import UnderstudyCLI

/// `understudy validate --fixtures DIR`: recordings committed with an app are judged again against the current
/// descriptors, and the ones a breaking change made wrong are named as stale.
struct RecordingValidationTests {
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-recordings-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func document(requiringColor: Bool) -> String {
        """
        openapi: 3.0.3
        info: {title: Shop, version: "\(requiringColor ? 2 : 1)"}
        components:
          schemas:
            Item:
              type: object
              required: [id, name\(requiringColor ? ", color" : "")]
              properties:
                id: {type: integer}
                name: {type: string}
                color: {type: string}
        paths:
          /items/{id}:
            parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
            get:
              responses:
                '200': {description: An item, content: {application/json: {schema: {$ref: '#/components/schemas/Item'}}}}
        """
    }

    /// `mock --spec --stateless --fixtures DIR` answers what was recorded, before the document's examples and
    /// generated bodies; a status with no recording is answered as before.
    @Test func aStatelessMockReplaysTheRecordedAnswer() async throws {
        let spec = try OpenAPIImport.spec(Array(Self.document(requiringColor: false).utf8), source: "shop.yaml")
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recorded: JSONValue = ["id": 7, "name": "Lamp", "color": "amber"]
        let fixture = EndpointFixture(endpoint: "GET /items/{id}", request: nil, responses: [200: recorded])
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(spec.id), withIntermediateDirectories: true)
        try Data(fixture.jsonValue.serialized().utf8).write(
            to: folder.appendingPathComponent(spec.id).appendingPathComponent(fixture.fileName))
        let configuration = MockConfiguration(fixturesDirectory: folder)
        let engine = MockEngine(behaviour: try FixtureMock(spec: spec, replaying: configuration), configuration: configuration)
        let answer = await engine.respond(to: RawRequest(method: "GET", path: "/items/7"))
        #expect(answer.status == 200)
        #expect(try JSONParser().parse(answer.body) == recorded)
        let generated = await MockEngine(behaviour: FixtureMock(spec: spec)).respond(
            to: RawRequest(method: "GET", path: "/items/7"))
        #expect(try JSONParser().parse(generated.body) != recorded)
    }

    /// A recorded list of a nested resource is replayed under the parent its request named (`/owners/77/pets`),
    /// which the replay makes when the recordings hold no read of it.
    @Test func aRecordedNestedListIsReplayedUnderItsParent() async throws {
        let spec = try SpecMockTests.spec(SpecMockTests.shelter)
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var fixture = EndpointFixture(
            endpoint: "GET /owners/{ownerId}/pets", request: nil,
            responses: [200: [["id": "4f0c1e8a-3b6d-4c2a-9e1f-7a5b3c2d1e0f", "name": "Recorded Rex", "species": "dog"]]])
        fixture.path = ["ownerId": "77"]
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(spec.id), withIntermediateDirectories: true)
        try Data(fixture.jsonValue.serialized().utf8).write(
            to: folder.appendingPathComponent(spec.id).appendingPathComponent(fixture.fileName))
        #expect(try EndpointFixture(json: fixture.jsonValue).path == ["ownerId": "77"])

        let configuration = MockConfiguration(fixturesDirectory: folder)
        let engine = MockEngine(behaviour: try await ResourceMock(spec: spec, configuration: configuration), configuration: configuration)
        let pets = await engine.respond(to: RawRequest(method: "GET", path: spec.basePath + "/owners/77/pets"))
        #expect(pets.status == 200)
        let names = try JSONParser().parse(pets.body).arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        #expect(names == ["Recorded Rex"])
        let owner = await engine.respond(to: RawRequest(method: "GET", path: spec.basePath + "/owners/77"))
        #expect(owner.status == 200)
        #expect(try JSONParser().parse(owner.body)["id"] == 77)
    }

    /// What `understudy generate` writes holds against the spec it was written from, for all five APIs.
    @Test func freshRecordingsHold() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try Generate.write(Specs.all, seed: 3, to: folder)
        let findings = try Validate.checkRecordings(in: folder, specs: Specs.all)
        #expect(findings.filter { $0.severity == .error }.map(\.summary) == [])
    }

    /// After a breaking change (a member becomes required), the recording made before it is named as stale, with
    /// the file and what no longer holds; a recording of an endpoint that is gone is stale too.
    @Test func aBreakingChangeMakesRecordingsStale() throws {
        let before = try OpenAPIImport.spec(Array(Self.document(requiringColor: false).utf8), source: "shop.yaml")
        let after = try OpenAPIImport.spec(Array(Self.document(requiringColor: true).utf8), source: "shop.yaml")
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recorded = EndpointFixture(
            endpoint: "GET /items/{id}", request: nil, responses: [200: ["id": 7, "name": "Lamp"]])
        let gone = EndpointFixture(endpoint: "DELETE /items/{id}", request: nil, responses: [204: .null])
        let apiFolder = folder.appendingPathComponent(before.id)
        try FileManager.default.createDirectory(at: apiFolder, withIntermediateDirectories: true)
        for fixture in [recorded, gone] {
            try Data(fixture.jsonValue.serialized(.pretty).utf8).write(to: apiFolder.appendingPathComponent(fixture.fileName))
        }

        let earlier = try Validate.checkRecordings(in: folder, specs: [before]).filter { $0.severity == .error }
        #expect(earlier.map(\.rule) == [.recordingStale])

        let stale = try Validate.checkRecordings(in: folder, specs: [after]).filter { $0.severity == .error }
        let missing = try #require(stale.first { $0.rule == .requiredMissing })
        #expect(missing.endpoint == "GET /items/{id}")
        #expect(missing.pointer == JSONPointer(tokens: ["color"]))
        #expect(missing.message.hasPrefix("stale recording \(before.id)/GET_items_{id}.json: "))
        #expect(stale.contains { $0.rule == .recordingStale && $0.message.contains("DELETE /items/{id}") })
    }
}
