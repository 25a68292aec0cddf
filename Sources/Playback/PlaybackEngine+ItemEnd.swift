/// Where and how the item ends, as an AirPlay 2 sender sets them after `/play`: `forwardEndTime` ends
/// forward playback before the content's end (AVPlayerItem's forwardPlaybackEndTime: the item then
/// counts as played to its end, so a POST interstitial still plays), and `actionAtItemEnd` says whether
/// the end ends the session (advance) or holds it paused there (pause, none).
extension PlaybackEngine {
    /// The primary position where the item ends.
    var itemEnd: Double {
        min(plan.primaryDuration, forwardEndTime ?? .infinity)
    }

    /// The item played to its end (and its POST interstitials, if any): the session ends, or waits at
    /// the end, paused, for the sender.
    mutating func itemEnded(reason: String) -> [PlaybackEvent] {
        guard itemEndAction != .advance else {
            activity = .ended
            return [event(.ended, reason: reason)]
        }
        position = itemEnd
        activity = .primary(PrimaryPlayback())
        let wasPlaying = rate > 0
        rate = 0
        let held = "\(reason); held there, paused (actionAtItemEnd \(itemEndAction.name))"
        return (wasPlaying ? [event(.rateChanged, reason: held)] : []) + [stateChanged(held)]
    }

    mutating func setForwardEndTime(_ end: Double?, command: PlaybackCommand) -> [PlaybackEvent] {
        if let end, !end.isFinite || end < 0 {
            return [refusal(command, reason: "the forward end time must be a position of 0 s or more")]
        }
        guard isActive else { return [refusal(command, reason: "there is no session to set the end of")] }
        forwardEndTime = end
        // An end the playhead has passed already is met at once, as a player meets it.
        guard case .primary = activity, rate > 0 else { return [] }
        return endAtTheEnd() ?? []
    }

    mutating func setActionAtItemEnd(_ action: ItemEndAction, command: PlaybackCommand) -> [PlaybackEvent] {
        guard isActive else { return [refusal(command, reason: "there is no session to set the end action of")] }
        itemEndAction = action
        return []
    }
}
