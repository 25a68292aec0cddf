import Playback
import Synchronization

/// One session's outputs on their way to its owner, in the order they arose.
///
/// The driver queues outputs while it holds its lock (so two threads' outputs queue in the order they
/// happened) and delivers them after releasing it, one deliverer at a time (`turn`). A subscriber
/// takes the turn too, hands over what was queued before its snapshot, and subscribes before anything
/// later can be delivered: it hears a snapshot and then every later event, none twice, none lost.
final class SessionOutbox: Sendable {
    enum Output: Sendable {
        case publish([PlaybackEvent])
        /// The final report, and the fetch trace of a session that fetched segments.
        case store(SessionReport, FetchTrace?)
        case ended
    }

    let callbacks: SessionCallbacks
    private let queue = Mutex<[Output]>([])
    private let turn = Mutex(())

    /// The outboxes the current thread is delivering, so that a callback that commands its own
    /// session queues the outputs for the delivery under way instead of waiting for itself.
    @TaskLocal private static var delivering: Set<ObjectIdentifier> = []

    init(callbacks: SessionCallbacks) {
        self.callbacks = callbacks
    }

    /// Queues an output; call with the driver's lock held.
    func enqueue(_ output: Output) {
        queue.withLock { queue in
            if case .publish(let events) = output, case .publish(let earlier)? = queue.last {
                queue[queue.count - 1] = .publish(earlier + events)
            } else {
                queue.append(output)
            }
        }
    }

    /// Hands everything queued to the owner; call with no lock held. Returns once it is delivered
    /// (by this call or by the one that had the turn), unless called from one of this outbox's callbacks.
    func deliver() {
        guard !Self.delivering.contains(ObjectIdentifier(self)) else { return }
        turn.withLock { _ in
            Self.$delivering.withValue(Self.delivering.union([ObjectIdentifier(self)])) {
                while true {
                    let batch = take()
                    guard !batch.isEmpty else { break }
                    batch.forEach(perform)
                }
            }
        }
    }

    /// Runs `subscribe` in delivery order: after everything `snapshot` (taken with the driver's lock
    /// held) already reflects has been delivered, before anything later is.
    func subscribe<T>(snapshot: () -> (state: (PlaybackEngine, Bool), queued: [Output]), _ subscribe: ((PlaybackEngine, Bool)) -> T) -> T {
        var result: T?
        turn.withLock { _ in
            Self.$delivering.withValue(Self.delivering.union([ObjectIdentifier(self)])) {
                let taken = snapshot()
                taken.queued.forEach(perform)
                result = subscribe(taken.state)
            }
        }
        // The closure above ran exactly once.
        return result!
    }

    /// What is queued, removed from the queue; call with the driver's lock held to pair it with a snapshot.
    func take() -> [Output] {
        queue.withLock { queue in
            defer { queue.removeAll() }
            return queue
        }
    }

    private func perform(_ output: Output) {
        switch output {
        case .publish(let events): callbacks.publish(events)
        case .store(let report, let trace):
            if let trace { callbacks.fetches(trace) }
            callbacks.store(report)
        case .ended: callbacks.ended()
        }
    }
}
