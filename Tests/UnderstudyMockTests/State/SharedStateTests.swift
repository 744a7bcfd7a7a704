import Foundation
import Testing
import UnderstudyCore
import UnderstudyMock

@testable import UnderstudyMockServer

/// `--state postgres://…`: several mocks (replicas behind a load balancer) share one state in a real PostgreSQL
/// server (`scripts/test-postgres.sh start`, run by `.ci/run`), each test in a database of its own.
@Suite(.enabled(if: TestDatabase.server != nil, "set UNDERSTUDY_TEST_POSTGRES: scripts/test-postgres.sh start"))
struct SharedStateTests {
    typealias Item = StateStoreTests.Item
    typealias Items = StateStoreTests.Items

    static func open(_ url: URL) async throws -> StateStore<Items> {
        try await StateStore(seed: StateStoreTests.seed, file: url, sharing: SharedStateDatabase.opener)
    }

    static func snapshot(_ store: StateStore<Items>) -> [Item] { StateStoreTests.snapshot(store) }

    @Test func eachReplicaReadsWhatTheOthersWrote() async throws {
        try await TestDatabase.with { url in
            let first = try await Self.open(url)
            let second = try await Self.open(url)
            #expect(Self.snapshot(second) == Self.snapshot(first))

            try await first.write { state in
                state.items.append(Item(id: 4, owner: "cy"))
                state.items[key: 2] = Item(id: 2, owner: "cy")
                state.items.remove(key: 1)
                state.issued.value = 7
            }
            let before = second.version
            try await second.synchronize()
            #expect(second.version > before)
            #expect(
                Self.snapshot(second) == [Item(id: 2, owner: "cy"), Item(id: 3, owner: "al"), Item(id: 4, owner: "cy")])
            #expect(second.read { $0.issued.value } == 7)
            // The groups follow the merged rows.
            #expect(second.read { $0.items.rows(in: "owner cy").map(\.id) } == [2, 4])
            #expect(second.read { $0.items.rows(in: "owner bo") }.isEmpty)

            // And back: the second replica's write reaches the first, which had not synchronized since.
            try await second.write { $0.items.remove(key: 4) }
            try await first.synchronize()
            #expect(Self.snapshot(first) == [Item(id: 2, owner: "cy"), Item(id: 3, owner: "al")])

            // Nothing new: synchronizing changes nothing, not even the version answers are cached by.
            let version = first.version
            try await first.synchronize()
            #expect(first.version == version)
        }
    }

    @Test func concurrentWritesOfTwoReplicasRunOneAtATimeAndAreAllKept() async throws {
        try await TestDatabase.with { url in
            let replicas = [try await Self.open(url), try await Self.open(url)]
            // Each write takes the next number from the shared counter: two writes that overlapped would take
            // the same one and one row would replace the other.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for replica in replicas {
                    for _ in 0..<60 {
                        group.addTask {
                            try await replica.write { state in
                                state.issued.value += 1
                                state.items.append(Item(id: 100 + state.issued.value, owner: "load"))
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            for replica in replicas {
                try await replica.synchronize()
                #expect(replica.read { $0.issued.value } == 120)
                #expect(replica.read { $0.items.rows(in: "owner load").map(\.id) }.sorted() == Array(101...220))
            }
            #expect(Self.snapshot(replicas[0]) == Self.snapshot(replicas[1]))
        }
    }

    @Test func aWriteThatThrowsStoresNothing() async throws {
        try await TestDatabase.with { url in
            let first = try await Self.open(url)
            let second = try await Self.open(url)
            await #expect(throws: StateStoreTests.Refused.self) {
                try await first.write { state in
                    state.items.append(Item(id: 9, owner: "zz"))
                    throw StateStoreTests.Refused()
                }
            }
            #expect(Self.snapshot(first) == Array(StateStoreTests.seed.items))
            let version = second.version
            try await second.synchronize()
            #expect(Self.snapshot(second) == Array(StateStoreTests.seed.items))
            // No new version reached the other mock: its cached answers still hold.
            #expect(second.version == version)
            // The next write goes through.
            try await first.write { $0.items.append(Item(id: 10, owner: "al")) }
            try await second.synchronize()
            #expect(second.read { $0.items[key: 10] } == Item(id: 10, owner: "al"))
        }
    }

    @Test func aResetReachesEveryReplicaAndARestartLoadsTheSharedState() async throws {
        try await TestDatabase.with { url in
            let first = try await Self.open(url)
            let second = try await Self.open(url)
            try await first.write { state in
                state.items.append(Item(id: 4, owner: "cy"))
                state.issued.value = 3
            }
            try await second.synchronize()
            try await second.reset()
            try await first.synchronize()
            #expect(Self.snapshot(first) == Array(StateStoreTests.seed.items))
            #expect(first.read { $0.issued.value } == 0)

            try await first.write { $0.items.append(Item(id: 5, owner: "bo")) }
            let restarted = try await Self.open(url)
            #expect(Self.snapshot(restarted) == Self.snapshot(first))
            #expect(restarted.read { $0.items.rows(in: "owner bo").map(\.id) } == [2, 5])
        }
    }

    @Test func aStateInAnotherFormatIsRefusedAndLeftAlone() async throws {
        try await TestDatabase.with { url in
            _ = try await Self.open(url)
            try await TestDatabase.execute("UPDATE understudy_states SET format = '0'", on: url)
            let error = await #expect(throws: StateFileError.self) { try await Self.open(url) }
            #expect(error?.description.contains("in format 0, not in format 1") == true)
            #expect(error?.description.contains("StateStoreTests.Items") == true)
        }
    }

    @Test func anUnreachableDatabaseIsAClearError() async throws {
        // Port 9 (discard) is closed on loopback: the connection is refused at once.
        let url = try #require(URL(string: "postgres://understudy:secret@127.0.0.1:9/nothing?sslmode=disable"))
        let error = await #expect(throws: StateFileError.self) { try await Self.open(url) }
        let message = error?.description ?? ""
        #expect(
            message.hasPrefix("cannot use the state file postgres://understudy@127.0.0.1:9/nothing: "), "\(message)")
        #expect(!message.contains("secret"))
    }

    /// Two apinest mocks on loopback sharing one database, as two replicas behind a load balancer: a client
    /// reads its own writes whichever replica answers.
    @Test func twoMockServersShareOneStateOverLoopback() async throws {
        try await TestDatabase.with { url in
            let configuration = MockConfiguration(stateFile: url)
            try await LiveMock.with(.apinest, configuration: configuration) { first in
                try await LiveMock.with(.apinest, configuration: configuration) { second in
                    let token = try #require(try await first.token()["accessToken"]?.stringValue)
                    let activity: JSONValue = [
                        "sportType": "Running", "title": "Shared run", "location": "Parc de la Tête d'Or",
                        "date": "2025-11-15", "time": "2025-11-15T14:30:00Z", "participants": 4,
                        "level": "Beginner", "visibility": "public",
                    ]
                    let created = try await first.send("POST", "/activities", json: activity, token: token)
                    #expect(created.status == 201)
                    let id = try #require(created.json?["_id"]?.stringValue)

                    let read = try await second.send("GET", "/activities/\(id)", token: token)
                    #expect(read.status == 200)
                    #expect(read.json?["title"] == "Shared run")
                    // The same listing, asked twice of the second replica around a write on the first: not a
                    // stale cached answer.
                    let listed = try await second.send("GET", "/activities", token: token)
                    #expect(listed.json?.arrayValue?.contains { $0["_id"]?.stringValue == id } == true)
                    let completed = try await first.send("POST", "/activities/\(id)/complete", token: token)
                    #expect(completed.status == 200)
                    let again = try await second.send("GET", "/activities/\(id)", token: token)
                    #expect(again.json?["isCompleted"] == true)
                }
            }
        }
    }
}
