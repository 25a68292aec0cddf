import Emulation
import Foundation
import HLS
import SenderProtocol
import Synchronization

/// Counters for `GET /metrics`, in Prometheus' text format.
///
/// Labels take values from fixed sets only (known routes, status codes, restriction names), so a
/// sender sending odd paths cannot grow the output without bound.
final class ReceiverMetrics: Sendable {
    /// Upper bounds of the transition-latency histogram, in seconds.
    static let transitionBuckets: [Double] = [0.05, 0.1, 0.25, 0.5, 1, 2, 5]

    private struct Counts {
        var requests: [RequestKey: Int] = [:]
        var sessionsStarted = 0
        var sessionsEnded = 0
        var castsRefused = 0
        var transitions = Array(repeating: 0, count: ReceiverMetrics.transitionBuckets.count)
        var transitionCount = 0
        var transitionSum = 0.0
        var interstitialsPlayed = 0
        var breaksSkipped = 0
        var refusals: [String: Int] = [:]
        var sdkBreaksInPictureInPicture: [String: Int] = [:]
        var pictureInPictureStartsFailed = 0
    }

    private struct RequestKey: Hashable {
        var route: String
        var status: Int
    }

    private let counts = Mutex(Counts())

    /// A request answered; nil for a path the protocol does not have.
    func countRequest(route: Route?, status: Int) {
        let label = route?.label ?? Route.otherLabel
        counts.withLock { $0.requests[RequestKey(route: label, status: status), default: 0] += 1 }
    }

    func countSessionStarted() { counts.withLock { $0.sessionsStarted += 1 } }
    func countSessionEnded() { counts.withLock { $0.sessionsEnded += 1 } }
    func countCastRefused() { counts.withLock { $0.castsRefused += 1 } }

    /// Folds a session's events into the counters.
    func count(_ events: [PlaybackEvent]) {
        counts.withLock { counts in
            for event in events {
                switch event.kind {
                case .transitionStarted:
                    guard let transition = event.transition else { continue }
                    let seconds = transition.seconds
                    counts.transitionCount += 1
                    counts.transitionSum += seconds
                    for (index, bound) in Self.transitionBuckets.enumerated() where seconds <= bound { counts.transitions[index] += 1 }
                case .interstitialStarted: counts.interstitialsPlayed += 1
                case .breakSkipped: counts.breaksSkipped += 1
                case .commandRefused: counts.refusals[event.restriction?.rawValue ?? Self.otherRefusal, default: 0] += 1
                case .sdkAdSkipped: counts.sdkBreaksInPictureInPicture["skipped", default: 0] += 1
                case .sdkAdDeferred: counts.sdkBreaksInPictureInPicture["deferred", default: 0] += 1
                case .sdkAdStartRefused: counts.sdkBreaksInPictureInPicture["refused", default: 0] += 1
                case .pipStartFailed: counts.pictureInPictureStartsFailed += 1
                default: continue
                }
            }
        }
    }

    /// The exposition, with the gauges the caller reads at the moment of the scrape.
    func render(info: [String: String], activeSessions: Int, listeners: Int, openConnections: Int) -> String {
        let counts = self.counts.withLock { $0 }
        var text = ""
        func metric(_ name: String, _ type: String, _ help: String, _ samples: [(labels: String, value: String)]) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
            for sample in samples { text += "\(name)\(sample.labels) \(sample.value)\n" }
        }
        let infoLabels = info.sorted { $0.key < $1.key }.map { "\($0.key)=\"\(Self.escape($0.value))\"" }.joined(separator: ",")
        metric("airlab_receiver_info", "gauge", "The receiver's name, profile and device id.", [("{\(infoLabels)}", "1")])
        let requests = counts.requests.sorted { ($0.key.route, $0.key.status) < ($1.key.route, $1.key.status) }
            .map { (labels: "{route=\"\($0.key.route)\",status=\"\($0.key.status)\"}", value: "\($0.value)") }
        metric("airlab_http_requests_total", "counter", "HTTP requests answered, by route and status.", requests)
        metric("airlab_http_open_connections", "gauge", "TCP connections open now.", [("", "\(openConnections)")])
        metric("airlab_event_listeners", "gauge", "Reverse connections and event streams listening now.", [("", "\(listeners)")])
        metric("airlab_sessions_active", "gauge", "Sessions playing now (0 or 1).", [("", "\(activeSessions)")])
        metric("airlab_sessions_started_total", "counter", "Casts that started playing.", [("", "\(counts.sessionsStarted)")])
        metric("airlab_sessions_ended_total", "counter", "Sessions that ended, for any reason.", [("", "\(counts.sessionsEnded)")])
        metric("airlab_casts_refused_total", "counter", "Casts whose playlist could not be played.", [("", "\(counts.castsRefused)")])
        metric("airlab_interstitials_played_total", "counter", "Interstitial events that started playing.", [("", "\(counts.interstitialsPlayed)")])
        metric("airlab_breaks_skipped_total", "counter", "Interstitial events skipped (failed, undecodable, or sought past).", [("", "\(counts.breaksSkipped)")])
        let labels = InterstitialEvent.Restriction.allCases.map(\.rawValue).sorted() + [Self.otherRefusal]
        let refusals = labels.map { (labels: "{restriction=\"\($0)\"}", value: "\(counts.refusals[$0] ?? 0)") }
        metric("airlab_refused_commands_total", "counter", "Sender commands refused by an interstitial's restrictions.", refusals)
        let outcomes = ["deferred", "refused", "skipped"].map { (labels: "{outcome=\"\($0)\"}", value: "\(counts.sdkBreaksInPictureInPicture[$0] ?? 0)") }
        metric("airlab_sdk_ad_breaks_in_pip_total", "counter", "SDK ad breaks that fell due in picture in picture, by what the SDK did.", outcomes)
        metric("airlab_pip_starts_failed_total", "counter", "Requests for picture in picture that could not start.", [("", "\(counts.pictureInPictureStartsFailed)")])
        var buckets = zip(Self.transitionBuckets, counts.transitions).map { (labels: "{le=\"\(Self.number($0.0))\"}", value: "\($0.1)") }
        buckets.append(("{le=\"+Inf\"}", "\(counts.transitionCount)"))
        text += "# HELP airlab_transition_seconds Simulated switching latency of every transition (startup, into and out of interstitials).\n"
        text += "# TYPE airlab_transition_seconds histogram\n"
        for bucket in buckets { text += "airlab_transition_seconds_bucket\(bucket.labels) \(bucket.value)\n" }
        text += "airlab_transition_seconds_sum \(Self.number(counts.transitionSum))\n"
        text += "airlab_transition_seconds_count \(counts.transitionCount)\n"
        return text
    }

    /// The label of refusals no restriction made (a command that was wrong in itself).
    static let otherRefusal = "other"

    static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    static func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"").replacingOccurrences(of: "\n", with: "\\n")
    }
}
