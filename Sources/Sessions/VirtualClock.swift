import Synchronization

/// A clock whose time moves only from one alarm to the next, and only when nothing holds it.
///
/// `run()` fires the alarms earliest first (alarms set for one time in the order they were set), each
/// callback finishing before time moves on; while asynchronous work holds the clock (`hold()`), it
/// waits. The timeline is therefore the same on every run, however the work is scheduled.
public final class VirtualClock: PlaybackClock {
    private struct Alarm {
        var time: Double
        var order: UInt64
        var action: @Sendable () -> Void
    }

    private struct State {
        var now: Double
        var alarms: [UInt64: Alarm] = [:]
        var nextOrder: UInt64 = 0
        var holds = 0
        /// `run()`, waiting for the last hold to be released.
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state: Mutex<State>

    public init(now: Double = 0) {
        state = Mutex(State(now: now))
    }

    public var now: Double { state.withLock { $0.now } }

    public func schedule(at time: Double, _ action: @escaping @Sendable () -> Void) -> ClockAlarm {
        let order = state.withLock { state in
            defer { state.nextOrder += 1 }
            state.alarms[state.nextOrder] = Alarm(time: time, order: state.nextOrder, action: action)
            return state.nextOrder
        }
        return ClockAlarm { [weak self] in
            _ = self?.state.withLock { $0.alarms.removeValue(forKey: order) }
        }
    }

    public func hold() -> ClockHold {
        state.withLock { $0.holds += 1 }
        return ClockHold { [weak self] in self?.release() }
    }

    /// Whether an alarm is set or work holds the clock: whether `run()` has anything left to do.
    public var isIdle: Bool { state.withLock { $0.alarms.isEmpty && $0.holds == 0 } }

    /// Fires alarms until none is left, waiting out every hold.
    public func run() async {
        while fireUntilHeld() {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let released = state.withLock { state in
                    guard state.holds > 0 else { return true }
                    state.waiter = waiter
                    return false
                }
                if released { waiter.resume() }
            }
        }
    }

    /// Fires alarms, earliest first, until none is left or some work holds the clock; returns
    /// whether a hold stopped it. Work that never holds the clock runs to its end in this one call.
    @discardableResult
    public func fireUntilHeld() -> Bool {
        while true {
            let due: Alarm? = state.withLock { state in
                guard state.holds == 0, let earliest = state.alarms.values.min(by: { ($0.time, $0.order) < ($1.time, $1.order) }) else {
                    return nil
                }
                state.alarms[earliest.order] = nil
                state.now = max(state.now, earliest.time)
                return earliest
            }
            guard let due else { return state.withLock { $0.holds > 0 } }
            due.action()
        }
    }

    private func release() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.holds -= 1
            guard state.holds == 0 else { return nil }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }
}
