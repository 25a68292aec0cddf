import Foundation
import OwnThreads

/// One thread for every server of the process that closes connections past their request deadline or
/// whose peer has gone, and writes the comment lines that keep event streams alive.
///
/// A thread rather than Dispatch timers: libdispatch on Linux grows its pool about once a second when
/// blocking work (probes, fetches) keeps it busy, which would let deadlines slip by seconds. One for the
/// process rather than one per server: a fleet of 1,000 receivers kept 1,000 sweeping threads that
/// slept in a loop. It ticks at the shortest sweep interval any server asks for and sweeps each server
/// whose own interval has passed; a server with no connection costs a lock a tick.
final class ServerSweeper: @unchecked Sendable {
    static let shared = ServerSweeper()

    private struct Entry {
        weak var core: ServerCore?
        let sweepEvery: Duration
        var nextSweep: ContinuousClock.Instant
        let heartbeatEvery: Duration
        var nextHeartbeat: ContinuousClock.Instant
    }

    private let condition = NSCondition()
    private var entries: [ObjectIdentifier: Entry] = [:]
    private var started = false

    /// Sweeps `core` every `sweepEvery` and sends its heartbeats every `heartbeatEvery` until `remove`.
    func add(_ core: ServerCore, sweepEvery: Duration, heartbeatEvery: Duration) {
        let now = ContinuousClock.now
        condition.lock()
        defer { condition.unlock() }
        entries[ObjectIdentifier(core)] = Entry(
            core: core, sweepEvery: sweepEvery, nextSweep: now + sweepEvery, heartbeatEvery: heartbeatEvery,
            nextHeartbeat: now + heartbeatEvery)
        if !started {
            started = true
            NamedThread.start("airlab.sweep") { [self] in run() }
        }
        condition.signal()
    }

    func remove(_ core: ServerCore) {
        condition.lock()
        defer { condition.unlock() }
        entries[ObjectIdentifier(core)] = nil
    }

    private func run() {
        while true {
            let (sweeps, heartbeats) = waitForWork()
            for core in sweeps { core.sweepConnections() }
            for core in heartbeats { core.sendHeartbeats() }
        }
    }

    /// Sleeps a tick (or until a server is added) and takes the servers due, strongly held for the work.
    private func waitForWork() -> (sweeps: [ServerCore], heartbeats: [ServerCore]) {
        condition.lock()
        defer { condition.unlock() }
        while entries.isEmpty { condition.wait() }
        let tick = entries.values.lazy.map(\.sweepEvery).min() ?? .milliseconds(250)
        _ = condition.wait(until: Date(timeIntervalSinceNow: tick / .seconds(1)))
        let now = ContinuousClock.now
        var sweeps: [ServerCore] = []
        var heartbeats: [ServerCore] = []
        for (key, entry) in entries {
            guard let core = entry.core else {
                entries[key] = nil
                continue
            }
            if entry.nextSweep <= now {
                sweeps.append(core)
                entries[key]?.nextSweep = now + entry.sweepEvery
            }
            if entry.nextHeartbeat <= now {
                heartbeats.append(core)
                entries[key]?.nextHeartbeat = now + entry.heartbeatEvery
            }
        }
        return (sweeps, heartbeats)
    }
}
