import Conformance
import Foundation
import HLS
import MediaValues
import NumberText

/// `airlab validate`'s report as a person reads it: per role, its renditions, then its findings.
public enum ValidationReportText {
    public static func render(_ report: ValidationReport) -> String {
        var lines = ["\(report.input)\(report.profile.map { " (profile \($0))" } ?? "")"]
        if !report.playlistDiagnostics.isEmpty {
            lines.append("playlists:")
            lines += report.playlistDiagnostics.map { "  \($0)" }
        }
        for role in report.roles {
            lines.append("\(role):")
            for rendition in report.renditions where rendition.role == role {
                lines.append(
                    "  \(rendition.kind.rawValue) \(rendition.playlist): \(rendition.segments) segments, \(rendition.bytes) bytes, "
                        + "\(rendition.measuredSeconds.plainTextToMilliseconds) s measured\(rendition.unread > 0 ? ", \(rendition.unread) unread" : "")")
            }
            let findings = report.diagnostics.filter { $0.role == role }
            if findings.isEmpty { lines.append("  no findings") }
            for finding in findings {
                let place = finding.mediaSequence.map { "segment \($0) (discontinuity \(finding.discontinuitySequence ?? 0))" } ?? "whole rendition"
                lines.append("  \(finding.severity.rawValue) \(finding.code.rawValue) \(place): \(finding.message)")
                lines.append("    measured \(finding.measured); allowed \(finding.allowed); \(finding.rule)")
                lines.append("    \(finding.url)")
            }
        }
        let errors = report.diagnostics.filter { $0.severity == .error }.count + report.playlistDiagnostics.filter { $0.severity == .error }.count
        let warnings = report.diagnostics.filter { $0.severity == .warning }.count
            + report.playlistDiagnostics.filter { $0.severity == .warning }.count
        lines.append("\(errors) error(s), \(warnings) warning(s)")
        return lines.joined(separator: "\n") + "\n"
    }
}

/// The report as JSON: the value itself, keys sorted, so that tools diff it.
public enum ValidationReportJSON {
    public static func render(_ report: ValidationReport) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(report) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

/// The report as JUnit XML: a suite per role, a case per check family, failing on an error.
public enum ValidationJUnit {
    public static func render(_ report: ValidationReport) -> String {
        let families = DiagnosticCode.segmentFamilies
        var suites: [String] = []
        for role in report.roles {
            let name = JUnitReport.escape(role.description)
            var cases: [String] = []
            var failures = 0
            for family in families {
                let findings = report.diagnostics.filter { $0.role == role && $0.family == family }
                let errors = findings.filter { $0.severity == .error }
                var testCase = "    <testcase classname=\"airlab.validate.\(name)\" name=\"\(JUnitReport.escape(family))\" time=\"0\""
                let details = JUnitReport.escape(findings.map(\.description).joined(separator: "\n"))
                if let first = errors.first {
                    failures += 1
                    testCase += ">\n      <failure message=\"\(JUnitReport.escape(first.message))\">\(details)</failure>\n    </testcase>"
                } else if !findings.isEmpty {
                    testCase += ">\n      <system-out>\(details)</system-out>\n    </testcase>"
                } else {
                    testCase += "/>"
                }
                cases.append(testCase)
            }
            suites.append(
                "  <testsuite name=\"\(name)\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\" time=\"0\">\n"
                    + cases.joined(separator: "\n") + "\n  </testsuite>")
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"airlab validate\">\n" + suites.joined(separator: "\n")
            + "\n</testsuites>\n"
    }
}
