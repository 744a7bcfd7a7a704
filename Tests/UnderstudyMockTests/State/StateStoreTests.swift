import Foundation
import Testing
import UnderstudyCore
import UnderstudyMock

/// The store's journal, its state file and the file's lock.
struct StateStoreTests {
    struct Item: StateRow, Hashable {
        var id: Int
        var owner: String
        var key: Int { id }
    }

    struct Items: StoredState {
        static let owners: @Sendable (Item) -> [String] = { ["owner \($0.owner)"] }
        /// By owner, then the highest id first.
        static let byOwner = StateOrder<Item>("owner", key: { .text($0.owner) }, tiebreak: { $0.id > $1.id })
        var items = StateTable<Item>(groups: owners, orders: [byOwner])
        var issued = StateValue(0)

        mutating func visit(_ visitor: inout StateVisitor) {
            visitor.visit("items", &items)
            visitor.visit("issued", &issued)
        }
    }

    struct Other: StoredState {
        var items = StateTable<Item>()

        mutating func visit(_ visitor: inout StateVisitor) { visitor.visit("items", &items) }
    }

    struct Refused: Error {}

    static let seed = Items(
        items: StateTable(
            (1...3).map { Item(id: $0, owner: $0 == 2 ? "bo" : "al") }, groups: Items.owners, orders: [Items.byOwner]))

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("state-store-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func snapshot(_ store: StateStore<Items>) -> [Item] { store.read { Array($0.items) } }

    /// The rows in the table's kept order.
    static func ordered(_ store: StateStore<Items>) -> [Item] {
        store.read { state in state.items.positions(orderedBy: "owner")!.map { state.items[$0] } }
    }

    /// What the kept order must be: the rows sorted.
    static func sorted(_ items: [Item], descending: Bool = false) -> [Item] {
        items.sorted { lhs, rhs in lhs.owner == rhs.owner ? lhs.id > rhs.id : (lhs.owner < rhs.owner) != descending }
    }

    @Test func aWriteThatThrowsChangesNothingInMemoryOrOnDisk() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("items.sqlite")
        do {
            let store = try await StateStore(seed: Self.seed, file: file)
            try await store.write { state in
                state.items.remove(key: 1)
                state.items.append(Item(id: 4, owner: "bo"))
                state.issued.value = 4
            }
            let before = Self.snapshot(store)
            await #expect(throws: Refused.self) {
                try await store.write { state in
                    state.items.append(Item(id: 5, owner: "al"))
                    state.items[key: 2] = Item(id: 2, owner: "cy")
                    state.items.remove(key: 3)
                    state.items.append(Item(id: 1, owner: "al"))
                    state.issued.value = 99
                    throw Refused()
                }
            }
            #expect(Self.snapshot(store) == before)
            #expect(Self.ordered(store) == Self.sorted(before))
            #expect(store.read { $0.items.rows(in: "owner bo").map(\.id) } == [2, 4])
            #expect(store.read { $0.items.positions(in: "owner cy") } == [])
            #expect(store.read { $0.issued.value } == 4)
        }
        let reopened = try await StateStore(seed: Self.seed, file: file)
        #expect(
            Self.snapshot(reopened) == [Item(id: 2, owner: "bo"), Item(id: 3, owner: "al"), Item(id: 4, owner: "bo")])
        #expect(Self.ordered(reopened).map(\.id) == [3, 4, 2])
        #expect(reopened.read { $0.issued.value } == 4)
    }

    @Test func removedRowsAreCompactedAndTheOrderSurvivesARestart() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("items.sqlite")
        var expected: [Item] = []
        do {
            let store = try await StateStore(seed: Items(), file: file)
            for id in 0..<1_000 {
                try await store.write { $0.items.append(Item(id: id, owner: id % 3 == 0 ? "al" : "bo")) }
                if id % 2 == 1 { try await store.write { $0.items.remove(key: id - 1) } }
            }
            expected = (0..<1_000).filter { $0 % 2 == 1 }.map { Item(id: $0, owner: $0 % 3 == 0 ? "al" : "bo") }
            #expect(Self.snapshot(store) == expected)
            #expect(store.read { $0.items.rows(in: "owner al") } == expected.filter { $0.owner == "al" })
            #expect(Self.ordered(store) == Self.sorted(expected))
        }
        let reopened = try await StateStore(seed: Items(), file: file)
        #expect(Self.snapshot(reopened) == expected)
        #expect(Self.ordered(reopened) == Self.sorted(expected))
        #expect(reopened.read { $0.items.reversed().first } == expected.last)
    }

    /// An order follows appends, changes that move a row, changes of key and removals, finds a key's rows by
    /// binary search, and walks backwards key by key.
    @Test func aKeptOrderFollowsEveryWriteAndFindsARange() throws {
        var random = SeededRandom(seed: 11)
        // Chunks of 4 to 8 positions: the rows split and merge chunks all along.
        let order = StateOrder<Item>("owner", key: { .text($0.owner) }, chunkSize: 4, tiebreak: { $0.id > $1.id })
        var table = StateTable<Item>(orders: [order])
        var rows: [Int: Item] = [:]
        let owners = ["al", "bo", "cy", "di"]
        for step in 0..<1_000 {
            let id = random.int(in: 0...300)
            switch step % 4 {
            case 0, 1:
                let item = Item(id: id, owner: owners[random.int(in: 0...3)])
                table.append(item)
                rows[id] = item
            case 2:
                table.remove(key: id)
                rows[id] = nil
            default:
                guard let position = table.position(of: id) else { continue }
                // Another owner moves the row; now and then another id changes its key too.
                let newID = rows[id + 1000] == nil && random.int(in: 0...1) == 0 ? id + 1000 : id
                let moved = Item(id: newID, owner: owners[random.int(in: 0...3)])
                table[position] = moved
                rows[id] = nil
                rows[moved.id] = moved
            }
            let kept = table.positions(orderedBy: "owner")!.map { table[$0] }
            let keptDescending = table.positions(orderedBy: "owner")!.byDescendingKey().map { table[$0] }
            guard kept == Self.sorted(Array(rows.values)),
                keptDescending == Self.sorted(Array(rows.values), descending: true)
            else {
                Issue.record("the kept order differs from the sorted rows after step \(step)")
                return
            }
        }
        let kept = try #require(table.positions(orderedBy: "owner"))
        let cy = kept[kept.range(of: .text("cy"))]
        #expect(cy.map { table[$0] } == Self.sorted(rows.values.filter { $0.owner == "cy" }))
        #expect(!cy.isEmpty)
        #expect(kept[kept.range(of: .text("ab"))].isEmpty)
        // Pages are reached by skipping chunks, from either end.
        #expect(Array(kept.dropFirst(37).prefix(9)) == Array(Array(kept)[37..<46]))
        #expect(Array(kept.reversed().prefix(5)) == Array(Array(kept).reversed().prefix(5)))
        #expect(kept.count == rows.count)
        // Descending: owners from the last to the first, each owner's rows still by the tiebreak.
        let descending = kept.byDescendingKey().map { table[$0] }
        #expect(descending == Self.sorted(Array(rows.values), descending: true))
        #expect(table.positions(orderedBy: "id") == nil)
    }

    @Test func aSecondStoreOnALockedFileIsRefused() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("items.sqlite")
        let store = try await StateStore(seed: Self.seed, file: file)
        await #expect(throws: StateFileError.self) { try await StateStore(seed: Self.seed, file: file) }
        do {
            _ = try await StateStore(seed: Self.seed, file: file)
        } catch {
            #expect(
                (error as? StateFileError)?.description
                    == "the state file \(file.path) is in use by another understudy mock (it is locked); "
                    + "stop that mock, or give this one another --state file")
        }
        try await store.write { $0.items.append(Item(id: 9, owner: "al")) }
        #expect(store.read { $0.items.count } == 4)
    }

    /// The engine alone (an app's test target links no database driver) has no backend for a `postgres://` state:
    /// it says so instead of treating the URL as a file. `SharedStateTests` covers the server's backend.
    @Test func aDatabaseURLWithoutASharedStateBackendIsRefused() async throws {
        let url = try #require(URL(string: "postgres://understudy@127.0.0.1:5432/states"))
        let error = await #expect(throws: StateFileError.self) { try await StateStore(seed: Self.seed, file: url) }
        #expect(
            error?.description
                == "cannot keep the state in postgres://…: give a file, or a postgres:// URL to a mock started by "
                + "UnderstudyMockServer (understudy mock, MockServer.start)")
    }

    @Test func foreignFilesAreRefusedUntouched() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = folder.appendingPathComponent("old.json")
        let legacy = Data(#"{"items": []}"#.utf8)
        try legacy.write(to: json)
        await #expect {
            try await StateStore(seed: Self.seed, file: json)
        } throws: { error in
            (error as? StateFileError)?.description.contains("is a JSON state file of an earlier understudy") == true
        }
        #expect(try Data(contentsOf: json) == legacy)

        let text = folder.appendingPathComponent("notes.txt")
        try Data("hello".utf8).write(to: text)
        await #expect(throws: StateFileError.self) { try await StateStore(seed: Self.seed, file: text) }
        #expect(try Data(contentsOf: text) == Data("hello".utf8))

        // Another kind of state (another API's file) is refused, and keeps its rows.
        let other = folder.appendingPathComponent("other.sqlite")
        do { _ = try await StateStore(seed: Other(items: StateTable([Item(id: 7, owner: "al")])), file: other) }
        let bytes = try Data(contentsOf: other)
        await #expect {
            try await StateStore(seed: Self.seed, file: other)
        } throws: { error in
            (error as? StateFileError)?.description.contains("is not an understudy state file of this mock") == true
        }
        #expect(try Data(contentsOf: other) == bytes)
        // A reset replaces this mock's state only, never a file it did not write.
        for file in [text, other] {
            await #expect(throws: StateFileError.self) {
                try await StateStore(seed: Self.seed, file: file, reset: true)
            }
        }
        #expect(try Data(contentsOf: text) == Data("hello".utf8))
        #expect(try Data(contentsOf: other) == bytes)
        #expect(try await StateStore(seed: Other(), file: other).read { $0.items.map(\.id) } == [7])
    }

    /// A file that held rows and now holds none, or only part of them, lost state: it is refused, untouched, as
    /// a damaged one is, and `reset` (`--state-reset`) starts it from the seed.
    @Test(arguments: [0, 8, 100, 4096])
    func anEmptyOrTruncatedFileIsRefusedUnlessReset(keeping bytes: Int) async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("items.sqlite")
        do {
            let store = try await StateStore(seed: Self.seed, file: file)
            for id in 10..<400 { try await store.write { $0.items.append(Item(id: id, owner: "al")) } }
        }
        let whole = try Data(contentsOf: file)
        #expect(whole.count > bytes * 2, "the file must be cut short: \(whole.count) bytes")
        let cut = whole.prefix(bytes)
        try cut.write(to: file)

        let error = await #expect(throws: StateFileError.self) { try await StateStore(seed: Self.seed, file: file) }
        let expected =
            bytes == 0
            ? "the state file \(file.path) is empty (0 bytes)"
            : "the state file \(file.path) is damaged ("
        #expect(error?.description.hasPrefix(expected) == true, "\(error?.description ?? "")")
        #expect(error?.description.contains("--state-reset") == true)
        #expect(try Data(contentsOf: file) == cut)

        do {
            let reset = try await StateStore(seed: Self.seed, file: file, reset: true)
            #expect(Self.snapshot(reset) == Array(Self.seed.items))
            try await reset.write { $0.items.append(Item(id: 4, owner: "bo")) }
        }
        let reopened = try await StateStore(seed: Items(), file: file)
        #expect(Self.snapshot(reopened).map(\.id) == [1, 2, 3, 4])
    }

    /// A file created empty by this store is a new one, not a lost one.
    @Test func aFileThatDoesNotExistStartsFromTheSeed() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await StateStore(seed: Self.seed, file: folder.appendingPathComponent("new.sqlite"))
        #expect(Self.snapshot(store) == Array(Self.seed.items))
    }

    /// SQLite keeps writing into a file whose folder was removed (the open descriptor outlives the name): the
    /// write would be acknowledged into a file no restart finds. It is refused and undone instead.
    @Test(arguments: ["folder removed", "file moved", "file replaced"])
    func aWriteToAFileNoLongerInPlaceIsRefusedAndUndone(event: String) async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("items.sqlite")
        let store = try await StateStore(seed: Self.seed, file: file)
        try await store.write { $0.items.append(Item(id: 4, owner: "bo")) }
        switch event {
        case "folder removed": try FileManager.default.removeItem(at: folder)
        case "file moved": try FileManager.default.moveItem(at: file, to: folder.appendingPathComponent("moved"))
        default:
            try FileManager.default.moveItem(at: file, to: folder.appendingPathComponent("moved"))
            try Data().write(to: file)
        }
        let error = await #expect(throws: StateFileError.self) {
            try await store.write { $0.items.append(Item(id: 5, owner: "bo")) }
        }
        #expect(
            error?.description
                == "the state file \(file.path) was removed or replaced while the mock ran (its folder deleted?); the "
                + "write was not kept: restart the mock to write to a new file")
        #expect(Self.snapshot(store).map(\.id) == [1, 2, 3, 4])
    }

    /// The server's event loops ask the version for every cached answer: it is not behind the store's lock, which a
    /// long read or a commit to disk holds (a cached GET waited for them: p50 8-10 ms while lists were rendered,
    /// scripts/bench-speed.sh).
    @Test func theVersionIsReadWhileTheStoreIsLocked() async throws {
        let store = try await StateStore(seed: Self.seed)
        try await store.write { $0.issued.value += 1 }
        let locked = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let released = Locked(false)
        let reader = Thread {
            store.read { _ in
                locked.signal()
                // A reader that blocked on the lock would keep this read open for five seconds, then be seen late.
                _ = release.wait(timeout: .now() + 5)
                released.withLock { $0 = true }
            }
        }
        reader.start()
        locked.wait()
        let version = store.version
        let readWhileLocked = !released.withLock { $0 }
        release.signal()
        #expect(version == 1)
        #expect(readWhileLocked)
    }
}
