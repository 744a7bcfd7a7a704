import Foundation
import UnderstudyCore

extension Intra42 {
    /// A slot's rules are the intranet's, not the document's: it is the token's user's (`GET /v2/me`), and begins on
    /// a quarter hour at least half an hour ahead. The explorer opens two quarters an hour from now, lists them and
    /// closes both.
    static let writeHints = WriteHints()
        .body(createSlot) { session in
            guard let userID = await session.call(Intra42.me)?["id"]?.numberValue?.intValue else { return nil }
            let quarter = 900.0
            let begin = Date(
                timeIntervalSince1970: ((session.now.timeIntervalSince1970 + 3600) / quarter).rounded(.up) * quarter)
            return NewSlotRequest(
                slot: NewSlotRequest.Fields(
                    userId: userID, beginAt: ScenarioDate.instant(begin),
                    endAt: ScenarioDate.instant(begin.addingTimeInterval(2 * quarter))))
        }
}
