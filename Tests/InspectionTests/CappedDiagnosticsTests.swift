import Foundation
import HLS
import Testing
@testable import Inspection

/// `playlist inspect` on a playlist whose every segment has the same fault lists a few and counts the rest.
@Suite("playlist inspect's capped diagnostics")
struct CappedDiagnosticsTests {
    static func report(segments count: Int) -> InspectionReport {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00\n"
        text.reserveCapacity(count * 20)
        for index in 0..<count { text += "#EXTINF:7,\ns\(index).ts\n" }
        text += "#EXT-X-ENDLIST\n"
        return InspectionReport(playlist: "many.m3u8", parsed: PlaylistParser.parse(text))
    }

    @Test("The text report lists five of 100,000 overlong segments, says how many more, and counts all of them in its header")
    func textCountsTheRest() {
        let text = Self.report(segments: 100_000).renderedText()
        #expect(text.contains("diagnostics (100001 warnings)"))
        #expect(text.components(separatedBy: "segment.exceeds-target-duration  Segment '").count - 1 == 5)
        #expect(text.contains("… and 99995 more like this (segment.exceeds-target-duration), the first of them on line 14"))
        // The one zoneless program date is listed on its own.
        #expect(text.contains("date.no-time-zone"))
    }

    @Test("The JSON report carries the count in the summary's suppressed field")
    func jsonCarriesSuppressed() throws {
        let json = Self.report(segments: 100_000).renderedJSON()
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
        let exceeding = diagnostics.filter { $0["code"] as? String == "segment.exceeds-target-duration" }
        #expect(exceeding.count == 6)
        #expect(exceeding.compactMap { $0["suppressed"] as? Int } == [99_995])
        // Its line is the first it counts; it is listed after every diagnostic given in full.
        #expect(exceeding.last?["line"] as? Int == 14)
        #expect(diagnostics.last?["suppressed"] as? Int == 99_995)
        #expect(diagnostics.count == 7)
    }
}
