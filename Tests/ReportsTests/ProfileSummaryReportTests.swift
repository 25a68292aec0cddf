import Foundation
import Playback
import Profiles
import Reports
import Sessions
import Testing

/// A run of one shipped profile's session, and a second profile that could not play the cast.
private func run() throws -> (SimulationReport, ReceiverProfile) {
    let catalog = ProfileCatalog()
    let profile = try catalog.profile("apple-tv-hd")
    let low = try catalog.profile("smart-tv-low")
    let session = Simulation.report(
        plan: PlaybackPlan(primaryDuration: 30, breaks: []), script: SenderScript(),
        recorder: SessionRecorder(profile: profile.name, playlist: "show.m3u8", seed: 1, startPosition: 0, profileSummary: profile.summary))
    let report = SimulationReport(
        playlist: "show.m3u8", seed: 1, profiles: [profile.summary, low.summary], sessions: [session],
        failures: [.init(profile: low.name, reason: "cannot decode hevc")])
    return (report, low)
}

@Suite("Reports name their profiles")
struct ProfileSummaryReportTests {
    @Test("The text report names each profile used with its version and how many of its numbers are assumed")
    func text() throws {
        let (report, low) = try run()
        let summary = try ProfileCatalog().profile("apple-tv-hd").summary
        let text = SessionReportText.render(report)
        #expect(text.contains("  profile apple-tv-hd version \(summary.version): \(summary.numbers.assumed) of \(summary.numbers.total) numbers assumed"))
        #expect(text.contains("profiles used:\n  apple-tv-hd version \(summary.version): "))
        #expect(text.contains("  smart-tv-low version \(low.summary.version): \(low.summary.numbers.assumed) of \(low.summary.numbers.total) numbers assumed"))
        let lab = LabSummaryText.render(report, thresholds: LabThresholds())
        #expect(lab.contains("profile smart-tv-low version \(low.summary.version): \(low.summary.numbers.assumed) of"))
    }

    @Test("The JSON report carries the profiles and each session's profile summary, by basis")
    func json() throws {
        let (report, low) = try run()
        let document = try #require(try JSONSerialization.jsonObject(with: Data(SessionReportJSON.render(report).utf8)) as? [String: Any])
        let profiles = try #require(document["profiles"] as? [[String: Any]])
        #expect(profiles.compactMap { $0["name"] as? String } == ["apple-tv-hd", "smart-tv-low"])
        #expect(profiles.compactMap { $0["version"] as? String } == [report.profiles[0].version, low.summary.version])
        let numbers = try #require(profiles[1]["numbers"] as? [String: Int])
        #expect(numbers["assumed"] == low.summary.numbers.assumed && numbers["published"] == low.summary.numbers.published)
        let session = try #require((document["sessions"] as? [[String: Any]])?.first)
        #expect((session["profileSummary"] as? [String: Any])?["version"] as? String == report.profiles[0].version)
    }

    @Test("The HTML report has a table of the profiles used with their numbers by basis")
    func html() throws {
        let (report, low) = try run()
        let html = HTMLReport.render(report, thresholds: LabThresholds())
        let counts = low.summary.numbers
        #expect(html.contains("<tr data-profile=\"smart-tv-low\"><td>smart-tv-low</td><td>\(low.summary.version)</td><td>\(counts.total)</td><td>\(counts.measured)</td>"
            + "<td>\(counts.published)</td><td>\(counts.derived)</td><td>\(counts.assumed)</td></tr>"))
    }

    @Test("A lab run's profiles are the ones its receivers' sessions name, each once")
    func profilesOfSessions() throws {
        let (report, _) = try run()
        let sessions = report.sessions + report.sessions
        #expect(SimulationReport.profiles(of: sessions).map(\.name) == ["apple-tv-hd"])
    }
}
