import Foundation
import UnderstudyCore

extension Fitness {
    /// One joins another user's activity, not one's own (its creator is a participant already): join and leave run
    /// on an open activity of someone else with a place left, which leaving gives back as it was.
    static let writeHints = WriteHints()
        .acting([joinActivity.id, leaveActivity.id], because: "needs an open activity of another user with a place left") {
            session in
            let me = session.userID
            let open = (await session.call(activities)?.arrayValue ?? []).first { activity in
                activity["isCompleted"] == false
                    && !(activity["participantIds"]?.arrayValue ?? []).contains { $0.stringValue == me }
                    && (activity["participantIds"]?.arrayValue?.count ?? .max)
                        < (activity["participants"]?.numberValue?.intValue ?? 0)
            }
            return open?["_id"]?.stringValue
        }
}
