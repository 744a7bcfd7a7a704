import Foundation
import UnderstudyCore

/// Serves any ``APISpec`` statefully: a ``ResourceEngine`` keeps the items of the resources inferred from it, in a
/// state of their own, seeded from the document's examples (or a fixtures folder) and generated items. Everything
/// else is the ``FixtureMock``'s: routing, security, validation, documented statuses, headers and paging, and the
/// answers of the endpoints that belong to no resource.
///
/// ```swift
/// let spec = try OpenAPIImport.spec(bytes, source: "petstore.yaml")
/// let server = try await MockServer.start(try await ResourceMock(spec: spec))
/// ```
package final class ResourceMock: ReadsFixtures {
    /// The stateless answers this mock refines.
    package let fixture: FixtureMock
    package var fixtures: FixtureSource? { fixture.fixtures }
    let resources: ResourceEngine<ResourceState>
    /// The resources whose items are kept.
    package var graph: ResourceGraph { resources.graph }
    var store: StateStore<ResourceState> { resources.store }

    /// Creates the mock of `spec`, its state seeded from the document's examples (or the fixtures folder) and
    /// generated items, or read from the state file.
    /// - Throws: ``StateFileError`` when the state file cannot be used, or a fixture file cannot be read.
    package init(spec: APISpec, configuration: MockConfiguration = MockConfiguration()) async throws {
        let source = try FixtureSource(seed: configuration.seed, folder: configuration.fixturesDirectory, specs: [spec])
        fixture = FixtureMock(spec: spec, configuration: configuration, recorded: source)
        let graph = ResourceGraph(spec: spec)
        let initial = ResourceSeed(spec: spec, graph: graph, source: source, now: configuration.now).state()
        let store = try await configuration.stateStore(
            seed: initial, for: spec.id, kind: "understudy resources of \(spec.id)")
        resources = ResourceEngine(
            spec: spec, graph: graph, fixture: fixture, store: store, tables: \.self, configuration: configuration)
    }

    package var name: String { fixture.name }
    package var ignoresUndeclaredQuery: Bool { fixture.ignoresUndeclaredQuery }
    package var specs: [APISpec] { fixture.specs }
    package var validationStatus: HTTPStatus { fixture.validationStatus }
    package var stateVersion: UInt64 { store.version }
    package var sharesState: Bool { store.isShared }

    package func synchronize() async throws { try await store.synchronize() }

    package func authenticate(_ request: MockRequest, endpoint: AnyEndpoint) async throws -> Principal? {
        try await fixture.authenticate(request, endpoint: endpoint)
    }

    package func errorResponse(_ error: MockError, spec: APISpec, endpoint: AnyEndpoint) -> MockResponse {
        fixture.errorResponse(error, spec: spec, endpoint: endpoint)
    }

    package func unreadableBody(mediaType: String) -> UnreadableBody? { fixture.unreadableBody(mediaType: mediaType) }

    package func reset() async throws { try await store.reset() }

    package func issueToken(for user: String?) async throws -> JSONValue { try await fixture.issueToken(for: user) }

    package func startupNotes() async -> [String] {
        var notes = await fixture.startupNotes()
        let kept = graph.resources.filter { $0.item != nil || $0.operation(.create) != nil }
        if !kept.isEmpty {
            let counts = store.read { state in
                kept.map { "\($0.name) (\(state.tables[$0.name]?.count ?? 0))" }
            }
            notes.insert("stateful: \(counts.joined(separator: ", ")); POST /__understudy/reset restores them", at: 1)
        }
        return notes
    }

    package func handle(_ request: MockRequest, endpoint: AnyEndpoint, spec: APISpec) async throws -> MockResponse? {
        try await resources.handle(request, endpoint: endpoint)
    }
}
