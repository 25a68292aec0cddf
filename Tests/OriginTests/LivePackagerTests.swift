import Foundation
import HLS
import Testing
@testable import Origin

/// A VOD served as a live stream: the window slides with time, keeps what a player needs to join it
/// anywhere, and ends when every segment is out.
@Suite("The live packager")
struct LivePackagerTests {
    /// Ten 2 s segments from 2026-01-01T00:00:00Z, an ad due at 12 s for 4 s.
    static let vod = (["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:2", "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-MEDIA-SEQUENCE:0",
        "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z",
        "#EXT-X-DATERANGE:ID=\"ad\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"2026-01-01T00:00:12.000Z\",DURATION=4,X-ASSET-URI=\"http://a/ad.m3u8\""]
        + (0..<10).flatMap { ["#EXTINF:2.0,", "seg\($0).ts"] } + ["#EXT-X-ENDLIST"]).joined(separator: "\n") + "\n"

    static func media(_ text: String?) throws -> MediaPlaylist {
        let text = try #require(text)
        return try #require(PlaylistParser.parse(text).mediaPlaylist)
    }

    @Test("At the start the first window is out; the window slides a segment per EXTINF, and the playlist is live")
    func slides() throws {
        let start = try Self.media(LivePackager.text(of: Self.vod, at: 0, segments: 3))
        #expect(start.isLive)
        #expect(start.mediaSequence == 0)
        #expect(start.segments.map(\.uri) == ["seg0.ts", "seg1.ts", "seg2.ts"])
        #expect(start.targetDuration == 2)
        let later = try Self.media(LivePackager.text(of: Self.vod, at: 5.9, segments: 3))
        #expect(later.mediaSequence == 2)
        #expect(later.segments.map(\.uri) == ["seg2.ts", "seg3.ts", "seg4.ts"])
        // The window's first segment carries its program date, extrapolated from the one it left behind.
        #expect(later.segments.first?.programDateTime == ProgramDate.parse("2026-01-01T00:00:04.000Z"))
    }

    @Test("An interstitial's date range appears once the live edge reaches its start, and stays while the window overlaps it")
    func dateRangesAtTheEdge() throws {
        let before = try Self.media(LivePackager.text(of: Self.vod, at: 5.9, segments: 3))
        #expect(before.dateRanges.isEmpty, "the edge is at 11.9 s, before the ad's 12 s")
        let reached = try Self.media(LivePackager.text(of: Self.vod, at: 6, segments: 3))
        #expect(reached.dateRanges.map(\.id) == ["ad"])
        #expect(reached.segments.last?.uri == "seg5.ts")
        let ended = try Self.media(LivePackager.text(of: Self.vod, at: 14, segments: 3))
        #expect(ended.dateRanges.map(\.id) == ["ad"], "the window from 14 s still overlaps the ad's 12–16 s")
    }

    @Test("Once every segment is out the playlist ends, and stays so however late it is asked for")
    func ends() throws {
        for elapsed in [14.0, 1e9, .infinity] {
            let last = try Self.media(LivePackager.text(of: Self.vod, at: elapsed, segments: 3))
            #expect(last.hasEndList)
            #expect(last.mediaSequence == 7)
        }
        let whole = try Self.media(LivePackager.text(of: Self.vod, at: 0, segments: 50))
        #expect(whole.hasEndList && whole.segments.count == 10, "a window wider than the VOD shows it all")
    }

    @Test("A window that starts after a discontinuity counts it in the discontinuity sequence and carries the map in force")
    func discontinuityAndMap() throws {
        var lines = ["#EXTM3U", "#EXT-X-TARGETDURATION:2", "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-MAP:URI=\"init-a.mp4\""]
        for index in 0..<6 {
            if index == 3 { lines += ["#EXT-X-DISCONTINUITY", "#EXT-X-MAP:URI=\"init-b.mp4\""] }
            lines += ["#EXTINF:2.0,", "s\(index).m4s"]
        }
        let vod = (lines + ["#EXT-X-ENDLIST"]).joined(separator: "\n")
        let atSplice = try Self.media(LivePackager.text(of: vod, at: 6, segments: 2))
        #expect(atSplice.segments.map(\.uri) == ["s3.m4s", "s4.m4s"])
        #expect(atSplice.discontinuitySequence == 1)
        #expect(atSplice.segments.allSatisfy { !$0.discontinuity })
        #expect(atSplice.segments.first?.map?.uri == "init-b.mp4")
        let past = try Self.media(LivePackager.text(of: vod, at: 8, segments: 2))
        #expect(past.discontinuitySequence == 1 && past.mediaSequence == 4)
        #expect(past.segments.first?.map?.uri == "init-b.mp4", "the map written two segments back is in force")
        let early = try Self.media(LivePackager.text(of: vod, at: 0, segments: 2))
        #expect(early.segments.first?.map?.uri == "init-a.mp4" && early.discontinuitySequence == 0)
    }

    @Test("Multivariant, live and unparsable playlists are not windowed: they are served as they are")
    func notWindowed() {
        #expect(LivePackager.text(of: "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1000\nv.m3u8\n", at: 3, segments: 3) == nil)
        #expect(LivePackager.text(of: "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts\n", at: 3, segments: 3) == nil)
        #expect(LivePackager.text(of: "not a playlist", at: 3, segments: 3) == nil)
    }
}
