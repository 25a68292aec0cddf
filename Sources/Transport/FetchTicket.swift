import Synchronization

/// One fetch's standing towards cancellation: a cancellation before the submission ends it at the
/// submission, one after it reaches the loop, which knows the transfer by then.
///
/// Lock order: this lock before the loop's `incoming` lock.
final class FetchTicket: Sendable {
    private enum Phase { case new, submitted, cancelledEarly }

    let id: UInt64
    private let phase = Mutex(Phase.new)

    init(_ id: UInt64) {
        self.id = id
    }

    func submit(_ submission: Submission, to core: TransferLoopCore, completion: @escaping @Sendable (TransferResult) -> Void) {
        let cancelled = phase.withLock { phase -> Bool in
            guard phase == .new else { return true }
            phase = .submitted
            core.submit(submission, ticket: id, completion: completion)
            return false
        }
        if cancelled { completion(TransferLoopCore.result(of: submission.request, error: .cancelled, sent: .now)) }
    }

    func cancel(in core: TransferLoopCore) {
        phase.withLock { phase in
            if phase == .submitted { core.cancel(id) } else { phase = .cancelledEarly }
        }
    }
}
