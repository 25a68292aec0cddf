import HLS
import Profiles
import Sessions
import Synchronization

/// A cast as it plays on one receiver: what its plan was made from, which a live reload and the
/// sender's changed wishes make again. The one place either is done, for `airlab simulate` and
/// `airlabd` alike; the session driver calls `reload()` and adopts what it returns.
public final class PlayingCast: LiveReloadSource {
    public let planner: CastPlanner
    public let profile: ReceiverProfile
    public let seed: UInt64
    public let reloadInterval: Double?

    private struct State {
        var prepared: PreparedCast
        var window = LiveWindow()
    }

    private let state: Mutex<State>

    /// - Parameter cast: the plan made from `prepared` for this receiver.
    public init(prepared: PreparedCast, cast: CastPlan, planner: CastPlanner) {
        self.planner = planner
        profile = cast.profile
        seed = cast.seed
        var initial = State(prepared: prepared)
        if cast.plan.isLive { initial.prepared.media = initial.window.absorb(prepared.media).playlist }
        // A live playlist is reloaded every target duration, as a player does.
        let interval = prepared.media.targetDuration ?? 0
        reloadInterval = cast.plan.isLive && interval.isFinite && interval > 0 ? interval : nil
        state = Mutex(initial)
    }

    public var prepared: PreparedCast { state.withLock { $0.prepared } }

    public var request: CastRequest { state.withLock { $0.prepared.request } }

    /// Reloads the media playlist (positions carried over by the window, date ranges merged, new assets
    /// resolved) and plans it again.
    public func reload() async -> ReloadOutcome {
        let (prepared, window) = state.withLock { ($0.prepared, $0.window) }
        var moved = window
        do throws(CastError) {
            let reloaded = try await planner.reload(prepared, window: &moved)
            let cast = try await planner.plan(reloaded, profile: profile, seed: seed)
            state.withLock { state in
                state.prepared = reloaded
                state.window = moved
            }
            return .revised(PlanRevision(plan: cast.plan, diagnostics: reloaded.diagnostics))
        } catch {
            return .failed(reason: error.reason)
        }
    }

    /// Plans the cast again with the sender's changed wishes (client events, automatic handling).
    public func change(_ update: (CastRequest) -> CastRequest) async throws(CastError) -> PlanRevision {
        let prepared = state.withLock { $0.prepared }
        let changed = try await planner.reapply(update(prepared.request), to: prepared)
        let cast = try await planner.plan(changed, profile: profile, seed: seed)
        state.withLock { state in
            // Only what the change made: a live reload meanwhile may have moved the media on.
            state.prepared.request = changed.request
            state.prepared.events = changed.events
            state.prepared.resolution = changed.resolution
        }
        return PlanRevision(plan: cast.plan, diagnostics: changed.diagnostics)
    }
}
