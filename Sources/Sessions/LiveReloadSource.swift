import HLS
import Playback

/// Where a live session's next plan comes from: reloading the media playlist and planning it again
/// (Casting's `PlayingCast`). The session driver calls it every `reloadInterval` of session time, one
/// reload at a time, and holds its clock while one is outstanding.
public protocol LiveReloadSource: Sendable {
    /// Session seconds between reloads (a live playlist's target duration); nil for content that does
    /// not reload.
    var reloadInterval: Double? { get }
    /// Reloads and plans again. A failure leaves the session on the plan it has, as a player keeps
    /// playing the window it has.
    func reload() async -> ReloadOutcome
}

/// A plan made again (a live reload, the sender's changed client events), with what making it noticed.
public struct PlanRevision: Sendable {
    public var plan: PlaybackPlan
    public var diagnostics: [Diagnostic]

    public init(plan: PlaybackPlan, diagnostics: [Diagnostic] = []) {
        self.plan = plan
        self.diagnostics = diagnostics
    }
}

/// What one reload came to.
public enum ReloadOutcome: Sendable {
    case revised(PlanRevision)
    /// The reload failed, for this reason (it goes into the session report's errors).
    case failed(reason: String)
}
