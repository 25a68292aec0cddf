import Coordination
import Foundation

/// The HTML view of a group run: the table, and one SVG with a lane per participant on the group
/// time axis: its ads and stalls (its suspensions), its waits hatched and labelled with the holder
/// that ended last, its catch-up jumps as arrows labelled with the seconds missed, and under it a
/// strip of its sync error against the tolerance.
public enum GroupTimelineSVG {
    static let laneHeight = 62.0
    static let labelWidth = 120.0
    static let axisWidth = 900.0

    static let style = """
        .ad { fill: #f0a030; } .stall { fill: #d22; } .wait { fill: url(#hatch); stroke: #777; }
        .jump { stroke: #222; stroke-width: 1.5; fill: none; } .label { font-size: 11px; font-family: sans-serif; }
        .lane-label { font-size: 13px; font-family: sans-serif; } .axis { font-size: 11px; fill: #555; font-family: sans-serif; }
        .lane-line { stroke: #4a7bd0; stroke-width: 4; }
        .sync-back { fill: #f4f4f4; } .sync-error { fill: #7a4fc9; } .sync-tolerance { stroke: #d22; stroke-width: 1; stroke-dasharray: 3 2; }
        """

    /// - Parameter frames: by participant name, then by event ID: the pictures either side of each of its
    ///   breaks (`HTMLReport.BreakFrames`, made by the same frame code as the other reports); given, a
    ///   table after the timeline shows them, small and embedded.
    public static func page(_ report: GroupReport, frames: [String: [String: HTMLReport.BreakFrames]] = [:]) -> String {
        let e = JUnitReport.escape
        return """
            <!DOCTYPE html>
            <html xmlns="http://www.w3.org/1999/xhtml" lang="en">
            <head>
            <meta charset="utf-8"/>
            <title>airlab group: \(e(report.contentID))</title>
            <style>
            body { font-family: sans-serif; margin: 2em; color: #222; }
            \(style)
            table.frames { border-collapse: collapse; margin-top: 1em; } table.frames td, table.frames th { border: 1px solid #ccc; padding: 0.3em 0.6em; text-align: left; }
            img.frame, span.frame { display: inline-block; width: 160px; margin-right: 4px; vertical-align: middle; }
            </style>
            </head>
            <body>
            <h1>airlab group: \(e(report.contentID))</h1>
            <pre>\(e(GroupReportText.render(report)))</pre>
            \(render(report))
            \(frameTable(report, frames: frames))
            </body>
            </html>

            """
    }

    /// A row per participant and break: the last primary frame before it, the break's first and primary's
    /// first after it, so the
    /// report shows the letterboxing or the wrong ad a participant's lane only names.
    static func frameTable(_ report: GroupReport, frames: [String: [String: HTMLReport.BreakFrames]]) -> String {
        let e = JUnitReport.escape
        let rows = report.participants.flatMap { participant in
            (frames[participant.name] ?? [:]).sorted { $0.key < $1.key }.map { eventID, pair in
                "<tr><td>\(e(participant.name))</td><td>\(e(eventID))</td><td class=\"frames\">\(HTMLReport.pictures(pair, eventID: eventID))</td></tr>"
            }
        }
        guard !rows.isEmpty else { return "" }
        return """
            <h2>Frames at each break</h2>
            <table class="frames">
            <thead><tr><th>participant</th><th>interstitial</th><th>last frame before, first of the break, first after</th></tr></thead>
            <tbody>
            \(rows.joined(separator: "\n"))
            </tbody>
            </table>
            """
    }

    /// One SVG element, a lane per participant.
    public static func render(_ report: GroupReport) -> String {
        let e = JUnitReport.escape
        let end = report.participants.flatMap { participant in
            participant.timeControlStatus.map(\.at) + participant.suspensions.compactMap(\.end) + participant.syncError.pieces.map(\.end)
        }.max() ?? 1
        let scale = axisWidth / max(1, end)
        func position(_ time: Double) -> Double { labelWidth + time * scale }
        func x(_ time: Double) -> String { TimelineSVG.format(position(time)) }
        func width(_ seconds: Double) -> String { TimelineSVG.format(max(1, seconds * scale)) }
        let height = laneHeight * Double(report.participants.count) + 30
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"group-timeline\" width=\"\(Int(saturating: labelWidth + axisWidth + 100))\" height=\"\(Int(saturating: height))\">\n"
        svg += "<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
            + "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#999\" stroke-width=\"2\"/></pattern></defs>\n"
        for (index, participant) in report.participants.enumerated() {
            svg += "<g class=\"lane\" data-participant=\"\(e(participant.name))\" transform=\"translate(0,\(TimelineSVG.format(Double(index) * laneHeight)))\">\n"
            svg += "<text class=\"lane-label\" x=\"0\" y=\"22\">\(e(participant.name))</text>\n"
            svg += "<line class=\"lane-line\" x1=\"\(x(0))\" y1=\"18\" x2=\"\(x(end))\" y2=\"18\"/>\n"
            for suspension in participant.suspensions {
                let stop = suspension.end ?? end
                let kind = suspension.reason == .playingInterstitial ? "ad" : "stall"
                svg += "<rect class=\"\(kind)\" x=\"\(x(suspension.start))\" y=\"8\" width=\"\(width(stop - suspension.start))\" height=\"20\">"
                    + "<title>\(e("\(suspension.reason.rawValue) \(TimelineSVG.format(suspension.start))–\(TimelineSVG.format(stop)) s at primary \(TimelineSVG.format(suspension.primary))"))</title></rect>\n"
            }
            for wait in participant.waits {
                let holder = wait.criticalHolder.map { "for \($0)" } ?? ""
                svg += "<rect class=\"wait\" x=\"\(x(wait.start))\" y=\"8\" width=\"\(width(wait.seconds))\" height=\"20\">"
                    + "<title>\(e("waited \(TimelineSVG.format(wait.seconds)) s \(holder)"))</title></rect>\n"
                svg += "<text class=\"label\" x=\"\(x(wait.start))\" y=\"38\">\(e("wait \(holder)"))</text>\n"
            }
            for jump in participant.catchUpJumps {
                svg += "<path class=\"jump\" d=\"M\(x(jump.at)) 30 l0 -24 l-4 6 m4 -6 l4 6\"><title>\(e("jumped from \(TimelineSVG.format(jump.from)) to \(TimelineSVG.format(jump.to))"))</title></path>\n"
                svg += "<text class=\"label\" x=\"\(x(jump.at))\" y=\"38\">\(e("missed \(TimelineSVG.format(jump.seconds)) s"))</text>\n"
            }
            svg += GroupSyncStripSVG.render(participant.syncError, top: 42, x: position)
            svg += "</g>\n"
        }
        let axisY = laneHeight * Double(report.participants.count) + 14
        let step = TimelineSVG.niceStep(max(1, end))
        var tick = 0.0
        while tick <= end + 0.001 {
            svg += "<text class=\"axis\" x=\"\(x(tick))\" y=\"\(TimelineSVG.format(axisY))\">\(TimelineSVG.format(tick)) s</text>\n"
            tick += step
        }
        return svg + "</svg>"
    }
}
