import UnderstudyCore

/// What a PostgREST answer is made of, negotiated from the request's headers: a JSON array or one object
/// (`Accept: application/vnd.pgrst.object+json`, what `.single()` sends), and the schema (`Accept-Profile` on
/// reads, `Content-Profile` on writes, which the Supabase clients send as `public`).
///
/// ```swift
/// let negotiation = try PostgrestNegotiation(accept: "application/vnd.pgrst.object+json", profile: nil)
/// try negotiation.check(rows: 2)   // 406 PGRST116 when one object was asked for
/// ```
package struct PostgrestNegotiation {
    package enum Media {
        case array
        case object
    }

    package var media = Media.array
    /// The schema the request named, echoed in `Content-Profile`.
    package var profile: String?

    /// The schemas the project exposes.
    package static let schemas = ["public"]

    /// - Parameters:
    ///   - accept: the `Accept` header.
    ///   - profile: the schema named: `Accept-Profile` on a read, `Content-Profile` on a write.
    /// - Throws: 406 PGRST106 for a schema the project does not expose.
    package init(accept: String?, profile: String?) throws(PostgrestError) {
        for range in (accept ?? "").split(separator: ",") {
            let essence = MediaType.essence(String(range))
            if essence == "application/vnd.pgrst.object+json" || essence == "application/vnd.pgrst.object" {
                media = .object
                break
            }
            if essence == "application/json" || essence == "*/*" || essence == "application/*" { break }
        }
        guard let schema = profile else { return }
        guard Self.schemas.contains(schema) else {
            throw PostgrestErrors.make(
                .init(rawValue: 406), code: "PGRST106", "Invalid schema: \(schema)",
                hint: "Only the following schemas are exposed: \(Self.schemas.joined(separator: ", "))")
        }
        self.profile = schema
    }

    /// `Content-Type`, and `Content-Profile` when the request named the schema.
    package var headers: [(name: String, value: String)] {
        let type =
            media == .object ? "application/vnd.pgrst.object+json; charset=utf-8" : "application/json; charset=utf-8"
        return [("Content-Type", type)] + (profile.map { [("Content-Profile", $0)] } ?? [])
    }

    /// Refuses a result of other than one row when one object was asked for; PostgREST checks the rows a read
    /// returns and the rows a write changed, and rolls the write back.
    /// - Throws: 406 PGRST116.
    package func check(rows count: Int) throws(PostgrestError) {
        guard media == .object, count != 1 else { return }
        throw PostgrestErrors.make(
            .init(rawValue: 406), code: "PGRST116", "Cannot coerce the result to a single JSON object",
            details: "The result contains \(count) rows")
    }

    /// The body from the rows written as a JSON array: the array, or its only object.
    package func body(_ array: [UInt8]) -> [UInt8] {
        media == .object ? Array(array.dropFirst().dropLast()) : array
    }

    /// An answer with the rows a write returns (``check(rows:)`` has passed): the array, or its only object.
    func answer(_ rows: [JSONValue], status: Int, headers: [(name: String, value: String)]) -> PostgrestAnswer {
        PostgrestAnswer(
            status: status, headers: self.headers + headers,
            body: (media == .object ? rows[0] : .array(rows)).serializedBytes())
    }
}
