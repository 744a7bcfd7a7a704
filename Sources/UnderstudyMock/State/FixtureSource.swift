import Foundation
import UnderstudyCore

/// The bodies a mock's initial state is made from: the files of a fixtures folder (as `understudy
/// generate` writes them, possibly edited by hand) or, for what the folder lacks, fixtures generated
/// from the spec with the seed.
package struct FixtureSource: Sendable {
    package let seed: UInt64
    private let files: [String: EndpointFixture]

    /// Reads every `<folder>/<api>/*.json` file of the given specs.
    /// - Throws: ``FixtureError`` or a file error naming the file that cannot be read.
    package init(seed: UInt64, folder: URL?, specs: [APISpec]) throws {
        self.seed = seed
        var files: [String: EndpointFixture] = [:]
        if let folder {
            for spec in specs {
                for (_, fixture) in try Self.files(in: folder, of: spec) { files["\(spec.id) \(fixture.endpoint)"] = fixture }
            }
        }
        self.files = files
    }

    /// The `<folder>/<api>/*.json` files of one spec, by name, in name order (none when the folder has no
    /// `<api>` folder).
    /// - Throws: ``FixtureError`` naming the file that cannot be read.
    package static func files(in folder: URL, of spec: APISpec) throws -> [(name: String, fixture: EndpointFixture)] {
        let apiFolder = folder.appendingPathComponent(spec.id)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: apiFolder.path) else { return [] }
        return try names.sorted().filter { $0.hasSuffix(".json") }.map { name in
            let file = apiFolder.appendingPathComponent(name)
            do {
                return (name, try EndpointFixture(json: try JSONParser().parse(Array(try Data(contentsOf: file)))))
            } catch {
                throw FixtureError(description: "\(file.path): \(error)")
            }
        }
    }

    /// The fixture of an endpoint: the file's when there is one, otherwise generated.
    package func fixture(_ endpointID: String, in spec: APISpec) -> EndpointFixture {
        if let file = files["\(spec.id) \(endpointID)"] { return file }
        guard let endpoint = spec.endpoint(endpointID) else {
            preconditionFailure("\(spec.id) has no endpoint \(endpointID)")
        }
        return spec.fixture(for: endpoint, seed: seed)
    }

    /// The answer a file gives for an endpoint's status, `nil` when no file does.
    package func recorded(_ endpointID: String, status: Int, in spec: APISpec) -> JSONValue? {
        files["\(spec.id) \(endpointID)"]?.responses[status]
    }

    /// The path values of the request a file recorded for an endpoint (empty when none, or no file).
    package func recordedPath(_ endpointID: String, in spec: APISpec) -> [String: String] {
        files["\(spec.id) \(endpointID)"]?.path ?? [:]
    }

    /// Whether an endpoint's fixture is generated from the spec (no file gives it).
    package func isGenerated(_ endpointID: String, in spec: APISpec) -> Bool {
        files["\(spec.id) \(endpointID)"] == nil
    }

    /// The success body of an endpoint.
    package func body(_ endpointID: String, in spec: APISpec) -> JSONValue {
        let fixture = fixture(endpointID, in: spec)
        let status = spec.endpoint(endpointID)?.success.rawValue ?? 200
        return fixture.responses[status] ?? .null
    }

    /// A generator for extra values (seeded per purpose, so output is stable).
    package func generator(for spec: APISpec, purpose: String) -> FixtureGenerator {
        spec.generator(seed: seed, purpose: purpose)
    }
}

extension APISpec {
    /// A generator of this spec's values, seeded by `seed` and `purpose` (so output is stable per purpose).
    package func generator(seed: UInt64, purpose: String) -> FixtureGenerator {
        var random = SeededRandom(seed: seed).derived("\(id) \(purpose)")
        return FixtureGenerator(seed: random.next(), spec: self, optionalKeys: optionalKeys)
    }
}
