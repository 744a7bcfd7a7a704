import UnderstudyCore

/// How an embed joins its parent.
package enum PostgrestRelation: Sendable, Hashable {
    /// `parent.column` references `target.id` (an object, or `null`).
    case toOne(column: String, target: String)
    /// `child.column` references `parent.id` (an array).
    case toMany(child: String, column: String)

    package var table: String {
        switch self {
        case .toOne(_, let target): target
        case .toMany(let child, _): child
        }
    }
}

/// A `select` item resolved against its table.
package enum PostgrestOutput {
    case star
    case column(key: String, extractor: PostgrestExtractor, cast: String?)
}

/// An embed resolved against the foreign keys, with its own plan.
package struct PostgrestEmbedPlan {
    package let key: String
    package let spread: Bool
    package let inner: Bool
    package let relation: PostgrestRelation
    package let node: PostgrestNode
    /// For a to-one embed: the position of the referenced row, by parent position.
    package let targets: [Int?]
    /// For a to-many embed: the parent's id by parent position, and the child positions by parent id.
    package let ids: [PostgrestValue?]
    package let groups: [String: [Int]]
}

/// One ordering key: the value of the row at a position.
package struct PostgrestSortKey {
    package let value: (Int) -> PostgrestValue?
    package let descending: Bool
    package let nullsFirst: Bool
    /// The node's own column the key reads (no JSON path, no embed): an ordered index of it lists the rows in order.
    package var column: String?
}

/// The plan of one level of a read: what to select, which rows pass, in which order, how many.
package final class PostgrestNode {
    package let table: PostgrestTableInfo
    package var outputs: [PostgrestOutput] = []
    package var embeds: [PostgrestEmbedPlan] = []
    /// Row-level security for reads of the node's table.
    package var visible: (Int) -> Bool = { _ in false }
    package var predicate: PostgrestPredicate?
    package var order: [PostgrestSortKey] = []
    package var limit: Int?
    package var offset = 0
    /// The output keys in serialization order with what each writes (see ``PostgrestExecutor/write(_:positions:)``).
    package lazy var layout: [(key: String, bytes: [UInt8], slot: PostgrestSlot)] = PostgrestSlot.layout(of: self)

    package init(table: PostgrestTableInfo) { self.table = table }

    /// The keys a shaped row has (for a spread embed whose row is missing).
    package var outputKeys: [String] {
        var keys: [String] = []
        for output in outputs {
            switch output {
            case .star: keys += table.columns.map(\.name)
            case .column(let key, _, _): keys.append(key)
            }
        }
        for embed in embeds { keys += embed.spread ? embed.node.outputKeys : [embed.key] }
        return keys
    }
}

/// What one key of an output object holds.
package enum PostgrestSlot {
    /// A stored column, as is.
    case stored(String)
    /// A JSON path or a cast.
    case field(PostgrestExtractor, cast: String?)
    case embed(PostgrestEmbedPlan)
    /// A key of a spread to-one embed.
    case spread(PostgrestEmbedPlan, key: String)

    /// The slots of a node by key, as assigning them in select order would leave them, sorted by key as
    /// `JSONValue` serializes objects.
    package static func layout(of node: PostgrestNode) -> [(key: String, bytes: [UInt8], slot: PostgrestSlot)] {
        var slots: [String: PostgrestSlot] = [:]
        for output in node.outputs {
            switch output {
            case .star:
                for column in node.table.columns { slots[column.name] = .stored(column.name) }
            case .column(let key, let extractor, let cast):
                slots[key] =
                    extractor.field.path.isEmpty && cast == nil
                    ? .stored(extractor.field.column) : .field(extractor, cast: cast)
            }
        }
        for embed in node.embeds {
            if embed.spread {
                for key in embed.node.outputKeys { slots[key] = .spread(embed, key: key) }
            } else {
                slots[embed.key] = .embed(embed)
            }
        }
        return slots.keys.sorted().map { key in
            var bytes: [UInt8] = []
            PostgrestJSONWriter.string(key, into: &bytes)
            bytes.append(UInt8(ascii: ":"))
            return (key, bytes, slots[key]!)
        }
    }
}

/// Plans and runs reads over a snapshot of the tables for one caller: filters compiled once over column
/// vectors, row-level security, embeds through the foreign keys (by id index for to-one, by a cached
/// grouping for to-many), ordering on keys read once per row, and output written straight to bytes.
package final class PostgrestExecutor {
    package let catalog: PostgrestCatalog
    package let tables: [String: PostgrestTable]
    package let caller: PostgrestCaller
    package let cache: PostgrestColumnCache
    /// The statement's time budget, shared by every filter the executor compiles.
    package let timeout: PostgrestStatementTimeout
    private var visibility: [String: (Int) -> Bool] = [:]

    package init(
        catalog: PostgrestCatalog, tables: [String: PostgrestTable], caller: PostgrestCaller,
        cache: PostgrestColumnCache
    ) {
        self.catalog = catalog
        self.tables = tables
        self.caller = caller
        self.cache = cache
        timeout = PostgrestStatementTimeout(role: caller.role)
    }

    /// The values of a field for every row of `table`, by position.
    package func values(_ table: String, _ extractor: PostgrestExtractor) -> [PostgrestValue?] {
        guard let rows = tables[table] else { return [] }
        return cache.values(rows, name: table, extractor: extractor)
    }

    /// The values of a stored column for every row of `table`, by position.
    package func values(_ table: String, column: String) -> [PostgrestValue?] {
        guard let info = catalog.table(table),
            let extractor = try? PostgrestExtractor(PostgrestField(column: column), in: info)
        else { return [] }
        return values(table, extractor)
    }

    /// For every row of `table`, the position in `target` of the row its `column` references.
    package func references(_ table: String, column: String, target: String) -> [Int?] {
        guard let rows = tables[table], let targetRows = tables[target] else { return [] }
        return cache.references(rows, name: table, column: column, target: targetRows, targetName: target)
    }

    /// Whether the caller may read the row at a position of `table` (its select policies), memoized.
    package func visible(_ table: String) -> (Int) -> Bool {
        if let cached = visibility[table] { return cached }
        let predicate = security(table, .select)
        visibility[table] = predicate
        return predicate
    }

    /// Whether the caller may apply `operation` to the row at a position of `table`.
    package func security(_ table: String, _ operation: RowPolicy.Operation) -> (Int) -> Bool {
        guard let info = catalog.table(table) else { return { _ in false } }
        return PostgrestRowSecurity.predicate(
            info, operation, caller: caller,
            column: { name in
                let column = self.values(table, column: name)
                return { column[$0] }
            },
            owner: { via, referenced, ownerColumn in
                let owners = self.values(referenced, column: ownerColumn)
                let targets = self.references(table, column: via, target: referenced)
                return { position in
                    guard let target = targets[position], case .text(let owner)? = owners[target] else { return nil }
                    return owner
                }
            })
    }

    /// Whether the caller may apply `operation` to a row that is not stored yet (an insert).
    package func security(_ table: String, _ operation: RowPolicy.Operation, row: PostgrestRow) -> Bool {
        guard let info = catalog.table(table) else { return false }
        let predicate = PostgrestRowSecurity.predicate(
            info, operation, caller: caller,
            column: { name in
                let type = info.column(name)?.type ?? .text
                return { (row: PostgrestRow) in PostgrestExtractor.value(row[name] ?? .null, type: type) }
            },
            owner: { via, referenced, ownerColumn in
                let rows = tables[referenced]
                return { (row: PostgrestRow) in
                    row[via]?.stringValue.flatMap { rows?.row(id: $0)?[ownerColumn]?.stringValue }
                }
            })
        return predicate(row)
    }

    // MARK: Planning

    /// The plan of a read of `table`.
    /// - Throws: 42703 for an unknown column, PGRST200 for an embed no foreign key supports, PGRST108 for
    ///   a parameter on an embed the select does not have, 22P02 / 42883 for a filter the types refuse.
    package func plan(_ query: PostgrestQuery, table: String) throws(PostgrestError) -> PostgrestNode {
        guard let info = catalog.table(table) else {
            throw PostgrestErrors.unknownTable(table)
        }
        var covered: Set<PostgrestQuery.Path> = []
        let node = try plan(query.select, info: info, aliases: [[]], query: query, covered: &covered)
        if let missing = query.paths.subtracting(covered).sorted(by: { $0.count < $1.count }).first {
            let name = missing.joined(separator: ".")
            throw PostgrestErrors.make(
                .badRequest, code: "PGRST108", "'\(name)' is not an embedded resource in this request",
                hint: "Verify that '\(name)' is included in the 'select' query parameter.")
        }
        return node
    }

    /// Plans one level; `aliases` are the paths its parameters may use (an embed answers to its alias and
    /// to its relation name).
    private func plan(
        _ items: [PostgrestSelectItem], info: PostgrestTableInfo, aliases: [PostgrestQuery.Path], query: PostgrestQuery,
        covered: inout Set<PostgrestQuery.Path>
    ) throws(PostgrestError) -> PostgrestNode {
        let node = PostgrestNode(table: info)
        node.visible = visible(info.name)
        covered.formUnion(aliases)
        for item in items {
            switch item {
            case .star:
                node.outputs.append(.star)
            case .column(let alias, let field, let cast):
                let extractor = try PostgrestExtractor(field, in: info)
                if let cast { try Self.checkCast(cast) }
                node.outputs.append(.column(key: alias ?? field.outputName, extractor: extractor, cast: cast))
            case .embed(let embed):
                let relation = try resolve(embed, from: info.name)
                guard let target = catalog.table(relation.table) else {
                    throw PostgrestErrors.noRelationship(info.name, embed.relation)
                }
                if embed.spread, case .toMany = relation {
                    throw PostgrestErrors.make(
                        .badRequest, code: "PGRST119",
                        "A spread operation on '\(embed.relation)' is not possible",
                        details:
                            "'\(info.name)' and '\(embed.relation)' do not form a many-to-one or one-to-one "
                            + "relationship"
                    )
                }
                var childAliases = aliases.map { $0 + [embed.name] }
                if embed.alias != nil { childAliases += aliases.map { $0 + [embed.relation] } }
                let child = try plan(embed.items, info: target, aliases: childAliases, query: query, covered: &covered)
                var (targets, ids, groups): ([Int?], [PostgrestValue?], [String: [Int]]) = ([], [], [:])
                switch relation {
                case .toOne(let column, let targetTable):
                    targets = references(info.name, column: column, target: targetTable)
                case .toMany(let childTable, let column):
                    ids = values(info.name, column: "id")
                    if let rows = tables[childTable] { groups = cache.group(rows, name: childTable, by: column) }
                }
                node.embeds.append(
                    PostgrestEmbedPlan(
                        key: embed.name, spread: embed.spread, inner: embed.inner, relation: relation, node: child,
                        targets: targets, ids: ids, groups: groups))
            }
        }
        let compiler = PostgrestFilterCompiler(
            table: info, timeout: timeout, values: { [unowned self] in self.values(info.name, $0) },
            embedPresence: { [unowned self, unowned node] name in
                guard let embed = node.embeds.first(where: { $0.key == name }) else { return nil }
                return { !self.children(embed, of: $0).isEmpty }
            })
        var predicates: [PostgrestPredicate] = []
        for alias in aliases {
            for condition in query.conditions[alias] ?? [] { predicates.append(try compiler.compile(condition)) }
        }
        if !predicates.isEmpty { node.predicate = PostgrestFilterCompiler.and(predicates) }
        for alias in aliases {
            if let terms = query.orders[alias] { node.order = try sortKeys(terms, node: node) }
            if let limit = query.limits[alias] { node.limit = limit }
            if let offset = query.offsets[alias] { node.offset = offset }
        }
        return node
    }

    /// The relation an embed names: a foreign-key column of the parent, or a table joined by a foreign
    /// key in either direction (narrowed by `!hint`s: a constraint or column name).
    private func resolve(_ embed: PostgrestEmbed, from table: String) throws(PostgrestError) -> PostgrestRelation {
        if let key = catalog.keys(from: table).first(where: { $0.column == embed.relation }) {
            return .toOne(column: key.column, target: key.referencedTable)
        }
        var candidates: [(relation: PostgrestRelation, key: PostgrestForeignKey)] = []
        for key in catalog.keys(from: table) where key.referencedTable == embed.relation {
            candidates.append((.toOne(column: key.column, target: key.referencedTable), key))
        }
        for key in catalog.keys(to: table) where key.table == embed.relation {
            candidates.append((.toMany(child: key.table, column: key.column), key))
        }
        for hint in embed.hints {
            candidates = candidates.filter { $0.key.name == hint || $0.key.column == hint }
        }
        guard let first = candidates.first else { throw PostgrestErrors.noRelationship(table, embed.relation) }
        return first.relation
    }

    private func sortKeys(_ terms: [PostgrestOrderTerm], node: PostgrestNode) throws(PostgrestError)
        -> [PostgrestSortKey]
    {
        var keys: [PostgrestSortKey] = []
        for term in terms {
            let value: (Int) -> PostgrestValue?
            if let embedName = term.embed {
                let relation: PostgrestRelation
                if let embed = node.embeds.first(where: { $0.key == embedName }) {
                    relation = embed.relation
                } else {
                    relation = try resolve(
                        PostgrestEmbed(
                            alias: nil, relation: embedName, hints: [], inner: false, spread: false, items: []),
                        from: node.table.name)
                }
                guard case .toOne(let column, let target) = relation, let info = catalog.table(target) else {
                    throw PostgrestErrors.make(
                        .badRequest, code: "PGRST118", "A related order on '\(embedName)' is not possible",
                        details:
                            "'\(node.table.name)' and '\(embedName)' do not form a many-to-one or one-to-one "
                            + "relationship"
                    )
                }
                let targetValues = values(target, try PostgrestExtractor(term.field, in: info))
                let targets = references(node.table.name, column: column, target: target)
                let visible = visible(target)
                value = { position in
                    guard let target = targets[position], visible(target) else { return nil }
                    return targetValues[target]
                }
            } else {
                let column = values(node.table.name, try PostgrestExtractor(term.field, in: node.table))
                value = { column[$0] }
            }
            keys.append(
                PostgrestSortKey(
                    value: value, descending: term.descending, nullsFirst: term.placesNullsFirst,
                    column: term.embed == nil && term.field.path.isEmpty ? term.field.column : nil))
        }
        return keys
    }

    private static let casts: Set<String> = [
        "text", "varchar", "char", "int", "int2", "int4", "int8", "integer", "bigint", "smallint", "numeric", "decimal",
        "float", "float4", "float8", "real", "bool", "boolean", "json", "jsonb", "uuid", "date", "timestamptz",
        "timestamp",
    ]

    private static func checkCast(_ cast: String) throws(PostgrestError) {
        guard casts.contains(cast.lowercased()) else {
            throw PostgrestErrors.make(.badRequest, code: "42704", "type \"\(cast)\" does not exist")
        }
    }

    // MARK: Running

    /// The positions of the rows the caller sees and the filters keep, in order: all of them, or only the first
    /// `ordered` (those a limit asks for), the others following in no order. Unless `counting` (the caller needs
    /// their number), only those first `ordered` may be returned: when an ordered index of the first sort key lists
    /// them, the rows past them are not read.
    /// - Throws: 57014 when the filters ran out of time.
    package func matches(_ node: PostgrestNode, ordered: Int? = nil, counting: Bool = true) throws(PostgrestError)
        -> [Int]
    {
        guard let table = tables[node.table.name] else { return [] }
        let visible = node.visible
        let predicate = node.predicate
        let inner = node.embeds.filter(\.inner).map { presence($0, parent: node) }
        // The filters usually keep fewer rows than row-level security, and cost less: they go first.
        func keep(_ position: Int) -> Bool {
            if let predicate, predicate(position) != true { return false }
            if !visible(position) { return false }
            return inner.isEmpty || inner.allSatisfy { $0(position) }
        }
        if let ordered, !counting, let column = node.order.first?.column,
            let index = table.positions(orderedBy: column)
        {
            return try walk(index, node.order, first: ordered, keep: keep)
        }
        var positions: [Int] = []
        for position in table.rows.indices {
            if timeout.expired { break }
            if keep(position) { positions.append(position) }
        }
        try timeout.ensureInTime()
        return sorted(positions, by: node.order, first: ordered)
    }

    /// The first `count` rows that `keep` keeps, in the order of `keys`, read along an ordered index of the first
    /// key: each run of rows of one key (by position, as the sort leaves ties) is filtered and sorted by the other
    /// keys, until `count` rows are found. O(log n + the rows walked), where sorting the table was O(n log n).
    private func walk(
        _ index: OrderedPositions<PostgrestIndexKey>, _ keys: [PostgrestSortKey], first count: Int,
        keep: (Int) -> Bool
    ) throws(PostgrestError) -> [Int] {
        guard count > 0 else { return [] }
        let (first, rest) = (keys[0], Array(keys.dropFirst()))
        var found: [Int] = []
        func take(_ run: Range<OrderedPositions<PostgrestIndexKey>.Index>) {
            if rest.isEmpty {
                for position in index[run] where keep(position) {
                    found.append(position)
                    if found.count == count || timeout.expired { return }
                }
            } else {
                found += sorted(index[run].filter(keep), by: rest)
            }
        }
        // SQL NULLs are last in the index.
        let nulls = index.first { $0.key.value == nil }
        if first.nullsFirst { take(nulls..<index.endIndex) }
        if first.descending {
            var upper = nulls
            while upper > index.startIndex, found.count < count, !timeout.expired {
                let lower = index.range(of: index.key(at: index.index(before: upper))).lowerBound
                take(lower..<upper)
                upper = lower
            }
        } else {
            var lower = index.startIndex
            while lower < nulls, found.count < count, !timeout.expired {
                let upper = index.range(of: index.key(at: lower)).upperBound
                take(lower..<upper)
                lower = upper
            }
        }
        if !first.nullsFirst && found.count < count { take(nulls..<index.endIndex) }
        try timeout.ensureInTime()
        return Array(found.prefix(count))
    }

    /// Whether the row at a position of `parent`'s table has at least one row in `embed` (`!inner`).
    ///
    /// For a to-many embed the children are scanned once and their parents marked, rather than grouping
    /// and filtering the children of every parent.
    private func presence(_ embed: PostgrestEmbedPlan, parent: PostgrestNode) -> (Int) -> Bool {
        guard case .toMany(let child, let column) = embed.relation, embed.node.offset == 0, embed.node.limit != 0,
            let children = tables[child], let parents = tables[parent.table.name]
        else {
            return { !self.children(embed, of: $0).isEmpty }
        }
        let references = references(child, column: column, target: parent.table.name)
        var mask = [Bool](repeating: false, count: parents.rows.count)
        for position in children.rows.indices where keep(embed.node, position) {
            if let parent = references[position] { mask[parent] = true }
        }
        return { mask[$0] }
    }

    /// Whether an embedded row is visible and passes its level's filters and inner embeds.
    private func keep(_ node: PostgrestNode, _ position: Int) -> Bool {
        guard node.visible(position) else { return false }
        if let predicate = node.predicate, predicate(position) != true { return false }
        return node.embeds.allSatisfy { !$0.inner || !children($0, of: position).isEmpty }
    }

    /// `positions` ordered by `keys`, ties in table order; with `first`, only that many lead in order and the
    /// others follow in no order.
    package func sorted(_ positions: [Int], by keys: [PostgrestSortKey], first: Int? = nil) -> [Int] {
        guard !keys.isEmpty, positions.count > 1 else { return positions }
        let width = keys.count
        // One flat array of keys, read once per row: the comparisons only index into it.
        var values: [PostgrestValue?] = []
        values.reserveCapacity(positions.count * width)
        for position in positions {
            for key in keys { values.append(key.value(position)) }
        }
        let descending = keys.map(\.descending)
        let nullsFirst = keys.map(\.nullsFirst)
        func precedes(_ left: Int, _ right: Int) -> Bool {
            for index in 0..<width {
                switch (values[left * width + index], values[right * width + index]) {
                case (nil, nil): continue
                case (nil, _): return nullsFirst[index]
                case (_, nil): return !nullsFirst[index]
                case (let a?, let b?):
                    let comparison = PostgrestValue.compare(a, b)
                    if comparison != 0 { return descending[index] ? comparison > 0 : comparison < 0 }
                }
            }
            return left < right
        }
        if let first, first < positions.count / 8 {
            // A limit over many rows: keep the first ones in a bounded heap, O(n log k), rather than sorting all
            // (p50 31 ms → 8 ms for `order=…&limit=20` over 100 000 rows, scripts/bench-postgrest.sh).
            var heap = PostgrestTopRows(capacity: first, precedes: precedes)
            for index in positions.indices { heap.offer(index) }
            let leading = heap.sorted()
            var taken = [Bool](repeating: false, count: positions.count)
            for index in leading { taken[index] = true }
            return leading.map { positions[$0] } + positions.indices.filter { !taken[$0] }.map { positions[$0] }
        }
        return positions.indices.sorted(by: precedes).map { positions[$0] }
    }

    /// The positions of the embedded rows of the parent row at `parent`: visible, filtered, ordered, limited.
    package func children(_ embed: PostgrestEmbedPlan, of parent: Int) -> [Int] {
        let node = embed.node
        switch embed.relation {
        case .toOne:
            guard let position = embed.targets[parent], keep(node, position) else { return [] }
            return node.offset > 0 || node.limit == 0 ? [] : [position]
        case .toMany:
            guard case .text(let id)? = embed.ids[parent] else { return [] }
            let positions = embed.groups[id, default: []].filter { keep(node, $0) }
            var ordered = sorted(positions, by: node.order)
            if node.offset > 0 { ordered = Array(ordered.dropFirst(node.offset)) }
            if let limit = node.limit { ordered = Array(ordered.prefix(limit)) }
            return ordered
        }
    }

    // MARK: Shaping

    /// The row at `position` as the select asks for it, with its embeds, as a JSON value.
    /// - Throws: 22P02 when a cast cannot convert a value.
    package func shape(_ node: PostgrestNode, _ position: Int) throws(PostgrestError) -> [String: JSONValue] {
        guard let row = tables[node.table.name]?.rows[position] else { return [:] }
        var object: [String: JSONValue] = [:]
        for (key, _, slot) in node.layout {
            switch slot {
            case .stored(let column): object[key] = row[column] ?? .null
            case .field(let extractor, let cast): object[key] = try Self.output(extractor, cast: cast, row)
            case .embed(let embed):
                let positions = children(embed, of: position)
                switch embed.relation {
                case .toOne:
                    object[key] = .null
                    if let child = positions.first { object[key] = .object(try shape(embed.node, child)) }
                case .toMany:
                    var elements: [JSONValue] = []
                    for child in positions { elements.append(.object(try shape(embed.node, child))) }
                    object[key] = .array(elements)
                }
            case .spread(let embed, let member):
                guard let child = children(embed, of: position).first else {
                    object[key] = .null
                    continue
                }
                object[key] = try shape(embed.node, child)[member] ?? .null
            }
        }
        return object
    }

    /// The rows at `positions` as a JSON array, written straight to bytes: the same bytes as
    /// `JSONValue.array(positions.map { .object(shape(node, $0)) }).serializedBytes()`, without building the
    /// values (a hundred thousand rows of thirty columns would otherwise take seconds).
    /// - Throws: 22P02 when a cast cannot convert a value.
    package func write(_ node: PostgrestNode, positions: some Collection<Int>) throws(PostgrestError) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64 + positions.count * 256)
        bytes.append(UInt8(ascii: "["))
        var first = true
        for position in positions {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            try write(node, position, into: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
        return bytes
    }

    private func write(_ node: PostgrestNode, _ position: Int, into bytes: inout [UInt8]) throws(PostgrestError) {
        guard let row = tables[node.table.name]?.rows[position] else {
            bytes += Array("null".utf8)
            return
        }
        let layout = node.layout
        if layout.isEmpty {
            bytes += [UInt8(ascii: "{"), UInt8(ascii: "}")]
            return
        }
        bytes.append(UInt8(ascii: "{"))
        for (index, entry) in layout.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += entry.bytes
            switch entry.slot {
            case .stored(let column): PostgrestJSONWriter.value(row[column] ?? .null, into: &bytes)
            case .field(let extractor, let cast):
                PostgrestJSONWriter.value(try Self.output(extractor, cast: cast, row), into: &bytes)
            case .embed(let embed):
                let positions = children(embed, of: position)
                switch embed.relation {
                case .toOne:
                    if let child = positions.first {
                        try write(embed.node, child, into: &bytes)
                    } else {
                        bytes += Array("null".utf8)
                    }
                case .toMany:
                    bytes.append(UInt8(ascii: "["))
                    for (offset, child) in positions.enumerated() {
                        if offset > 0 { bytes.append(UInt8(ascii: ",")) }
                        try write(embed.node, child, into: &bytes)
                    }
                    bytes.append(UInt8(ascii: "]"))
                }
            case .spread(let embed, let member):
                var value = JSONValue.null
                if let child = children(embed, of: position).first {
                    value = try shape(embed.node, child)[member] ?? .null
                }
                PostgrestJSONWriter.value(value, into: &bytes)
            }
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// The JSON a selected field yields: the JSON at a `->` path, the text at a `->>` path, then the cast.
    private static func output(_ extractor: PostgrestExtractor, cast: String?, _ row: PostgrestRow)
        throws(PostgrestError)
        -> JSONValue
    {
        var value: JSONValue
        if let last = extractor.field.path.last {
            let json = extractor.json(row) ?? .null
            switch json {
            case .number(let number) where last.asText: value = .string(number.literal)
            case .bool(let bool) where last.asText: value = .string(bool ? "true" : "false")
            case .array, .object: value = last.asText ? .string(json.serialized()) : json
            default: value = json
            }
        } else {
            value = row[extractor.field.column] ?? .null
        }
        if let cast { value = try apply(cast, to: value) }
        return value
    }

    /// `value::type`.
    private static func apply(_ cast: String, to value: JSONValue) throws(PostgrestError) -> JSONValue {
        if value == .null { return .null }
        switch cast.lowercased() {
        case "text", "varchar", "char":
            switch value {
            case .string: return value
            case .number(let number): return .string(number.literal)
            case .bool(let bool): return .string(bool ? "true" : "false")
            default: return .string(value.serialized())
            }
        case "int", "int2", "int4", "int8", "integer", "bigint", "smallint":
            switch value {
            case .number(let number): return .integer(Int((number.doubleValue ?? 0).rounded()))
            case .bool(let bool): return .integer(bool ? 1 : 0)
            case .string(let string):
                guard let int = Int(string.trimmingSpaces) else { throw PostgrestErrors.invalidInput(.integer, string) }
                return .integer(int)
            default: throw PostgrestErrors.invalidInput(.integer, value.serialized())
            }
        case "numeric", "decimal", "float", "float4", "float8", "real":
            switch value {
            case .number: return value
            case .string(let string):
                guard let double = Double(string.trimmingSpaces), double.isFinite else {
                    throw PostgrestErrors.invalidInput(.numeric, string)
                }
                return .number(JSONNumber(double))
            default: throw PostgrestErrors.invalidInput(.numeric, value.serialized())
            }
        case "bool", "boolean":
            switch value {
            case .bool: return value
            case .string(let string):
                guard let bool = PostgrestLiteral.boolean(string) else {
                    throw PostgrestErrors.invalidInput(.boolean, string)
                }
                return .bool(bool)
            case .number(let number): return .bool((number.doubleValue ?? 0) != 0)
            default: throw PostgrestErrors.invalidInput(.boolean, value.serialized())
            }
        default:
            return value
        }
    }
}

/// The `capacity` first of the indices offered, in a binary max-heap under `precedes` (its root is the last of them).
package struct PostgrestTopRows {
    package let capacity: Int
    package let precedes: (Int, Int) -> Bool
    private var heap: [Int] = []

    package init(capacity: Int, precedes: @escaping (Int, Int) -> Bool) {
        self.capacity = capacity
        self.precedes = precedes
        heap.reserveCapacity(capacity)
    }

    package mutating func offer(_ index: Int) {
        guard capacity > 0 else { return }
        if heap.count < capacity {
            heap.append(index)
            var child = heap.count - 1
            while child > 0, precedes(heap[(child - 1) / 2], heap[child]) {
                heap.swapAt(child, (child - 1) / 2)
                child = (child - 1) / 2
            }
        } else if precedes(index, heap[0]) {
            heap[0] = index
            var parent = 0
            while true {
                let left = 2 * parent + 1
                var last = parent
                if left < heap.count, precedes(heap[last], heap[left]) { last = left }
                if left + 1 < heap.count, precedes(heap[last], heap[left + 1]) { last = left + 1 }
                if last == parent { break }
                heap.swapAt(parent, last)
                parent = last
            }
        }
    }

    /// The kept indices, in order.
    package func sorted() -> [Int] { heap.sorted(by: precedes) }
}

/// Writes JSON exactly as `JSONValue.serializedBytes()` does (compact, keys sorted, the same escapes),
/// but into a byte buffer, byte by byte rather than scalar by scalar.
package enum PostgrestJSONWriter {
    package static func value(_ value: JSONValue, into bytes: inout [UInt8]) {
        switch value {
        case .null: bytes += [0x6E, 0x75, 0x6C, 0x6C]
        case .bool(let bool): bytes += bool ? [0x74, 0x72, 0x75, 0x65] : [0x66, 0x61, 0x6C, 0x73, 0x65]
        case .number(let number): bytes += number.literal.utf8
        case .string(let string): Self.string(string, into: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                Self.value(element, into: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                Self.string(key, into: &bytes)
                bytes.append(UInt8(ascii: ":"))
                Self.value(members[key]!, into: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    private static let hex = Array("0123456789abcdef".utf8)

    package static func string(_ string: String, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        // Most strings need no escape: copy them whole.
        if !string.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            bytes.append(contentsOf: string.utf8)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x08: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0x00..<0x20:
                bytes += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")]
                bytes += [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
