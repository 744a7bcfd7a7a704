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
}
