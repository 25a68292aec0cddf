import Foundation
import HLS
import Profiles
import Sessions

/// The HTML view of a run: a table of receivers × interstitials with their switching latency and why
/// the media differed, and one SVG timeline with a lane per receiver (primary, interstitials,
/// transitions, pauses and refused commands on the session clock).
///
/// Written as XHTML so that tools (and the tests) can read it as XML.
public enum HTMLReport {
    /// The pictures of a break's switches: primary's last before it, the break's first, and primary's
    /// first after it (JPEG).
    public struct BreakFrames: Sendable, Equatable {
        public var before: Data?
        public var after: Data?
        /// Primary's first picture after the break, where it resumes.
        public var back: Data?

        public init(before: Data?, after: Data?, back: Data? = nil) {
            self.before = before
            self.after = after
            self.back = back
        }
    }

    /// - Parameter frames: by event ID; given, the interstitials table shows them, small and embedded.
    public static func render(_ report: SimulationReport, thresholds: LabThresholds, frames: [String: BreakFrames] = [:]) -> String {
        let e = JUnitReport.escape
        var html = """
            <!DOCTYPE html>
            <html xmlns="http://www.w3.org/1999/xhtml" lang="en">
            <head>
            <meta charset="utf-8"/>
            <title>airlab: \(e(report.playlist))</title>
            <style>
            body { font-family: sans-serif; margin: 2em; color: #222; }
            table { border-collapse: collapse; margin-bottom: 2em; }
            th, td { border: 1px solid #ccc; padding: 4px 8px; text-align: left; vertical-align: top; }
            td.fail { background: #fde2e2; } td.pass { background: #e3f6e5; }
            \(TimelineSVG.style)
            .legend span { display: inline-block; width: 12px; height: 12px; margin: 0 4px 0 14px; vertical-align: middle; }
            img.frame { width: 160px; margin-right: 4px; background: #111; }
            td.frames { white-space: nowrap; }
            </style>
            </head>
            <body>
            <h1>airlab: \(e(report.playlist))</h1>
            <p>Seed \(report.seed); \(report.sessions.count) receiver(s) played the cast\(report.failures.isEmpty ? "" : ", \(report.failures.count) could not").</p>

            """
        html += breakTable(report, thresholds: thresholds, frames: frames)
        html += "<h2>Timelines</h2>\n" + TimelineSVG.render(report.sessions) + "\n" + legend
        html += profileTable(report.profiles)
        if !report.failures.isEmpty {
            html += "<h2>Receivers that could not play the cast</h2>\n<ul>\n"
            html += report.failures.map { "<li><b>\(e($0.profile))</b>: \(e($0.reason))</li>" }.joined(separator: "\n")
            html += "\n</ul>\n"
        }
        return html + "</body>\n</html>\n"
    }

    static func breakTable(_ report: SimulationReport, thresholds: LabThresholds, frames: [String: BreakFrames] = [:]) -> String {
        let e = JUnitReport.escape
        var rows: [String] = []
        for session in report.sessions {
            for outcome in BreakOutcome.outcomes(of: session) {
                let failure = thresholds.failure(of: outcome)
                let latency = { (transition: Transition?) in transition.map { String(Int(roundingSaturated: $0.totalMilliseconds)) } ?? "–" }
                let why = outcome.played ? outcome.mismatches.map(e).joined(separator: "<br/>") : e(outcome.skipReason ?? "skipped")
                rows.append("<tr data-profile=\"\(e(session.profile))\" data-event=\"\(e(outcome.eventID))\"><td>\(e(session.profile))</td>"
                    + "<td>\(e(outcome.eventID))</td><td>\(latency(outcome.transitionIn))</td><td>\(latency(outcome.transitionOut))</td>"
                    + "<td>\(why.isEmpty ? "media match" : why)</td>"
                    // A skipped break's reason already stands in the previous column.
                    + "<td class=\"\(failure == nil ? "pass" : "fail")\">\(failure.map { outcome.played ? e($0) : "did not play" } ?? "pass")</td>"
                    + (frames.isEmpty ? "" : "<td class=\"frames\">\(pictures(frames[outcome.eventID], eventID: outcome.eventID))</td>") + "</tr>")
            }
        }
        return """
            <h2>Interstitials</h2>
            <table class="breaks">
            <thead><tr><th>receiver</th><th>interstitial</th><th>switch in (ms)</th><th>switch out (ms)</th><th>what differed</th><th>result</th>\(frames.isEmpty ? "" : "<th>last frame before, first of the break, first after</th>")</tr></thead>
            <tbody>
            \(rows.joined(separator: "\n"))
            </tbody>
            </table>

            """
    }

    /// The two pictures of a switch, embedded; "no picture" for a side that has none.
    static func pictures(_ frames: BreakFrames?, eventID: String) -> String {
        let e = JUnitReport.escape
        return [
            ("last primary frame before \(eventID)", frames?.before), ("first frame of \(eventID)", frames?.after),
            ("first primary frame after \(eventID)", frames?.back),
        ].map { alt, jpeg in
            guard let jpeg else { return "<span class=\"frame\">no picture</span>" }
            return "<img class=\"frame\" alt=\"\(e(alt))\" src=\"data:image/jpeg;base64,\(jpeg.base64EncodedString())\"/>"
        }.joined()
    }

    /// The profiles the run used: a reader weighs the timelines by how much of each profile is assumed.
    static func profileTable(_ profiles: [ProfileSummary]) -> String {
        guard !profiles.isEmpty else { return "" }
        let e = JUnitReport.escape
        let rows = profiles.map { profile in
            let counts = profile.numbers
            return "<tr data-profile=\"\(e(profile.name))\"><td>\(e(profile.name))</td><td>\(e(profile.version))</td><td>\(counts.total)</td>"
                + "<td>\(counts.measured)</td><td>\(counts.published)</td><td>\(counts.derived)</td><td>\(counts.assumed)</td></tr>"
        }
        return """
            <h2>Profiles</h2>
            <table class="profiles">
            <thead><tr><th>profile</th><th>version</th><th>numbers</th><th>measured</th><th>published</th><th>derived</th><th>assumed</th></tr></thead>
            <tbody>
            \(rows.joined(separator: "\n"))
            </tbody>
            </table>

            """
    }

    static let legend = """
        <p class="legend"><span style="background:#777"></span>loading<span style="background:#4a7bd0"></span>primary\
        <span style="background:#f0a030"></span>interstitial<span style="background:#222"></span>transition\
        <span style="background:#bbb"></span>paused<span style="background:#6a4;opacity:0.4"></span>picture in picture\
        <span style="background:#d22"></span>refused command (hover for details)</p>

        """

    static func format(_ value: Double) -> String {
        TimelineSVG.format(value)
    }
}
