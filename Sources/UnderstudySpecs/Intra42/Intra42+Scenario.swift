import Foundation
import UnderstudyCore

extension Intra42 {
    /// Open two 15-minute slots an hour from now → list them → delete them. Needs a user token.
    static let writeScenario = WriteScenario { session in
        guard let user = await session.call(Intra42.me), let userID = user["id"]?.numberValue?.intValue else {
            session.skip(createSlot, because: "needs a user token (GET /v2/me did not answer one)")
            return
        }
        let quarter = 900.0
        let begin = Date(timeIntervalSince1970: ((session.now.timeIntervalSince1970 + 3600) / quarter).rounded(.up) * quarter)
        let slot = NewSlotRequest(
            slot: NewSlotRequest.Fields(
                userId: userID, beginAt: ScenarioDate.instant(begin),
                endAt: ScenarioDate.instant(begin.addingTimeInterval(2 * quarter))))
        guard let created = await session.call(createSlot, body: slot) else { return }
        await session.call(mySlots)
        let ids = (created.arrayValue ?? [created]).compactMap { $0["id"]?.numberValue?.literal }
        for id in ids { await session.call(deleteSlot, path: ["id": id]) }
    }
}
