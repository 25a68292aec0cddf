/// Plays one plan on a virtual clock from the cast to the end, applying a scripted sender.
///
/// The clock jumps from one thing that happens to the next (a deadline of the engine, a step of the
/// script), so the run costs what the events cost, not what the content lasts.
public struct Simulation: Sendable {
    public var plan: PlaybackPlan
    public var script: SenderScript
    public var startPosition: Double?
    /// Where a live simulation stops (live content has no end); VOD runs to its end.
    public var until: Double?

    public init(plan: PlaybackPlan, script: SenderScript = SenderScript(), startPosition: Double? = nil, until: Double? = nil) {
        self.plan = plan
        self.script = script
        self.startPosition = startPosition
        self.until = until
    }

    /// Runs the session, feeding every event to `recorder`; returns the engine as it finished.
    @discardableResult
    public func run(recording recorder: inout SessionRecorder) -> PlaybackEngine {
        var clock = ManualClock()
        var engine = PlaybackEngine(plan: plan, now: clock.now)
        recorder.record(engine.handle(.play(from: startPosition), at: clock.now))
        var steps = script.steps[...]
        // A safety net against a plan that never ends (a live plan without `until`).
        let horizon = until ?? (plan.isLive ? 86_400 : .infinity)
        while engine.isActive {
            let nextStep = steps.first?.time ?? .infinity
            let nextDeadline = engine.nextDeadline ?? .infinity
            let next = min(nextStep, nextDeadline, horizon)
            guard next.isFinite else { break }
            clock.advance(to: next)
            if next == horizon && next < min(nextStep, nextDeadline) {
                recorder.record(engine.advance(to: clock.now))
                recorder.record(engine.end(reason: "the simulation reached --until \(PlaybackCommand.format(horizon))"))
                break
            }
            if nextStep <= nextDeadline, let step = steps.popFirst() {
                recorder.record(engine.handle(step.command, at: clock.now))
            } else {
                recorder.record(engine.advance(to: clock.now))
            }
        }
        if engine.isActive {
            recorder.record(engine.end(reason: "the sender's script ended with nothing left to happen (paused)"))
        }
        return engine
    }
}
