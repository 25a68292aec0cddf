import Dispatch
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
        // At most a day, so whole nanoseconds fit an Int.
        let wait = delay(until: time).components
        let alarm = PendingAlarm(item: DispatchWorkItem(block: action))
        Self.alarms.asyncAfter(
            deadline: .now() + .nanoseconds(Int(wait.seconds) * 1_000_000_000 + Int(wait.attoseconds / 1_000_000_000)),
            execute: alarm.item)
        return ClockAlarm { alarm.item.cancel() }
    }

    /// Where every real-time alarm of the process goes off: a serial queue, whose thread is libdispatch's
    /// own and never one of Swift concurrency's shared threads (two on two cores). An alarm set as an
    /// `async` sleep waited for a shared thread to wake it and ran the session's step on one, so work
    /// that held those threads (a probe, a large answer) delayed every receiver's timeline, and a busy
    /// timeline delayed every other async route. Alarms do short, non-blocking steps under a session
    /// lock, so one queue keeps up with a fleet.
    private static let alarms = DispatchQueue(label: "airlab.clock.alarms", qos: .userInitiated)

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

/// A work item waiting on the alarm queue. libdispatch makes `cancel()` safe from any thread; Swift on
/// Linux does not mark the class Sendable.
private struct PendingAlarm: @unchecked Sendable {
    let item: DispatchWorkItem
}
