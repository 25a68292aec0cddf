import Foundation
import Sessions

/// `getProperty?playbackAccessLog` and `?playbackErrorLog` in the key names of AVPlayerItem's access
/// and error log events, which AirPlay receivers report: one access entry per item played (the
/// primary, each interstitial asset), one error entry per failure.
public enum PlaybackLogs {
    /// One AVPlayerItemAccessLogEvent.
    public struct AccessEntry: Sendable, Equatable, Codable {
        public var uri: String
        public var sessionID: String
        public var startTime: Date
        public var durationWatched: Double
        public var startupTime: Double
        public var stalls = 0
        public var framesDropped = 0

        enum CodingKeys: String, CodingKey {
            case uri, sessionID = "cs-guid", startTime = "c-start-time", durationWatched = "c-duration-watched"
            case startupTime = "c-startup-time", stalls = "c-stalls", framesDropped = "c-frames-dropped"
        }
    }

    /// One AVPlayerItemErrorLogEvent.
    public struct ErrorEntry: Sendable, Equatable, Codable {
        public var date: Date
        public var sessionID: String
        public var uri: String
        public var status = -1
        public var domain: String
        public var comment: String

        enum CodingKeys: String, CodingKey {
            case date, sessionID = "cs-guid", uri, status, domain, comment
        }
    }

    public static func accessLog(_ report: SessionReport, sessionID: String, startedAt: Date) -> [AccessEntry] {
        var entries: [AccessEntry] = []
        var startup: Double?
        for entry in report.timeline {
            switch entry.kind {
            case .loading, .transition:
                startup = entry.end - entry.start
            case .primary, .interstitial:
                let uri = entry.kind == .primary ? report.variant ?? report.playlist : entry.assetURI ?? ""
                // Consecutive ranges of one item are one access log entry, as a player counts them.
                if let last = entries.indices.last, entries[last].uri == uri {
                    entries[last].durationWatched += entry.end - entry.start
                    continue
                }
                entries.append(AccessEntry(
                    uri: uri, sessionID: sessionID, startTime: startedAt.addingTimeInterval(entry.start),
                    durationWatched: entry.end - entry.start, startupTime: startup ?? 0))
                startup = nil
            case .paused, .stall:
                continue
            }
        }
        return entries
    }

    public static func errorLog(_ report: SessionReport, sessionID: String, startedAt: Date) -> [ErrorEntry] {
        let skips = report.skipped.map { skip in
            ErrorEntry(
                date: startedAt.addingTimeInterval(skip.time), sessionID: sessionID, uri: skip.eventID, domain: "airlab.interstitial",
                comment: skip.reason)
        }
        let errors = report.errors.map { error in
            ErrorEntry(date: startedAt, sessionID: sessionID, uri: report.playlist, domain: "airlab.session", comment: error)
        }
        return skips + errors
    }
}
