import Foundation
import Synchronization

/// Something that may happen once, which any number of tasks can wait for: Ctrl-C for a command that
/// must tell its receivers to stop before it ends.
public final class Interruption: Sendable {
    private struct State {
        var happened = false
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state = Mutex(State())

    public init() {}

    public var hasHappened: Bool { state.withLock { $0.happened } }

    /// Marks it happened and wakes every waiter; later calls do nothing.
    public func happen() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.happened else { return [] }
            state.happened = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        waiters.forEach { $0.resume() }
    }

    /// Returns once it has happened, or when the waiting task is cancelled.
    public func wait() async {
        let id = state.withLock { state -> UInt64 in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    if state.happened || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume()
        }
    }

    /// An interruption that happens on SIGINT; a second SIGINT ends the process at once (status 130),
    /// for a user whose receiver does not answer the stop.
    ///
    /// A plain signal handler writes to a pipe that a thread of its own waits on: a handler runs on
    /// whichever thread the kernel picks and may do little more than `write` and `_exit`, which is
    /// also what the second Ctrl-C needs.
    public static func onInterruptSignal() -> Interruption {
        let interruption = Interruption()
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return interruption }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        interruptPipeWriteEnd = ends[1]
        unblockTerminationSignals()
        signal(SIGINT) { _ in
            interruptsReceived += 1
            if interruptsReceived > 1 { _exit(130) }
            var byte: UInt8 = 1
            _ = write(interruptPipeWriteEnd, &byte, 1)
        }
        let readEnd = ends[0]
        Thread {
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) < 0 && errno == EINTR {}
            interruption.happen()
        }.start()
        return interruption
    }

    /// Unblocks SIGINT and SIGTERM in the calling thread, which inherited its mask from whoever started
    /// the process (a program spawning from one of libdispatch's threads passes SIGTERM blocked), so
    /// that at least one thread takes the signal.
    public static func unblockTerminationSignals() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }
}

/// Written by the SIGINT handler, which can reach nothing but globals; set before it is installed.
nonisolated(unsafe) private var interruptPipeWriteEnd: Int32 = -1
nonisolated(unsafe) private var interruptsReceived = 0
