import Foundation
import HLS
import Playback
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
        var groupListenersDropped = 0
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
    func countGroupListenersDropped(_ count: Int) { counts.withLock { $0.groupListenersDropped += count } }

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

    /// The counters and the gauges given, as metric families: a receiver's own `/metrics` writes them
    /// as they are, the process's endpoint labels them with the receiver and merges the fleet's.
    func families(info: [String: String], activeSessions: Int, listeners: Int, openConnections: Int) -> [MetricFamily] {
        let counts = self.counts.withLock { $0 }
        var families: [MetricFamily] = []
        func metric(_ name: String, _ kind: MetricFamily.Kind, _ help: String, _ samples: [MetricFamily.Sample]) {
            families.append(MetricFamily(name: name, kind: kind, help: help, samples: samples))
        }
        func single(_ value: Int) -> [MetricFamily.Sample] { [MetricFamily.Sample(value: "\(value)")] }
        func labelled(_ name: String, _ values: [(String, Int)]) -> [MetricFamily.Sample] {
            values.map { MetricFamily.Sample(labels: [MetricFamily.Label(name: name, value: $0.0)], value: "\($0.1)") }
        }
        let infoLabels = info.sorted { $0.key < $1.key }.map { MetricFamily.Label(name: $0.key, value: $0.value) }
        metric("airlab_receiver_info", .gauge, "The receiver's name, profile and device id.", [MetricFamily.Sample(labels: infoLabels, value: "1")])
        let requests = counts.requests.sorted { ($0.key.route, $0.key.status) < ($1.key.route, $1.key.status) }.map {
            MetricFamily.Sample(labels: [MetricFamily.Label(name: "route", value: $0.key.route), MetricFamily.Label(name: "status", value: "\($0.key.status)")], value: "\($0.value)")
        }
        metric("airlab_http_requests_total", .counter, "HTTP requests answered, by route and status.", requests)
        metric("airlab_http_open_connections", .gauge, "TCP connections open now.", single(openConnections))
        metric("airlab_event_listeners", .gauge, "Reverse connections and event streams listening now.", single(listeners))
        metric("airlab_sessions_active", .gauge, "Sessions playing now (0 or 1).", single(activeSessions))
        metric("airlab_sessions_started_total", .counter, "Casts that started playing.", single(counts.sessionsStarted))
        metric("airlab_sessions_ended_total", .counter, "Sessions that ended, for any reason.", single(counts.sessionsEnded))
        metric("airlab_casts_refused_total", .counter, "Casts whose playlist could not be played.", single(counts.castsRefused))
        metric("airlab_interstitials_played_total", .counter, "Interstitial events that started playing.", single(counts.interstitialsPlayed))
        metric("airlab_breaks_skipped_total", .counter, "Interstitial events skipped (failed, undecodable, or sought past).", single(counts.breaksSkipped))
        let restrictions = InterstitialEvent.Restriction.allCases.map(\.rawValue).sorted() + [Self.otherRefusal]
        metric(
            "airlab_refused_commands_total", .counter, "Sender commands refused by an interstitial's restrictions.",
            labelled("restriction", restrictions.map { ($0, counts.refusals[$0] ?? 0) }))
        metric(
            "airlab_sdk_ad_breaks_in_pip_total", .counter, "SDK ad breaks that fell due in picture in picture, by what the SDK did.",
            labelled("outcome", ["deferred", "refused", "skipped"].map { ($0, counts.sdkBreaksInPictureInPicture[$0] ?? 0) }))
        metric("airlab_pip_starts_failed_total", .counter, "Requests for picture in picture that could not start.", single(counts.pictureInPictureStartsFailed))
        metric(
            "airlab_group_listeners_dropped_total", .counter, "Listeners of hosted groups dropped because their queue was full.",
            single(counts.groupListenersDropped))
        var histogram = zip(Self.transitionBuckets, counts.transitions).map {
            MetricFamily.Sample(suffix: "_bucket", labels: [MetricFamily.Label(name: "le", value: MetricFamily.number($0.0))], value: "\($0.1)")
        }
        histogram.append(MetricFamily.Sample(suffix: "_bucket", labels: [MetricFamily.Label(name: "le", value: "+Inf")], value: "\(counts.transitionCount)"))
        histogram.append(MetricFamily.Sample(suffix: "_sum", value: MetricFamily.number(counts.transitionSum)))
        histogram.append(MetricFamily.Sample(suffix: "_count", value: "\(counts.transitionCount)"))
        metric(
            "airlab_transition_seconds", .histogram,
            "Simulated switching latency of every transition (startup, into and out of interstitials).", histogram)
        return families
    }

    /// The label of refusals no restriction made (a command that was wrong in itself).
    static let otherRefusal = "other"
}
