import Casting
import HLS
import Testing

@Suite("The live window across reloads")
struct LiveWindowTests {
    /// A window of `count` 4 s segments from media sequence `first`, with the given date range lines.
    static func window(_ first: Int, count: Int = 3, _ dateRanges: String = "") -> MediaPlaylist {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:\(first)\n"
        text += "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:\(String(format: "%02d", first * 4)).000Z\n" + dateRanges
        for segment in first..<(first + count) { text += "#EXTINF:4,\ns\(segment).ts\n" }
        return PlaylistParser.parse(text).mediaPlaylist!
    }

    @Test("Positions stay on the first load's timeline as the window slides")
    func positionsCarryOver() {
        var window = LiveWindow()
        #expect(window.absorb(Self.window(0)).playlist.segments.map(\.start) == [0, 4, 8])
        #expect(window.absorb(Self.window(1)).playlist.segments.map(\.start) == [4, 8, 12])
        #expect(window.absorb(Self.window(2)).playlist.segments.map(\.start) == [8, 12, 16])
    }

    @Test("Segments missed between reloads are assumed to last a target duration each")
    func missedSegments() {
        var window = LiveWindow()
        _ = window.absorb(Self.window(0))
        #expect(window.absorb(Self.window(10)).playlist.segments.first?.start == 40)
    }

    @Test("A date range that slides out of the window is kept; a reload adds attributes and reports a changed one")
    func dateRangesAcrossReloads() {
        var window = LiveWindow()
        let ad = #"#EXT-X-DATERANGE:ID="ad",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:06.000Z",X-ASSET-URI="https://a/ad.m3u8""#
        _ = window.absorb(Self.window(0, ad + ",PLANNED-DURATION=10\n"))
        let added = window.absorb(Self.window(1, ad + ",PLANNED-DURATION=10,DURATION=9\n"))
        #expect(added.diagnostics.isEmpty)
        #expect(added.playlist.dateRanges.first?.duration == 9)
        let changed = window.absorb(Self.window(2, ad + ",PLANNED-DURATION=12,DURATION=9\n"))
        #expect(changed.diagnostics.map(\.code) == [.dateRangeChangedAttribute])
        #expect(changed.playlist.dateRanges.first?.plannedDuration == 10)
        let slid = window.absorb(Self.window(5))
        #expect(slid.playlist.dateRanges.map(\.id) == ["ad"], "gone from the playlist, still known")
        #expect(slid.playlist.interstitialEvents().events.first?.duration == 9)
    }
}
