import Foundation
import UnderstudyCore

extension EasyCo {
    /// PostgREST names rows by filters, not paths, which the explorer does not follow: the writes are one flow.
    static let writeHints = WriteHints()
        .flow(covering: [addFavorite.id, removeFavorite.id, createApplication.id], writeFlow)

    /// Favorite a property → read the favorite → delete it. Apply to a property the user neither owns nor has
    /// applied to → read the application; it stays (the API offers no way to delete one), which a note says.
    private static let writeFlow = WriteScenario { session in
        guard let userID = session.userID, let user = UUID(uuidString: userID) else {
            session.skip(addFavorite, because: "the token carries no user id (sub claim)")
            session.skip(createApplication, because: "the token carries no user id (sub claim)")
            return
        }
        let properties = await session.call(EasyCo.properties)?.arrayValue ?? []
        await favoriteFlow(session, user: user, properties: properties)
        await applicationFlow(session, user: user, properties: properties)
    }

    private static func favoriteFlow(_ session: any ScenarioSession, user: UUID, properties: [JSONValue]) async {
        let userID = user.uuidString.lowercased()
        let existing = Set(
            (await session.call(EasyCo.favorites, query: [("user_id", "eq.\(userID)")])?.arrayValue ?? [])
                .compactMap { $0["property_id"]?.stringValue })
        guard let propertyID = properties.compactMap({ $0["id"]?.stringValue }).first(where: { !existing.contains($0) }),
            let property = UUID(uuidString: propertyID)
        else {
            return session.skip(addFavorite, because: "no property left to favorite")
        }
        let favorite = NewFavorite(userId: user, propertyId: property)
        guard await session.call(addFavorite, headers: ["Prefer": "return=representation"], body: favorite) != nil
        else { return }
        let mine = [("property_id", "eq.\(propertyID)"), ("user_id", "eq.\(userID)")]
        await session.call(favorites, query: mine)
        await session.call(removeFavorite, query: mine)
    }

    private static func applicationFlow(_ session: any ScenarioSession, user: UUID, properties: [JSONValue]) async {
        let userID = user.uuidString.lowercased()
        let applied = Set(
            (await session.call(applications, query: [("applicant_id", "eq.\(userID)")])?.arrayValue ?? [])
                .compactMap { $0["property_id"]?.stringValue })
        guard
            let propertyID = properties.first(where: { property in
                property["owner_id"]?.stringValue?.lowercased() != userID
                    && property["id"]?.stringValue.map(applied.contains) == false
            })?["id"]?.stringValue,
            let property = UUID(uuidString: propertyID)
        else {
            return session.skip(createApplication, because: "no property of another owner left to apply to")
        }
        let application = NewApplication(
            applicantId: user, propertyId: property, applicantName: "Understudy Check",
            applicantEmail: session.token.flatMap { JWTClaims.claim("email", of: $0) } ?? "understudy-check@example.com",
            status: "pending", message: "Sent by understudy check --allow-writes.")
        guard let created = await session.call(createApplication, headers: ["Prefer": "return=representation"], body: application)
        else { return }
        let id = created.arrayValue?.first?["id"]?.stringValue ?? "?"
        await session.call(applications, query: [("id", "eq.\(id)")])
        session.note(createApplication.id, "the application \(id) stays (pending): the API has no delete")
    }
}
