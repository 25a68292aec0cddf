import Foundation
import Playback
@testable import Reports
import Sessions
import Testing

/// One Apple TV session over 60 s of content with SDK breaks at 10 and 40 s (8 s each); the viewer
/// goes to picture in picture from 30 to 50 s, so the second break is lost (skipped by default).
private func run(script: String = "at 30 pip on; at 50 pip off") throws -> SimulationReport {
    let schedule = try SDKAdSchedule(parsing: Data(#"{"breaks": [{"id": "a", "time": 10, "ads": [{"duration": 8}]}, {"id": "b", "time": 40, "ads": [{"duration": 8}]}]}"#.utf8))
    let plan = PlaybackPlan(primaryDuration: 60).addingSDKPods(schedule.plannedPods(primaryDuration: 60, isLive: false, startPosition: 0))
    let session = Simulation.report(
        plan: plan, script: try SenderScript(parsing: script),
        recorder: SessionRecorder(profile: "apple-tv-4k", playlist: "show.m3u8", seed: 1, startPosition: 0))
    return SimulationReport(playlist: "show.m3u8", seed: 1, sessions: [session], failures: [])
}

@Suite struct PictureInPictureReportTests {
    @Test("JUnit passes a break lost to picture in picture unless --fail-on-lost-ads is given, then fails it alone")
    func junitFailsLostAdsOnRequest() throws {
        let report = try run()
        let outcomes = BreakOutcome.outcomes(of: report.sessions[0])
        #expect(outcomes.map(\.eventID) == ["sdk:a", "sdk:b"])
        #expect(outcomes.map(\.lostToPictureInPicture) == [false, true])
        let lenient = JUnitReport.render(report, thresholds: LabThresholds())
        #expect(lenient.contains("failures=\"0\""))
        let strict = JUnitReport.render(report, thresholds: LabThresholds(failOnLostAds: true))
        #expect(strict.contains("tests=\"2\" failures=\"1\""))
        #expect(strict.contains("name=\"sdk:b\"") && strict.contains("lost to picture in picture (skipped, 8 s of ads)"))
    }

    @Test("A lost break takes its place among the outcomes by the time it fell due")
    func lostBreaksInTimeOrder() throws {
        let outcomes = BreakOutcome.outcomes(of: try run(script: "at 5 pip on; at 20 pip off").sessions[0])
        #expect(outcomes.map(\.eventID) == ["sdk:a", "sdk:b"])
        #expect(outcomes.map(\.lostToPictureInPicture) == [true, false] && outcomes.map(\.played) == [false, true])
    }

    @Test("The JSON report carries the SDK breaks' counts and outcomes and the picture-in-picture intervals")
    func jsonKeys() throws {
        let json = SessionReportJSON.render(try run())
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let session = try #require((document["sessions"] as? [[String: Any]])?.first)
        let sdk = try #require(session["sdkAds"] as? [String: Any])
        #expect(sdk["policy"] as? String == "skip")
        #expect((sdk["planned"] as? [String: Any])?["breaks"] as? Int == 2)
        #expect((sdk["started"] as? [String: Any])?["seconds"] as? Double == 8)
        #expect((sdk["lostToPictureInPicture"] as? [String: Any])?["breaks"] as? Int == 1)
        #expect((sdk["breaks"] as? [[String: Any]])?.map { $0["outcome"] as? String } == ["started", "skipped"])
        let intervals = try #require(session["pictureInPicture"] as? [[String: Any]])
        #expect(intervals.map { $0["start"] as? Double } == [30] && intervals.map { $0["end"] as? Double } == [50])
    }

    @Test("The text report counts the SDK breaks and lists the picture-in-picture intervals")
    func text() throws {
        let text = SessionReportText.render(try run())
        #expect(text.contains("picture in picture: 30.0-50.0 s"))
        #expect(text.contains("SDK ad breaks (skip in picture in picture): 2 (16.0 s) planned, 1 (8.0 s) started, 0 (0.0 s) deferred (longest 0.0 s), 1 (8.0 s) lost to picture in picture"))
    }

    @Test("The SVG timeline shades the picture-in-picture interval under the lane")
    func svgShadesPictureInPicture() throws {
        let report = try run()
        let svg = TimelineSVG.render(report.sessions)
        let scale = TimelineSVG.axisWidth / report.sessions[0].totals.sessionSeconds
        let x = TimelineSVG.format(TimelineSVG.labelWidth + 30 * scale)
        #expect(svg.contains("<rect class=\"picture-in-picture\" x=\"\(x)\" y=\"2\" width=\"\(TimelineSVG.format(20 * scale))\""))
        #expect(TimelineSVG.render([]).contains("picture-in-picture") == false)
    }
}
