/// A token bucket in bytes: what paces one client's downloads to its rate, whatever number of transfers
/// it runs at once.
///
/// Pure: times are seconds on the caller's monotonic clock. A chunk is taken whole while any token is
/// left, which may leave the bucket in debt; the debt is repaid before the next chunk. libcurl hands
/// its data over in chunks it will only take back whole, so this is what lets a chunk larger than the
/// burst go at all, and over time the rate is kept exactly.
public struct TokenBucket: Sendable, Equatable {
    /// Bytes per second.
    public let rate: Double
    /// The most tokens that gather while nothing is read, which bounds a burst after a pause.
    public let burst: Double
    public private(set) var tokens: Double
    private var updated: Double

    /// - Parameters:
    ///   - rate: bytes per second, above 0 (the caller range-checks it).
    ///   - burst: bytes; at least 1.
    ///   - now: the caller's clock, in seconds.
    public init(rate: Double, burst: Double, now: Double) {
        self.rate = max(rate, 1)
        self.burst = max(burst, 1)
        tokens = self.burst
        updated = now
    }

    /// The burst a rate gets by default: 20 ms of it, at least one libcurl chunk (16 KiB).
    public static func defaultBurst(rate: Double) -> Double {
        max(16_384, rate * 0.02)
    }

    private mutating func refill(now: Double) {
        guard now > updated else { return }
        tokens = min(burst, tokens + rate * (now - updated))
        updated = now
    }

    /// Takes `count` bytes' worth when any token is left; false means wait `delay(now:)` and try again.
    public mutating func take(_ count: Int, now: Double) -> Bool {
        refill(now: now)
        guard tokens > 0 else { return false }
        tokens -= Double(max(0, count))
        return true
    }

    /// Seconds until a token is left; 0 when one is now.
    public mutating func delay(now: Double) -> Double {
        refill(now: now)
        return tokens > 0 ? 0 : (-tokens + 1) / rate
    }
}
