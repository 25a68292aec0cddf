import Synchronization

/// The bytes that all reads in progress may hold at once, across concurrent loads.
///
/// Each read has its own cap (a playlist 64 MiB, an asset list 1 MiB, a segment the probe's limit),
/// but a resolver fetching four assets at a time, or a daemon planning casts for a fleet, runs many
/// reads together: four endless bodies at 64 MiB each must not add up to what a machine can hold.
/// A read reserves from this budget as its bytes arrive and gives them back when it hands them over
/// or drops them, so small reads never wait on the caps of large ones.
///
/// A read that needs more than is free **fails at once** (`LoadingError.Reason.memoryBudgetExhausted`);
/// it never waits. A read cannot give back bytes it is still filling, so two half-full reads waiting
/// for each other would never move: failing is what keeps the budget free of deadlock. The exception
/// is a read that is alone: when nothing else holds bytes it may always go on, up to its own cap, so a
/// cap larger than the budget still works one read at a time.
public final class LoadMemoryBudget: Sendable {
    /// Twice the largest per-read cap (a playlist's 64 MiB): two of the largest reads at once, or any
    /// number of ordinary ones, and far below what a small machine holds.
    public static let defaultLimit = 128 << 20
    /// The one budget every loader of the process shares unless it is given its own: a receiver's
    /// planner and prober, or an inspection's resolver, draw on the same bytes.
    public static let shared = LoadMemoryBudget(limit: defaultLimit)

    private struct Account {
        var held = 0
        var peak = 0
    }

    /// The most bytes reads may hold at once (a lone read may pass it, up to its own cap).
    public let limit: Int
    private let account = Mutex(Account())

    /// - Parameter limit: bytes, at least 1.
    public init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Takes `count` more bytes for a read that already holds `holding`; false when they do not fit
    /// and another read holds bytes too.
    func reserve(_ count: Int, holding: Int) -> Bool {
        account.withLock { account in
            let others = account.held - holding
            guard account.held <= limit - count || others <= 0 else { return false }
            account.held += count
            account.peak = max(account.peak, account.held)
            return true
        }
    }

    /// Gives back bytes a read has handed over or dropped.
    func release(_ count: Int) {
        guard count > 0 else { return }
        account.withLock { $0.held = max(0, $0.held - count) }
    }

    /// Bytes reads hold now.
    var held: Int { account.withLock(\.held) }

    /// The most bytes held at once since the budget was made: what tests check against `limit`.
    var peak: Int { account.withLock(\.peak) }
}
