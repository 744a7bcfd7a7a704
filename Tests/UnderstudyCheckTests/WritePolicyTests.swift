import Testing
import UnderstudyCore

@testable import UnderstudyCheck

/// The pieces the write policy reads an operation by (``WritePolicy``); the whole policy runs against a stateful
/// mock in `StagingSafetyTests`.
struct WritePolicyTests {
    @Test func anOperationNameIsReadAsItsWords() {
        #expect(WritePolicy.words("bulk_set_state") == ["bulk", "set", "state"])
        #expect(WritePolicy.words("/flow_runs/deleteMany") == ["flow", "runs", "delete", "many"])
        #expect(WritePolicy.words("Reset the database") == ["reset", "the", "database"])
    }

    /// The identifier of an item whose schema does not declare it is found where servers put it: Kinto answers a
    /// create with `{"data": {"id": …}, "permissions": {…}}`.
    @Test func anIdentifierIsFoundOneLevelDown() throws {
        let answer = try JSONValue(parsing: Array(#"{"permissions": {"write": ["a"]}, "data": {"id": "b1"}}"#.utf8))
        #expect(CheckSession.identifier(in: answer, named: ["id"], at: nil) == "b1")
        let top = try JSONValue(parsing: Array(#"{"id": 7, "data": {"id": "b1"}}"#.utf8))
        #expect(CheckSession.identifier(in: top, named: ["id"], at: nil) == "7")
    }
}
