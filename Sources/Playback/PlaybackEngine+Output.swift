import Profiles

/// The engine's calls, each answering with one `Output`: the events it caused, in order, and the
/// fetches it wants started or cancelled. Nothing waits in the engine to be pulled afterwards, so a
/// driver cannot read the events of a call and forget its fetches.
extension PlaybackEngine {
    public struct Output: Sendable {
        public var events: [PlaybackEvent]
        /// Empty unless the plan fetches segments (`--media verify|realtime`).
        public var actions: [FetchAction]
    }

    /// Moves the clock to `time`, firing everything that falls due on the way, in order.
    public mutating func advance(to time: Double) -> Output {
        output(advanceEvents(to: time))
    }

    /// Applies a sender's command at `time` (which first advances the clock there).
    public mutating func handle(_ command: PlaybackCommand, at time: Double) -> Output {
        output(handleEvents(command, at: time))
    }

    /// Replaces the plan at `time` without interrupting playback (`updateEvents(plan:at:)`).
    public mutating func update(plan newPlan: PlaybackPlan, at time: Double) -> Output {
        output(updateEvents(plan: newPlan, at: time))
    }

    /// Ends the session for a reason of the receiver's (replaced by a new cast, shutdown).
    public mutating func end(reason: String) -> Output {
        output(endEvents(reason: reason))
    }

    /// A fetch arrived whole at `time`.
    public mutating func segmentLoaded(_ id: UInt64, at time: Double) -> Output {
        output(segmentLoadedEvents(id, at: time))
    }

    /// A fetch failed at `time`: retried by the profile's policy, or the rendition fails.
    public mutating func segmentFailed(_ id: UInt64, _ failure: FetchFailure, at time: Double) -> Output {
        output(segmentFailedEvents(id, failure, at: time))
    }

    /// `events` with the fetch actions the call that made them asked for.
    private mutating func output(_ events: [PlaybackEvent]) -> Output {
        defer { buffering.actions.removeAll() }
        return Output(events: events, actions: buffering.actions)
    }
}
