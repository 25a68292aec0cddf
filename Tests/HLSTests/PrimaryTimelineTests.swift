import Foundation
import Testing
@testable import HLS

@Suite("Primary timeline")
struct PrimaryTimelineTests {
    private let playlist = """
        #EXTM3U
        #EXT-X-TARGETDURATION:10
        #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z
        #EXTINF:10,
        a.ts
        #EXTINF:10,
        b.ts
        #EXT-X-DISCONTINUITY
        #EXT-X-PROGRAM-DATE-TIME:2026-01-01T01:00:00Z
        #EXTINF:10,
        c.ts
        #EXTINF:10,
        d.ts
        """

    @Test("A date maps to its segment's position plus its distance from that segment's program date")
    func dateToPosition() throws {
        let timeline = PrimaryTimeline(try mediaPlaylist(playlist).0)
        #expect(timeline.position(of: date("2026-01-01T00:00:15Z")) == 15)
        // After the discontinuity the dates jump an hour; positions do not.
        #expect(timeline.position(of: date("2026-01-01T01:00:05Z")) == 25)
        #expect(timeline.position(of: date("2026-01-01T01:00:35Z")) == 55)
        #expect(timeline.position(of: date("2025-12-31T23:59:50Z")) == -10)
        #expect(timeline.date(at: 25) == date("2026-01-01T01:00:05Z"))
    }

    @Test("Without program dates no date can be placed")
    func noDates() {
        let timeline = PrimaryTimeline(segmentDurations: [10, 10], firstDate: nil)
        #expect(timeline.position(of: date("2026-01-01T00:00:00Z")) == nil)
        #expect(!timeline.hasDates)
    }

    @Test("The nearest segment boundary is found on either side, ties going earlier")
    func nearestBoundary() {
        let timeline = PrimaryTimeline(segmentDurations: [6, 6, 6], firstDate: nil)
        #expect(timeline.boundaries == [0, 6, 12, 18])
        #expect(timeline.nearestBoundary(to: 7) == 6)
        #expect(timeline.nearestBoundary(to: 11) == 12)
        #expect(timeline.nearestBoundary(to: 9) == 6)
        #expect(timeline.nearestBoundary(to: -3) == 0)
        #expect(timeline.nearestBoundary(to: 40) == 18)
    }
}
