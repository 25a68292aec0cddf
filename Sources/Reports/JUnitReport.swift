import Foundation
import NumberText
import Sessions

/// The JUnit XML view of a run: a test suite per receiver, a test case per interstitial, failing where
/// the lab's thresholds say; a receiver that could not play the cast at all is an error.
public enum JUnitReport {
    public static func render(_ report: SimulationReport, thresholds: LabThresholds) -> String {
        var suites: [String] = []
        var totalTests = 0
        var totalFailures = 0
        for session in report.sessions {
            let outcomes = BreakOutcome.outcomes(of: session)
            var cases: [String] = []
            var failures = 0
            for outcome in outcomes {
                let time = String(format: "%.3f", outcome.worstTransitionMilliseconds / 1000)
                var testCase = "    <testcase classname=\"airlab.\(escape(session.profile))\" name=\"\(escape(outcome.eventID))\" time=\"\(time)\""
                if let failure = thresholds.failure(of: outcome) {
                    failures += 1
                    testCase += ">\n      <failure message=\"\(escape(failure))\">\(escape(details(of: outcome)))</failure>\n    </testcase>"
                } else {
                    testCase += ">\n      <system-out>\(escape(details(of: outcome)))</system-out>\n    </testcase>"
                }
                cases.append(testCase)
                guard session.media != nil else { continue }
                // Fetching segments adds two cases per break: its segments, and its stalls.
                let name = escape(outcome.eventID)
                let classname = "airlab.\(escape(session.profile))"
                let segments = outcome.segmentErrors.isEmpty ? "no segment failed" : outcome.segmentErrors.joined(separator: "\n")
                let rebuffer = "\(outcome.stalls) stall(s), \(outcome.stallSeconds.plainText) s"
                for (suffix, failure, detail) in [
                    ("segments", thresholds.segmentsFailure(of: outcome), segments), ("rebuffer", thresholds.rebufferFailure(of: outcome), rebuffer),
                ] {
                    if let failure {
                        failures += 1
                        cases.append("    <testcase classname=\"\(classname)\" name=\"\(name) \(suffix)\" time=\"0\">\n"
                            + "      <failure message=\"\(escape(failure))\">\(escape(detail))</failure>\n    </testcase>")
                    } else {
                        cases.append("    <testcase classname=\"\(classname)\" name=\"\(name) \(suffix)\" time=\"0\">\n"
                            + "      <system-out>\(escape(detail))</system-out>\n    </testcase>")
                    }
                }
            }
            if let failure = thresholds.sessionFailure(of: session) {
                // Errors belong to no break: they get a case of their own, so CI shows them as a failure.
                failures += 1
                cases.append("    <testcase classname=\"airlab.\(escape(session.profile))\" name=\"session errors\" time=\"0\">\n"
                    + "      <failure message=\"\(escape(failure))\"/>\n    </testcase>")
            }
            totalTests += cases.count
            totalFailures += failures
            suites.append(
                "  <testsuite name=\"\(escape(session.profile))\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\" "
                    + "time=\"\(String(format: "%.3f", session.totals.sessionSeconds))\">\n" + cases.joined(separator: "\n")
                    + (cases.isEmpty ? "" : "\n") + "  </testsuite>")
        }
        for failure in report.failures {
            totalTests += 1
            suites.append(
                "  <testsuite name=\"\(escape(failure.profile))\" tests=\"1\" failures=\"0\" errors=\"1\" time=\"0\">\n"
                    + "    <testcase classname=\"airlab.\(escape(failure.profile))\" name=\"cast\" time=\"0\">\n"
                    + "      <error message=\"\(escape(failure.reason))\"/>\n    </testcase>\n  </testsuite>")
        }
        let errors = report.failures.count
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"airlab \(escape(report.playlist))\" tests=\"\(totalTests)\" failures=\"\(totalFailures)\" errors=\"\(errors)\">\n"
            + suites.joined(separator: "\n") + "\n</testsuites>\n"
    }

    /// What happened, for a person reading the CI log.
    static func details(of outcome: BreakOutcome) -> String {
        var lines: [String] = []
        if let transition = outcome.transitionIn {
            lines.append("in: " + SessionReportText.breakdown(transition, direction: nil))
        }
        if let transition = outcome.transitionOut {
            lines.append("out: " + SessionReportText.breakdown(transition, direction: nil))
        }
        if let reason = outcome.skipReason { lines.append("skipped: \(reason)") }
        return lines.joined(separator: "\n")
    }

    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            // XML 1.0 allows no control characters but tab, newline and carriage return.
            case _ where character.value < 0x20 && character != "\t" && character != "\n" && character != "\r": escaped += "?"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }
}
