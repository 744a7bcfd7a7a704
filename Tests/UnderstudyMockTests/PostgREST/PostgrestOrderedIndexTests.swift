import Foundation
import Testing
import UnderstudyCore
import UnderstudyPostgREST
import UnderstudySpecs

@testable import UnderstudyMock

/// A read ordered by an indexed column walks the index (`PostgrestTable.positions(orderedBy:)`) instead of sorting
/// the table: its answers must be the sort's, byte for byte, whatever the writes did to the table before.
struct PostgrestOrderedIndexTests {
    static let catalog = PostgrestCatalog.easyCo
    static let info = catalog.table("properties")!
    /// Nullable (`deposit`), many ties (`bedrooms`, `city`), unique (`id`, mostly `created_at`).
    static let indexed = ["id", "created_at", "monthly_rent", "deposit", "bedrooms", "city"]

    /// The same writes on a table without ordered indexes and on one with them.
    struct Twins {
        var plain: PostgrestTable
        var indexed: PostgrestTable

        mutating func apply(_ change: (inout PostgrestTable) -> Void) {
            change(&plain)
            change(&indexed)
        }
    }

    static func twins(count: Int) throws -> Twins {
        let rows = EasyCoMockTests.largeState(count: count).tables["properties"]!
        var indexed = rows
        indexed.indexOrders(try Self.indexed.map { try PostgrestExtractor(PostgrestField(column: $0), in: info) })
        return Twins(plain: rows, indexed: indexed)
    }

    /// The index's positions must be the rows sorted by value (SQL NULL last), then by position.
    static func expectConsistent(_ table: PostgrestTable, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for column in indexed {
            let extractor = try PostgrestExtractor(PostgrestField(column: column), in: info)
            let keys = table.rows.map(extractor.value)
            let expected = table.rows.indices.sorted { a, b in
                switch (keys[a], keys[b]) {
                case (nil, nil): return a < b
                case (nil, _): return false
                case (_, nil): return true
                case (let x?, let y?):
                    let order = PostgrestValue.compare(x, y)
                    return order != 0 ? order < 0 : a < b
                }
            }
            let kept = try #require(table.positions(orderedBy: column), sourceLocation: sourceLocation)
            #expect(Array(kept) == expected, "the index of \(column)", sourceLocation: sourceLocation)
        }
    }

    static func read(_ query: String, _ table: PostgrestTable, as caller: PostgrestCaller) throws -> PostgrestAnswer {
        var tables = Dictionary(uniqueKeysWithValues: catalog.tables.keys.map { ($0, PostgrestTable()) })
        tables["properties"] = table
        let request = PostgrestRequest(
            table: "properties", query: QueryItems(query), body: nil, isRead: true, isHead: false, header: { _ in nil })
        return try PostgrestService(catalog: catalog, seed: 1).read(request, caller: caller, tables: tables)
    }

    @Test func theIndexesFollowEveryWrite() throws {
        var twins = try Self.twins(count: 1_500)
        var random = SeededRandom(seed: 7)
        try Self.expectConsistent(twins.indexed)
        // Replacements that change indexed values (to NULL too), then appends, then removals, in one commit.
        for _ in 0..<200 {
            let position = random.int(in: 0...(twins.plain.rows.count - 1))
            var row = twins.plain.rows[position]
            row["deposit"] = random.chance(0.5) ? .null : .integer(random.int(in: 0...3))
            row["bedrooms"] = .integer(random.int(in: 1...5))
            row["monthly_rent"] = .number(JSONNumber(uncheckedLiteral: "\(random.int(in: 300...320)).00"))
            twins.apply { $0.replace(at: position, with: row) }
        }
        for index in 0..<100 {
            var row = twins.plain.rows[index]
            row["id"] = .string(random.uuid())
            row["city"] = index % 3 == 0 ? "Paris" : "Brest"
            twins.apply { $0.append(row) }
        }
        twins.apply { $0.keepWrite() }
        try Self.expectConsistent(twins.indexed)
        let removed = Set((0..<150).map { _ in random.int(in: 0...(twins.plain.rows.count - 1)) })
        twins.apply { $0.remove(at: removed) }
        try Self.expectConsistent(twins.indexed)
        // A write undone alone (appends and replacements), then the whole commit rolled back.
        let before = twins.indexed.positions(orderedBy: "deposit").map(Array.init)
        twins.apply { $0.keepWrite() }
        twins.apply { table in
            var row = table.rows[3]
            row["deposit"] = .null
            table.replace(at: 3, with: row)
            row["id"] = .string("00000000-0000-4000-8000-000000000001")
            table.append(row)
            table.undoWrite()
        }
        #expect(twins.indexed.positions(orderedBy: "deposit").map(Array.init) == before)
        twins.apply { $0.rollback() }
        try Self.expectConsistent(twins.indexed)
        // Reloaded from its records (a state file), the table keeps its indexes.
        twins.apply { table in table.load(table.records()) }
        try Self.expectConsistent(twins.indexed)
        #expect(twins.indexed.rows.count == 1_500)
    }

    @Test func aWalkedPageIsTheSortedPage() throws {
        var twins = try Self.twins(count: 2_000)
        // Changes first, so the walk reads an index maintained by writes, not only one built at start.
        var random = SeededRandom(seed: 11)
        for _ in 0..<300 {
            let position = random.int(in: 0...(twins.plain.rows.count - 1))
            var row = twins.plain.rows[position]
            row["deposit"] = random.chance(0.3) ? .null : .integer(random.int(in: 0...5) * 100)
            twins.apply { $0.replace(at: position, with: row) }
        }
        twins.apply { $0.remove(at: Set(stride(from: 0, to: 2_000, by: 17))) }
        twins.apply { $0.commit() }
        let owner = try #require(twins.plain.rows[5]["owner_id"]?.stringValue)
        let orders = [
            "monthly_rent.desc", "monthly_rent", "deposit.desc", "deposit.asc.nullsfirst", "deposit.desc.nullslast",
            "deposit", "bedrooms.desc,created_at", "bedrooms,monthly_rent.desc,id", "city,deposit.desc.nullslast",
            "created_at.desc", "id", "city.desc,title",
        ]
        let filters = ["", "&status=eq.published", "&city=in.(Lyon,Paris)&bedrooms=gte.3", "&deposit=is.null"]
        let ranges = ["&limit=20", "&limit=7&offset=30", "&limit=1", "&limit=0", "&limit=5000"]
        var walked = 0
        for order in orders {
            for filter in filters {
                for range in ranges {
                    for caller in [PostgrestCaller.serviceRole, .anonymous, .user(owner)] {
                        let query = "select=id,monthly_rent,deposit,bedrooms&order=\(order)\(filter)\(range)"
                        let sorted = try Self.read(query, twins.plain, as: caller)
                        let walk = try Self.read(query, twins.indexed, as: caller)
                        // Compared as one Bool: a failing #expect on two bodies renders their diff, which takes
                        // minutes for a page of 2,000 rows.
                        let same =
                            walk.body == sorted.body && walk.status == sorted.status
                            && walk.headers.map(\.value) == sorted.headers.map(\.value)
                        #expect(same, "\(query) as \(caller.role)")
                        walked += 1
                    }
                }
            }
        }
        // The comparisons are not vacuous: the pages hold rows.
        let page = try Self.read("select=id&order=deposit.desc&limit=20", twins.indexed, as: .serviceRole)
        #expect(try JSONParser().parse(page.body).arrayValue?.count == 20)
        #expect(walked == orders.count * filters.count * ranges.count * 3)
    }

    /// The column vectors the filters read are patched where appends and replacements wrote, and computed again when
    /// the table cannot tell what changed (a removal, an undo, a copy that changed otherwise).
    @Test func theColumnVectorsFollowTheWrites() throws {
        let cache = PostgrestColumnCache()
        let extractor = try PostgrestExtractor(PostgrestField(column: "deposit"), in: Self.info)
        var table = try Self.twins(count: 300).indexed
        func expectFresh(_ table: PostgrestTable, sourceLocation: SourceLocation = #_sourceLocation) {
            let cached = cache.values(table, name: "properties", extractor: extractor)
            #expect(cached == table.rows.map(extractor.value), sourceLocation: sourceLocation)
        }
        func setDeposit(_ table: inout PostgrestTable, _ position: Int, _ value: JSONValue) {
            var row = table.rows[position]
            row["deposit"] = value
            table.replace(at: position, with: row)
        }
        expectFresh(table)
        let base = table.generation
        setDeposit(&table, 4, 4_444)
        var row = table.rows[0]
        row["id"] = "00000000-0000-4000-8000-000000000002"
        table.append(row)
        #expect(table.positionsChanged(since: base) == [4, 300])
        expectFresh(table)
        // Two copies of one table changed differently: neither is patched from the other's vector.
        var other = table
        setDeposit(&table, 5, 5_555)
        setDeposit(&other, 7, 7_777)
        expectFresh(table)
        #expect(other.positionsChanged(since: table.generation) == nil)
        expectFresh(other)
        // A removal, then an undone write: computed again.
        table.remove(at: [0, 1])
        #expect(table.positionsChanged(since: other.generation) == nil)
        expectFresh(table)
        let beforeUndo = table.generation
        setDeposit(&table, 9, .null)
        table.undoWrite()
        #expect(table.positionsChanged(since: beforeUndo) == nil)
        expectFresh(table)
    }
}
