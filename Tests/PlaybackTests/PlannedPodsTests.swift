import HLS
@testable import Playback
import TestSupport
import Testing

/// The engine plays the plan's pods as the schedule made them: members by event ID, the schedule's
/// resumption points, and the schedule's rule when only part of a pod counts.
@Suite("Playing planned pods", .ownThread)
struct PlannedPodsTests {
    @Test("The PRE pod resumes where the schedule says: its resumeAt, measured from the start position")
    func preResumesAtTheSchedulesPoint() throws {
        let pre = Engine.ad("pre", at: 30, duration: 5, resumeOffset: 10, cue: .pre)
        let plan = PlaybackPlan(
            primaryDuration: 60, segmentBoundaries: [0, 6, 12, 18, 24, 30, 36, 42, 48, 54, 60],
            pods: [PlannedPod(placement: .pre, position: 30, resumeAt: 40, members: [pre])])
        #expect(Engine.shape(try Engine.run(plan, start: 30)) == ["I:pre", "P40-60"])
    }

    @Test("A start that moved after planning resumes the PRE pod by the schedule's rule from the new start")
    func preResumesFromAMovedStart() throws {
        let pre = Engine.ad("pre", at: 0, duration: 5, resumeOffset: 10, cue: .pre)
        let plan = PlaybackPlan(
            primaryDuration: 60, startup: Engine.latency(500),
            pods: [PlannedPod(placement: .pre, position: 30, resumeAt: 40, members: [pre])])
        // The seek arrives while loading: no restriction applies to a start position.
        let report = try Engine.run(plan, script: "at 0.1 seek 12", start: 30)
        #expect(Engine.shape(report) == ["I:pre", "P22-60"])
    }

    @Test("Members of one pod play back to back whatever their own positions, and primary resumes once")
    func membersPlayBackToBack() throws {
        let first = Engine.ad("first", at: 20, duration: 5, resumeOffset: 0)
        let second = Engine.ad("second", at: 20.0004, duration: 5, resumeOffset: 0)
        let plan = PlaybackPlan(primaryDuration: 60, pods: [PlannedPod(placement: .mid, position: 20, resumeAt: 20, members: [first, second])])
        let report = try Engine.run(plan)
        #expect(Engine.shape(report) == ["P0-20", "I:first", "I:second", "P20-60"])
        #expect(report.totals.transitions == 3)
    }

    @Test("A pod whose CUE=ONCE member already played resumes by the members left, through the schedule's rule")
    func partialPodResumesByTheRule() throws {
        let once = Engine.ad("once", at: 20, duration: 10, cue: .once)
        let again = Engine.ad("again", at: 20, duration: 4)
        let plan = Engine.plan([once, again])
        #expect(plan.pods.map(\.resumeAt) == [34])
        // The second time through, only "again" plays and counts: 20 + 4.
        let report = try Engine.run(plan, script: "at 40 seek 10")
        #expect(Engine.shape(report) == ["P0-20", "I:once", "I:again", "P34-40", "P10-20", "I:again", "P24-60"])
    }

    @Test("A plan update keeps knowing the pod that just played by its ID")
    func updateKeepsTheSuppressedPod() throws {
        let plan = Engine.plan([Engine.ad("ad", at: 20, duration: 5, resumeOffset: 0)])
        var engine = PlaybackEngine(plan: plan)
        _ = engine.handle(.play(from: nil), at: 0)
        _ = engine.advance(to: 25)
        #expect(engine.position == 20 && engine.state == .playingPrimary)
        _ = engine.update(plan: Engine.plan([Engine.ad("ad", at: 20, duration: 5, resumeOffset: 0)]), at: 25)
        let events = engine.advance(to: 30).events
        #expect(!events.contains { $0.kind == .interstitialStarted })
        #expect(engine.position == 25)
    }

    @Test("30,000 pods play in one uncommanded session, each once")
    func thirtyThousandPods() throws {
        let count = 30_000
        let breaks = (0..<count).map { Engine.ad("ad-\($0)", at: Double($0) * 2 + 1, duration: 1, resumeOffset: 0) }
        let report = try Engine.run(Engine.plan(breaks, duration: Double(count) * 2))
        #expect(report.totals.interstitialsPlayed == count)
        #expect(report.endReason == "the primary content played to its end")
    }
}
