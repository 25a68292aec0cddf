/// Real time since the clock started, sped up by a scale (`airlabd --time-scale`) so that a lab can
/// play an hour of content in minutes.
public struct ScaledClock: PlaybackClock {
    public let origin: ContinuousClock.Instant
    /// Clock seconds per real second.
    public let scale: Double

    /// - Parameter scale: a positive, finite number; anything else runs at real time.
    public init(scale: Double, origin: ContinuousClock.Instant = .now) {
        self.scale = scale.isFinite && scale > 0 ? scale : 1
        self.origin = origin
    }

    public var now: Double {
        let elapsed = ContinuousClock.now - origin
        return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18) * scale
    }

    public func schedule(at time: Double, _ action: @escaping @Sendable () -> Void) -> ClockAlarm {
        let delay = delay(until: time)
        let task = Task {
            try? await Task.sleep(for: delay)
            guard !Task.isCancelled else { return }
            action()
        }
        return ClockAlarm { task.cancel() }
    }

    /// Real time moves on whatever is outstanding.
    public func hold() -> ClockHold { .none }

    /// The real time to wait until the clock reads `time`: rounded up to whole nanoseconds, so an
    /// alarm never goes off before its time, and at most a day (an alarm that wakes early is set again).
    func delay(until time: Double) -> Duration {
        let seconds = (time - now) / scale
        guard seconds.isFinite, seconds > 0 else { return seconds.isNaN || seconds <= 0 ? .zero : .seconds(86_400) }
        return .nanoseconds(Int64((min(seconds, 86_400) * 1e9).rounded(.up)))
    }
}
