import Dispatch
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

    /// An interruption that happens on SIGINT. The signal's default action (ending the process) is
    /// replaced for the rest of the process's life.
    public static func onInterruptSignal() -> Interruption {
        let interruption = Interruption()
        unblockTerminationSignals()
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { interruption.happen() }
        source.resume()
        signalSources.withLock { $0.append(SignalSource(source)) }
        return interruption
    }

    /// Unblocks SIGINT and SIGTERM in the calling thread, which inherited its mask from whoever started
    /// the process (a program spawning from one of libdispatch's threads passes SIGTERM blocked).
    /// Call it first thing on the main thread, before other threads exist to inherit the mask.
    public static func unblockTerminationSignals() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
    }

    /// Dispatch sources live only while referenced; these live as long as the process.
    private static let signalSources = Mutex<[SignalSource]>([])
}

private final class SignalSource: @unchecked Sendable {
    let source: any DispatchSourceSignal
    init(_ source: any DispatchSourceSignal) { self.source = source }
}
