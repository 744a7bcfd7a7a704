import Foundation
import Testing
import UnderstudyCore

/// `Date(iso8601:)`, which reads `format: date-time` and `format: date` values (RFC 3339, section 5.6) everywhere:
/// a request rule comparing two dates, a list ordered by an instant, a `date-time` the checker validates.
struct ISO8601DateTests {
    @Test func readsInstantsAndFullDates() {
        #expect(Date(iso8601: "2025-11-15")?.timeIntervalSince1970 == 1_763_164_800)
        #expect(Date(iso8601: "2025-11-15T14:30:00Z")?.timeIntervalSince1970 == 1_763_217_000)
        #expect(Date(iso8601: "2025-11-15T14:30:00.250Z")?.timeIntervalSince1970 == 1_763_217_000.25)
        #expect(Date(iso8601: "2025-11-15T16:30:00+02:00")?.timeIntervalSince1970 == 1_763_217_000)
    }

    /// RFC 3339's `time-numoffset` goes up to ±23:59, past Foundation's ±18:00: 14:30 at +23:59 is 14:31Z the day
    /// before, 14:30 at -19:30 is 10:00Z the day after.
    @Test func readsEveryOffsetRFC3339Allows() {
        #expect(Date(iso8601: "2025-11-15T14:30:00+23:59") == Date(iso8601: "2025-11-14T14:31:00Z"))
        #expect(Date(iso8601: "2025-11-15T14:30:00-19:30") == Date(iso8601: "2025-11-16T10:00:00Z"))
        #expect(Date(iso8601: "2025-11-15T14:30:00.5+23:59") == Date(iso8601: "2025-11-14T14:31:00.5Z"))
        #expect(Date(iso8601: "2025-11-15T14:30:00+24:00") == nil)
        #expect(Date(iso8601: "2025-11-15T14:30:00+23:60") == nil)
    }

    /// Foundation's styles read `25:00` as 01:00 the next day, and the date of any text that begins with one.
    @Test func refusesWhatIsNoDate() {
        for text in [
            "", "2025", "2025-11", "2025-13-45", "2025-11-15T25:00:00Z", "2025-11-15T14:60:00Z",
            "2025-11-15T14:30:00", "2025-11-15 is a Saturday", "15/11/2025", "Brocante du dimanche",
            "2025abcd-1234-4321-9876-0123456789ab", "3fb36e0c-ff6c-4408-bb58-2fc83accaa7a",
        ] {
            #expect(Date(iso8601: text) == nil, "\(text)")
        }
    }

    /// What cannot begin an RFC 3339 date (four digits and a hyphen, a full date long) is told apart before the
    /// parser, which fails slowly: a UUID, a name, a bare year.
    @Test func tellsApartWhatCannotBeADateBeforeParsing() {
        #expect(Date.mayBeISO8601("2025-11-15") && Date.mayBeISO8601("2025-11-15T14:30:00+02:00"))
        #expect(!Date.mayBeISO8601("2025abcd-1234-4321-9876-0123456789ab"))
        #expect(!Date.mayBeISO8601("Brocante du dimanche") && !Date.mayBeISO8601("2025"))
        #expect(!Date.mayBeISO8601("2025-11-1"))
    }
}
