import Playback
/// Everything a session driver needs to play one session besides its clock: the plan, the scripted
/// sender, the recorder, when to stop on its own, and where live reloads come from.
public struct SessionSetup: Sendable {
    /// A time on the session's clock at which the session ends, whatever it plays, for this reason.
    public struct Horizon: Sendable, Hashable {
        public var time: Double
        public var reason: String

        public init(time: Double, reason: String) {
            self.time = time
            self.reason = reason
        }
    }

    public var plan: PlaybackPlan
    /// The primary position to start at (nil: the start of the content).
    public var startPosition: Double?
    public var script: SenderScript
    public var recorder: SessionRecorder
    public var horizon: Horizon?
    /// Ends a session that has nothing left to happen (no deadline, step or reload) with this reason;
    /// nil leaves it waiting for commands, as a receiver does.
    public var idleEndReason: String?
    public var reloads: (any LiveReloadSource)?
    /// How segment fetches are carried out, when the plan fetches segments; nil with a plan that
    /// does leaves every fetch unanswered (the session stalls).
    public var delivery: SegmentDelivery?

    public init(
        plan: PlaybackPlan, startPosition: Double? = nil, script: SenderScript = SenderScript(), recorder: SessionRecorder,
        horizon: Horizon? = nil, idleEndReason: String? = nil, reloads: (any LiveReloadSource)? = nil, delivery: SegmentDelivery? = nil
    ) {
        self.delivery = delivery
        self.plan = plan
        self.startPosition = startPosition
        self.script = script
        self.recorder = recorder
        self.horizon = horizon
        self.idleEndReason = idleEndReason
        self.reloads = reloads
    }
}

/// What the owner of a session does with its outputs. The driver calls these after releasing its
/// lock, one at a time per session and in the order the outputs arose; for the batch that ends the
/// session: `store`, then `publish`, then `ended`, so a report is kept before anyone hears of the end.
///
/// A callback may read any session and command any session (a command to the session being delivered
/// is delivered right after the callback returns); it must not subscribe (`withCurrentState`) to the
/// session whose output it is handling.
public struct SessionCallbacks: Sendable {
    public var publish: @Sendable ([PlaybackEvent]) -> Void
    public var store: @Sendable (SessionReport) -> Void
    /// The fetch trace of a session that fetched segments, once it has ended: just before `store`.
    public var fetches: @Sendable (FetchTrace) -> Void
    public var ended: @Sendable () -> Void

    public init(
        publish: @escaping @Sendable ([PlaybackEvent]) -> Void = { _ in }, store: @escaping @Sendable (SessionReport) -> Void = { _ in },
        fetches: @escaping @Sendable (FetchTrace) -> Void = { _ in }, ended: @escaping @Sendable () -> Void = {}
    ) {
        self.publish = publish
        self.store = store
        self.fetches = fetches
        self.ended = ended
    }
}
