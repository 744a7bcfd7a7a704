import Foundation
import UnderstudyCore

/// Where the schemas a document refers to by absolute URI (`$ref: https://schemas.example.com/pet.json`) are read
/// from: local folders standing for URI prefixes, as `UNDERSTUDY_SCHEMA_REMOTES` names them
/// (`https://schemas.example.com/=/path/to/schemas/`, several separated by `;`). Nothing is fetched from the network:
/// a reference no folder answers stays unresolved (`schema.unresolved-reference`).
///
/// ```swift
/// let remotes = SchemaRemotes(["http://localhost:1234/": URL(fileURLWithPath: "suite/remotes/")])
/// let registry = try remotes.resolving(SchemaRegistry(dialect: .jsonSchema2020_12).adding(document: doc, uri: uri))
/// ```
struct SchemaRemotes {
    /// URI prefix → the folder its documents are in.
    let folders: [(prefix: String, folder: URL)]

    /// The most documents one resolution reads: references between remote documents end.
    static let maximumDocuments = 256

    init(_ folders: [String: URL]) {
        self.folders = folders.sorted { $0.key.count > $1.key.count }.map { ($0.key, $0.value) }
    }

    /// The folders `UNDERSTUDY_SCHEMA_REMOTES` names; none when it is not set.
    static var fromEnvironment: SchemaRemotes {
        let text = ProcessInfo.processInfo.environment["UNDERSTUDY_SCHEMA_REMOTES"] ?? ""
        var folders: [String: URL] = [:]
        for entry in text.split(separator: ";") {
            guard let split = entry.lastIndex(of: "=") else { continue }
            folders[String(entry[..<split])] = URL(fileURLWithPath: String(entry[entry.index(after: split)...]))
        }
        return SchemaRemotes(folders)
    }

    /// `registry` with the metaschemas `document`'s schemas name in `$schema` under a known prefix: known before the
    /// schemas are compiled, as their vocabularies decide which keywords apply.
    func metaschemas(of document: JSONValue, in registry: SchemaRegistry) -> SchemaRegistry {
        guard !folders.isEmpty else { return registry }
        var named: Set<String> = []
        var pending = [document]
        while let value = pending.popLast(), named.count < Self.maximumDocuments {
            switch value {
            case .object(let members):
                if let uri = members["$schema"]?.stringValue { named.insert(String(uri.prefix { $0 != "#" })) }
                pending += members.values
            case .array(let elements): pending += elements
            default: continue
            }
        }
        return named.sorted().reduce(registry) { registry, uri in adding(uri, to: registry) ?? registry }
    }

    /// `registry` with every document its unresolved references name under a known prefix, and the ones those
    /// name, added; a file that is missing or not JSON is left out (its references stay unresolved).
    func resolving(_ registry: SchemaRegistry) -> SchemaRegistry {
        guard !folders.isEmpty else { return registry }
        var registry = registry
        var tried: Set<String> = []
        while tried.count < Self.maximumDocuments {
            let wanted = registry.unresolvedReferences.map { String($0.prefix { $0 != "#" }) }.filter {
                !tried.contains($0)
            }
            guard let uri = wanted.first else { break }
            tried.insert(uri)
            registry = adding(uri, to: registry) ?? registry
        }
        return registry
    }

    /// `registry` with the document at `uri` read from its folder; `nil` when no folder has it, it is not JSON or the
    /// registry knows it already.
    private func adding(_ uri: String, to registry: SchemaRegistry) -> SchemaRegistry? {
        guard let (prefix, folder) = folders.first(where: { uri.hasPrefix($0.prefix) }),
            let bytes = try? Data(contentsOf: folder.appendingPathComponent(String(uri.dropFirst(prefix.count)))),
            let document = try? JSONParser().parse(Array(bytes))
        else { return nil }
        return try? registry.adding(document: document, uri: uri)
    }
}
