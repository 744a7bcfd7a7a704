import Testing
import UnderstudyCore

@testable import UnderstudyMock

/// The order of a list's items by a member (``QueryMeaning/precedes(_:_:by:)``): instants by the time they name, however
/// written; numbers by value; other text as text. A table's kept order compares on every create, so instants written
/// alike are compared as text, without a parse: the same order, checked here against the parsed one.
struct ListOrderTests {
    static func precedes(_ lhs: String, _ rhs: String) -> Bool? {
        QueryMeaning.precedes(["at": .string(lhs)], ["at": .string(rhs)], by: [.ascending("/at")])
    }

    @Test func instantsOrderByTheTimeTheyName() {
        #expect(Self.precedes("2025-11-15T14:30:00Z", "2025-11-15T14:30:05Z") == true)
        #expect(Self.precedes("2025-11-15T14:30:05Z", "2025-11-15T14:30:00Z") == false)
        #expect(Self.precedes("2025-11-15T14:30:00.500Z", "2025-11-15T14:30:00.125Z") == false)
        #expect(Self.precedes("2025-11-15T14:30:00Z", "2025-11-15T14:30:00Z") == nil)
        // Written otherwise, they are parsed: 15:30 at +02:00 is 13:30Z; 0.5 s is after 0.25 s; the same instant.
        #expect(Self.precedes("2025-11-15T15:30:00+02:00", "2025-11-15T14:30:00Z") == true)
        #expect(Self.precedes("2025-11-15T14:30:00.5Z", "2025-11-15T14:30:00.25Z") == false)
        #expect(Self.precedes("2025-11-15T14:30:00Z", "2025-11-15T14:30:00.000Z") == nil)
        #expect(Self.precedes("beta", "alpha") == false)
    }

    @Test func onlyUTCInstantsOfOneShapeAreComparedAsText() {
        #expect(QueryMeaning.writtenAlike("2025-11-15T14:30:00Z", "2024-01-02T03:04:05Z"))
        #expect(QueryMeaning.writtenAlike("2025-11-15T14:30:00.125Z", "2025-11-15T14:30:00.500Z"))
        #expect(!QueryMeaning.writtenAlike("2025-11-15T14:30:00.5Z", "2025-11-15T14:30:00Z"))
        #expect(!QueryMeaning.writtenAlike("2025-11-15 14:30:00Z", "2025-11-15 14:30:05Z"))
        #expect(!QueryMeaning.writtenAlike("2025-11-15T14:30:00+01:00", "2025-11-15T14:30:00+02:00"))
        #expect(!QueryMeaning.writtenAlike("2025-11-15T14:30:00z", "2025-11-15T14:30:00z"))
        #expect(!QueryMeaning.writtenAlike("12345678901234567890Z", "12345678901234567891Z"))
        #expect(!QueryMeaning.writtenAlike("Z", "Z"))
        // What cannot be an instant (a UUID tie-break) is compared as text.
        #expect(Self.precedes("3fb36e0c-ff6c-4408-bb58-2fc83accaa7a", "feb58a26-6613-498b-a572-2807a08d1726") == true)
    }
}
