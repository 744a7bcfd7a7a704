import Foundation
import UnderstudyCore

extension EasyCo {
    /// Favorite a property → read the favorite → delete it. Applications are not written: the API offers no
    /// way to delete one.
    static let writeScenario = WriteScenario { session in
        session.skip(createApplication, because: "not written: the API offers no way to delete an application")
        guard let userID = session.userID, let user = UUID(uuidString: userID) else {
            session.skip(addFavorite, because: "the token carries no user id (sub claim)")
            return
        }
        let existing = Set(
            (await session.call(EasyCo.favorites, query: [("user_id", "eq.\(userID)")])?.arrayValue ?? [])
                .compactMap { $0["property_id"]?.stringValue })
        guard let properties = await session.call(EasyCo.properties)?.arrayValue,
            let propertyID = properties.compactMap({ $0["id"]?.stringValue }).first(where: { !existing.contains($0) }),
            let property = UUID(uuidString: propertyID)
        else {
            session.skip(addFavorite, because: "no property left to favorite")
            return
        }
        let favorite = NewFavorite(userId: user, propertyId: property)
        guard await session.call(addFavorite, headers: ["Prefer": "return=representation"], body: favorite) != nil
        else { return }
        let mine = [("property_id", "eq.\(propertyID)"), ("user_id", "eq.\(userID)")]
        await session.call(favorites, query: mine)
        await session.call(removeFavorite, query: mine)
    }
}
