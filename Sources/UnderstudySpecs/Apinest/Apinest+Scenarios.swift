import Foundation
import UnderstudyCore

extension Fitness {
    /// Join someone else's open activity and leave it again; create an activity → read it → complete it
    /// (activities cannot be deleted: completing closes it).
    static let writeScenario = WriteScenario { session in
        let me = session.userID
        let open = (await session.call(activities)?.arrayValue ?? []).first { activity in
            activity["isCompleted"] == false
                && !(activity["participantIds"]?.arrayValue ?? []).contains { $0.stringValue == me }
                && (activity["participantIds"]?.arrayValue?.count ?? .max)
                    < (activity["participants"]?.numberValue?.intValue ?? 0)
        }
        if let id = open?["_id"]?.stringValue {
            if await session.call(joinActivity, path: ["id": id]) != nil {
                await session.call(leaveActivity, path: ["id": id])
            }
        } else {
            session.skip(joinActivity, because: "no open activity of another user to join")
        }
        let start = session.now.addingTimeInterval(7 * 86_400)
        let activity = Apinest.CreateActivityRequest(
            sportType: "Running", title: "Understudy check", description: "Created by understudy check --allow-writes.",
            location: "Understudy track", latitude: 48.8566, longitude: 2.3522, date: ScenarioDate.day(start),
            time: ScenarioDate.instant(start), participants: 2, level: "Beginner", visibility: "friends")
        guard let created = await session.call(createActivity, body: activity),
            let id = (created["_id"] ?? created["id"])?.stringValue
        else { return }
        await session.call(Fitness.activity, path: ["id": id])
        await session.call(completeActivity, path: ["id": id])
        session.note(createActivity.id, "the created activity \(id) stays (completed): the API has no delete")
    }
}

extension Achievements {
    /// Mark one notification read, then all.
    static let writeScenario = WriteScenario { session in
        if let id = await session.call(notifications)?["notifications"]?.arrayValue?.first?["_id"]?.stringValue {
            await session.call(markNotificationRead, path: ["id": id])
        } else {
            session.skip(markNotificationRead, because: "no notification to mark read")
        }
        await session.call(markAllNotificationsRead)
    }
}
