import Foundation
import HLS
@testable import Playback
import Testing

private let playlistEvents: [InterstitialEvent] = {
    var first = InterstitialEvent(id: "ad-1", anchor: .time(20), asset: .uri("https://ads.example/1.m3u8"))
    first.restrictions = [.skip, .jump]
    var second = InterstitialEvent(id: "ad-2", anchor: .time(40), asset: .uri("https://ads.example/2.m3u8"))
    second.restrictions = [.skip, .jump]
    second.resumeOffset = 0
    return [first, second]
}()

private func events(_ json: String) throws -> [InterstitialEvent] {
    try ClientEvents(parsing: Data(json.utf8)).applied(to: playlistEvents)
}

@Suite("Client interstitial events")
struct ClientEventsTests {
    @Test("An override with a playlist event's identifier changes only what it names: here it lifts the restrictions of the second ad")
    func overrideLiftsRestrictions() throws {
        let result = try events(#"[{"identifier": "ad-2", "restrictions": []}]"#)
        #expect(result.map(\.id) == ["ad-1", "ad-2"])
        #expect(result[0].restrictions == [.skip, .jump])
        #expect(result[1].restrictions == [])
        #expect(result[1].anchor == .time(40) && result[1].resumeOffset == 0)
    }

    @Test("A new event in AVPlayerInterstitialEvent's shape is added after the playlist's, every member read")
    func newEvent() throws {
        let result = try events("""
            {"events": [{"identifier": "client-1", "time": 30, "assets": [{"uri": "https://a/1.m3u8", "duration": 15}, {"uri": "https://a/2.m3u8", "duration": 5}],
              "restrictions": ["requiresPlaybackAtPreferredRateForAdvancement", "JUMP"], "resumptionOffset": 0, "playoutLimit": 18,
              "cue": "noCue", "willPlayOnce": true, "alignsStartWithPrimarySegmentBoundary": true, "alignsResumptionWithPrimarySegmentBoundary": false,
              "timelineOccupancy": "range", "supplementsPrimaryContent": true, "contentMayVary": false, "plannedDuration": 20,
              "skipControl": {"offset": 5, "duration": 10, "labelID": "skip"}, "userDefinedAttributes": {"X-COM-EXAMPLE-ID": "7"}}]}
            """)
        let event = try #require(result.last)
        #expect(event.id == "client-1" && event.anchor == .time(30))
        #expect(event.asset == .inline([AssetList.Asset(uri: "https://a/1.m3u8", duration: 15), AssetList.Asset(uri: "https://a/2.m3u8", duration: 5)]))
        #expect(event.duration == 20)
        #expect(event.restrictions == [.skip, .jump])
        #expect(event.resumeOffset == 0 && event.playoutLimit == 18)
        #expect(event.cue == [.once] && event.snap == [.out])
        #expect(event.timelineOccupies == .range && event.timelineStyle == .primary && !event.contentMayVary)
        #expect(event.plannedDuration == 20)
        #expect(event.skipControl == InterstitialEvent.SkipControl(offset: 5, duration: 10, labelID: "skip"))
        #expect(event.clientAttributes == [AttributeList.Entry(name: "X-COM-EXAMPLE-ID", value: .quoted("7"))])
    }

    @Test("resumptionOffset null means the interstitial's duration, as AVFoundation's indefinite offset does")
    func nullResumptionOffset() throws {
        #expect(try events(#"[{"identifier": "ad-2", "resumptionOffset": null}]"#)[1].resumeOffset == nil)
    }

    @Test("Client events with inline assets schedule with their durations known")
    func inlineAssetsAreKnown() throws {
        let result = try events(#"[{"identifier": "c", "time": 10, "assets": [{"uri": "https://a/1.m3u8", "duration": 12}]}]"#)
        let schedule = InterstitialSchedule.build(events: [result[2]], timeline: PrimaryTimeline(segmentDurations: [30, 30], firstDate: nil))
        #expect(schedule.breaks.first?.duration == 12)
        #expect(schedule.breaks.first?.isEstimate == false)
    }

    @Test(
        "Bad client events name the member and what to write",
        arguments: [
            ("{}", "$", "expected an array of events"),
            (#"[{"time": 3}]"#, "$[0]", "an event needs an \"identifier\""),
            (#"[{"identifier": "new", "time": 3}]"#, "$[0]", "needs assets or an assetList"),
            (#"[{"identifier": "new", "assetList": "https://a/l.json"}]"#, "$[0]", "needs a time or a date"),
            (#"[{"identifier": "ad-1", "restrictions": ["NOSKIP"]}]"#, "$[0].restrictions[0]", "is not a restriction"),
            (#"[{"identifier": "ad-1", "time": -1}]"#, "$[0].time", "must be at least 0"),
            (#"[{"identifier": "ad-1", "date": "tomorrow"}]"#, "$[0].date", "is not an ISO 8601 date"),
            (#"[{"identifier": "ad-1", "cue": "middle"}]"#, "$[0].cue", "is not a cue"),
            (#"[{"identifier": "ad-1", "assets": [{"uri": "x"}]}]"#, "$[0].assets[0]", "an asset is"),
            (#"[{"identifier": "ad-1", "playoutLimit": 0}]"#, "$[0].playoutLimit", "positive number"),
        ])
    func badEvents(json: String, path: String, reason: String) {
        let failure = #expect(throws: ClientEvents.Failure.self) { try events(json) }
        #expect(failure?.path == path)
        #expect(failure?.reason.contains(reason) == true, "reason: \(failure?.reason ?? "")")
    }
}
