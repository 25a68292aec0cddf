import Foundation
import Testing
@testable import HLS

@Suite("Interstitial schedule: start position, VOD and live bounds, playout and integrated timelines")
struct ScheduleTimelineTests {
    typealias Fixture = ScheduleFixture

    /// PRE 5 s before primary (X-RESUME-OFFSET=0); "replace" at 12 replaces 15 s of primary; "insert" at
    /// 40 adds 10 s; POST 5 s; 60 s of primary.
    static let events = [
        Fixture.event("pre", at: 0, duration: 5, resumeOffset: 0) { $0.cue = .pre },
        Fixture.event("replace", at: 12, duration: 15),
        Fixture.event("insert", at: 40, duration: 10, resumeOffset: 0),
        Fixture.event("post", at: 60, duration: 5) { $0.cue = .post },
    ]

    // MARK: - Start position

    @Test("Mid-rolls before the start position do not play but stay in the schedule; PRE still plays first")
    func breaksBeforeTheStartPositionDoNotPlay() throws {
        let schedule = InterstitialSchedule.build(events: Self.events, timeline: Fixture.timeline(), startPosition: 30)
        #expect(schedule.breaks.map(\.event.id) == ["pre", "replace", "insert", "post"])
        #expect(schedule.scheduled("replace")?.plays == false)
        #expect(schedule.scheduled("replace")?.position == 12)
        #expect(Fixture.shape(schedule.entries) == ["pre@30+5", "P30-40", "insert@40+10", "P40-60", "post@60+5"])
        #expect(schedule.scheduled("insert")?.playoutStart == 15)
        #expect(schedule.playoutDuration == 50)
        #expect(schedule.diagnostics.isEmpty)
    }

    @Test("Starting inside primary time that a break replaces plays that break from its start first")
    func startingInsideAReplacedRangePlaysTheBreak() throws {
        let schedule = InterstitialSchedule.build(events: Self.events, timeline: Fixture.timeline(), startPosition: 20)
        #expect(schedule.scheduled("replace")?.plays == true)
        #expect(Fixture.shape(schedule.entries) == ["pre@20+5", "replace@12+15", "P27-40", "insert@40+10", "P40-60", "post@60+5"])
        #expect(schedule.entries[1].resumeAt == 27)
    }

    // MARK: - VOD and live bounds

    @Test("A VOD event before the start or after the end is reported and does not play; one at the end plays")
    func eventsOutsideAVOD() throws {
        let events = [
            Fixture.event("before", at: -10, duration: 5, resumeOffset: 0),
            Fixture.event("after", at: 70, duration: 5, resumeOffset: 0),
            Fixture.event("at-end", at: 60, duration: 5),
        ]
        let schedule = InterstitialSchedule.build(events: events, timeline: Fixture.timeline())
        #expect(schedule.breaks.map(\.event.id) == ["before", "at-end", "after"])
        #expect(schedule.scheduled("before")?.plays == false)
        #expect(schedule.scheduled("before")?.position == -10)
        #expect(schedule.scheduled("after")?.plays == false)
        #expect(schedule.scheduled("at-end")?.plays == true)
        #expect(schedule.codes() == [.interstitialOutsidePlaylist, .interstitialOutsidePlaylist])
        #expect(schedule.diagnostics.allSatisfy { $0.severity == .warning })
        #expect(Fixture.shape(schedule.entries) == ["P0-60", "at-end@60+5"])
    }

    @Test("A live event beyond the window is kept and plays after reloads, but is not laid out past the end")
    func liveEventsBeyondTheWindow() throws {
        let events = [
            Fixture.event("behind", at: -10, duration: 5, resumeOffset: 0),
            Fixture.event("mid", at: 30, duration: 5, resumeOffset: 0),
            Fixture.event("ahead", at: 70, duration: 5, resumeOffset: 0),
            Fixture.event("post", at: 0, duration: 5) { $0.cue = .post },
        ]
        let schedule = InterstitialSchedule.build(events: events, timeline: Fixture.timeline(), isLive: true)
        #expect(schedule.codes() == [.interstitialAfterLiveWindow])
        #expect(schedule.scheduled("ahead")?.plays == true)
        #expect(schedule.scheduled("ahead")?.position == 70)
        #expect(schedule.scheduled("ahead")?.playoutStart == nil)
        #expect(schedule.scheduled("post")?.plays == true)
        #expect(schedule.scheduled("behind")?.plays == false)
        #expect(Fixture.shape(schedule.entries) == ["P0-30", "mid@30+5", "P30-60"])
    }

    @Test("X-SNAP IN past the end of a live window keeps the unsnapped resumption point")
    func liveSnapInBeyondTheWindow() {
        let event = Fixture.event("late", at: 54, duration: 10) { $0.snap = .in }
        let schedule = InterstitialSchedule.build(events: [event], timeline: Fixture.timeline(), isLive: true)
        #expect(schedule.scheduled("late")?.resumeAt == 64)
        #expect(Fixture.shape(schedule.entries) == ["P0-54", "late@54+10"])
    }

    // MARK: - Playout timeline

    @Test("Entries lay primary pieces and interstitials end to end, without empty primary pieces")
    func entriesAccumulatePlayoutTime() throws {
        let events = Self.events + [
            Fixture.event("at-zero", at: 0, duration: 3, resumeOffset: 0),
            Fixture.event("rewind", at: 50, duration: 4, resumeOffset: -2),
        ]
        let schedule = InterstitialSchedule.build(events: events, timeline: Fixture.timeline())
        #expect(Fixture.shape(schedule.entries) == [
            "pre@0+5", "at-zero@0+3", "P0-12", "replace@12+15", "P27-40", "insert@40+10", "P40-50", "rewind@50+4", "P48-60", "post@60+5",
        ])
        var time = 0.0
        for entry in schedule.entries {
            #expect(entry.playoutStart == time)
            #expect(entry.playoutEnd - entry.playoutStart == entry.end - entry.start)
            time = entry.playoutEnd
        }
        #expect(schedule.playoutDuration == time)
        #expect(schedule.entries.filter { $0.kind == .primary }.allSatisfy { $0.end > $0.start && $0.resumeAt == nil })
    }

    // MARK: - Integrated timeline

    @Test("The integrated time of a position adds the breaks before it and subtracts the primary they skipped", arguments: [
        (0.0, 5.0),  // after PRE
        (12.0, 17.0),  // where "replace" starts
        (20.0, 32.0),  // skipped by "replace": where primary resumes
        (27.0, 32.0),
        (30.0, 35.0),
        (40.0, 45.0),  // where "insert" starts
        (50.0, 65.0),
        (60.0, 75.0),  // before POST
    ])
    func integratedTimeOfAPosition(position: Double, expected: Double) {
        let schedule = InterstitialSchedule.build(events: Self.events, timeline: Fixture.timeline())
        #expect(schedule.integratedTime(forPrimary: position) == expected)
        #expect(schedule.integratedDuration == 80)
    }

    @Test("The primary position of an integrated time inverts integratedTime and names the break playing then", arguments: [
        (2.0, 0.0, "pre"),
        (5.0, 0.0, nil),
        (17.0, 12.0, "replace"),
        (31.0, 12.0, "replace"),
        (32.0, 27.0, nil),
        (50.0, 40.0, "insert"),
        (60.0, 45.0, nil),
        (78.0, 60.0, "post"),
    ] as [(Double, Double, String?)])
    func primaryPositionOfAnIntegratedTime(time: Double, position: Double, eventID: String?) {
        let schedule = InterstitialSchedule.build(events: Self.events, timeline: Fixture.timeline())
        let result = schedule.primaryPosition(forIntegrated: time)
        #expect(result.0 == position)
        #expect(result.eventID == eventID)
    }

    @Test("Positions that primary shows survive the round trip through the integrated timeline")
    func integratedRoundTrip() {
        let schedule = InterstitialSchedule.build(events: Self.events, timeline: Fixture.timeline())
        for position in stride(from: 0.0, through: 60, by: 1.5) where !(position > 12 && position < 27) {
            #expect(schedule.primaryPosition(forIntegrated: schedule.integratedTime(forPrimary: position)).0 == position)
        }
    }

    @Test("The integrated timeline lays every reachable break from 0, whatever the start position")
    func integratedTimelineIgnoresTheStartPosition() {
        let fromStart = InterstitialSchedule.build(events: Self.events, timeline: Fixture.timeline())
        let fromLater = InterstitialSchedule.build(events: Self.events, timeline: Fixture.timeline(), startPosition: 45)
        #expect(Fixture.shape(fromLater.integratedEntries) == Fixture.shape(fromStart.integratedEntries))
        #expect(fromLater.integratedDuration == 80)
        #expect(fromLater.integratedTime(forPrimary: 30) == 35)
        #expect(Fixture.shape(fromLater.entries) == ["pre@45+5", "P45-60", "post@60+5"])
    }

    @Test("A negative resume offset replays primary on the integrated timeline, which maps to its first showing")
    func integratedTimelineWithReplay() {
        let schedule = InterstitialSchedule.build(
            events: [Fixture.event("rewind", at: 20, duration: 15, resumeOffset: -5)], timeline: Fixture.timeline())
        #expect(Fixture.shape(schedule.integratedEntries) == ["P0-20", "rewind@20+15", "P15-60"])
        #expect(schedule.integratedTime(forPrimary: 17) == 17)
        #expect(schedule.integratedTime(forPrimary: 25) == 45)
        #expect(schedule.primaryPosition(forIntegrated: 37).0 == 17)
    }
}
