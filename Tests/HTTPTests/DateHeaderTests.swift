import CivilTime
import Foundation
import HTTP
import Testing
import TestSupport

@Suite("The Date every response carries")
struct DateHeaderTests {
    @Test("HTTPDate writes RFC 9110's IMF-fixdate, the RFC's own example included")
    func imfFixdate() {
        #expect(HTTPDate.format(secondsSince1970: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(secondsSince1970: 0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.format(secondsSince1970: 951_782_400) == "Tue, 29 Feb 2000 00:00:00 GMT")
        #expect(HTTPDate.format(secondsSince1970: -1) == "Wed, 31 Dec 1969 23:59:59 GMT")
        #expect(HTTPDate.format(secondsSince1970: 4_102_444_799) == "Thu, 31 Dec 2099 23:59:59 GMT")
        // The format has four digits of year: what lies beyond is clamped, never a trap.
        #expect(HTTPDate.format(secondsSince1970: .max) == "Fri, 31 Dec 9999 23:59:59 GMT")
        #expect(HTTPDate.format(secondsSince1970: .min) == "Sat, 01 Jan 0000 00:00:00 GMT")
    }

    @Test("HTTPDate agrees with Foundation's formatter over a sweep of four centuries")
    func agreesWithFoundation() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        // A prime step, so the sweep lands on every weekday, month and time of day.
        for seconds in stride(from: -2_208_988_800, through: 10_413_792_000, by: 7_919_993) {
            #expect(HTTPDate.format(secondsSince1970: seconds) == formatter.string(from: Date(timeIntervalSince1970: Double(seconds))))
        }
    }

    @Test("Every answer carries one Date, the server's time in IMF-fixdate")
    func everyAnswer() async throws {
        let fixture = try ServerFixture { _ in .text("hello") }
        defer { fixture.stop() }

        let before = Int(Date().timeIntervalSince1970)
        let result = try await fixture.curl(["--include", fixture.url("/anything")])
        let after = Int(Date().timeIntervalSince1970)

        #expect(result.status == 0, "\(result.stderr)")
        let dates = result.stdout.components(separatedBy: "\r\n").filter { $0.lowercased().hasPrefix("date:") }
        #expect(dates.count == 1, "\(result.stdout)")
        let sent = dates.first.map { String($0.dropFirst("Date: ".count)) } ?? ""
        #expect((before...after).map { HTTPDate.format(secondsSince1970: $0) }.contains(sent), "Date: \(sent)")
    }
}
