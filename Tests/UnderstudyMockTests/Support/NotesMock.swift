import Foundation
import UnderstudyCore
import UnderstudyMock

/// A tiny API to test the engine without any real behaviour: notes with a title.
struct Note: Codable, Sendable, Hashable, SchemaRefining, StateRow {
    let id: Int
    let title: String

    var key: Int { id }

    static func refineSchema(_ schema: inout ObjectSchema) {
        schema.refine("title") { $0 = .string(minLength: 3) }
    }
}

struct NewNote: Codable, Sendable, SchemaRefining {
    let title: String

    static func refineSchema(_ schema: inout ObjectSchema) {
        schema.refine("title") { $0 = .string(minLength: 3) }
    }
}

/// Stateless: the mock leaves it to its descriptor's example.
struct About: Codable, Sendable {
    let name: String
    let version: Int
}

struct Failure: Codable, Sendable {
    let message: String
    let status: Int
}

let notesSpec = APISpec(
    id: "notes", title: "Notes", document: "none", auth: .bearerJWT, wire: .plain,
    errorEnvelope: ErrorEnvelope(Failure.self) { status, messages in
        ["message": .string(messages.joined(separator: "; ")), "status": .integer(status.rawValue)]
    },
    endpoints: [
        AnyEndpoint(Endpoint<NoBody, [Note]>(
            .get, "/notes", parameters: [.query("limit", .integer(minimum: 1, maximum: 10))], auth: .optional,
            summary: "List")),
        AnyEndpoint(Endpoint<NoBody, Note>(.get, "/notes/{id}", parameters: [.path("id", .integer())], auth: .optional, summary: "One")),
        AnyEndpoint(Endpoint<NoBody, Note>(.get, "/notes/latest", auth: .none, summary: "Latest")),
        AnyEndpoint(Endpoint<NewNote, Note>(.post, "/notes", auth: .required, success: .created, summary: "Create")),
        AnyEndpoint(Endpoint<NoBody, NoContent>(.delete, "/notes/{id}", parameters: [.path("id", .integer())], auth: .role("admin"), success: .noContent, summary: "Delete")),
        AnyEndpoint(Endpoint<NoBody, About>(
            .get, "/about", auth: .none, summary: "About",
            examples: Examples(responses: [200: #"{"name": "Notes", "version": 2}"#]))),
    ])

struct NotesState: StoredState {
    var notes: StateTable<Note>

    mutating func visit(_ visitor: inout StateVisitor) {
        visitor.visit("notes", &notes)
    }
}

final class NotesMock: MockBehaviour {
    let store: StateStore<NotesState>
    let handled = Locked(0)

    init(file: URL? = nil) async throws {
        store = try await StateStore(seed: NotesState(notes: StateTable([Note(id: 1, title: "First")])), file: file)
    }

    var name: String { "notes" }
    var specs: [APISpec] { [notesSpec] }
    var stateVersion: UInt64 { store.version }

    func authenticate(_ request: MockRequest, endpoint: AnyEndpoint) async throws -> Principal? {
        switch request.bearerToken {
        case nil: return nil
        case "user": return Principal(subject: "u1", token: "user")
        case "admin": return Principal(subject: "a1", roles: ["Admin"], token: "admin")
        default: throw MockError(.unauthorized, "invalid token")
        }
    }

    func handle(_ request: MockRequest, endpoint: AnyEndpoint, spec: APISpec) async throws -> MockResponse? {
        handled.withLock { $0 += 1 }
        switch endpoint.id {
        case "GET /notes":
            let limit = request.query["limit"].flatMap(Int.init) ?? 10
            return .json(try JSONValue(parsing: try JSONEncoder().encode(Array(store.read { $0.notes }.prefix(limit)))))
        case "GET /notes/latest":
            return .json(try JSONValue(parsing: try JSONEncoder().encode(store.read { $0.notes.last! })))
        case "GET /notes/{id}":
            guard let note = store.read({ $0.notes.first { $0.id == Int(request.pathParameters["id"]!) } }) else {
                throw MockError(.notFound, "note \(request.pathParameters["id"]!) does not exist")
            }
            return .json(try JSONValue(parsing: try JSONEncoder().encode(note)))
        case "POST /notes":
            let title = request.json!["title"]!.stringValue!
            let note = try await store.write { state in
                let note = Note(id: (state.notes.map(\.id).max() ?? 0) + 1, title: title)
                state.notes.append(note)
                return note
            }
            return .json(try JSONValue(parsing: try JSONEncoder().encode(note)), status: 201)
        case "DELETE /notes/{id}":
            try await store.write { $0.notes.removeAll { $0.id == Int(request.pathParameters["id"]!) } }
            return .empty()
        default:
            return nil
        }
    }

    func reset() async throws { try await store.reset() }
    func issueToken(for user: String?) async throws -> JSONValue { ["accessToken": "user"] }
    func startupNotes() async -> [String] { [] }
}

