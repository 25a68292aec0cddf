import HLS

/// Plays one plan on a virtual clock from the cast to the end, applying a scripted sender.
///
/// The clock jumps from one thing that happens to the next (a deadline of the engine, a step of the
/// script), so the run costs what the events cost, not what the content lasts. A live run can also
/// stop the clock at outside deadlines (playlist reloads) through `run(until:)` and `update(_:)`.
public struct Simulation: Sendable {
    public private(set) var engine: PlaybackEngine
    public private(set) var recorder: SessionRecorder
    private var clock = ManualClock()
    private var steps: ArraySlice<SenderScript.Step>
    /// Where the session stops at the latest: `until`, or for live content without one a day.
    public let horizon: Double
    private let until: Double?

    public init(plan: PlaybackPlan, script: SenderScript = SenderScript(), startPosition: Double? = nil, until: Double? = nil, recorder: SessionRecorder) {
        engine = PlaybackEngine(plan: plan, now: 0)
        self.recorder = recorder
        steps = script.steps[...]
        self.until = until
        horizon = until ?? (plan.isLive ? 86_400 : .infinity)
        self.recorder.record(engine.handle(.play(from: startPosition), at: 0))
    }

    /// Plays the whole session and returns its report.
    public static func report(
        plan: PlaybackPlan, script: SenderScript = SenderScript(), startPosition: Double? = nil, until: Double? = nil,
        recorder: SessionRecorder
    ) -> SessionReport {
        var simulation = Simulation(plan: plan, script: script, startPosition: startPosition, until: until, recorder: recorder)
        simulation.run(until: .infinity)
        return simulation.finish()
    }

    public var now: Double { clock.now }
    public var isActive: Bool { engine.isActive }

    /// Plays everything that happens up to `limit` (and no further than the horizon).
    public mutating func run(until limit: Double) {
        while engine.isActive {
            let nextStep = steps.first?.time ?? .infinity
            let nextDeadline = engine.nextDeadline ?? .infinity
            let next = min(nextStep, nextDeadline)
            if horizon.isFinite, horizon <= min(next, limit) {
                clock.advance(to: horizon)
                recorder.record(engine.advance(to: horizon))
                let reason = until.map { "the simulation reached --until \(PlaybackCommand.format($0))" } ?? "the simulation reached its horizon"
                recorder.record(engine.end(reason: reason))
                return
            }
            guard next.isFinite, next <= limit else {
                if limit.isFinite {
                    clock.advance(to: limit)
                    recorder.record(engine.advance(to: limit))
                }
                return
            }
            clock.advance(to: next)
            if nextStep <= nextDeadline, let step = steps.popFirst() {
                recorder.record(engine.handle(step.command, at: clock.now))
            } else {
                recorder.record(engine.advance(to: clock.now))
            }
        }
    }

    /// Hands the engine a new plan at the current time (a live reload, new client events).
    public mutating func update(_ plan: PlaybackPlan) {
        recorder.record(engine.update(plan: plan, at: clock.now))
    }

    /// Adds what a reload noticed to the report.
    public mutating func note(_ diagnostics: [Diagnostic]) {
        recorder.add(diagnostics)
    }

    /// Records a failure that is not an engine event.
    public mutating func noteError(_ message: String) {
        recorder.recordError(message)
    }

    /// Ends a session that has nothing left to happen and returns the report.
    public mutating func finish() -> SessionReport {
        if engine.isActive {
            recorder.record(engine.end(reason: "the sender's script ended with nothing left to happen (paused)"))
        }
        return recorder.finish(at: engine.now)
    }
}
