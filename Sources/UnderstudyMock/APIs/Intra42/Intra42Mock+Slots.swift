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

    /// `GET /v2/me/slots`: the current user's slots by `begin_at`, earliest first; `range[begin_at]`.
    func mySlots(_ request: MockRequest, endpoint: AnyEndpoint) throws -> MockResponse {
        try Intra42Filters.rejectUnknown(request, endpoint: endpoint)
        let id = try currentUserID(request)
        let range = try Intra42Filters.range("begin_at", in: request.query)
        return try store.read { state in
            let rows = try state.slots
                .filter { slot in
                    guard slot.userID == id else { return false }
                    guard let range else { return true }
                    return Intra42Time.parse(slot.beginAt).map(range.contains) ?? false
                }
                .sorted { ($0.beginAt, $0.id) < ($1.beginAt, $1.id) }
                .map { try Self.slot($0, in: state) }
            return LinkHeaderPage(request.query).response(rows, for: request, path: request.path)
        }
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
            let overlapping = state.slotPositions(of: id, from: begin, to: end).map { state.slots[$0] }.filter { slot in
                guard let slotBegin = Intra42Time.parse(slot.beginAt),
                    let slotEnd = Intra42Time.parse(slot.endAt)
                else { return false }
                return slotBegin < end && begin < slotEnd
            }
            if let first = overlapping.first {
                throw MockError(
                    .unprocessableEntity,
                    "slot: \(beginText)–\(endText) overlaps \(overlapping.count) of your slots "
                        + "(the first: \(first.id), \(first.beginAt)–\(first.endAt))")
            }
            var created: [Intra42SlotRecord] = []
            var cursor = begin
            while cursor < end {
                let stop = cursor.addingTimeInterval(Self.slotLength)
                created.append(
                    Intra42SlotRecord(
                        id: state.nextSlotID, userID: id, beginAt: Intra42Time.format(cursor),
                        endAt: Intra42Time.format(stop),
                        scaleTeam: nil))
                state.nextSlotID += 1
                cursor = stop
            }
            for slot in created { state.slots.append(slot) }
            return try created.map { try Self.slot($0, in: state) }
        }
        return .json(.array(created), status: 201)
    }

    /// `DELETE /v2/slots/{id}`: 204; 404 for an unknown slot, 403 for another user's slot or a booked one.
    func deleteSlot(_ request: MockRequest) async throws -> MockResponse {
        let id = try currentUserID(request, scope: "projects")
        let slotID = Int(request.pathParameters["id"] ?? "") ?? 0
        try await store.write { state throws in
            guard let index = state.slots.position(of: slotID) else {
                throw MockError(.notFound, "slot \(slotID) does not exist")
            }
            let slot = state.slots[index]
            guard slot.userID == id else {
                throw MockError(
                    .forbidden, "slot \(slotID) belongs to another user; you can only delete your own slots")
            }
            guard slot.scaleTeam == nil || slot.scaleTeam == .null else {
                throw MockError(.forbidden, "slot \(slotID) is booked by an evaluation and can no longer be deleted")
            }
            state.slots.remove(at: index)
        }
        return .empty()
    }

    /// A `Slot` as the API writes it: `user` is `{id, login, url}`, `scale_team` `null` while free.
    static func slot(_ slot: Intra42SlotRecord, in state: Intra42State) throws -> JSONValue {
        let login = state.user(slot.userID)?.login ?? String(slot.userID)
        let user: JSONValue = [
            "id": .integer(slot.userID), "login": .string(login),
            "url": .string("https://api.intra.42.fr/v2/users/\(login)"),
        ]
        return try Intra42.spec.wireJSON(
            Intra42.Slot(id: slot.id, beginAt: slot.beginAt, endAt: slot.endAt, scaleTeam: slot.scaleTeam, user: user))
    }
}
