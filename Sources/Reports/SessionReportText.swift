import Foundation
import HLS
import NumberText
import Profiles
import Sessions

/// The terminal view of session reports: per receiver, the timeline as a table, what was refused or
/// skipped, and the totals.
public enum SessionReportText {
    public static func render(_ report: SimulationReport) -> String {
        var blocks = report.sessions.map(render)
        for failure in report.failures {
            blocks.append("\(failure.profile): cannot play the cast: \(failure.reason)\n")
        }
        // A profile that could not play the cast has no session to name it; the list names every one used.
        if !report.profiles.isEmpty {
            blocks.append("profiles used:\n" + report.profiles.map { "  \($0.text)\n" }.joined())
        }
        return blocks.joined(separator: "\n")
    }

    public static func render(_ session: SessionReport) -> String {
        var lines = ["\(session.profile) (seed \(session.seed))"]
        if let summary = session.profileSummary {
            lines.append("  profile \(summary.text)")
        }
        if let variant = session.variant {
            lines.append("  plays variant \(variant)")
        }
        var rows = [["TIME", "ENTRY", "DETAIL"]]
        for entry in session.timeline {
            rows.append([seconds(entry.start, places: 3), entry.kind.rawValue, detail(of: entry)])
        }
        for refusal in session.refusals {
            rows.append([seconds(refusal.time, places: 3), "refused", "\(refusal.command): \(refusal.reason)"])
        }
        rows.sort { row, other in
            guard let time = Double(row[0]), let otherTime = Double(other[0]) else { return row[0] == "TIME" }
            return time < otherTime
        }
        lines += table(rows).map { "  " + $0 }
        for skip in session.skipped {
            lines.append("  skipped at \(seconds(skip.time, places: 3)) s: \(skip.reason)")
        }
        for firing in session.quirks ?? [] {
            lines.append("  quirk at \(seconds(firing.time, places: 3)) s: \(firing.reason)")
        }
        let totals = session.totals
        lines.append("  interstitials: \(totals.interstitialsPlayed) played, \(totals.interstitialsSkipped) skipped; "
            + "assets skipped: \(totals.assetsSkipped); transitions: \(totals.transitions) (longest \(milliseconds(totals.longestTransitionMilliseconds))); "
            + "commands refused: \(totals.refusedCommands)")
        lines.append("  time: \(seconds(totals.sessionSeconds)) s in all: primary \(seconds(totals.primarySeconds)) s, "
            + "interstitials \(seconds(totals.interstitialSeconds)) s, switching \(seconds(totals.transitionSeconds)) s, paused \(seconds(totals.pausedSeconds)) s")
        if let media = session.media {
            let startup = totals.startupSeconds.map { "startup \(seconds($0, places: 3)) s; " } ?? ""
            let throughput = media.throughputMbps.map { "; throughput p50 \(seconds($0.p50)) Mbit/s" } ?? ""
            let firstByte = media.timeToFirstByteMilliseconds.map { ", TTFB p95 \(milliseconds($0.p95))" } ?? ""
            lines.append("  media (\(media.mode)): \(startup)\(totals.stalls) stall(s), \(seconds(totals.stallSeconds)) s, "
                + "rebuffering \(seconds(totals.rebufferingRatio * 100)) %; \(media.segments) segments, \(media.bytes) bytes\(throughput)\(firstByte); "
                + "segment errors \(totals.segmentErrors), assets failed \(totals.assetsFailed)")
            for change in session.variantSwitches ?? [] {
                lines.append("  switched down at \(seconds(change.time)) s (position \(seconds(change.position)) s) to \(change.to): \(change.reason)")
            }
        }
        if let intervals = session.pictureInPicture {
            let spans = intervals.map { "\(seconds($0.start))-\(seconds($0.end)) s" }
            lines.append("  picture in picture: " + spans.joined(separator: ", "))
        }
        if let sdk = session.sdkAds {
            func count(_ value: SDKAdSummary.Count) -> String { "\(value.breaks) (\(seconds(value.seconds)) s)" }
            lines.append("  SDK ad breaks (\(sdk.policy.rawValue) in picture in picture): \(count(sdk.planned)) planned, \(count(sdk.started)) started, "
                + "\(count(sdk.deferred)) deferred (longest \(seconds(sdk.longestDelaySeconds)) s), \(count(sdk.lostToPictureInPicture)) lost to picture in picture"
                + (sdk.violations > 0 ? ", \(sdk.violations) refused start(s)" : ""))
        }
        if let reason = session.endReason {
            lines.append("  ended: \(reason)")
        }
        let problems = session.diagnostics.filter { $0.severity != .info }
        if !problems.isEmpty {
            lines.append("  playlist problems:")
            lines += problems.map { "    \($0)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func detail(of entry: SessionReport.TimelineEntry) -> String {
        switch entry.kind {
        case .primary:
            let rate = (entry.rate ?? 1) == 1 ? "" : " at rate \(number(entry.rate ?? 1))"
            return "\(seconds(entry.positionStart ?? 0)) -> \(seconds(entry.positionEnd ?? 0)) s\(rate)"
        case .paused:
            return entry.eventID.map { "in '\($0)'" } ?? "at \(seconds(entry.positionStart ?? 0)) s"
        case .interstitial:
            let asset = (entry.assetIndex ?? 0) + 1
            return "'\(entry.eventID ?? "?")' asset \(asset) for \(seconds(entry.end - entry.start)) s (\(entry.assetURI ?? "?"))"
        case .stall:
            let inBreak = entry.eventID.map { " in '\($0)'" } ?? " at \(seconds(entry.positionStart ?? 0)) s"
            return "\(entry.stall?.rawValue ?? "stall")\(inBreak) for \(seconds(entry.end - entry.start)) s"
        case .transition, .loading:
            guard let transition = entry.transition else { return milliseconds((entry.end - entry.start) * 1000) }
            let direction: String? = entry.eventID.map { eventID in
                entry.assetIndex.map { "into '\(eventID)' asset \($0 + 1)" } ?? "from '\(eventID)' back to primary"
            }
            return breakdown(transition, direction: direction)
        }
    }

    /// `1520 ms into 'ad-2' asset 1: priming 0 ms; video: splice 21 ms, frame_rate 1480 ms (30/1 -> 25/1); audio: …`
    static func breakdown(_ transition: Transition, direction: String?) -> String {
        var parts: [String] = []
        if let priming = transition.priming { parts.append("priming \(milliseconds(priming.milliseconds))") }
        func path(_ name: String, _ costs: [Transition.Cost]) {
            guard !costs.isEmpty else { return }
            let items = costs.map { cost in
                "\(cost.cause) \(milliseconds(cost.milliseconds))" + (cost.detail.map { " (\($0))" } ?? "")
            }
            parts.append("\(name): " + items.joined(separator: ", "))
        }
        path("video", transition.video)
        path("audio", transition.audio)
        let target = direction.map { " \($0)" } ?? ""
        return "\(milliseconds(transition.totalMilliseconds))\(target): " + parts.joined(separator: "; ")
    }

    static func seconds(_ value: Double, places: Int = 1) -> String {
        String(format: "%.\(places)f", value)
    }

    static func milliseconds(_ value: Double) -> String {
        "\(Int(roundingSaturated: value)) ms"
    }

    static func number(_ value: Double) -> String {
        value.plainText
    }

    static func table(_ rows: [[String]]) -> [String] {
        guard let columns = rows.first?.count else { return [] }
        let widths = (0..<columns).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == columns - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
    }
}
