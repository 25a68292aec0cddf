import Foundation
import Testing
@testable import HLS
import TestSupport

private typealias Fixture = ScheduleFixture

/// The schedule's pods are public and are what a receiver plays; PRE resumes by its offset; far live
/// breaks are kept and reported; big playlists schedule in linear work.
@Suite("Schedule pods", .ownThread)
struct SchedulePodsTests {
    @Test("Two events 0.4 ms apart with X-RESUME-OFFSET=0 are one pod, with no primary between them")
    func nearEventsAreOnePod() throws {
        let events = [
            Fixture.event("first", at: 20, duration: 5, resumeOffset: 0),
            Fixture.event("second", at: 20.0004, duration: 5, resumeOffset: 0),
        ]
        let schedule = InterstitialSchedule.build(events: events, timeline: Fixture.timeline())
        let mid = schedule.pods.filter { $0.placement == .mid }
        #expect(mid.map(\.eventIDs) == [["first", "second"]])
        #expect(mid.first?.resumeAt == 20)
        #expect(Fixture.shape(schedule.entries) == ["P0-20", "first@20+5", "second@20+5", "P20-60"])
    }

    @Test("Pods name their members by event ID and carry the resumption point the breaks report")
    func podsCarryResumePoints() throws {
        let events = [
            Fixture.event("pre", at: 0, duration: 4, resumeOffset: 0) { $0.cue = .pre },
            Fixture.event("a", at: 12, duration: 10),
            Fixture.event("b", at: 12, duration: 5, resumeOffset: 2),
            Fixture.event("c", at: 40, duration: 5),
            Fixture.event("post", at: 0, duration: 3) { $0.cue = .post },
        ]
        let schedule = InterstitialSchedule.build(events: events, timeline: Fixture.timeline())
        #expect(schedule.pods.map(\.placement) == [.pre, .mid, .mid, .post])
        #expect(schedule.pods.map(\.eventIDs) == [["pre"], ["a", "b"], ["c"], ["post"]])
        #expect(schedule.pods.map(\.resumeAt) == [0, 24, 45, nil])
        for pod in schedule.pods {
            #expect(pod.members.map { schedule.breaks[$0].event.id } == pod.eventIDs)
            for member in pod.members where pod.placement != .post {
                #expect(schedule.breaks[member].resumeAt == pod.resumeAt)
            }
        }
    }

    // MARK: - PRE resume offset (RFC 8216bis §4.4.5.1)

    @Test("A VOD PRE with X-RESUME-OFFSET resumes primary that far after where playback starts")
    func vodPreHonoursResumeOffset() throws {
        let pre = Fixture.event("pre", at: 0, duration: 5, resumeOffset: 10) { $0.cue = .pre }
        let schedule = InterstitialSchedule.build(events: [pre], timeline: Fixture.timeline(), startPosition: 6)
        #expect(schedule.scheduled("pre")?.resumeAt == 16)
        #expect(schedule.pods.first?.resumeAt == 16)
        #expect(Fixture.shape(schedule.entries) == ["pre@6+5", "P16-60"])
    }

    @Test("A VOD PRE without X-RESUME-OFFSET resumes primary its duration after where playback starts, as the spec says, and warns")
    func vodPreWithoutOffsetResumesAfterItsDuration() throws {
        let pre = Fixture.event("pre", at: 0, duration: 5) {
            $0.cue = .pre
            $0.line = 4
        }
        let schedule = InterstitialSchedule.build(events: [pre], timeline: Fixture.timeline(), startPosition: 6)
        #expect(schedule.scheduled("pre")?.resumeOffset == 5)
        #expect(schedule.pods.first?.resumeAt == 11)
        #expect(Fixture.shape(schedule.entries) == ["pre@6+5", "P11-60"])
        let warning = try #require(schedule.diagnostics.first)
        #expect(schedule.codes() == [.interstitialPreSkipsPrimary])
        #expect(warning.severity == .warning)
        #expect(warning.message.contains("'pre'") && warning.message.contains("skip the first 5 s of primary"))
        #expect(warning.message.hasSuffix("did you mean X-RESUME-OFFSET=0?"))
        #expect(warning.line == 4)
    }

    @Test("A sender's PRE without resumptionOffset gets the same warning in AVFoundation's spelling")
    func clientPreWithoutOffsetWarnsInItsSpelling() throws {
        let pre = Fixture.event("pre", at: 0, duration: 5) { $0.cue = .pre }
        let schedule = InterstitialSchedule.build(events: [pre], timeline: Fixture.timeline())
        let warning = try #require(schedule.diagnostics.first { $0.code == .interstitialPreSkipsPrimary })
        #expect(warning.message.hasSuffix("did you mean resumptionOffset=0?"))
    }

    @Test("A VOD PRE with X-RESUME-OFFSET=0 resumes where playback starts, without a warning")
    func vodPreWithZeroOffsetResumesAtTheStart() throws {
        let pre = Fixture.event("pre", at: 0, duration: 5, resumeOffset: 0) { $0.cue = .pre }
        let schedule = InterstitialSchedule.build(events: [pre], timeline: Fixture.timeline(), startPosition: 6)
        #expect(Fixture.shape(schedule.entries) == ["pre@6+5", "P6-60"])
        #expect(schedule.diagnostics.isEmpty)
    }

    @Test("A VOD PRE of unknown duration without X-RESUME-OFFSET warns that a player skips as much primary as it lasts")
    func vodPreOfUnknownDurationWarns() throws {
        let pre = Fixture.event("pre", at: 0) { $0.cue = .pre }
        let schedule = InterstitialSchedule.build(events: [pre], timeline: Fixture.timeline())
        let warning = try #require(schedule.diagnostics.first { $0.code == .interstitialPreSkipsPrimary })
        #expect(warning.message.contains("as much primary as it lasts"))
    }

    @Test("A live PRE without X-RESUME-OFFSET is not warned about: resuming at the live edge is what a viewer expects")
    func livePreWithoutOffsetIsNotWarned() throws {
        let pre = Fixture.event("pre", at: 0, duration: 5) { $0.cue = .pre }
        let schedule = InterstitialSchedule.build(events: [pre], timeline: Fixture.timeline(), isLive: true, startPosition: 42)
        #expect(!schedule.codes().contains(.interstitialPreSkipsPrimary))
    }

    @Test("A live PRE without X-RESUME-OFFSET resumes at the live edge: the join point plus the time it played")
    func livePreWithoutOffsetResumesAtTheLiveEdge() throws {
        let pre = Fixture.event("pre", at: 0, duration: 5) { $0.cue = .pre }
        let schedule = InterstitialSchedule.build(events: [pre], timeline: Fixture.timeline(), isLive: true, startPosition: 42)
        #expect(schedule.scheduled("pre")?.resumeAt == 47)
        #expect(Fixture.shape(schedule.entries) == ["pre@42+5", "P47-60"])
    }

    @Test("A live PRE with X-RESUME-OFFSET=0 resumes at the join point, behind the live edge")
    func livePreWithZeroOffsetResumesAtTheJoin() throws {
        let pre = Fixture.event("pre", at: 0, duration: 5, resumeOffset: 0) { $0.cue = .pre }
        let schedule = InterstitialSchedule.build(events: [pre], timeline: Fixture.timeline(), isLive: true, startPosition: 42)
        #expect(schedule.scheduled("pre")?.resumeAt == 42)
        #expect(Fixture.shape(schedule.entries) == ["pre@42+5", "P42-60"])
    }

    // MARK: - Far live breaks

    @Test("A live break after the end of the window is kept unsnapped, plays after reloads, and is reported as info")
    func farLiveBreakIsKeptAndReported() throws {
        let far = Fixture.event("far", at: 100.5, duration: 5) { $0.snap = [.out] }
        let schedule = InterstitialSchedule.build(events: [far], timeline: Fixture.timeline(), isLive: true)
        let scheduled = try #require(schedule.scheduled("far"))
        #expect(scheduled.plays && scheduled.playoutStart == nil)
        // X-SNAP OUT waits for the boundaries a reload brings; the window's last one would be 40 s early.
        #expect(scheduled.position == 100.5)
        #expect(schedule.pods.map(\.eventIDs) == [["far"]])
        let diagnostic = try #require(schedule.diagnostics.first)
        #expect(schedule.codes() == [.interstitialAfterLiveWindow])
        #expect(diagnostic.severity == .info)
        #expect(diagnostic.message.contains("after the end of the current live window"))
        #expect(Fixture.shape(schedule.entries) == ["P0-60"])
    }

    @Test("A VOD break past the end is still outside the playlist, not awaiting a reload")
    func vodBreakPastTheEndIsOutside() throws {
        let far = Fixture.event("far", at: 100, duration: 5)
        let schedule = InterstitialSchedule.build(events: [far], timeline: Fixture.timeline())
        #expect(schedule.codes() == [.interstitialOutsidePlaylist])
        #expect(schedule.pods.isEmpty)
    }

    // MARK: - Linear work (issue 11)

    /// 30,000 mid-rolls, each inside the primary time the one before skips, so that all join one pod.
    private static func chainedEvents(_ count: Int) -> [InterstitialEvent] {
        (0..<count).map { Fixture.event("ad-\($0)", at: Double($0), duration: 10) }
    }

    @Test("30,000 interstitials in one skipped range schedule: five warnings name at most three events and how many more, a summary counts the rest")
    func thirtyThousandChainedInterstitials() throws {
        let count = 30_000
        let timeline = Fixture.timeline(segments: count / 6, length: 6)
        let schedule = InterstitialSchedule.build(events: Self.chainedEvents(count), timeline: timeline)
        #expect(schedule.pods.count == 1)
        #expect(schedule.pods.first?.members.count == count)
        let warnings = schedule.diagnostics.filter { $0.code == .interstitialInSkippedTime }
        let listed = warnings.filter { $0.suppressed == nil }
        #expect(listed.count == DiagnosticLog.limitPerCode)
        #expect(warnings.last?.suppressed == count - 1 - DiagnosticLog.limitPerCode)
        let last = try #require(listed.last)
        #expect(last.message.contains("'ad-0', 'ad-1', 'ad-2' and 2 more skip"))
        #expect(!last.message.contains("'ad-3'"))
        #expect(warnings.allSatisfy { $0.message.count < 400 })
        // The pod resumes past the end: nothing of primary is left after it.
        #expect(schedule.entries.count == count)
    }

    @Test("30,000 separate interstitials lay out one after another")
    func thirtyThousandSeparateInterstitials() throws {
        let count = 30_000
        let events = (0..<count).map { Fixture.event("ad-\($0)", at: Double($0) * 2 + 1, duration: 1, resumeOffset: 0) }
        let schedule = InterstitialSchedule.build(events: events, timeline: Fixture.timeline(segments: count / 3, length: 6))
        #expect(schedule.pods.count == count)
        #expect(schedule.entries.count == 2 * count + 1)
        #expect(schedule.breaks.allSatisfy { $0.plays })
    }

    @Test("A skipped-time warning for a small pod names all its events")
    func smallPodNamesAll() throws {
        let schedule = InterstitialSchedule.build(events: Self.chainedEvents(3), timeline: Fixture.timeline())
        #expect(schedule.diagnostics.map(\.message).last?.contains("'ad-0', 'ad-1' skip (0 s to 20 s)") == true)
        #expect(schedule.diagnostics.map(\.message).first?.contains("'ad-0' skips (0 s to 10 s)") == true)
    }
}
