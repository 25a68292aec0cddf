import HLS
@testable import Playback
@testable import Sessions
import Testing

/// Live content: no end, a window whose edge moves with the clock, and breaks that may be in progress
/// when a viewer joins.
@Suite("Live playback")
struct LivePlaybackTests {
    /// A live window ending at 60 s whose edge moves on one second per second of session time.
    private func livePlan(_ breaks: [PlannedBreak]) -> PlaybackPlan {
        Engine.plan(breaks, duration: 60, live: true)
    }

    /// Distance from the live edge to the playhead at the end of a simulation run until `until`.
    private func edgeDistance(_ report: SessionReport, windowEnd: Double) throws -> Double {
        let last = try #require(report.timeline.last { $0.kind == .primary })
        return windowEnd + last.end - (last.positionEnd ?? 0)
    }

    @Test("A viewer who joins while a break is in progress joins it where it is, asking with _HLS_start_offset")
    func joinInsideABreak() throws {
        let report = try Engine.run(livePlan([Engine.ad("ad", at: 40, duration: 12, assets: 2)]), start: 47)
        let interstitials = report.timeline.filter { $0.kind == .interstitial }
        #expect(interstitials.map(\.assetIndex) == [1])
        #expect(interstitials.first?.assetURI == "https://ads.example/ad/1.m3u8?_HLS_start_offset=7")
        #expect(interstitials.first.map { $0.end - $0.start } == 5)
        #expect(report.totals.interstitialsPlayed == 1)
        #expect(report.timeline.first { $0.kind == .primary }?.positionStart == 52)
    }

    @Test("A break without a resume offset keeps the viewer's distance from the live edge")
    func liveEdgeDistanceKept() throws {
        let report = Simulation.report(
            plan: livePlan([Engine.ad("ad", at: 55, duration: 10)]), startPosition: 50, until: 30,
            recorder: SessionRecorder(profile: "test", playlist: "live", seed: 1, startPosition: 50))
        #expect(Engine.shape(report) == ["P50-55", "I:ad", "P65-80"])
        #expect(try edgeDistance(report, windowEnd: 60) == 10)
    }

    @Test("A break with resume offset 0 puts the viewer its duration further behind the live edge")
    func zeroOffsetFallsBehind() throws {
        let report = Simulation.report(
            plan: livePlan([Engine.ad("ad", at: 55, duration: 10, resumeOffset: 0)]), startPosition: 50, until: 30,
            recorder: SessionRecorder(profile: "test", playlist: "live", seed: 1, startPosition: 50))
        #expect(Engine.shape(report) == ["P50-55", "I:ad", "P55-70"])
        #expect(try edgeDistance(report, windowEnd: 60) == 20)
        #expect(report.endReason == "the simulation reached --until 30")
    }
}
