import Foundation
import HLS
import Sessions

/// The SVG timeline of sessions: one lane per receiver on a shared session-time axis, showing
/// loading, primary, interstitials, transitions, pauses and refused commands (hover for details), over
/// a shaded band where the session was in picture in picture.
public enum TimelineSVG {
    /// Pixels per lane and for the whole session axis.
    static let laneHeight = 34.0
    static let labelWidth = 140.0
    static let axisWidth = 900.0

    /// The colours of the timeline's classes, for a page that embeds it or for the SVG alone.
    static let style = """
        .primary { fill: #4a7bd0; } .interstitial { fill: #f0a030; } .transition { fill: #222; }
        .paused { fill: #bbb; } .loading { fill: #777; } .refused { fill: #d22; }
        .picture-in-picture { fill: #6a4; fill-opacity: 0.25; } .stall { fill: url(#stall-hatch); stroke: #d22; stroke-width: 1; }
        .lane-label { font-size: 13px; font-family: sans-serif; } .axis { font-size: 11px; fill: #555; font-family: sans-serif; }
        """

    /// An SVG document on its own (`GET /sessions/{id}/timeline.svg`), its style inside.
    public static func document(_ sessions: [SessionReport]) -> String {
        let svg = render(sessions)
        let open = svg.firstIndex(of: ">").map { svg.index(after: $0) } ?? svg.startIndex
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + svg[..<open] + "\n<style>\n" + style + "\n</style>" + svg[open...] + "\n"
    }

    /// One SVG element, one lane per session, all on the same session-time axis.
    public static func render(_ sessions: [SessionReport]) -> String {
        let e = JUnitReport.escape
        let longest = max(1, sessions.map(\.totals.sessionSeconds).max() ?? 1)
        let scale = axisWidth / longest
        let height = laneHeight * Double(sessions.count) + 30
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"timeline\" width=\"\(Int(saturating: labelWidth + axisWidth + 20))\" height=\"\(Int(saturating: height))\">\n"
        // Stalls are hatched red: they stand out from a pause (grey) and from an ad (orange).
        svg += "<defs><pattern id=\"stall-hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">"
            + "<rect width=\"3\" height=\"6\" fill=\"#d22\"/></pattern></defs>\n"
        for (index, session) in sessions.enumerated() {
            let y = Double(index) * laneHeight
            svg += "<g class=\"lane\" data-profile=\"\(e(session.profile))\" transform=\"translate(0,\(format(y)))\">\n"
            svg += "<text class=\"lane-label\" x=\"0\" y=\"20\">\(e(session.profile))</text>\n"
            // Drawn first, taller than the entries, so the band shows above and below what played in it.
            for interval in session.pictureInPicture ?? [] {
                let x = labelWidth + interval.start * scale
                let width = max(1, (interval.end - interval.start) * scale)
                svg += "<rect class=\"picture-in-picture\" x=\"\(format(x))\" y=\"2\" width=\"\(format(width))\" height=\"28\">"
                    + "<title>\(e("picture in picture, \(format(interval.start))–\(format(interval.end)) s"))</title></rect>\n"
            }
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
        let axisY = laneHeight * Double(sessions.count) + 14
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
        case .stall: return "stall (\(entry.stall?.rawValue ?? "?")), \(span)"
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
