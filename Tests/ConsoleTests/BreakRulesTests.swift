import Console
import HLS
import Playback
import Testing

@Suite("A session's break rules")
struct BreakRulesTests {
    @Test("Restrictions and asset counts come from the plan, the skip control from the playlist's event of the same ID")
    func fromPlanAndPlaylist() throws {
        let result = PlaylistParser.parse("""
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z
            #EXT-X-DATERANGE:ID="ad-1",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:02.000Z",X-ASSET-URI="ad/index.m3u8",X-RESTRICT="SKIP",X-SKIP-CONTROL-OFFSET=2,X-SKIP-CONTROL-DURATION=3
            #EXTINF:4,
            a.ts
            #EXT-X-ENDLIST
            """)
        let events = try #require(result.mediaPlaylist).interstitialEvents().events
        let asset = PlannedAsset(uri: "ad/index.m3u8", duration: 4)
        let plan = PlaybackPlan(
            primaryDuration: 4, breaks: [PlannedBreak(eventID: "ad-1", position: 2, resumeOffset: 0, restrictions: .skip, assets: [asset, asset])])
        let rules = BreakRules(plan: plan, events: events)
        #expect(rules["ad-1"]?.restrictions == .skip)
        #expect(rules["ad-1"]?.assetCount == 2)
        #expect(rules["ad-1"]?.skipControl?.offset == 2 && rules["ad-1"]?.skipControl?.duration == 3)
        #expect(rules["ad-2"] == nil)
    }
}
