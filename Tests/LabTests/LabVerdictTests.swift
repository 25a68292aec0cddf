import Casting
import Foundation
import FoundationXML
@testable import Lab
import Reports
import Sessions
import Testing

/// What a lab run's exit status and JUnit say about a run's sessions.
@Suite("Lab verdicts")
struct LabVerdictTests {
    func report(errors: [String] = [], failures: [SimulationReport.Failure] = []) -> SimulationReport {
        var session = FakeReceiver.simulatedSession(profile: "apple-tv-4k")
        session.errors = errors
        return SimulationReport(playlist: "show.m3u8", seed: 1, sessions: [session], failures: failures)
    }

    @Test("The ad's 1200 ms switch passes without a threshold and fails under 1000 ms; a receiver that could not be used is an error")
    func thresholdsAndErrors() {
        #expect(LabVerdict(report(), thresholds: LabThresholds()) == .passed)
        #expect(LabVerdict(report(), thresholds: LabThresholds(maxTransitionMilliseconds: 1000)) == .thresholdFailed)
        #expect(LabVerdict(report(), thresholds: LabThresholds(maxTransitionMilliseconds: 1500)) == .passed)
        let broken = report(failures: [.init(profile: "soundbar", reason: "receiver \"Den\" (10.0.0.5:7000): vanished mid-run (…)")])
        #expect(LabVerdict(broken, thresholds: LabThresholds()) == .errors)
    }

    @Test("--fail-on-error fails a session with errors, as its own JUnit case; without it the errors do not fail the run")
    func sessionErrors() throws {
        let withErrors = report(errors: ["reload at 12 s: the server answered HTTP 503"])
        #expect(LabVerdict(withErrors, thresholds: LabThresholds()) == .passed)
        let strict = LabThresholds(failOnSessionErrors: true)
        #expect(LabVerdict(withErrors, thresholds: strict) == .thresholdFailed)
        #expect(LabVerdict(report(), thresholds: strict) == .passed)

        let junit = try XMLDocument(data: Data(JUnitReport.render(withErrors, thresholds: strict).utf8))
        let failing = try junit.nodes(forXPath: "//testcase[failure]").compactMap { $0 as? XMLElement }
        #expect(failing.map { $0.attribute(forName: "name")?.stringValue } == ["session errors"])
        let message = failing.first?.elements(forName: "failure").first?.attribute(forName: "message")?.stringValue
        #expect(message == "1 error(s) in the session: reload at 12 s: the server answered HTTP 503")
        #expect(try junit.nodes(forXPath: "//testsuite[@name='apple-tv-4k']/@tests").first?.stringValue == "2")
        #expect(LabSummaryText.render(withErrors, thresholds: strict).contains("apple-tv-4k: FAIL: 1 error(s) in the session"))
    }
}
