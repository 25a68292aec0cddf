import Foundation
import Testing
@testable import HLS

@Suite("ISO 8601 program dates")
struct ProgramDateTests {
    @Test(
        "Dates with Z, numeric offsets, fractions and lower-case separators read as the same instant",
        arguments: [
            "2026-01-02T03:04:05.250Z", "2026-01-02T03:04:05.25Z", "2026-01-02t03:04:05.250z",
            "2026-01-02T04:04:05.250+01:00", "2026-01-02T04:04:05.250+0100", "2026-01-02T01:04:05.250-02:00",
        ])
    func readsEquivalentForms(text: String) throws {
        let expected = Date(timeIntervalSince1970: 1_767_323_045.25)
        let date = try #require(ProgramDate.parse(text))
        #expect(abs(date.timeIntervalSince(expected)) < 0.000_001)
    }

    @Test(
        "Text that is not a complete date-time is refused",
        arguments: ["", "2026-01-02", "2026-01-02T03:04", "2026-13-02T03:04:05Z", "2026-01-02T03:04:05.Z", "2026-01-02T03:04:05Zjunk"])
    func refusesIncompleteDates(text: String) {
        #expect(ProgramDate.parse(text) == nil)
    }

    @Test("A date-time without a time zone reads as UTC and says that it had none")
    func readsZonelessAsUTC() throws {
        let zoneless = try #require(ProgramDate.read("2020-01-01T00:00:00.000"))
        #expect(!zoneless.hasTimeZone)
        #expect(zoneless.date == Date(timeIntervalSince1970: 1_577_836_800))
        #expect(ProgramDate.read("2020-01-01T00:00:00.000Z")?.hasTimeZone == true)
        #expect(ProgramDate.read("2020-01-01T01:00:00+01:00")?.date == zoneless.date)
    }

    @Test("The first and last instants four-digit years and two-digit offsets can write are finite and ordered")
    func calendarEnds() throws {
        let first = try #require(ProgramDate.parse("0000-01-01T00:00:00.000+99:99"))
        let last = try #require(ProgramDate.parse("9999-12-31T23:59:60.999-99:99"))
        #expect(first.timeIntervalSince1970.isFinite && last.timeIntervalSince1970.isFinite)
        #expect(last.timeIntervalSince(first) > 3e11)
        #expect(!ProgramDate.format(first).isEmpty && !ProgramDate.format(last).isEmpty)
    }

    @Test("Formatting writes UTC with milliseconds and reads back to the same instant")
    func formatRoundTrips() throws {
        let date = Date(timeIntervalSince1970: 951_782_400.5)  // 2000-02-29, a leap day
        #expect(ProgramDate.format(date) == "2000-02-29T00:00:00.500Z")
        #expect(ProgramDate.parse(ProgramDate.format(date)) == date)
    }
}
