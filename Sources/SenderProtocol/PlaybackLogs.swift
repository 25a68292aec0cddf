import Emulation
import Foundation

/// `getProperty?playbackAccessLog` and `?playbackErrorLog` in the key names of AVPlayerItem's access
/// and error log events, which AirPlay receivers report: one access entry per item played (the
/// primary, each interstitial asset), one error entry per failure.
public enum PlaybackLogs {
    public static func accessLog(_ report: SessionReport, sessionID: String, startedAt: Date) -> [[String: Any]] {
        var entries: [[String: Any]] = []
        var startup: Double?
        for entry in report.timeline {
            switch entry.kind {
            case .loading, .transition:
                startup = entry.end - entry.start
            case .primary, .interstitial:
                let uri = entry.kind == .primary ? report.variant ?? report.playlist : entry.assetURI ?? ""
                // Consecutive ranges of one item are one access log entry, as a player counts them.
                if var last = entries.last, last["uri"] as? String == uri {
                    last["c-duration-watched"] = (last["c-duration-watched"] as? Double ?? 0) + (entry.end - entry.start)
                    entries[entries.count - 1] = last
                    continue
                }
                entries.append([
                    "uri": uri, "cs-guid": sessionID, "c-start-time": startedAt.addingTimeInterval(entry.start),
                    "c-duration-watched": entry.end - entry.start, "c-startup-time": startup ?? 0,
                    "c-stalls": 0, "c-frames-dropped": 0,
                ])
                startup = nil
            case .paused:
                continue
            }
        }
        return entries
    }

    public static func errorLog(_ report: SessionReport, sessionID: String, startedAt: Date) -> [[String: Any]] {
        let skips = report.skipped.map { skip -> [String: Any] in
            ["date": startedAt.addingTimeInterval(skip.time), "cs-guid": sessionID, "uri": skip.eventID,
             "status": -1, "domain": "airlab.interstitial", "comment": skip.reason]
        }
        let errors = report.errors.map { error -> [String: Any] in
            ["date": startedAt, "cs-guid": sessionID, "uri": report.playlist, "status": -1, "domain": "airlab.session", "comment": error]
        }
        return skips + errors
    }
}
