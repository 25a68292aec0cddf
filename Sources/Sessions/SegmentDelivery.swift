import Playback
import Profiles
/// How a session's segment fetches are carried out (`--media verify|realtime`).
public enum SegmentDelivery: Sendable {
    /// On the session's clock through the profile's network model, from what was measured of each
    /// segment beforehand: `verify`, deterministic, on a virtual clock or a real one.
    case modelled(SegmentNetworkModel)
    /// As a recorded trace says, and through the model for what it does not hold.
    case replayed(FetchTrace, otherwise: SegmentNetworkModel)
    /// For real, against the origin, as the clock runs: `realtime`.
    case fetched(any SegmentFetcher)

    /// The report's name for the mode.
    public var mode: String {
        switch self {
        case .modelled: "verify"
        case .replayed: "replay"
        case .fetched: "realtime"
        }
    }
}

/// Fetches segments for real (`realtime`); the receiver implements it over its HTTP client.
public protocol SegmentFetcher: Sendable {
    /// Fetches `fetch`, stamping the timings with `sessionTime()`; a cancelled task gives up early.
    func fetch(_ fetch: SegmentFetch, sessionTime: @escaping @Sendable () -> Double) async -> FetchOutcome
}

/// A fetch's time on a modelled network: a round trip to ask, the origin's own time to first byte
/// (measured when the segment was fetched beforehand), and the bytes at the receiver's bandwidth,
/// with TCP's slow start on the first fetch of a connection (docs/simulate.md, "Fetching the media").
public struct SegmentNetworkModel: Sendable {
    /// What was measured of one segment (by URL) when it was fetched beforehand.
    public struct Measured: Sendable, Hashable {
        public var bytes: Int
        public var originFirstByteSeconds: Double
        /// Set when fetching it failed: every fetch of it fails the same way.
        public var failure: FetchFailure?

        public init(bytes: Int, originFirstByteSeconds: Double = 0, failure: FetchFailure? = nil) {
            self.bytes = bytes
            self.originFirstByteSeconds = originFirstByteSeconds
            self.failure = failure
        }
    }

    public var roundTripSeconds: Double
    public var bitsPerSecond: Double
    public var measured: [String: Measured]
    /// TCP's initial window (RFC 6928): ten segments of 1,460 bytes.
    static let initialWindowBytes = 14_600.0

    public init(roundTripSeconds: Double, bitsPerSecond: Double, measured: [String: Measured] = [:]) {
        self.roundTripSeconds = roundTripSeconds.isFinite ? max(0, roundTripSeconds) : 0
        self.bitsPerSecond = bitsPerSecond.isFinite && bitsPerSecond > 0 ? bitsPerSecond : 1e6
        self.measured = measured
    }

    /// The profile's network.
    public init(profile: ReceiverProfile, measured: [String: Measured] = [:]) {
        self.init(roundTripSeconds: profile.network.rttMilliseconds / 1000, bitsPerSecond: profile.network.bandwidthMbps * 1e6, measured: measured)
    }

    /// How `fetch` goes when it starts at its request time; `cold` adds a connection's set-up and slow start.
    public func outcome(of fetch: SegmentFetch, cold: Bool) -> FetchOutcome {
        let known = measured[fetch.segment.uri]
        let start = fetch.requestedAt
        let bytes = Double(max(0, known?.bytes ?? fetch.segment.bytes))
        let originWait = known.map { $0.originFirstByteSeconds.isFinite ? max(0, $0.originFirstByteSeconds) : 0 } ?? 0
        var firstByte = roundTripSeconds + originWait
        if cold { firstByte += roundTripSeconds }
        var transfer = bytes * 8 / bitsPerSecond
        if cold, bytes > Self.initialWindowBytes {
            // Each round trip of slow start doubles the window, from the initial one, until the bytes fit.
            var window = Self.initialWindowBytes
            var roundTrips = 0.0
            while window < bytes, roundTrips < 64 {
                window *= 2
                roundTrips += 1
            }
            transfer += roundTripSeconds * roundTrips
        }
        let timeout = fetch.timeout.isFinite && fetch.timeout > 0 ? fetch.timeout : .infinity
        if firstByte + transfer > timeout { return .failed(.timeout, at: start + timeout) }
        if let failure = known?.failure { return .failed(failure, at: start + firstByte) }
        return .loaded(FetchTiming(
            requestedAt: start, firstByteAt: start + firstByte, completedAt: start + firstByte + transfer, bytes: max(0, known?.bytes ?? fetch.segment.bytes), source: "modelled"))
    }
}
