import Foundation
import Playback
import Profiles
@testable import Reports
import Sessions
import Testing

/// A session that fetches segments over 60 s of primary (6 s segments) with one 10 s ad at 30 s
/// (2 s segments), its fetches as a trace says and otherwise at `mbps`.
private func run(mbps: Double, trace: [FetchTrace.Row] = []) -> SimulationReport {
    var plan = PlaybackPlan(primaryDuration: 60, segmentBoundaries: stride(from: 0.0, through: 60, by: 6).map { $0 }, breaks: [
        PlannedBreak(eventID: "ad", position: 30, resumeOffset: 10, assets: [PlannedAsset(
            uri: "https://ads.example/ad.m3u8", duration: 10,
            segments: SegmentList((0..<5).map { PlannedSegment(uri: "https://ads.example/ad/\($0).ts", duration: 2, bytes: 400_000) }))]),
    ])
    let primary = SegmentList((0..<10).map { PlannedSegment(uri: "https://cdn.example/\($0).ts", duration: 6, bytes: 1_000_000) })
    plan.fetching = FetchPlan(primary: primary, buffer: BufferModel.assumedAVPlayer)
    let model = SegmentNetworkModel(roundTripSeconds: 0.02, bitsPerSecond: mbps * 1e6)
    let session = Simulation.report(
        plan: plan, recorder: SessionRecorder(profile: "tv", playlist: "show.m3u8", seed: 1, startPosition: 0),
        delivery: .replayed(FetchTrace(rows: trace), otherwise: model))
    return SimulationReport(playlist: "show.m3u8", seed: 1, sessions: [session], failures: [])
}

@Suite struct BufferingReportTests {
    @Test("JUnit gives each break a segments and a rebuffer case when segments are fetched; rebuffer fails only past --max-rebuffer-s")
    func junitCasesPerBreak() throws {
        // 1.6 Mbit/s against 1.33 Mbit/s of primary and 1.6 Mbit/s of ad: the ad's segments arrive just in time or late.
        let slow = run(mbps: 1.2)
        let outcome = try #require(BreakOutcome.outcomes(of: slow.sessions[0]).first)
        #expect(outcome.stalls > 0 && outcome.stallSeconds > 0, "\(slow.sessions[0].timeline)")
        let lenient = JUnitReport.render(slow, thresholds: LabThresholds())
        #expect(lenient.contains("name=\"ad segments\"") && lenient.contains("name=\"ad rebuffer\"") && lenient.contains("failures=\"0\""))
        var strict = LabThresholds()
        strict.maxRebufferSeconds = 0
        let failing = JUnitReport.render(slow, thresholds: strict)
        #expect(failing.contains("tests=\"3\" failures=\"1\""), "\(failing)")
        #expect(failing.contains("more than the 0 s allowed"))
        #expect(strict.anyFailure(in: slow.sessions[0]))
        #expect(!strict.anyFailure(in: run(mbps: 50).sessions[0]))
    }

    @Test("An asset given up on fails its break's segments case and names the segment")
    func segmentsCaseFailsOnAFailedAsset() throws {
        let report = run(mbps: 50, trace: (1...4).map { FetchTrace.Row(uri: "https://ads.example/ad/4.ts", attempt: $0, status: 503, bytes: 0, firstByteSeconds: 0, seconds: 0.01) })
        let outcome = try #require(BreakOutcome.outcomes(of: report.sessions[0]).first)
        #expect(outcome.assetsFailed.count == 1 && outcome.segmentErrors.count == 4, "\(outcome)")
        let junit = JUnitReport.render(report, thresholds: LabThresholds())
        #expect(junit.contains("failures=\"1\"") && junit.contains("ad/4.ts"), "\(junit)")
    }

    @Test("The JSON report carries the media totals, per-break rebuffering, and stall entries with their reason")
    func jsonCarriesMedia() throws {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(SessionReportJSON.render(run(mbps: 1.2)).utf8)) as? [String: Any])
        let session = try #require((json["sessions"] as? [[String: Any]])?.first)
        let media = try #require(session["media"] as? [String: Any])
        #expect(media["mode"] as? String == "replay" && (media["segments"] as? Int ?? 0) > 0)
        #expect((media["breaks"] as? [[String: Any]])?.first?["eventID"] as? String == "ad")
        let totals = try #require(session["totals"] as? [String: Any])
        #expect((totals["stalls"] as? Int ?? 0) > 0 && (totals["rebufferingRatio"] as? Double ?? 0) > 0 && totals["startupSeconds"] is Double)
        let stall = try #require((session["timeline"] as? [[String: Any]])?.first { $0["kind"] as? String == "stall" })
        #expect(stall["stall"] as? String == "segment-late")
        #expect(TimelineSVG.render(try JSONDecoder().decode(SimulationReport.self, from: Data(SessionReportJSON.render(run(mbps: 1.2)).utf8)).sessions).contains("class=\"stall\""))
    }
}
