import Emulation
import Foundation
import HLS

/// The views of a group run: a table by default, JSON as the source of the others.
public enum GroupReportText {
    public static func render(_ report: GroupReport) -> String {
        let s = { (value: Double) in SessionReportText.seconds(value, places: 3) }
        var lines = ["group \(report.contentID) (seed \(report.seed)): held \(s(report.heldSeconds)) s"]
        if !report.mixedPolicy.isEmpty {
            lines.append("  mixed policy: \(report.mixedPolicy.joined(separator: ", ")) differ from the first participant's policy")
        }
        var rows = [["PARTICIPANT", "PROFILE", "POLICY", "WAITED", "WAITED FOR", "MISSED", "REPLACED", "JUMPS", "SYNC MAX", "SYNC P95", "ABOVE"]]
        for participant in report.participants {
            let waitedFor = participant.waitedFor.map { "\($0.holder) \(s($0.seconds))" }.joined(separator: ", ")
            rows.append([
                participant.name, participant.profile, policy(participant.policy), s(participant.waitingSeconds),
                waitedFor.isEmpty ? "-" : waitedFor + (participant.criticalHolder.map { " (critical \($0))" } ?? ""),
                s(participant.missedByCatchUp), s(participant.replacedByAd), String(participant.catchUpJumps.count),
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

    /// Keys sorted, as the session reports' JSON.
    public static func json(_ report: GroupReport) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(report)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// JUnit XML: a suite per participant, a case per break and one for its sync error.
    public static func junit(_ report: GroupReport, thresholds: GroupThresholds) -> String {
        let e = JUnitReport.escape
        var suites: [String] = []
        var total = 0
        var failed = 0
        for participant in report.participants {
            var cases: [(name: String, failure: String?, detail: String)] = participant.breaks.map { groupBreak in
                ("break at \(SessionReportText.seconds(groupBreak.position, places: 3)) s", thresholds.failure(of: groupBreak),
                 "ad \(groupBreak.adSeconds.plainText) s; waited \(groupBreak.waitingSeconds.plainText) s"
                    + (groupBreak.criticalHolder.map { " (critical holder \($0))" } ?? "")
                    + "; missed by catch-up \(groupBreak.missedByCatchUp.plainText) s; replaced by ad \(groupBreak.replacedByAd.plainText) s")
            }
            let sync = participant.syncError
            cases.append(("sync error", thresholds.failure(of: sync),
                "max \(sync.max.plainText) s, mean \(sync.mean.plainText) s, p95 \(sync.p95.plainText) s, above \(sync.tolerance.plainText) s for \(sync.secondsAbove.plainText) s"))
            let failures = cases.count { $0.failure != nil }
            total += cases.count
            failed += failures
            let body = cases.map { item in
                let open = "    <testcase classname=\"airlab.group.\(e(participant.name))\" name=\"\(e(item.name))\" time=\"0\">\n"
                let inner = item.failure.map { "      <failure message=\"\(e($0))\">\(e(item.detail))</failure>\n" }
                    ?? "      <system-out>\(e(item.detail))</system-out>\n"
                return open + inner + "    </testcase>"
            }.joined(separator: "\n")
            suites.append("  <testsuite name=\"\(e(participant.name))\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\">\n\(body)\n  </testsuite>")
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"airlab group \(e(report.contentID))\" tests=\"\(total)\" failures=\"\(failed)\" errors=\"0\">\n"
            + suites.joined(separator: "\n") + "\n</testsuites>\n"
    }
}
