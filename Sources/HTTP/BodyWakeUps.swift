import Foundation
import OwnThreads
import Synchronization

/// Runs short actions at deadlines on one thread of its own: the resumes of connections whose streamed
/// body asked to wait (pacing, stalls).
///
/// A thread rather than Dispatch timers: libdispatch on Linux grows its pool about once a second when
/// blocking work keeps it busy, which would let a pacing wake-up slip by as much. The thread starts with
/// the first wait any server asks for and stays for the process, asleep while nothing waits.
final class BodyWakeUps: @unchecked Sendable {
    static let shared = BodyWakeUps()

    private struct Alarm {
        let deadline: ContinuousClock.Instant
        let action: @Sendable () -> Void
    }

    /// Sorted by deadline, earliest first; inserted in place, so a few hundred waiting bodies cost little.
    private var alarms: [Alarm] = []
    private let condition = NSCondition()
    private var started = false

    /// Calls `action` on the wake-up thread once `delay` has passed; it must not block.
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) {
        let alarm = Alarm(deadline: .now + max(delay, .zero), action: action)
        condition.lock()
        defer { condition.unlock() }
        let index = alarms.firstIndex { $0.deadline > alarm.deadline } ?? alarms.endIndex
        alarms.insert(alarm, at: index)
        if !started {
            started = true
            NamedThread.start("airlab.wake-ups") { [self] in run() }
        }
        condition.signal()
    }

    private func run() {
        while true {
            condition.lock()
            var due: [Alarm] = []
            while due.isEmpty {
                guard let first = alarms.first else {
                    condition.wait()
                    continue
                }
                let now = ContinuousClock.now
                if first.deadline <= now {
                    let count = alarms.firstIndex { $0.deadline > now } ?? alarms.endIndex
                    due = Array(alarms[..<count])
                    alarms.removeFirst(count)
                } else {
                    let remaining = now.duration(to: first.deadline)
                    _ = condition.wait(until: Date(timeIntervalSinceNow: remaining / .seconds(1)))
                }
            }
            condition.unlock()
            for alarm in due { alarm.action() }
        }
    }
}
