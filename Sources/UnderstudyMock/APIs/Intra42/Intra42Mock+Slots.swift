import Foundation
import UnderstudyCore
import UnderstudySpecs

extension Intra42Mock {
    /// Slots are cut into quarters of an hour, as the intranet shows and books them.
    static let slotLength: TimeInterval = 900
    /// A slot opens at least this long before it begins, so evaluators are not booked by surprise.
    static let slotNotice: TimeInterval = 1800
    /// The longest range one request may open (96 slots).
    static let longestSlotRange: TimeInterval = 86_400

    /// `GET /v2/me/slots`: the current user's slots by `begin_at`, earliest first, `range[begin_at]` as declared and
    /// served by the resource engine; an application token has no user (403), an undeclared filter is refused.
    func mySlots(_ request: MockRequest, endpoint: AnyEndpoint) async throws -> MockResponse? {
        try Intra42Filters.rejectUnknown(request, endpoint: endpoint)
        _ = try currentUserID(request)
        _ = try Intra42Filters.range("begin_at", in: request.query)
        return try await resources.handle(request, endpoint: endpoint)
    }

    /// `POST /v2/slots` `{"slot": {"user_id", "begin_at", "end_at"}}`: opens the range as 15-minute slots
    /// and answers them (201, earliest first).
    ///
    /// Rules (422, every broken one named): the descriptor's (both times on a quarter hour, `end_at` after
    /// `begin_at`), checked before; here `begin_at` at least 30 minutes from now, at most 24 hours in one request,
    /// no overlap with the user's slots. `user_id` must be the token's user (403), and the token needs the
    /// `projects` scope.
    func createSlots(_ request: MockRequest) async throws -> MockResponse {
        let id = try currentUserID(request, scope: "projects")
        let fields = request.json?["slot"] ?? [:]
        let userID = fields["user_id"]?.numberValue?.intValue
        guard userID == id else {
            throw MockError(
                .forbidden,
                "slot.user_id: \(userID.map(String.init) ?? "null") is not the current user (\(id)); "
                    + "a user opens only their own slots")
        }
        let beginText = fields["begin_at"]?.stringValue ?? ""
        let endText = fields["end_at"]?.stringValue ?? ""
        guard let begin = Intra42Time.parse(beginText), let end = Intra42Time.parse(endText) else {
            throw MockError(
                .unprocessableEntity,
                "slot: begin_at and end_at must be ISO 8601 instants (found \"\(beginText)\", \"\(endText)\")")
        }
        let now = configuration.now()
        var problems: [String] = []
        if end.timeIntervalSince(begin) > Self.longestSlotRange {
            let minutes = Int(end.timeIntervalSince(begin)) / 60
            problems.append("slot.end_at: one request opens at most 24 hours of slots, found \(minutes) minutes")
        }
        let earliest = now.addingTimeInterval(Self.slotNotice)
        if begin < earliest {
            problems.append(
                "slot.begin_at: must be at least 30 minutes from now (\(Intra42Time.format(earliest)) or later), "
                    + "found \(beginText)")
        }
        guard problems.isEmpty else { throw MockError(.unprocessableEntity, messages: problems) }

        let created = try await store.write { state throws -> [JSONValue] in
            // Checked under the store's lock, so two concurrent requests cannot open the same quarter.
            let overlapping = state.slots(of: id, from: begin, to: end).filter { slot in
                guard let slotBegin = slot.item["begin_at"]?.stringValue.flatMap(Intra42Time.parse),
                    let slotEnd = slot.item["end_at"]?.stringValue.flatMap(Intra42Time.parse)
                else { return false }
                return slotBegin < end && begin < slotEnd
            }
            if let first = overlapping.first {
                throw MockError(
                    .unprocessableEntity,
                    "slot: \(beginText)–\(endText) overlaps \(overlapping.count) of your slots "
                        + "(the first: \(first.id), \(first.item["begin_at"]?.stringValue ?? "")–"
                        + "\(first.item["end_at"]?.stringValue ?? ""))")
            }
            var created: [JSONValue] = []
            var cursor = begin
            while cursor < end {
                let stop = cursor.addingTimeInterval(Self.slotLength)
                let slot = Intra42SlotRecord(
                    id: state.nextSlotID, userID: id, beginAt: Intra42Time.format(cursor),
                    endAt: Intra42Time.format(stop), scaleTeam: nil)
                created.append(try state.open(slot))
                state.nextSlotID += 1
                cursor = stop
            }
            return created
        }
        return .json(.array(created), status: 201)
    }

    /// `DELETE /v2/slots/{id}`: 204, by the resource engine; 404 for an unknown slot, 403 for another user's (as the
    /// spec declares) and, here, for a booked one.
    func deleteSlot(_ request: MockRequest, endpoint: AnyEndpoint) async throws -> MockResponse? {
        let id = try currentUserID(request, scope: "projects")
        let slotID = request.pathParameters["id"] ?? ""
        let slot = store.read { $0.resources.tables[Intra42State.slots]?[key: ResourceRow.key(parent: [:], id: slotID)] }
        // No request books a slot: one free now is free when the engine deletes it.
        if let slot, slot.owner == String(id), (slot.item["scale_team"] ?? .null) != .null {
            throw MockError(.forbidden, "slot \(slotID) is booked by an evaluation and can no longer be deleted")
        }
        return try await resources.handle(request, endpoint: endpoint)
    }
}
