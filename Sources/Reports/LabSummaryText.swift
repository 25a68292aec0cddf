import HLS
import Profiles
import Sessions

/// The terminal view of a lab run: one row per receiver and interstitial with its switches and its
/// verdict, then the receivers that failed as a whole. The full timelines are in the report files.
public enum LabSummaryText {
    public static func render(_ report: SimulationReport, thresholds: LabThresholds) -> String {
        var rows = [["RECEIVER", "INTERSTITIAL", "SWITCH IN", "SWITCH OUT", "RESULT"]]
        var lines: [String] = []
        for session in report.sessions {
            let outcomes = BreakOutcome.outcomes(of: session)
            for outcome in outcomes {
                let milliseconds = { (transition: Transition?) in transition.map { "\(Int(roundingSaturated: $0.totalMilliseconds)) ms" } ?? "-" }
                let result = thresholds.failure(of: outcome).map { "FAIL: \($0)" }
                    ?? (outcome.mismatches.isEmpty ? "pass" : "pass (" + outcome.mismatches.joined(separator: ", ") + ")")
                rows.append([session.profile, outcome.eventID, milliseconds(outcome.transitionIn), milliseconds(outcome.transitionOut), result])
            }
            if outcomes.isEmpty {
                rows.append([session.profile, "-", "-", "-", "no interstitials; ended: \(session.endReason ?? "unknown")"])
            }
            if let failure = thresholds.sessionFailure(of: session) {
                lines.append("\(session.profile): FAIL: \(failure)")
            }
        }
        for failure in report.failures {
            lines.append("\(failure.profile): ERROR: \(failure.reason)")
        }
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        let table = rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
        lines += report.profiles.map { "profile \($0.text)" }
        return (table + lines).joined(separator: "\n") + "\n"
    }
}
