import Coordination
import Foundation

/// The sync-error strip under a participant's lane: |e| as an area on the group time axis, against
/// the tolerance line, so where a participant drifted (and for how long) reads next to its waits and
/// jumps. Gaps are the times it did not follow (its breaks, stalls, waits).
enum GroupSyncStripSVG {
    static let height = 16.0

    /// The strip's elements, drawn from `top` down; `x` maps a group time to the axis.
    static func render(_ sync: GroupReport.SyncError, top: Double, x: (Double) -> Double) -> String {
        let e = JUnitReport.escape
        let f = TimelineSVG.format
        // Scaled to the larger of the error and the tolerance, with room above the tolerance line.
        let scale = max(sync.max, sync.tolerance * 1.25)
        func y(_ magnitude: Double) -> Double { top + height - height * min(1, magnitude / scale) }
        let base = f(top + height)
        var path = ""
        for piece in sync.pieces {
            let (from, to) = (abs(piece.from), abs(piece.to))
            path += "M\(f(x(piece.start))) \(base) L\(f(x(piece.start))) \(f(y(from))) "
            if piece.from * piece.to < 0 {
                let crossing = piece.start + (piece.end - piece.start) * from / (from + to)
                path += "L\(f(x(crossing))) \(base) "
            }
            path += "L\(f(x(piece.end))) \(f(y(to))) L\(f(x(piece.end))) \(base) Z "
        }
        let summary = "sync error: max \(f3(sync.max)) s, p95 \(f3(sync.p95)) s, \(f(sync.secondsAbove)) s above the \(f3(sync.tolerance)) s tolerance"
        var svg = "<g class=\"sync-strip\"><title>\(e(summary))</title>\n"
        svg += "<text class=\"label\" x=\"0\" y=\"\(f(top + height - 4))\">sync error</text>\n"
        svg += "<rect class=\"sync-back\" x=\"\(f(x(0)))\" y=\"\(f(top))\" width=\"\(f(GroupTimelineSVG.axisWidth))\" height=\"\(f(height))\"/>\n"
        if !path.isEmpty { svg += "<path class=\"sync-error\" d=\"\(path.trimmingCharacters(in: .whitespaces))\"/>\n" }
        let line = f(y(sync.tolerance))
        svg += "<line class=\"sync-tolerance\" x1=\"\(f(x(0)))\" y1=\"\(line)\" x2=\"\(f(x(0) + GroupTimelineSVG.axisWidth))\" y2=\"\(line)\"/>\n"
        return svg + "</g>\n"
    }

    private static func f3(_ value: Double) -> String { SessionReportText.seconds(value, places: 3) }
}
