import CMicroHTTPD
import Foundation
import OwnThreads
import Synchronization

/// The threads that run every libmicrohttpd daemon of the process that has no thread of its own: a
/// fleet's receivers, its metrics endpoint, an origin, the servers of tests.
///
/// With a polling thread per daemon, a process of 1,000 receivers ran 1,000 threads that slept nearly
/// all the time. Here each loop thread waits on one epoll set holding the epoll sets of the daemons it
/// serves, and runs a daemon when its set is readable or its timeout has passed; the thread count is
/// the core count (up to four) whatever the number of servers. Each daemon stays on one thread, which
/// libmicrohttpd requires of a daemon run from outside, and a new one goes to the thread serving the
/// fewest.
final class ServerLoop: Sendable {
    static let shared = ServerLoop(threads: min(4, max(1, ProcessInfo.processInfo.activeProcessorCount)))

    private let threads: [LoopThread]

    private init(threads count: Int) {
        threads = (0..<count).map { LoopThread(index: $0) }
    }

    /// A place for `daemon` (started without a thread of its own) on the least busy thread; nothing runs
    /// it before `start`, so that its server can keep the registration first.
    func register(_ daemon: OpaquePointer) -> Registration {
        threads.min { $0.load < $1.load }!.register(daemon)
    }

    /// The least busy thread, for a connection front whose daemon has threads of its own.
    func leastBusyThread() -> LoopThread {
        threads.min { $0.load < $1.load }!
    }

    /// The thread runs the daemon from now until `remove` returns.
    func start(_ registration: Registration) {
        registration.thread.start(registration)
    }

    /// Returns once no thread will run the daemon again, so that it can be stopped. Never called from
    /// a loop thread (a server is not stopped from inside its own callbacks), which would wait for itself.
    func remove(_ registration: Registration) {
        registration.thread.remove(registration)
    }

    /// A daemon on a loop thread. Its deadline is touched only by that thread.
    final class Registration: @unchecked Sendable {
        let daemon: OpaquePointer
        let key: UInt64
        unowned let thread: LoopThread
        /// When the daemon must run even if its descriptors stay quiet (a connection's timeout).
        var deadline: ContinuousClock.Instant?

        init(daemon: OpaquePointer, key: UInt64, thread: LoopThread) {
            self.daemon = daemon
            self.key = key
            self.thread = thread
        }

        /// Has the thread run the daemon at its next pass: something changed that its descriptors do not
        /// show (a connection resumed, an upgraded one closed).
        func runSoon() {
            thread.runSoon(key)
        }
    }
}

/// One thread of the loop, with its epoll set. Additions and removals are queued under a lock and the
/// thread woken through an eventfd; everything else is the thread's alone.
final class LoopThread: @unchecked Sendable {
    private struct Pending {
        var additions: [ServerLoop.Registration] = []
        var removals: [(key: UInt64, done: DispatchSemaphore)] = []
        var runs: [UInt64] = []
        var work: [@Sendable () -> Void] = []
        var nextKey: UInt64 = 1
    }

    private let epoll: Int32
    private let wakeUp: Int32
    private let pending = Mutex(Pending())
    /// The daemons this thread serves, for choosing the least busy thread.
    private let count = Atomic(0)
    /// The thread's pthread id once it runs, to refuse a removal from the thread itself.
    private let runner = Atomic<UInt>(0)
    /// The key of the wake-up eventfd in the epoll set; daemons' keys start at 1.
    private static let wakeUpKey: UInt64 = 0

    // The thread's own state.
    private var daemons: [UInt64: ServerLoop.Registration] = [:]
    /// Descriptors of connection fronts (listening sockets, connections not yet handed over, relays), by
    /// key: their handler runs on this thread with what is ready (1: readable or closed, 2: writable).
    private var watchers: [UInt64: (UInt32) -> Void] = [:]
    /// Daemons whose last run left data to process: run again before waiting.
    private var runAgain: [ServerLoop.Registration] = []
    /// The earliest deadline of any daemon, nil when none has one.
    private var earliest: ContinuousClock.Instant?

    init(index: Int) {
        var wakeUp: Int32 = -1
        epoll = airlab_loop_create(&wakeUp)
        self.wakeUp = wakeUp
        precondition(epoll >= 0, "cannot create the HTTP server loop's epoll set: errno \(errno)")
        NamedThread.start("airlab.loop.\(index)") { [self] in run() }
    }

    var load: Int { count.load(ordering: .relaxed) }

    func register(_ daemon: OpaquePointer) -> ServerLoop.Registration {
        count.add(1, ordering: .relaxed)
        return pending.withLock { pending in
            defer { pending.nextKey += 1 }
            return ServerLoop.Registration(daemon: daemon, key: pending.nextKey, thread: self)
        }
    }

    func start(_ registration: ServerLoop.Registration) {
        pending.withLock { $0.additions.append(registration) }
        signal()
    }

    func remove(_ registration: ServerLoop.Registration) {
        precondition(runner.load(ordering: .relaxed) != UInt(pthread_self()), "a server stopped from its own loop thread would wait for itself")
        let done = DispatchSemaphore(value: 0)
        pending.withLock { $0.removals.append((registration.key, done)) }
        signal()
        done.wait()
        count.subtract(1, ordering: .relaxed)
    }

    func runSoon(_ key: UInt64) {
        let first = pending.withLock { pending in
            pending.runs.append(key)
            return pending.runs.count == 1
        }
        // One wake-up covers every run asked for before the thread takes the list.
        if first { signal() }
    }

    private func signal() {
        airlab_loop_signal(wakeUp)
    }

    /// Runs `work` on this thread at its next pass.
    func perform(_ work: @escaping @Sendable () -> Void) {
        pending.withLock { $0.work.append(work) }
        signal()
    }

    /// Whether the caller is this loop's thread, where `watch`, `rewatch` and `unwatch` may be called.
    var isCurrent: Bool { runner.load(ordering: .relaxed) == UInt(pthread_self()) }

    /// On the thread: watches `descriptor` until `unwatch`, calling `handler` with what is ready.
    func watch(_ descriptor: Int32, reading: Bool, writing: Bool, handler: @escaping (UInt32) -> Void) -> UInt64 {
        let key = pending.withLock { pending in
            defer { pending.nextKey += 1 }
            return pending.nextKey
        }
        watchers[key] = handler
        airlab_loop_watch_io(epoll, descriptor, key, reading, writing, true)
        return key
    }

    /// On the thread: changes what is watched for.
    func rewatch(_ key: UInt64, _ descriptor: Int32, reading: Bool, writing: Bool) {
        airlab_loop_watch_io(epoll, descriptor, key, reading, writing, false)
    }

    /// On the thread: stops watching, before the descriptor is closed.
    func unwatch(_ key: UInt64, _ descriptor: Int32) {
        watchers[key] = nil
        airlab_loop_unwatch(epoll, descriptor)
    }

    /// On the thread: runs the daemon of `registration` at this pass's end (a connection was added to it).
    func runAtOnce(_ registration: ServerLoop.Registration) {
        runAgain.append(registration)
    }

    // MARK: - On the thread

    private func run() {
        runner.store(UInt(pthread_self()), ordering: .relaxed)
        let capacity = 64
        let keys = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity)
        let events = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
        while true {
            let ready = airlab_loop_wait_events(epoll, keys, events, Int32(capacity), waitMilliseconds())
            for index in 0..<Int(ready) {
                let key = keys[index]
                if key == Self.wakeUpKey {
                    applyPending()
                } else if let registration = daemons[key] {
                    runDaemon(registration)
                } else if let watcher = watchers[key] {
                    watcher(events[index])
                }
            }
            let again = runAgain
            runAgain = []
            for registration in again where daemons[registration.key] != nil {
                runDaemon(registration)
            }
            if let earliest, earliest <= .now {
                runDaemonsPastDeadline()
            }
        }
    }

    /// 0 while a daemon has data left, until the earliest deadline otherwise, or for ever.
    private func waitMilliseconds() -> Int32 {
        guard runAgain.isEmpty else { return 0 }
        guard let earliest else { return -1 }
        let left = ContinuousClock.now.duration(to: earliest)
        guard left > .zero else { return 0 }
        let milliseconds = left.components.seconds * 1_000 + left.components.attoseconds / 1_000_000_000_000_000
        // Rounded up: waking a millisecond early would only find the deadline not yet passed.
        return Int32(clamping: milliseconds + 1)
    }

    private func applyPending() {
        airlab_loop_drain(wakeUp)
        let (additions, removals, runs, work) = pending.withLock { pending in
            defer {
                pending.additions = []
                pending.removals = []
                pending.runs = []
                pending.work = []
            }
            return (pending.additions, pending.removals, pending.runs, pending.work)
        }
        for item in work { item() }
        for registration in additions {
            daemons[registration.key] = registration
            airlab_loop_watch(epoll, airlab_mhd_epoll_fd(registration.daemon), registration.key, true)
            // A first run learns its timeout.
            runDaemon(registration)
        }
        for key in runs {
            if let registration = daemons[key] { runDaemon(registration) }
        }
        for removal in removals {
            if let registration = daemons.removeValue(forKey: removal.key) {
                airlab_loop_watch(epoll, airlab_mhd_epoll_fd(registration.daemon), registration.key, false)
            }
            removal.done.signal()
        }
    }

    private func runDaemon(_ registration: ServerLoop.Registration) {
        let next = airlab_mhd_run(registration.daemon)
        switch next {
        case 0:
            registration.deadline = nil
            runAgain.append(registration)
        case 1...:
            let deadline = ContinuousClock.now + .milliseconds(next)
            registration.deadline = deadline
            if earliest.map({ deadline < $0 }) ?? true { earliest = deadline }
        default:
            registration.deadline = nil
        }
    }

    /// Runs every daemon whose deadline has passed and finds the next earliest: a pass over this
    /// thread's daemons, made only when a deadline (seconds apart: connections' idle timeouts) passes.
    private func runDaemonsPastDeadline() {
        earliest = nil
        let now = ContinuousClock.now
        for registration in daemons.values {
            guard let deadline = registration.deadline else { continue }
            if deadline <= now {
                runDaemon(registration)
            } else if earliest.map({ deadline < $0 }) ?? true {
                earliest = deadline
            }
        }
    }
}
