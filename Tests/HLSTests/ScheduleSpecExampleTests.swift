import Foundation
import Testing
@testable import HLS

/// The example playlists of RFC 8216bis Appendix D.6 and D.7, scheduled.
@Suite("Interstitial schedule: the spec's examples")
struct ScheduleSpecExampleTests {
    typealias Fixture = ScheduleFixture

    static func schedule(_ text: String, knownDurations: [String: KnownDuration] = [:]) throws -> InterstitialSchedule {
        let parsed = PlaylistParser.parse(text)
        let playlist = try #require(parsed.mediaPlaylist)
        let events = playlist.interstitialEvents()
        #expect(events.diagnostics.isEmpty)
        return InterstitialSchedule.build(
            events: events.events, timeline: PrimaryTimeline(playlist), isLive: playlist.isLive, knownDurations: knownDurations)
    }

    @Test("D.6: a 15-second ad four seconds into a six-second primary resumes where it left off")
    func appendixD6() throws {
        let schedule = try Self.schedule("""
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-PROGRAM-DATE-TIME:2020-01-02T21:55:40.000Z
            #EXTINF:6,
            main1.0.ts
            #EXT-X-ENDLIST
            #EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2020-01-02T21:55:44.000Z",DURATION=15.0,X-ASSET-URI="http://example.com/ad1.m3u8",X-RESUME-OFFSET=0,X-RESTRICT="SKIP,JUMP",X-COM-EXAMPLE-BEACON=123
            """)
        let ad = try #require(schedule.scheduled("ad1"))
        #expect(ad.position == 4)
        #expect(ad.resumeAt == 4)
        #expect(ad.duration == 15)
        #expect(ad.durationSource == .declared)
        #expect(ad.event.restrictions == [.skip, .jump])
        #expect(Fixture.shape(schedule.entries) == ["P0-4", "ad1@4+15", "P4-6"])
        #expect(schedule.playoutDuration == 21)
        #expect(schedule.diagnostics.isEmpty)
    }

    @Test("D.7: two 15-second ads from an asset list play one after the other, then primary resumes where it left off")
    func appendixD7() throws {
        let playlist = """
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-PROGRAM-DATE-TIME:2020-01-02T21:55:40.000Z
            #EXTINF:6,
            main1.mp4
            #EXT-X-ENDLIST
            #EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2020-01-02T21:55:44.000Z",DURATION=30.0,X-ASSET-LIST="http://example.com/adv.json",X-RESUME-OFFSET=0,X-SKIP-CONTROL-OFFSET=2,X-SKIP-CONTROL-DURATION=5,X-SKIP-CONTROL-LABEL-ID="Exit-Label"
            """
        let json = """
            {"ASSETS": [{"URI": "http://example.com/ad1.m3u8", "DURATION": 15}, {"URI": "http://example.com/ad2.m3u8", "DURATION": 15}],
             "SKIP-CONTROL": {"OFFSET": 5, "DURATION": 20}}
            """
        let list = try #require(AssetList.parse(Data(json.utf8), source: "adv.json").list)
        let known = KnownDuration(assetDurations: list.assets.map(\.duration), source: .assetList)

        let before = try Self.schedule(playlist)
        #expect(before.scheduled("ad1")?.durationSource == .declared)
        let after = try Self.schedule(playlist, knownDurations: ["ad1": known])
        let ad = try #require(after.scheduled("ad1"))
        #expect(ad.duration == 30)
        #expect(ad.durationSource == .assetList)
        #expect(!ad.isEstimate)
        #expect(ad.resumeAt == 4)
        #expect(Fixture.shape(after.entries) == ["P0-4", "ad1@4+30", "P4-6"])
        #expect(after.playoutDuration == 36)
        #expect(after.integratedTime(forPrimary: 5) == 35)
    }
}
