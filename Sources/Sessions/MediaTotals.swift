import HLS
import Playback

/// What fetching segments measured in one session: bytes, throughput, time to first byte, and
/// rebuffering inside each break (Conviva's "ad rebuffering ratio").
public struct MediaTotals: Sendable, Codable, Hashable {
    /// `verify` (timings modelled from measured sizes) or `realtime` (measured).
    public var mode: String
    public var segments = 0
    public var bytes = 0
    /// Megabits per second over each segment's transfer (first to last byte).
    public var throughputMbps: Percentiles?
    public var timeToFirstByteMilliseconds: Percentiles?
    public var breaks: [BreakRebuffering] = []
    /// Transfer time the origin was slower than the receiver's network (`realtime` only).
    public var originLimitedSeconds: Double = 0
    /// Kept until the session ends, then summarised; one Double each, so a 2-hour session holds a few
    /// thousand.
    private var throughputs: [Double] = []
    private var firstBytes: [Double] = []

    public struct Percentiles: Sendable, Codable, Hashable {
        public var p50: Double
        public var p95: Double
        public var p99: Double
        public var mean: Double
    }

    public struct BreakRebuffering: Sendable, Codable, Hashable {
        public var eventID: String
        public var playedSeconds: Double
        public var stallSeconds: Double
        public var stalls: Int
        public var rebufferingRatio: Double
    }

    enum CodingKeys: String, CodingKey {
        case mode, segments, bytes, throughputMbps, timeToFirstByteMilliseconds, breaks, originLimitedSeconds
    }

    public init(mode: String) {
        self.mode = mode
    }

    mutating func add(_ timing: FetchTiming) {
        segments += 1
        bytes += max(0, timing.bytes)
        if timing.originLimitedSeconds.isFinite, timing.originLimitedSeconds > 0 { originLimitedSeconds += timing.originLimitedSeconds }
        let transfer = timing.completedAt - timing.firstByteAt
        if transfer > 0, timing.bytes > 0 { throughputs.append(Double(timing.bytes) * 8 / transfer / 1e6) }
        let firstByte = timing.firstByteAt - timing.requestedAt
        if firstByte.isFinite, firstByte >= 0 { firstBytes.append(firstByte * 1000) }
    }

    mutating func finish(timeline: [SessionReport.TimelineEntry]) {
        throughputMbps = Self.percentiles(throughputs)
        timeToFirstByteMilliseconds = Self.percentiles(firstBytes)
        var order: [String] = []
        var byEvent: [String: BreakRebuffering] = [:]
        for entry in timeline {
            guard let id = entry.eventID, entry.kind == .interstitial || entry.kind == .stall else { continue }
            if byEvent[id] == nil { order.append(id) }
            let length = max(0, entry.end - entry.start)
            var rebuffering = byEvent[id] ?? BreakRebuffering(eventID: id, playedSeconds: 0, stallSeconds: 0, stalls: 0, rebufferingRatio: 0)
            if entry.kind == .stall {
                rebuffering.stallSeconds += length
                rebuffering.stalls += 1
            } else {
                rebuffering.playedSeconds += length
            }
            byEvent[id] = rebuffering
        }
        breaks = order.compactMap { id in
            guard var entry = byEvent[id] else { return nil }
            let total = entry.playedSeconds + entry.stallSeconds
            entry.rebufferingRatio = total > 0 ? entry.stallSeconds / total : 0
            return entry
        }
    }

    static func percentiles(_ values: [Double]) -> Percentiles? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        func at(_ fraction: Double) -> Double {
            sorted[min(sorted.count - 1, max(0, Int(roundingSaturated: Double(sorted.count - 1) * fraction)))]
        }
        return Percentiles(p50: at(0.5), p95: at(0.95), p99: at(0.99), mean: sorted.reduce(0, +) / Double(sorted.count))
    }
}
