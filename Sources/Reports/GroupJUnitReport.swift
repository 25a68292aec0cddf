import Coordination
import Foundation
import HLS
import NumberText

/// The JUnit XML view of a group run: a suite per participant, a case per group break (failing past
/// `--max-wait` or `--max-missed`) and one for its sync error (failing past `--max-desync-s`).
public enum GroupJUnitReport {
    public static func render(_ report: GroupReport, thresholds: GroupThresholds) -> String {
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
