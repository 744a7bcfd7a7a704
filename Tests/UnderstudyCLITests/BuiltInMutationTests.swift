import Foundation
import Testing
import UnderstudyCore
import UnderstudyTestSupport

@testable import UnderstudyCLI

/// The built-in APIs' exported documents (`specs/openapi/`), each changed one way, through `diff` as a team runs it on
/// two versions of its document: every change that breaks an existing app is breaking (exit 1), every other one is not
/// (exit 0). The directions are the README's diff rules: a request that accepts less breaks clients, an answer that may
/// carry more than the app reads breaks it, the reverse of each is compatible.
@Suite struct BuiltInMutationTests {
    struct Mutation: Sendable, CustomTestStringConvertible {
        let api: String
        let name: String
        let breaking: Bool
        /// The rule the change is reported under.
        let rule: String
        let change: @Sendable (inout JSONValue) -> Void

        var testDescription: String { "\(api): \(name)" }
    }

    static let schemas = "/components/schemas/"

    static func set(_ pointer: String, _ value: JSONValue?) -> @Sendable (inout JSONValue) -> Void {
        { document in document[pointer: JSONPointer(pointer)] = value }
    }

    /// Appends `value` to the array at `pointer`.
    static func append(_ pointer: String, _ value: JSONValue) -> @Sendable (inout JSONValue) -> Void {
        { document in
            let elements = document[pointer: JSONPointer(pointer)]?.arrayValue ?? []
            document[pointer: JSONPointer(pointer)] = .array(elements + [value])
        }
    }

    /// Removes the string `value` from the array at `pointer`.
    static func remove(_ value: String, from pointer: String) -> @Sendable (inout JSONValue) -> Void {
        { document in
            let elements = document[pointer: JSONPointer(pointer)]?.arrayValue ?? []
            document[pointer: JSONPointer(pointer)] = .array(elements.filter { $0 != .string(value) })
        }
    }

    static let create = schemas + "Apinest.CreateActivityRequest"
    static let activity = schemas + "Apinest.Activity"
    static let event = schemas + "VideGreniers.CreateEventCommand"
    static let eventDto = schemas + "VideGreniers.EventDto"
    static let favorite = schemas + "EasyCo.NewFavorite"
    static let badge = schemas + "Apinest.Badge"

    static let mutations: [Mutation] = [
        // Breaking: a client that worked yesterday fails today.
        Mutation(
            api: "fitness", name: "an endpoint removed", breaking: true, rule: "diff.endpoint-removed",
            change: set("/paths/~1activities~1{id}~1leave", nil)),
        Mutation(
            api: "fitness", name: "a request property made required", breaking: true, rule: "diff.property-required",
            change: append(create + "/required", "description")),
        Mutation(
            api: "fitness", name: "a new required request property", breaking: true, rule: "diff.property-added",
            change: { document in
                document[pointer: JSONPointer(create + "/properties/capacity")] = ["type": "integer"]
                append(create + "/required", "capacity")(&document)
            }),
        Mutation(
            api: "fitness", name: "a response property's type changed", breaking: true, rule: "diff.type-changed",
            change: set(activity + "/properties/participants", ["type": "string"])),
        Mutation(
            api: "fitness", name: "a response property made optional", breaking: true, rule: "diff.property-optional",
            change: remove("createdAt", from: activity + "/required")),
        Mutation(
            api: "fitness", name: "a request minimum raised", breaking: true, rule: "diff.constraint-changed",
            change: set(create + "/properties/participants/minimum", 2)),
        Mutation(
            api: "fitness", name: "a request enum value removed", breaking: true, rule: "diff.enum-value-removed",
            change: set(create + "/properties/visibility/enum", ["public"])),
        Mutation(
            api: "videgreniers", name: "a request maxLength lowered", breaking: true, rule: "diff.constraint-changed",
            change: set(event + "/properties/description/maxLength", 500)),
        Mutation(
            api: "videgreniers", name: "a response property may now be null", breaking: true,
            rule: "diff.nullable-added", change: set(eventDto + "/properties/description/type", ["string", "null"])),
        Mutation(
            api: "videgreniers", name: "a query parameter made required", breaking: true,
            rule: "diff.parameter-required",
            change: set("/paths/~1api~1events/get/parameters/2/required", true)),
        Mutation(
            api: "videgreniers", name: "a public endpoint now signed in", breaking: true, rule: "diff.auth-changed",
            change: set("/paths/~1api~1events/get/security", [["bearerAuth": []]])),
        Mutation(
            api: "achievements", name: "a response enum value added", breaking: true, rule: "diff.enum-value-added",
            change: append(badge + "/properties/category/enum", "social")),
        Mutation(
            api: "easyco", name: "a request pattern added", breaking: true, rule: "diff.constraint-changed",
            change: set(favorite + "/properties/user_id/pattern", "^[0-9a-f-]{36}$")),

        // Compatible: every existing client goes on working.
        Mutation(
            api: "fitness", name: "an endpoint added", breaking: false, rule: "diff.endpoint-added",
            change: set("/paths/~1activities~1{id}~1archive", ["post": ["responses": ["204": ["description": "gone"]]]])),
        Mutation(
            api: "fitness", name: "an optional request property added", breaking: false, rule: "diff.property-added",
            change: set(create + "/properties/capacity", ["type": "integer"])),
        Mutation(
            api: "fitness", name: "a request property made optional", breaking: false,
            rule: "diff.property-optional", change: remove("level", from: create + "/required")),
        Mutation(
            api: "fitness", name: "a request enum value added", breaking: false, rule: "diff.enum-value-added",
            change: set(create + "/properties/visibility/enum", ["public", "friends", "private"])),
        Mutation(
            api: "fitness", name: "a request minimum lowered", breaking: false, rule: "diff.constraint-changed",
            change: set(create + "/properties/participants/minimum", 0)),
        Mutation(
            api: "fitness", name: "a response enum value removed", breaking: false, rule: "diff.enum-value-removed",
            change: set(activity + "/properties/visibility/enum", ["public"])),
        Mutation(
            api: "videgreniers", name: "a request maxLength raised", breaking: false, rule: "diff.constraint-changed",
            change: set(event + "/properties/description/maxLength", 5000)),
        Mutation(
            api: "videgreniers", name: "a signed-in endpoint made public", breaking: false, rule: "diff.auth-changed",
            change: set("/paths/~1api~1auth~1me/get/security", [[:], ["bearerAuth": []]])),
        Mutation(
            api: "achievements", name: "an optional response property added", breaking: false,
            rule: "diff.property-added", change: set(badge + "/properties/shareUrl", ["type": ["string", "null"]])),
        Mutation(
            api: "easyco", name: "a request format removed", breaking: false, rule: "diff.format-changed",
            change: set(favorite + "/properties/user_id/format", nil)),
        Mutation(
            api: "intra42", name: "a response property may no longer be null", breaking: false,
            rule: "diff.nullable-removed", change: { document in
                let pointer = JSONPointer(schemas + "Intra42.Campus/properties")
                guard case .object(let properties)? = document[pointer: pointer],
                    let (name, _) = properties.sorted(by: { $0.key < $1.key }).first(where: {
                        $0.value["type"] == ["string", "null"]
                    })
                else { return }
                document[pointer: pointer.appending(name).appending("type")] = "string"
            }),
        Mutation(
            api: "intra42", name: "a description rewritten", breaking: false, rule: "",
            change: set("/info/description", "The 42 Intra API, described again.")),
    ]

    static let specs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("specs/openapi")

    /// The change `diff` reports between the document and its mutation, as `understudy diff OLD NEW` computes it.
    static func changes(_ mutation: Mutation) throws -> (old: URL, new: URL, changes: [SpecChange]) {
        let old = specs.appendingPathComponent("\(mutation.api).openapi.json")
        var document = try JSONValue(parsing: String(decoding: Data(contentsOf: old), as: UTF8.self))
        let before = document
        mutation.change(&document)
        #expect(document != before, "the mutation changed nothing")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-mutation-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let new = folder.appendingPathComponent("\(mutation.api)-v2.openapi.json")
        try Data(document.serializedBytes()).write(to: new)
        return (old, new, try Diff.changes(old: old.path, new: new.path, baseline: nil, api: .all))
    }

    @Test(arguments: mutations) func eachChangeIsJudgedInItsDirection(_ mutation: Mutation) throws {
        let (_, new, changes) = try Self.changes(mutation)
        defer { try? FileManager.default.removeItem(at: new.deletingLastPathComponent()) }
        let breaking = changes.filter { $0.impact == .breaking }
        if mutation.breaking {
            #expect(breaking.contains { $0.rule.description == mutation.rule }, "\(changes.map(\.line))")
        } else {
            #expect(breaking.isEmpty, "\(breaking.map(\.line))")
            if !mutation.rule.isEmpty {
                #expect(changes.contains { $0.rule.description == mutation.rule }, "\(changes.map(\.line))")
            } else {
                #expect(changes.isEmpty, "\(changes.map(\.line))")
            }
        }
    }

    /// The exit status a CI step reads: 1 for a breaking change, 0 for a compatible one (one of each, through the
    /// built binary).
    @Test func theBinaryExitsByTheVerdict() async throws {
        for mutation in [Self.mutations[0], Self.mutations[13]] {
            let (old, new, _) = try Self.changes(mutation)
            defer { try? FileManager.default.removeItem(at: new.deletingLastPathComponent()) }
            let run = try await UnderstudyBinary.run(["diff", old.path, new.path])
            #expect(run.status == (mutation.breaking ? 1 : 0), "\(mutation.name): \(run.stdout)")
        }
        #expect(Self.mutations.count == 25)
    }
}
