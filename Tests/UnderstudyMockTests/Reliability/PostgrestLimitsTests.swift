import Testing
import UnderstudyCore
import UnderstudyPostgREST

@testable import UnderstudyMock

/// PostgREST's grammar under hostile input: nesting is bounded (PGRST100) and regular expressions run
/// under the statement timeout (57014), so no query can overflow the stack or pin a core.
struct PostgrestLimitsTests {
    @Test func nestingBeyondTheLimitIsAParseError() async throws {
        let session = try await EasyCoMockTests().session()
        let deepOr = String(repeating: "or(", count: 10_500) + "title.eq.x" + String(repeating: ")", count: 10_500)
        let deepSelect = String(repeating: "properties(", count: 200) + "id" + String(repeating: ")", count: 200)
        for query in ["or=(\(deepOr))", "not.and=(\(deepOr))", "select=id,\(deepSelect)"] {
            let reply = await session.send("GET", "/rest/v1/properties?\(query)")
            #expect(reply.status == 400, "\(query.prefix(40))")
            #expect(reply.json?["code"] == "PGRST100", "\(query.prefix(40))")
            #expect(
                reply.json?["details"] == "nesting too deep expecting at most 64 nested levels", "\(query.prefix(40))")
        }
        let limit = PostgrestParser.maximumDepth
        let deepest =
            String(repeating: "or(", count: limit - 1) + "title.eq.x" + String(repeating: ")", count: limit - 1)
        #expect(try await session.rows("/rest/v1/properties?or=(\(deepest))") == [])
    }

    /// `Prefer: =` (Schemathesis seed 3 sent it) trapped the preference parser: a preference with no name is ignored,
    /// as any unknown one, and refused under `handling=strict` (PGRST122, docs.postgrest.org preferences).
    @Test func preferencesWithNoNameAreIgnoredNotTrapped() async throws {
        let session = try await EasyCoMockTests().session()
        for prefer in ["=", ", = ,", "=representation", "return="] {
            let reply = await session.send("GET", "/rest/v1/properties?select=id", headers: ["Prefer": prefer])
            #expect(reply.status == 200, "\(prefer)")
        }
        let strict = await session.send(
            "GET", "/rest/v1/properties?select=id", headers: ["Prefer": "handling=strict, ="])
        #expect(strict.status == 400)
        #expect(strict.json?["code"] == "PGRST122")
        #expect(throws: FaultRuleError.self) { try FaultRule(parsing: "*: =") }
    }

    @Test func aCatastrophicRegexEndsWithTheStatementTimeout() async throws {
        let session = try await EasyCoMockTests().session()
        // The anon role's statement timeout is 3 s; without it this pattern runs for minutes.
        let reply = await session.send(
            "GET", "/rest/v1/properties?title=match.(.*)(.*)(.*)(.*)(.*)(.*)(.*)(.*)x$", token: session.apikey)
        #expect(reply.status == 500)
        #expect(
            reply.json == [
                "code": "57014", "message": "canceling statement due to statement timeout", "details": nil,
                "hint": nil,
            ])
        #expect(
            try await session.rows("/rest/v1/properties?title=match.^Studio&select=id", token: session.apikey).count
                >= 0)
    }

    @Test func aCancelledRequestEndsItsStatement() async {
        let task = Task { () -> Bool in
            withUnsafeCurrentTask { $0?.cancel() }
            return PostgrestStatementTimeout(seconds: 3_600).check()
        }
        #expect(await task.value)
    }
}
