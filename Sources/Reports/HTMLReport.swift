import Casting
import Emulation
import Foundation

/// The HTML view of a run: a table of receivers × interstitials with their switching latency and why
/// the media differed, and one SVG timeline with a lane per receiver (primary, interstitials,
/// transitions, pauses and refused commands on the session clock).
///
/// Written as XHTML so that tools (and the tests) can read it as XML.
public enum HTMLReport {
    /// Pixels per lane and for the whole session axis.
    static let laneHeight = 34.0
    static let labelWidth = 140.0
    static let axisWidth = 900.0

    public static func render(_ report: SimulationReport, thresholds: LabThresholds) -> String {
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
            .primary { fill: #4a7bd0; } .interstitial { fill: #f0a030; } .transition { fill: #222; }
            .paused { fill: #bbb; } .loading { fill: #777; } .refused { fill: #d22; }
            .lane-label { font-size: 13px; } .axis { font-size: 11px; fill: #555; }
            .legend span { display: inline-block; width: 12px; height: 12px; margin: 0 4px 0 14px; vertical-align: middle; }
            </style>
            </head>
            <body>
            <h1>airlab: \(e(report.playlist))</h1>
            <p>Seed \(report.seed); \(report.sessions.count) receiver(s) played the cast\(report.failures.isEmpty ? "" : ", \(report.failures.count) could not").</p>

            """
        html += breakTable(report, thresholds: thresholds)
        html += "<h2>Timelines</h2>\n" + timeline(report) + "\n" + legend
        if !report.failures.isEmpty {
            html += "<h2>Receivers that could not play the cast</h2>\n<ul>\n"
            html += report.failures.map { "<li><b>\(e($0.profile))</b>: \(e($0.reason))</li>" }.joined(separator: "\n")
            html += "\n</ul>\n"
        }
        return html + "</body>\n</html>\n"
    }

    static func breakTable(_ report: SimulationReport, thresholds: LabThresholds) -> String {
        let e = JUnitReport.escape
        var rows: [String] = []
        for session in report.sessions {
            for outcome in BreakOutcome.outcomes(of: session) {
                let failure = thresholds.failure(of: outcome)
                let latency = { (transition: Transition?) in transition.map { String(Int($0.totalMilliseconds.rounded())) } ?? "–" }
                let why = outcome.played ? outcome.mismatches.map(e).joined(separator: "<br/>") : e(outcome.skipReason ?? "skipped")
                rows.append("<tr data-profile=\"\(e(session.profile))\" data-event=\"\(e(outcome.eventID))\"><td>\(e(session.profile))</td>"
                    + "<td>\(e(outcome.eventID))</td><td>\(latency(outcome.transitionIn))</td><td>\(latency(outcome.transitionOut))</td>"
                    + "<td>\(why.isEmpty ? "media match" : why)</td>"
                    // A skipped break's reason already stands in the previous column.
                    + "<td class=\"\(failure == nil ? "pass" : "fail")\">\(failure.map { outcome.played ? e($0) : "did not play" } ?? "pass")</td></tr>")
            }
        }
        return """
            <h2>Interstitials</h2>
            <table class="breaks">
            <thead><tr><th>receiver</th><th>interstitial</th><th>switch in (ms)</th><th>switch out (ms)</th><th>what differed</th><th>result</th></tr></thead>
            <tbody>
            \(rows.joined(separator: "\n"))
            </tbody>
            </table>

            """
    }

    static let legend = """
        <p class="legend"><span style="background:#777"></span>loading<span style="background:#4a7bd0"></span>primary\
        <span style="background:#f0a030"></span>interstitial<span style="background:#222"></span>transition\
        <span style="background:#bbb"></span>paused<span style="background:#d22"></span>refused command (hover for details)</p>

        """

    /// One SVG, one lane per receiver, all on the same session-time axis.
    static func timeline(_ report: SimulationReport) -> String {
        let e = JUnitReport.escape
        let longest = max(1, report.sessions.map(\.totals.sessionSeconds).max() ?? 1)
        let scale = axisWidth / longest
        let height = laneHeight * Double(report.sessions.count) + 30
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"timeline\" width=\"\(Int(labelWidth + axisWidth + 20))\" height=\"\(Int(height))\">\n"
        for (index, session) in report.sessions.enumerated() {
            let y = Double(index) * laneHeight
            svg += "<g class=\"lane\" data-profile=\"\(e(session.profile))\" transform=\"translate(0,\(format(y)))\">\n"
            svg += "<text class=\"lane-label\" x=\"0\" y=\"20\">\(e(session.profile))</text>\n"
            for entry in session.timeline {
                let x = labelWidth + entry.start * scale
                let width = max(1, (entry.end - entry.start) * scale)
                svg += "<rect class=\"\(entry.kind.rawValue)\" x=\"\(format(x))\" y=\"6\" width=\"\(format(width))\" height=\"20\">"
                    + "<title>\(e(title(of: entry)))</title></rect>\n"
            }
            for refusal in session.refusals {
                let x = labelWidth + refusal.time * scale
                svg += "<path class=\"refused\" d=\"M\(format(x)) 2 l5 -0 l-5 8 l-5 -8 z\"><title>\(e("refused at \(format(refusal.time)) s: \(refusal.command) (\(refusal.reason))"))</title></path>\n"
            }
            svg += "</g>\n"
        }
        let axisY = laneHeight * Double(report.sessions.count) + 14
        let step = niceStep(longest)
        var tick = 0.0
        while tick <= longest + 0.001 {
            svg += "<text class=\"axis\" x=\"\(format(labelWidth + tick * scale))\" y=\"\(format(axisY))\">\(format(tick)) s</text>\n"
            tick += step
        }
        return svg + "</svg>"
    }

    static func title(of entry: SessionReport.TimelineEntry) -> String {
        let span = "\(format(entry.start))–\(format(entry.end)) s"
        switch entry.kind {
        case .primary: return "primary \(format(entry.positionStart ?? 0))→\(format(entry.positionEnd ?? 0)), \(span)"
        case .paused: return "paused, \(span)"
        case .interstitial: return "'\(entry.eventID ?? "?")' asset \((entry.assetIndex ?? 0) + 1), \(span)"
        case .transition, .loading:
            return "\(entry.kind.rawValue) " + (entry.transition.map { SessionReportText.breakdown($0, direction: nil) } ?? span)
        }
    }

    /// 1, 2 or 5 times a power of ten, giving about ten ticks.
    static func niceStep(_ length: Double) -> Double {
        let raw = length / 10
        let power = pow(10, floor(log10(raw)))
        return [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= raw } ?? raw
    }

    static func format(_ value: Double) -> String {
        String(format: "%.1f", value)
    }
}
