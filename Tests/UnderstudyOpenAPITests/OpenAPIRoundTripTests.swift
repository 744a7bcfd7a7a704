import Foundation
import Testing
import UnderstudyCore
import UnderstudyOpenAPI
import UnderstudySpecs

/// Export then import gives back the spec: the canonical JSON `diff` compares is unchanged.
struct OpenAPIRoundTripTests {
    static let specs = Specs.all.map { ($0.id, $0) }

    @Test(arguments: Specs.all.map(\.id))
    func roundTripHasNoChanges(_ id: String) throws {
        let spec = try #require(Specs.all.first { $0.id == id })
        let imported = try OpenAPIImport.spec(Array(try OpenAPIExport.json(spec).utf8), source: "\(id).openapi.json")
        #expect(SpecDiff.compare(old: spec.canonicalJSON, new: imported.canonicalJSON).map(\.line) == [])
        #expect(imported.canonicalJSON == spec.canonicalJSON)
    }

    @Test(arguments: Specs.all.map(\.id))
    func yamlRoundTripHasNoChanges(_ id: String) throws {
        let spec = try #require(Specs.all.first { $0.id == id })
        let imported = try OpenAPIImport.spec(Array(try OpenAPIExport.yaml(spec).utf8), source: "\(id).openapi.yaml")
        #expect(SpecDiff.compare(old: spec.canonicalJSON, new: imported.canonicalJSON).map(\.line) == [])
    }

    /// What the built-in descriptors declare where inference would be wrong (`GET /api/events/nearby` searches the
    /// events; 42's slots are listed under `/v2/me`) travels in `x-understudy-resource`: the exported document infers
    /// the same resource graph, and a user can correct it there.
    @Test(arguments: Specs.all.map(\.id))
    func resourceDeclarationsTravelThroughTheExport(_ id: String) throws {
        let spec = try #require(Specs.all.first { $0.id == id })
        let imported = try OpenAPIImport.spec(Array(try OpenAPIExport.json(spec).utf8), source: "\(id).openapi.json")
        // The exported document lists its endpoints by path: only the order of those in no resource may differ.
        func resources(_ spec: APISpec) -> [Substring] {
            ResourceGraph(spec: spec).text(api: id).split(separator: "\n").filter { !$0.contains("other endpoints:") }
        }
        #expect(resources(imported) == resources(spec))
        let declared = Set(spec.endpoints.filter { $0.resource != nil }.map(\.id))
        #expect(Set(imported.endpoints.filter { $0.resource != nil }.map(\.id)) == declared)
        if id == "videgreniers" {
            let events = try #require(ResourceGraph(spec: imported).resources.first { $0.name == "events" })
            #expect(events.operation(.search)?.endpoint == "GET /api/events/nearby")
        }
        if id == "intra42" {
            let slots = try #require(ResourceGraph(spec: imported).resources.first { $0.name == "slots" })
            #expect(slots.operation(.list)?.endpoint == "GET /v2/me/slots")
        }
    }
}
