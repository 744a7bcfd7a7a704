import Foundation
import Testing
import UnderstudyCheck
import UnderstudyCore
import UnderstudyMock
import UnderstudyMockServer
import UnderstudyOpenAPI
import UnderstudySpecs
import UnderstudyTestSupport

@testable import UnderstudyCLI

/// What a document declares of its resources beyond their paths, as `mock --spec` serves it: operations on the
/// caller's own items (`x-understudy-owner`), a list's order (`x-understudy-order`), a filter that applies when `true`
/// (`x-understudy-meaning: when-true`), what an action does (`x-understudy-effect`), and a member's `default`.
/// `Tests/Documents/inbox.yaml` declares each; the built-in achievements notifications are served from the same
/// declarations (`ApinestMockTests.notificationsPageFilterAndRead`).
struct DeclaredResourceTests {
    static let inbox = SpecMockTests.documents.appendingPathComponent("inbox.yaml").path

    /// A mock of the inbox on a clock the test moves, and a way to call it as a user (a JWT's `sub`).
    struct Inbox {
        let engine: MockEngine
        let basePath: String
        let clock: Locked<Date>

        init() async throws {
            let spec = try SpecMockTests.spec(DeclaredResourceTests.inbox)
            let clock = Locked(Date(timeIntervalSince1970: 1_763_217_000))
            self.clock = clock
            basePath = spec.basePath
            engine = MockEngine(
                behaviour: try await ResourceMock(spec: spec, configuration: MockConfiguration(now: { clock.withLock { $0 } })))
        }

        /// A bearer token of `user`; the ready token's user owns the seeded items.
        static func token(_ user: String?) -> String {
            user.map { FixtureMock.jwt(["sub": .string($0)]) } ?? FixtureMock.readyToken
        }

        func send(_ method: String, _ path: String, as user: String?, query: String = "", _ body: JSONValue? = nil)
            async -> (status: Int, json: JSONValue?)
        {
            var headers = ["authorization": "Bearer \(Self.token(user))"]
            if body != nil { headers["content-type"] = "application/json" }
            let response = await engine.respond(
                to: RawRequest(
                    method: method, path: basePath + path, query: query, headers: headers,
                    body: body?.serializedBytes() ?? []))
            return (response.status, try? JSONValue(parsing: response.body))
        }

        func advance(_ seconds: TimeInterval) {
            clock.withLock { $0 = $0.addingTimeInterval(seconds) }
        }
    }

    @Test func theDeclarationsAreReadFromTheDocument() throws {
        let spec = try SpecMockTests.spec(Self.inbox)
        let list = try #require(spec.endpoint("GET /messages"))
        #expect(list.owner == .caller)
        #expect(list.order == [.descending("/createdAt"), .descending("/id")])
        #expect(list.parameters.first { $0.name == "unread" }?.meaning == .whenTrue("/read", equals: false))
        #expect(spec.endpoint("GET /tasks")?.owner == .caller(member: "assignee"))
        #expect(
            spec.endpoint("POST /messages/{id}/read")?.effect
                == ActionEffect(set: ["/read": true], defaults: ["/readAt": .now]))
        // The action below an item no read addresses names the item all the same, so its id is the list's `id`.
        let messages = try #require(ResourceGraph(spec: spec).resource(named: "messages"))
        #expect(messages.operation(.action)?.endpoint != nil)
        #expect(messages.identifier == ResourceIdentifier(parameter: "id", member: "id"))
        // The forms written are the forms read.
        #expect(Ownership(json: Ownership.caller(member: "assignee").json) == .caller(member: "assignee"))
        #expect(Ownership(json: false) == nil)
        #expect(SortKey("-/createdAt") == .descending("/createdAt") && SortKey("createdAt") == nil)
        let effect = ActionEffect(set: ["/read": true], defaults: ["/readAt": .now])
        #expect(ActionEffect(json: effect.json) == effect)
        #expect(QueryMeaning(QueryMeaning.whenTrue("/readAt", equals: .null).description) == .whenTrue("/readAt", equals: .null))
    }

    @Test func eachCallerSeesAndChangesTheirOwnItemsAlone() async throws {
        let inbox = try await Inbox()
        let seeded = try #require(await inbox.send("GET", "/messages", as: nil).json?["items"]?.arrayValue)
        #expect(seeded.count >= 3)
        // Another user has an empty inbox, and the seeded messages do not exist for them.
        #expect(await inbox.send("GET", "/messages", as: "bea").json == ["items": [], "total": 0])
        let first = try #require(seeded[0]["id"]?.stringValue)
        #expect(await inbox.send("GET", "/messages/\(first)", as: "bea").status == 404)
        #expect(await inbox.send("POST", "/messages/\(first)/read", as: "bea").status == 404)
        #expect(await inbox.send("DELETE", "/messages/\(first)", as: "bea").status == 404)
        #expect(await inbox.send("GET", "/messages/\(first)", as: nil).status == 200)

        let sent = await inbox.send("POST", "/messages", as: "bea", ["subject": "Hello", "read": true])
        #expect(sent.status == 201)
        // `read` is the server's: its default, not what the client wrote.
        #expect(sent.json?["read"] == false && sent.json?["readAt"] == .null)
        let mine = try #require(sent.json?["id"]?.stringValue)
        #expect(await inbox.send("GET", "/messages", as: "bea").json?["total"] == 1)
        #expect(await inbox.send("GET", "/messages/\(mine)", as: nil).status == 404)
        #expect(await inbox.send("GET", "/messages", as: nil).json?["total"] == .integer(seeded.count))
        #expect(await inbox.send("DELETE", "/messages/\(mine)", as: "bea").status == 204)
        #expect(await inbox.send("GET", "/messages", as: "bea").json?["total"] == 0)

        // An owner member names the caller, whatever the body says (`assignee` is readOnly: the server's to write); a
        // task is found by its assignee alone.
        let task = await inbox.send("POST", "/tasks", as: "bea", ["title": "Call Léa", "done": false, "assignee": "chris"])
        #expect(task.status == 201, "\(task)")
        #expect(task.json?["assignee"] == "bea" && task.json?["done"] == false)
        let id = try #require(task.json?["id"]?.numberValue?.intValue)
        #expect(await inbox.send("GET", "/tasks", as: "bea").json?.arrayValue?.count == 1)
        #expect(await inbox.send("GET", "/tasks/\(id)", as: "chris").status == 404)
        #expect(await inbox.send("PATCH", "/tasks/\(id)", as: "chris", ["done": true]).status == 404)
        let done = await inbox.send("PATCH", "/tasks/\(id)", as: "bea", ["done": true])
        #expect(done.status == 200 && done.json?["done"] == true && done.json?["assignee"] == "bea")
        // The seeded tasks are the ready user's, and name them.
        let seededTasks = try #require(await inbox.send("GET", "/tasks", as: nil).json?.arrayValue)
        #expect(!seededTasks.isEmpty && seededTasks.allSatisfy { $0["assignee"] == .string(FixtureMock.readySubject) })
    }

    @Test func aListKeepsItsDeclaredOrderAndItsFilterAppliesWhenTrue() async throws {
        let inbox = try await Inbox()
        var sent: [String] = []
        for subject in ["first", "second", "third"] {
            inbox.advance(60)
            sent.append(
                try #require(await inbox.send("POST", "/messages", as: "bea", ["subject": .string(subject)]).json?["id"]?
                    .stringValue))
        }
        let listed = try #require(await inbox.send("GET", "/messages", as: "bea").json?["items"]?.arrayValue)
        #expect(listed.compactMap { $0["id"]?.stringValue } == sent.reversed())
        let page = await inbox.send("GET", "/messages", as: "bea", query: "limit=1&offset=1")
        #expect(page.json?["items"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == [sent[1]])
        #expect(page.json?["total"] == 3)

        inbox.advance(60)
        let read = await inbox.send("POST", "/messages/\(sent[0])/read", as: "bea")
        // The answer does not carry the message: the acknowledgement a server sends when all went well.
        #expect(read.status == 200 && read.json == ["ok": true])
        let readAt = try #require(await inbox.send("GET", "/messages/\(sent[0])", as: "bea").json)
        #expect(readAt["read"] == true && readAt["readAt"] == "2025-11-15T14:34:00Z")
        let unread = try #require(
            await inbox.send("GET", "/messages", as: "bea", query: "unread=true").json?["items"]?.arrayValue)
        #expect(unread.compactMap { $0["id"]?.stringValue } == [sent[2], sent[1]])
        #expect(await inbox.send("GET", "/messages", as: "bea", query: "unread=false").json?["total"] == 3)

        // Reading all marks the caller's alone; a message read before keeps its first read's time.
        let others = await inbox.send("GET", "/messages", as: nil, query: "unread=true").json?["total"]
        inbox.advance(60)
        #expect(await inbox.send("POST", "/messages/read-all", as: "bea").json == ["ok": true])
        #expect(await inbox.send("GET", "/messages", as: "bea", query: "unread=true").json?["total"] == 0)
        #expect(await inbox.send("GET", "/messages", as: nil, query: "unread=true").json?["total"] == others)
        let after = try #require(await inbox.send("GET", "/messages", as: "bea").json?["items"]?.arrayValue)
        #expect(after.map { $0["readAt"] } == ["2025-11-15T14:35:00Z", "2025-11-15T14:35:00Z", "2025-11-15T14:34:00Z"])
    }

    /// `check --allow-writes --other-token`: the run's own items asked for as another user (OWASP API1, broken object
    /// level authorization). The inbox's mock keeps each user's items to themselves: every such request is refused
    /// with the 404 the declaration means, and no list shows them. A server that keeps no owner (the same document
    /// without its `x-understudy-owner`, served by `mock --spec`) lets the other user read, act on, change and delete
    /// them and lists them: each is an error.
    @Test func anotherUsersTokenIsRefusedTheRunsItems() async throws {
        let spec = try SpecMockTests.spec(Self.inbox)
        let other = Inbox.token("bea")
        let credentials = Credentials(token: Inbox.token("ana"), otherToken: other)
        let ownerRules: Set<RuleID> = [.probeOwnerNotEnforced, .probeOwnerStatus]

        // Against the inbox's mock, the other user's requests are refused with 404 and their lists leave the item out.
        let kept = try await SpecExplorationTests.check(spec, credentials: credentials)
        #expect(kept.findings.filter { ownerRules.contains($0.rule) }.isEmpty, "\(kept.findings)")
        #expect(kept.findings.filter { $0.severity == .error }.isEmpty, "\(kept.findings)")

        let text = try String(contentsOfFile: Self.inbox, encoding: .utf8)
        let open = try OpenAPIImport.spec(
            Array(text.replacingOccurrences(of: "x-understudy-owner", with: "x-no-owner").utf8), source: "inbox.yaml")
        #expect(open.endpoints.allSatisfy { $0.owner == nil })
        let server = try await MockServer.start(try await ResourceMock(spec: open))
        let leaked = await Checker(
            spec: spec,
            options: CheckOptions(
                baseURL: server.baseURL.absoluteString + spec.basePath, credentials: credentials, allowWrites: true,
                transport: HTTPTransport.Options(timeout: .seconds(120)))
        ).run()
        await server.stop()
        // Every operation on an item the document declares the caller's own, and the list (which, in the declared
        // order and with no owner, once showed no item at all to a signed-in caller).
        let reached = leaked.findings.filter { $0.rule == .probeOwnerNotEnforced }
        #expect(reached.allSatisfy { $0.severity == .error })
        #expect(
            Set(reached.compactMap(\.endpoint)) == [
                "GET /messages", "GET /messages/{id}", "POST /messages/{id}/read", "DELETE /messages/{id}", "GET /tasks",
                "GET /tasks/{id}", "PATCH /tasks/{id}",
            ], "\(reached.map(\.message))")
    }
}
