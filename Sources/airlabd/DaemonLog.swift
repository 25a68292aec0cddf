@preconcurrency import Glibc
import Foundation

/// The daemon's log: one line per message on stderr, as text or as JSON for log collectors.
/// Readiness goes to stdout, so a supervisor or a test can wait for it apart from the log.
struct DaemonLog: Sendable {
    enum Format: String, Sendable, CaseIterable {
        case text, json
    }

    var format: Format

    /// One line of `--log-format json`.
    private struct JSONLine: Encodable {
        let level: String
        let message: String
        let time: String
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    func write(_ message: String, level: String = "info") {
        let line: String
        switch format {
        case .text:
            line = "airlabd: \(message)\n"
        case .json:
            let entry = JSONLine(level: level, message: message, time: ISO8601DateFormatter().string(from: Date()))
            let data = (try? Self.encoder.encode(entry)) ?? Data()
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
