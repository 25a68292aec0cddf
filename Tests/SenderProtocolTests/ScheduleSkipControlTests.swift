import Foundation
import HLS
import Playback
import SenderProtocol
import Testing

/// The effective schedule (`getProperty?interstitialEvents`) carries each break's skip control, as
/// AVPlayerInterstitialEvent's `skipControlTimeRange`, so a console of receivers on other hosts can show
/// the countdown; what another receiver writes there is range-checked.
@Suite("The schedule's skip control")
struct ScheduleSkipControlTests {
    @Test("The playlist's X-SKIP-CONTROL reaches the schedule and reads back the same")
    func roundTrip() throws {
        let result = PlaylistParser.parse("""
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z
            #EXT-X-DATERANGE:ID="ad-1",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:02.000Z",X-ASSET-URI="ad/index.m3u8",X-SKIP-CONTROL-OFFSET=2,X-SKIP-CONTROL-DURATION=3,X-SKIP-CONTROL-LABEL-ID="skip"
            #EXTINF:4,
            a.ts
            #EXT-X-ENDLIST
            """)
        let events = try #require(result.mediaPlaylist).interstitialEvents().events
        let plan = PlaybackPlan(
            primaryDuration: 4,
            breaks: [
                PlannedBreak(eventID: "ad-1", position: 2, resumeOffset: 0, assets: [PlannedAsset(uri: "ad/index.m3u8", duration: 4)]),
                PlannedBreak(eventID: "sender", position: 3, resumeOffset: 0, assets: []),
            ])
        let schedule = PropertyResponse.interstitialEvents(plan, events: events)
        let text = String(decoding: WireJSON.data(schedule), as: UTF8.self)
        #expect(text.contains("\"skipControlTimeRange\":{\"duration\":3,\"start\":2}") && text.contains("\"skipControlLocalizedLabelBundleKey\":\"skip\""), "\(text)")
        let read = try WireJSON.decoder.decode([ScheduledInterstitial].self, from: WireJSON.data(schedule))
        #expect(read.map(\.skipControl) == [InterstitialEvent.SkipControl(offset: 2, duration: 3, labelID: "skip"), nil])
    }

    @Test("A skip control that is not a time is left out, and the event still reads")
    func hostile() throws {
        let base = #"{"identifier":"x","time":1,"resumptionOffset":0,"restrictions":[],"cue":"noCue","willPlayOnce":false,"alignsStartWithPrimarySegmentBoundary":false,"alignsResumptionWithPrimarySegmentBoundary":false,"assets":[]"#
        for range in [#"{"start":-1}"#, #"{"start":1,"duration":-2}"#, #""soon""#, #"{"start":1e400}"#] {
            let event = try WireJSON.decoder.decode(ScheduledInterstitial.self, from: Data((base + #","skipControlTimeRange":"# + range + "}").utf8))
            #expect(event.skipControl == nil && event.identifier == "x", "\(range)")
        }
    }
}
