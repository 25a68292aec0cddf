import Foundation
import Testing
@testable import HLS

@Suite("Interstitial schedule: placement, durations, order and resumption")
struct InterstitialScheduleTests {
    typealias Fixture = ScheduleFixture

    // MARK: - Position

    @Test("A date is placed through the playlist's PROGRAM-DATE-TIME")
    func placesDatesThroughProgramDateTime() throws {
        let playlist = try #require(PlaylistParser.parse("""
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-PLAYLIST-TYPE:VOD
            #EXT-X-PROGRAM-DATE-TIME:2020-01-02T21:00:00.000Z
            #EXTINF:6,
            a.ts
            #EXTINF:6,
            b.ts
            #EXT-X-DISCONTINUITY
            #EXT-X-PROGRAM-DATE-TIME:2020-01-02T22:00:00.000Z
            #EXTINF:6,
            c.ts
            #EXT-X-DATERANGE:ID="early",CLASS="com.apple.hls.interstitial",START-DATE="2020-01-02T21:00:07.500Z",DURATION=10,X-ASSET-URI="https://ads.example/a.m3u8",X-RESUME-OFFSET=0
            #EXT-X-DATERANGE:ID="late",CLASS="com.apple.hls.interstitial",START-DATE="2020-01-02T22:00:03.000Z",DURATION=10,X-ASSET-URI="https://ads.example/b.m3u8",X-RESUME-OFFSET=0
            #EXT-X-ENDLIST
            """).mediaPlaylist)
        let events = playlist.interstitialEvents()
        #expect(events.diagnostics.isEmpty)
        let schedule = InterstitialSchedule.build(events: events.events, timeline: PrimaryTimeline(playlist))
        #expect(schedule.scheduled("early")?.position == 7.5)
        // The discontinuity re-dates the third segment, which starts at 12 s.
        #expect(schedule.scheduled("late")?.position == 15)
        #expect(schedule.diagnostics.isEmpty)
    }

    @Test("A client event anchored at a time sits at that time")
    func placesClientEventsAtTheirTime() {
        var event = InterstitialEvent(id: "client", anchor: .time(12.25), asset: .uri("https://ads.example/c.m3u8"))
        event.duration = 5
        let schedule = InterstitialSchedule.build(events: [event], timeline: PrimaryTimeline(segmentDurations: [6, 6, 6], firstDate: nil))
        #expect(schedule.scheduled("client")?.position == 12.25)
        #expect(schedule.scheduled("client")?.unsnappedPosition == 12.25)
        #expect(schedule.scheduled("client")?.plays == true)
    }

    @Test("An event in a playlist without PROGRAM-DATE-TIME cannot be placed and does not play")
    func eventsWithoutProgramDateTimeAreNotPositioned() throws {
        let playlist = try #require(PlaylistParser.parse("""
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXTINF:6,
            a.ts
            #EXT-X-DATERANGE:ID="ad",CLASS="com.apple.hls.interstitial",START-DATE="2020-01-02T21:00:02.000Z",DURATION=10,X-ASSET-URI="https://ads.example/a.m3u8"
            #EXT-X-ENDLIST
            """).mediaPlaylist)
        let schedule = InterstitialSchedule.build(events: playlist.interstitialEvents().events, timeline: PrimaryTimeline(playlist))
        let ad = try #require(schedule.scheduled("ad"))
        #expect(ad.position == nil)
        #expect(ad.resumeAt == nil)
        #expect(!ad.plays)
        #expect(schedule.codes() == [.interstitialNotPositioned])
        #expect(schedule.diagnostics.first?.line == 5)
        #expect(Fixture.shape(schedule.entries) == ["P0-6"])
    }

    @Test("PRE and POST need no PROGRAM-DATE-TIME: the cue places them")
    func cuesPlaceEventsWithoutProgramDateTime() throws {
        let pre = Fixture.event("pre", at: 0, duration: 5, resumeOffset: 0) { $0.cue = .pre }
        let post = Fixture.event("post", at: 0, duration: 5) { $0.cue = .post }
        let schedule = InterstitialSchedule.build(events: [pre, post], timeline: PrimaryTimeline(segmentDurations: [6], firstDate: nil))
        #expect(schedule.scheduled("pre")?.unsnappedPosition == nil)
        #expect(schedule.scheduled("pre")?.plays == true)
        #expect(schedule.scheduled("post")?.plays == true)
        #expect(Fixture.shape(schedule.entries) == ["pre@0+5", "P0-6", "post@6+5"])
        #expect(schedule.diagnostics.isEmpty)
    }

    // MARK: - Duration

    @Test("The duration is the known assets first, then DURATION, then PLANNED-DURATION, then an assumed 0")
    func durationSourcesInOrder() throws {
        let known = Fixture.event("known", at: 6, duration: 25, resumeOffset: 0) { $0.plannedDuration = 40 }
        let declared = Fixture.event("declared", at: 12, duration: 30, resumeOffset: 0) { $0.plannedDuration = 40 }
        let planned = Fixture.event("planned", at: 18, resumeOffset: 0) { $0.plannedDuration = 40 }
        let unknown = Fixture.event("unknown", at: 24, resumeOffset: 0)
        let schedule = InterstitialSchedule.build(
            events: [known, declared, planned, unknown], timeline: Fixture.timeline(),
            knownDurations: ["known": KnownDuration(assetDurations: [10, 15.5], source: .assetList)])

        let expected: [(String, Double, DurationSource, Bool)] = [
            ("known", 25.5, .assetList, false), ("declared", 30, .declared, false),
            ("planned", 40, .planned, true), ("unknown", 0, .unknown, true),
        ]
        for (id, duration, source, isEstimate) in expected {
            let scheduled = try #require(schedule.scheduled(id))
            #expect(scheduled.duration == duration, "\(id)")
            #expect(scheduled.durationSource == source, "\(id)")
            #expect(scheduled.isEstimate == isEstimate, "\(id)")
        }
        #expect(schedule.codes() == [.interstitialUnknownDuration])
        #expect(schedule.diagnostics.first?.severity == .info)
    }

    @Test("Known assets that disagree with DURATION by more than half a second are reported; the assets win")
    func knownAssetsDisagreeingWithDuration() {
        let events = [
            Fixture.event("far", at: 6, duration: 30, resumeOffset: 0),
            Fixture.event("near", at: 12, duration: 30, resumeOffset: 0),
            Fixture.event("estimate", at: 18, duration: 30, resumeOffset: 0),
        ]
        let schedule = InterstitialSchedule.build(
            events: events, timeline: Fixture.timeline(),
            knownDurations: [
                "far": KnownDuration(assetDurations: [15, 10], source: .assetList),
                "near": KnownDuration(assetDurations: [15.015, 15.015], source: .assetPlaylist),
                "estimate": KnownDuration(assetDurations: [20], source: .planned),
            ])
        #expect(schedule.codes() == [.interstitialDurationMismatch])
        #expect(schedule.diagnostics.first?.severity == .warning)
        #expect(schedule.scheduled("far")?.duration == 25)
        #expect(schedule.scheduled("estimate")?.isEstimate == true)
    }

    @Test("X-PLAYOUT-LIMIT cuts the duration and, without X-RESUME-OFFSET, is also the resume offset")
    func playoutLimitWithoutResumeOffset() throws {
        let limited = Fixture.event("limited", at: 12, duration: 30) { $0.playoutLimit = 20 }
        let schedule = InterstitialSchedule.build(events: [limited], timeline: Fixture.timeline())
        let scheduled = try #require(schedule.scheduled("limited"))
        #expect(scheduled.duration == 20)
        #expect(scheduled.resumeAt == 32)
        #expect(Fixture.shape(schedule.entries) == ["P0-12", "limited@12+20", "P32-60"])
    }

    @Test("X-PLAYOUT-LIMIT cuts the duration but leaves an explicit X-RESUME-OFFSET alone")
    func playoutLimitWithResumeOffset() throws {
        let limited = Fixture.event("limited", at: 12, duration: 30, resumeOffset: 0) { $0.playoutLimit = 20 }
        let longLimit = Fixture.event("long-limit", at: 36, duration: 10) { $0.playoutLimit = 20 }
        let schedule = InterstitialSchedule.build(events: [limited, longLimit], timeline: Fixture.timeline())
        #expect(schedule.scheduled("limited")?.duration == 20)
        #expect(schedule.scheduled("limited")?.resumeAt == 12)
        // A limit longer than the assets cuts nothing; the offset is the duration that plays.
        #expect(schedule.scheduled("long-limit")?.duration == 10)
        #expect(schedule.scheduled("long-limit")?.resumeAt == 46)
    }

    @Test("An empty asset list plays nothing and resumes by X-RESUME-OFFSET or else 0, never by DURATION")
    func emptyAssetList() throws {
        let withoutOffset = Fixture.event("without-offset", at: 12, duration: 30) { $0.asset = .list("https://ads.example/a.json") }
        let withOffset = Fixture.event("with-offset", at: 24, duration: 30, resumeOffset: 6) { $0.asset = .list("https://ads.example/b.json") }
        let empty = KnownDuration(assetDurations: [], source: .assetList)
        let schedule = InterstitialSchedule.build(
            events: [withoutOffset, withOffset], timeline: Fixture.timeline(),
            knownDurations: ["without-offset": empty, "with-offset": empty])
        #expect(schedule.scheduled("without-offset")?.duration == 0)
        #expect(schedule.scheduled("without-offset")?.resumeAt == 12)
        #expect(schedule.scheduled("with-offset")?.duration == 0)
        #expect(schedule.scheduled("with-offset")?.resumeAt == 30)
        #expect(schedule.scheduled("with-offset")?.plays == true)
        #expect(Fixture.shape(schedule.entries) == ["P0-12", "without-offset@12+0", "P12-24", "with-offset@24+0", "P30-60"])
        #expect(schedule.playoutDuration == 54)
    }

    @Test("A break whose asset list or asset did not load is cancelled with resume offset 0, whatever it declares")
    func failedBreakResumesWhereItStopped() throws {
        let failed = Fixture.event("failed", at: 12, duration: 30, resumeOffset: 8) { $0.asset = .list("https://ads.example/gone.json") }
        let pre = Fixture.event("pre", at: 0, duration: 5) { $0.cue = .pre }
        let schedule = InterstitialSchedule.build(
            events: [failed, pre], timeline: Fixture.timeline(),
            knownDurations: ["failed": .failed("HTTP 404", source: .assetList), "pre": .failed("timed out", source: .assetPlaylist)])
        let scheduled = try #require(schedule.scheduled("failed"))
        #expect(scheduled.failure == "HTTP 404")
        #expect(scheduled.duration == 0 && scheduled.resumeAt == 12)
        #expect(!scheduled.plays && schedule.scheduled("pre")?.plays == false)
        #expect(Fixture.shape(schedule.entries) == ["P0-60"])
    }

    // MARK: - Order and cues

    @Test("PRE plays first in tag order, mid-rolls by position then tag order, POST last")
    func ordersPreMidPost() {
        let events = [
            Fixture.event("post", at: 30, duration: 5) { $0.cue = .post },
            Fixture.event("mid-late", at: 40, duration: 5, resumeOffset: 0),
            Fixture.event("pre-1", at: 50, duration: 5, resumeOffset: 0) { $0.cue = .pre },
            Fixture.event("mid-early-1", at: 10, duration: 5, resumeOffset: 0),
            Fixture.event("pre-2", at: 0, duration: 5, resumeOffset: 0) { $0.cue = .pre },
            Fixture.event("mid-early-2", at: 10, duration: 5, resumeOffset: 0),
        ]
        let schedule = InterstitialSchedule.build(events: events, timeline: Fixture.timeline())
        #expect(schedule.breaks.map(\.event.id) == ["pre-1", "pre-2", "mid-early-1", "mid-early-2", "mid-late", "post"])
        #expect(Fixture.shape(schedule.entries) == [
            "pre-1@0+5", "pre-2@0+5", "P0-10", "mid-early-1@10+5", "mid-early-2@10+5", "P10-40", "mid-late@40+5", "P40-60", "post@60+5",
        ])
    }

    @Test("CUE=PRE plays before primary wherever playback starts; with X-RESUME-OFFSET=0 a VOD resumes where playback starts")
    func preRollPlaysAtTheStartPosition() throws {
        let pre = Fixture.event("pre", at: 24, duration: 15, resumeOffset: 0) { $0.cue = .pre }
        let schedule = InterstitialSchedule.build(events: [pre], timeline: Fixture.timeline(), startPosition: 30)
        let scheduled = try #require(schedule.scheduled("pre"))
        #expect(scheduled.position == 30)
        #expect(scheduled.resumeAt == 30)
        #expect(scheduled.unsnappedPosition == 24)
        #expect(scheduled.playoutStart == 0)
        #expect(Fixture.shape(schedule.entries) == ["pre@30+15", "P30-60"])
        #expect(schedule.entries.first?.resumeAt == 30)
        #expect(schedule.diagnostics.isEmpty)
    }

    @Test("CUE=POST plays after primary ends and has no resumption point")
    func postRollPlaysAtTheEnd() throws {
        let post = Fixture.event("post", at: 6, duration: 15) { $0.cue = .post }
        let schedule = InterstitialSchedule.build(events: [post], timeline: Fixture.timeline())
        let scheduled = try #require(schedule.scheduled("post"))
        #expect(scheduled.position == 60)
        #expect(scheduled.resumeAt == nil)
        #expect(scheduled.playoutStart == 60)
        #expect(Fixture.shape(schedule.entries) == ["P0-60", "post@60+15"])
        #expect(schedule.entries.last?.resumeAt == nil)
        #expect(schedule.playoutDuration == 75)
    }

    @Test("A CUE=ONCE break is marked and scheduled once, even when a replay crosses it again; others play again")
    func onceBreaksPlayOnce() {
        let once = Fixture.event("once", at: 20, duration: 5, resumeOffset: 0) { $0.cue = .once }
        let again = Fixture.event("again", at: 22, duration: 5, resumeOffset: 0)
        let rewind = Fixture.event("rewind", at: 30, duration: 5, resumeOffset: -15)
        let schedule = InterstitialSchedule.build(events: [once, again, rewind], timeline: Fixture.timeline())
        #expect(schedule.scheduled("once")?.playsOnce == true)
        #expect(schedule.scheduled("again")?.playsOnce == false)
        #expect(Fixture.shape(schedule.entries) == [
            "P0-20", "once@20+5", "P20-22", "again@22+5", "P22-30", "rewind@30+5", "P15-22", "again@22+5", "P22-60",
        ])
        #expect(schedule.entries.filter { $0.eventID == "once" }.count == 1)
        #expect(schedule.codes() == [.interstitialPlaysAgain])
    }

    // MARK: - Resumption

    @Test("Without X-RESUME-OFFSET the interstitial replaces its duration of primary time")
    func absentResumeOffsetReplacesPrimary() {
        let schedule = InterstitialSchedule.build(events: [Fixture.event("ad", at: 12, duration: 15)], timeline: Fixture.timeline())
        #expect(schedule.scheduled("ad")?.resumeAt == 27)
        #expect(schedule.scheduled("ad")?.resumeOffset == 15)
        #expect(Fixture.shape(schedule.entries) == ["P0-12", "ad@12+15", "P27-60"])
        #expect(schedule.playoutDuration == 60)
    }

    @Test("X-RESUME-OFFSET=0 resumes primary where it stopped")
    func zeroResumeOffsetInsertsTheBreak() {
        let schedule = InterstitialSchedule.build(events: [Fixture.event("ad", at: 12, duration: 15, resumeOffset: 0)], timeline: Fixture.timeline())
        #expect(schedule.scheduled("ad")?.resumeAt == 12)
        // Primary resumes at 12 without re-triggering the break that sits there.
        #expect(Fixture.shape(schedule.entries) == ["P0-12", "ad@12+15", "P12-60"])
        #expect(schedule.playoutDuration == 75)
    }

    @Test("A negative X-RESUME-OFFSET replays primary without playing the break again")
    func negativeResumeOffsetReplaysPrimary() {
        let schedule = InterstitialSchedule.build(events: [Fixture.event("ad", at: 12, duration: 15, resumeOffset: -4)], timeline: Fixture.timeline())
        #expect(schedule.scheduled("ad")?.resumeAt == 8)
        #expect(Fixture.shape(schedule.entries) == ["P0-12", "ad@12+15", "P8-60"])
        #expect(schedule.playoutDuration == 79)
        #expect(schedule.diagnostics.isEmpty)
    }

    @Test("Events at the same position play back to back in tag order and their resume offsets add up")
    func groupOffsetsAreCumulative() throws {
        let events = [
            Fixture.event("first", at: 12, duration: 10),
            Fixture.event("second", at: 12, duration: 5, resumeOffset: 0),
            Fixture.event("third", at: 12, duration: 8, resumeOffset: 2),
        ]
        let schedule = InterstitialSchedule.build(events: events, timeline: Fixture.timeline())
        for id in ["first", "second", "third"] {
            #expect(schedule.scheduled(id)?.resumeAt == 24, "\(id)")
        }
        #expect(Fixture.shape(schedule.entries) == ["P0-12", "first@12+10", "second@12+5", "third@12+8", "P24-60"])
        #expect(schedule.entries.compactMap(\.resumeAt) == [24, 24, 24])
        #expect(schedule.entries.map(\.playoutStart) == [0, 12, 22, 27, 35])
    }

    @Test("A group whose offsets add up to a negative number replays primary once")
    func groupWithNegativeTotal() {
        let events = [
            Fixture.event("first", at: 30, duration: 10, resumeOffset: 4),
            Fixture.event("second", at: 30, duration: 10, resumeOffset: -10),
        ]
        let schedule = InterstitialSchedule.build(events: events, timeline: Fixture.timeline())
        #expect(schedule.scheduled("second")?.resumeAt == 24)
        #expect(Fixture.shape(schedule.entries) == ["P0-30", "first@30+10", "second@30+10", "P24-60"])
    }

    @Test("A break inside primary time that an earlier break skips plays right after it, offsets adding up, and is reported")
    func breaksInsideSkippedTimeJoinTheSkippingGroup() throws {
        let replacing = Fixture.event("replacing", at: 12, duration: 20)
        let inside = Fixture.event("inside", at: 24, duration: 5)
        let schedule = InterstitialSchedule.build(events: [replacing, inside], timeline: Fixture.timeline())
        #expect(schedule.scheduled("inside")?.plays == true)
        #expect(schedule.scheduled("inside")?.position == 24)
        #expect(schedule.scheduled("inside")?.resumeAt == 37)
        #expect(schedule.scheduled("replacing")?.resumeAt == 37)
        #expect(Fixture.shape(schedule.entries) == ["P0-12", "replacing@12+20", "inside@12+5", "P37-60"])
        #expect(schedule.codes() == [.interstitialInSkippedTime])
        #expect(schedule.breaks.map(\.event.id) == ["replacing", "inside"])
    }

    @Test("A joined break whose own offset reaches further pulls in the next break too")
    func joiningChains() throws {
        let first = Fixture.event("first", at: 10, duration: 10)
        let second = Fixture.event("second", at: 15, duration: 10)
        let third = Fixture.event("third", at: 25, duration: 5, resumeOffset: 0)
        let schedule = InterstitialSchedule.build(events: [first, second, third], timeline: Fixture.timeline())
        #expect(Fixture.shape(schedule.entries) == ["P0-10", "first@10+10", "second@10+10", "third@10+5", "P30-60"])
        #expect(schedule.codes() == [.interstitialInSkippedTime, .interstitialInSkippedTime])
    }

    // MARK: - Snapping

    @Test("X-SNAP OUT starts the break at the nearest segment boundary", arguments: [
        (12.0, 12.0),  // on a boundary
        (13.5, 12.0),  // nearer the earlier one
        (16.0, 18.0),  // nearer the later one
        (15.0, 12.0),  // midway: the earlier boundary
    ])
    func snapOut(date: Double, expected: Double) throws {
        let event = Fixture.event("ad", at: date, duration: 10, resumeOffset: 0) { $0.snap = .out }
        let schedule = InterstitialSchedule.build(events: [event], timeline: Fixture.timeline())
        let scheduled = try #require(schedule.scheduled("ad"))
        #expect(scheduled.unsnappedPosition == date)
        #expect(scheduled.position == expected)
        #expect(scheduled.resumeAt == expected)
    }

    @Test("X-SNAP IN resumes primary at the segment boundary nearest the resumption point", arguments: [
        (12.0, 24.0, 24.0),  // on a boundary
        (8.0, 20.0, 18.0),  // nearer the earlier one
        (11.0, 23.0, 24.0),  // nearer the later one
        (9.0, 21.0, 18.0),  // midway: the earlier boundary
    ])
    func snapIn(duration: Double, unsnappedResume: Double, expected: Double) throws {
        let event = Fixture.event("ad", at: 12, duration: duration) { $0.snap = .in }
        let schedule = InterstitialSchedule.build(events: [event], timeline: Fixture.timeline())
        let scheduled = try #require(schedule.scheduled("ad"))
        #expect(scheduled.position == 12)
        #expect(12 + scheduled.resumeOffset == unsnappedResume)
        #expect(scheduled.resumeAt == expected)
        #expect(schedule.entries.last?.start == expected)
    }

    @Test("X-SNAP IN to a boundary before the break replays primary without playing the break again")
    func snapInBeforeTheBreak() {
        let event = Fixture.event("ad", at: 13, duration: 10, resumeOffset: 0) { $0.snap = .in }
        let schedule = InterstitialSchedule.build(events: [event], timeline: Fixture.timeline())
        #expect(schedule.scheduled("ad")?.resumeAt == 12)
        #expect(Fixture.shape(schedule.entries) == ["P0-13", "ad@13+10", "P12-60"])
    }

    @Test("Events whose dates snap to the same boundary form one group in tag order")
    func snappedEventsGroup() {
        let events = [
            Fixture.event("b", at: 13, duration: 5) { $0.snap = .out },
            Fixture.event("a", at: 11, duration: 5, resumeOffset: 0) { $0.snap = [.out, .in] },
        ]
        let schedule = InterstitialSchedule.build(events: events, timeline: Fixture.timeline())
        #expect(schedule.breaks.map(\.event.id) == ["b", "a"])
        // 12 + 5 + 0 = 17 snaps in to 18 because "a" asks for it.
        #expect(Fixture.shape(schedule.entries) == ["P0-12", "b@12+5", "a@12+5", "P18-60"])
    }
}
