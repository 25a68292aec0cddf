import Playback
import NumberText
/// How `airlab simulate` plays a session: on a virtual clock, from the cast to the end of the content,
/// to `until`, or for live content without one a day, applying a scripted sender; a session with
/// nothing left to happen (paused, the script done) ends there. The playing itself is `SessionDriver`'s.
public enum Simulation {
    /// The setup of one simulated session.
    public static func setup(
        plan: PlaybackPlan, script: SenderScript = SenderScript(), startPosition: Double? = nil, until: Double? = nil,
        recorder: SessionRecorder, reloads: (any LiveReloadSource)? = nil, delivery: SegmentDelivery? = nil
    ) -> SessionSetup {
        let horizon = until.map { SessionSetup.Horizon(time: $0, reason: "the simulation reached --until \(($0).plainText)") }
            ?? (plan.isLive ? SessionSetup.Horizon(time: 86_400, reason: "the simulation reached its horizon") : nil)
        return SessionSetup(
            plan: plan, startPosition: startPosition, script: script, recorder: recorder, horizon: horizon,
            idleEndReason: "the sender's script ended with nothing left to happen (paused)", reloads: reloads, delivery: delivery)
    }

    /// Plays one plan to its end (without reloads, so nothing asynchronous) and returns its report.
    public static func report(
        plan: PlaybackPlan, script: SenderScript = SenderScript(), startPosition: Double? = nil, until: Double? = nil,
        recorder: SessionRecorder, delivery: SegmentDelivery? = nil
    ) -> SessionReport {
        let clock = VirtualClock()
        let session = SessionDriver(clock: clock).start(
            setup(plan: plan, script: script, startPosition: startPosition, until: until, recorder: recorder, delivery: delivery))
        clock.fireUntilHeld()
        return session.report
    }
}
