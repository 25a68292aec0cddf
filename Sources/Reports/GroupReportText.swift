import Coordination
import Foundation
import HLS

/// The terminal view of a group run: a row per participant, then each break that cost it something.
public enum GroupReportText {
    public static func render(_ report: GroupReport) -> String {
        let s = { (value: Double) in SessionReportText.seconds(value, places: 3) }
        var lines = ["group \(report.contentID) (seed \(report.seed)): held \(s(report.heldSeconds)) s"]
        if !report.mixedPolicy.isEmpty {
            lines.append("  mixed policy: \(report.mixedPolicy.joined(separator: ", ")) differ from the first participant's policy")
        }
        var rows = [["PARTICIPANT", "PROFILE", "POLICY", "WAITED", "WAITED FOR", "MISSED", "REPLACED", "JUMPS", "CORRECTIONS", "SYNC MAX", "SYNC P95", "ABOVE"]]
        for participant in report.participants {
            let waitedFor = participant.waitedFor.map { "\($0.holder) \(s($0.seconds))" }.joined(separator: ", ")
            rows.append([
                participant.name, participant.profile, policy(participant.policy), s(participant.waitingSeconds),
                waitedFor.isEmpty ? "-" : waitedFor + (participant.criticalHolder.map { " (critical \($0))" } ?? ""),
                s(participant.missedByCatchUp), s(participant.replacedByAd), String(participant.catchUpJumps.count), String(participant.corrections),
                s(participant.syncError.max), s(participant.syncError.p95), SessionReportText.seconds(participant.syncError.secondsAbove),
            ])
        }
        lines += SessionReportText.table(rows).map { "  " + $0 }
        for participant in report.participants {
            for groupBreak in participant.breaks where groupBreak.waitingSeconds > 0 || groupBreak.missedByCatchUp > 0 || groupBreak.adSeconds > 0 {
                lines.append("  \(participant.name) at \(s(groupBreak.position)): ad \(s(groupBreak.adSeconds)) s, waited \(s(groupBreak.waitingSeconds)) s, "
                    + "missed \(s(groupBreak.missedByCatchUp)) s, replaced \(s(groupBreak.replacedByAd)) s")
            }
        }
        lines += report.errors.map { "  error: \($0)" }
        return lines.joined(separator: "\n") + "\n"
    }

    static func policy(_ policy: GroupPolicy) -> String {
        policy.waitFor.isEmpty ? "catch-up" : "wait " + policy.waitFor.sorted().map(\.rawValue).joined(separator: "+")
    }
}
