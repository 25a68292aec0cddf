@preconcurrency import Glibc
import Foundation

/// The daemon's log: one line per message on stderr, as text or as JSON for log collectors.
/// Readiness goes to stdout, so a supervisor or a test can wait for it apart from the log.
struct DaemonLog: Sendable {
    enum Format: Sendable {
        case text, json
    }

    var format: Format

    func write(_ message: String, level: String = "info") {
        let line: String
        switch format {
        case .text:
            line = "airlabd: \(message)\n"
        case .json:
            let object: [String: Any] = ["time": ISO8601DateFormatter().string(from: Date()), "level": level, "message": message]
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
            line = String(decoding: data, as: UTF8.self) + "\n"
        }
        fputs(line, stderr)
    }

    /// A `ReadyAnnouncement` line for whoever waits for the daemon, on stdout, flushed at once.
    static func announce(_ line: String) {
        fputs(line + "\n", stdout)
        fflush(stdout)
    }
}
