import HLS

/// How much of a served body goes out when: the pure part of the origin's body faults.
///
/// The owner asks `next(capacity:elapsed:)` whenever the connection can take bytes, with the time since
/// the body's first request for bytes, sends what it is told and reports it with `sent(_:)`. Pacing
/// counts from the first byte and leaves a stall's time out, so a stalled body does not burst to catch
/// up afterwards.
public struct BodyDelivery: Sendable, Equatable {
    public enum Step: Sendable, Equatable {
        /// Send this many bytes (at least 1) from offset `sent`.
        case send(Int)
        case wait(Duration)
        case end
        /// Close the connection: the headers promised bytes that will not come.
        case abort
        /// Reset the connection (TCP RST).
        case reset
    }

    /// The bytes there are to serve.
    public let size: Int
    public let faults: BodyFaults
    public private(set) var sentBytes = 0
    private var stalled: Duration = .zero
    private var stallTaken = false

    /// A paced body waits until at least this long's worth of bytes may go, so it is woken about 50
    /// times a second rather than for every byte.
    static let pacingQuantum = 0.02

    public init(size: Int, faults: BodyFaults = BodyFaults()) {
        self.size = max(0, size)
        self.faults = faults
    }

    /// The `Content-Length` to declare.
    public var declaredLength: Int {
        max(0, size + (faults.contentLengthError ?? 0))
    }

    /// Where the body stops, and the step that stops it (`end`, `abort` or `reset`): the earliest of
    /// its end, its declared length, a truncation and a reset (a reset wins a tie: it is the harsher fault).
    private var stop: (bytes: Int, ending: Step) {
        var stop = (bytes: size, ending: declaredLength > size ? Step.abort : .end)
        if declaredLength < stop.bytes { stop = (declaredLength, .end) }
        if let truncate = faults.truncateAfterBytes, truncate < stop.bytes || (truncate == stop.bytes && stop.ending == .end) {
            stop = (truncate, .abort)
        }
        if let reset = faults.resetAfterBytes, reset <= stop.bytes { stop = (reset, .reset) }
        return stop
    }

    public mutating func next(capacity: Int, elapsed: Duration) -> Step {
        let stop = stop
        guard sentBytes < stop.bytes else { return stop.ending }
        var allowed = min(max(1, capacity), stop.bytes - sentBytes)
        if let stall = faults.stall, !stallTaken, stall.afterBytes < stop.bytes {
            if sentBytes >= stall.afterBytes {
                stallTaken = true
                stalled = stall.duration
                return .wait(stall.duration)
            }
            allowed = min(allowed, stall.afterBytes - sentBytes)
        }
        if let rate = faults.paceBytesPerSecond {
            let seconds = Self.seconds(elapsed - stalled)
            let budget = Int(saturating: Double(rate) * seconds) - sentBytes
            if budget <= 0 {
                let wanted = min(stop.bytes - sentBytes, max(1, Int(saturating: Double(rate) * Self.pacingQuantum)))
                let due = Double(sentBytes + wanted) / Double(rate) - seconds
                return .wait(.microseconds(max(1_000, Int(saturating: due * 1e6))))
            }
            allowed = min(allowed, budget)
        }
        return .send(allowed)
    }

    public mutating func sent(_ count: Int) {
        sentBytes += max(0, count)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
