import Foundation
import Testing
import UnderstudyCore
import UnderstudyPostgREST

@testable import UnderstudyMock

/// The PostgREST engine knows no EasyCo table: a schema declared with another spec (a journal of notebooks
/// and pages, pages owned through their notebook) gets the same filters, embeds and row-level security.
struct PostgrestCatalogTests {
    struct Notebook: Codable, Sendable, SchemaRefining {
        let id: String
        let ownerId: String
        let title: String
        let tags: [String]

        enum CodingKeys: String, CodingKey {
            case id, title, tags
            case ownerId = "owner_id"
        }

        static func refineSchema(_ schema: inout ObjectSchema) {
            schema.setFormat(.uuid, of: "id")
            schema.setFormat(.uuid, of: "owner_id")
        }
    }

    struct Page: Codable, Sendable, SchemaRefining {
        let id: String
        let notebookId: String
        let words: Int

        enum CodingKeys: String, CodingKey {
            case id, words
            case notebookId = "notebook_id"
        }

        static func refineSchema(_ schema: inout ObjectSchema) {
            schema.setFormat(.uuid, of: "id")
            schema.setFormat(.uuid, of: "notebook_id")
        }
    }

    static let spec = APISpec(
        id: "journal", title: "Journal", document: "none", auth: .supabase, wire: .plain,
        errorEnvelope: ErrorEnvelope(NotebookError.self) { _, messages in ["message": .string(messages.joined())] },
        endpoints: [
            AnyEndpoint(
                Endpoint<NoBody, [Notebook]>(.get, "/rest/v1/notebooks", auth: .optional, summary: "Notebooks")),
            AnyEndpoint(Endpoint<NoBody, [Page]>(.get, "/rest/v1/pages", auth: .optional, summary: "Pages")),
        ]
    ).database([
        DatabaseTable(
            name: "notebooks", model: modelName(Notebook.self), userColumns: ["owner_id"], textArrayColumns: ["tags"],
            policies: [RowPolicy([.select], .column("owner_id"))]),
        DatabaseTable(
            name: "pages", model: modelName(Page.self), references: ["notebook_id": "notebooks"],
            policies: [RowPolicy([.select], .referencedOwner(via: "notebook_id", ownerColumn: "owner_id"))]),
    ])

    struct NotebookError: Codable, Sendable { let message: String }

    /// The name the spec's definitions give a model.
    static func modelName(_ type: Any.Type) -> String {
        String(reflecting: type).split(separator: ".").dropFirst().joined(separator: ".")
    }

    static let alice = "0be57a3d-5448-4032-b7a1-877ba1798cf7"
    static let bruno = "2c5484eb-4e96-46e2-9dd8-443eab01dab7"

    static func ids(_ rows: [UInt8]) throws -> [String] {
        try #require(JSONParser().parse(rows).arrayValue).compactMap { $0["id"]?.stringValue }
    }

    static func read(_ table: String, _ query: String, as caller: PostgrestCaller) throws -> [UInt8] {
        let catalog = PostgrestCatalog(spec: spec)
        let tables: [String: PostgrestTable] = [
            "notebooks": PostgrestTable(rows: [
                [
                    "id": "aaaaaaaa-0000-4000-8000-000000000001", "owner_id": .string(alice), "title": "Recipes",
                    "tags": ["food"],
                ],
                [
                    "id": "aaaaaaaa-0000-4000-8000-000000000002", "owner_id": .string(bruno), "title": "Travel",
                    "tags": ["trips", "food"],
                ],
            ]),
            "pages": PostgrestTable(rows: [
                [
                    "id": "bbbbbbbb-0000-4000-8000-000000000001", "notebook_id": "aaaaaaaa-0000-4000-8000-000000000001",
                    "words": 120,
                ],
                [
                    "id": "bbbbbbbb-0000-4000-8000-000000000002", "notebook_id": "aaaaaaaa-0000-4000-8000-000000000002",
                    "words": 80,
                ],
                [
                    "id": "bbbbbbbb-0000-4000-8000-000000000003", "notebook_id": "aaaaaaaa-0000-4000-8000-000000000001",
                    "words": 40,
                ],
            ]),
        ]
        let executor = PostgrestExecutor(
            catalog: catalog, tables: tables, caller: caller, cache: PostgrestColumnCache())
        let root = try executor.plan(PostgrestQuery(QueryItems(query)), table: table)
        return try executor.write(root, positions: try executor.matches(root))
    }

    @Test func theCatalogComesFromTheSpecsTables() throws {
        let catalog = PostgrestCatalog(spec: Self.spec)
        #expect(catalog.table("notebooks")?.columns.map(\.name).sorted() == ["id", "owner_id", "tags", "title"])
        #expect(catalog.table("notebooks")?.column("tags")?.type == .textArray)
        #expect(catalog.table("pages")?.column("words")?.type == .integer)
        #expect(catalog.keys(from: "pages").map(\.name) == ["pages_notebook_id_fkey"])
        #expect(catalog.table("favorites") == nil)
    }

    @Test func rowSecurityFiltersAndEmbedsFollowTheDeclaration() throws {
        let alice = PostgrestCaller.user(Self.alice)
        // Alice sees her notebook only, and the pages of it (owned through the notebook).
        #expect(
            try Self.ids(Self.read("notebooks", "select=id", as: alice)) == ["aaaaaaaa-0000-4000-8000-000000000001"])
        #expect(
            try Self.ids(Self.read("pages", "select=id&order=words.asc", as: alice))
                == ["bbbbbbbb-0000-4000-8000-000000000003", "bbbbbbbb-0000-4000-8000-000000000001"])
        #expect(try Self.ids(Self.read("pages", "select=id", as: .anonymous)) == [])
        // Filters on a text[] column and a to-one embed through the declared foreign key.
        let food = try Self.ids(Self.read("notebooks", "select=id&tags=cs.{food}&order=title.desc", as: .serviceRole))
        #expect(food == ["aaaaaaaa-0000-4000-8000-000000000002", "aaaaaaaa-0000-4000-8000-000000000001"])
        let embedded = try JSONParser().parse(
            Self.read("pages", "select=words,notebooks(title)&words=gt.100", as: .serviceRole))
        #expect(embedded == [["words": 120, "notebooks": ["title": "Recipes"]]])
    }
}
