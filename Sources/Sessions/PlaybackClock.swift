import Synchronization

/// The time sessions run on, and the one way they wait for it: an alarm set at a time.
///
/// The daemon's clock is real time (sped up with `--time-scale`, `ScaledClock`); `airlab simulate` and
/// the tests use a `VirtualClock`, which jumps from one alarm to the next, so a two-hour stream
/// simulates in milliseconds and no test ever sleeps. Waiting is an alarm that calls back rather than
/// an `async` sleep: the callback runs before a virtual clock moves on, so what it does (and the alarms
/// it sets) can never race the clock, which is what keeps a virtual timeline deterministic.
public protocol PlaybackClock: Sendable {
    /// Seconds since the clock started.
    var now: Double { get }
    /// Calls `action` once the clock reads `time` or later (soon, if it already does), unless the
    /// alarm is cancelled first.
    func schedule(at time: Double, _ action: @escaping @Sendable () -> Void) -> ClockAlarm
    /// Asynchronous work the timeline must wait for (a live reload's fetch): a virtual clock does not
    /// move until every hold is released; a real clock moves on regardless.
    func hold() -> ClockHold
}

/// An alarm set on a clock; `cancel()` keeps it from going off if it has not yet.
public struct ClockAlarm: Sendable {
    private let cancellation: @Sendable () -> Void

    public init(cancel: @escaping @Sendable () -> Void) {
        cancellation = cancel
    }

    public func cancel() {
        cancellation()
    }
}

/// Work a clock waits for, until `release()` (which only the first call does).
public final class ClockHold: Sendable {
    private let releasing: Mutex<(@Sendable () -> Void)?>

    public init(release: @escaping @Sendable () -> Void) {
        releasing = Mutex(release)
    }

    /// A hold that nothing waits for (a real clock's).
    public static var none: ClockHold { ClockHold {} }

    public func release() {
        let action = releasing.withLock { action in
            defer { action = nil }
            return action
        }
        action?()
    }
}
