/// Where a transfer's time went after its first byte: waiting for data the client was ready to take
/// (origin-limited: its bucket had tokens), or holding back data it was not (receiver-limited: the
/// bucket was empty and the transfer paused).
///
/// Pure: the owner reports data, pauses and resumes with its monotonic clock in seconds. Without
/// pacing a transfer never pauses, so all its time after the first byte is origin-limited: with own
/// pacing a throughput equal to the profile's rate says nothing, and this split is the honest signal.
public struct PacingLedger: Sendable, Equatable {
    private enum Phase: Sendable, Equatable {
        case beforeFirstByte
        case receiving(since: Double)
        case paused(since: Double)
    }

    private var phase = Phase.beforeFirstByte
    public private(set) var originLimitedSeconds = 0.0
    public private(set) var receiverLimitedSeconds = 0.0

    public init() {}

    /// The response's first byte (its status line) arrived.
    public mutating func firstByte(at now: Double) {
        if case .beforeFirstByte = phase { phase = .receiving(since: now) }
    }

    /// Body bytes were taken.
    public mutating func data(at now: Double) {
        guard phase != .beforeFirstByte else { return }
        closeInterval(at: now)
        phase = .receiving(since: now)
    }

    /// Bytes arrived that the bucket could not take: the transfer pauses.
    public mutating func paused(at now: Double) {
        guard phase != .beforeFirstByte else { return }
        closeInterval(at: now)
        phase = .paused(since: now)
    }

    public mutating func resumed(at now: Double) {
        guard phase != .beforeFirstByte else { return }
        closeInterval(at: now)
        phase = .receiving(since: now)
    }

    /// The transfer ended: the open interval counts.
    public mutating func finished(at now: Double) {
        closeInterval(at: now)
        phase = .beforeFirstByte
    }

    private mutating func closeInterval(at now: Double) {
        switch phase {
        case .beforeFirstByte: break
        case .receiving(let since): originLimitedSeconds += max(0, now - since)
        case .paused(let since): receiverLimitedSeconds += max(0, now - since)
        }
    }
}
