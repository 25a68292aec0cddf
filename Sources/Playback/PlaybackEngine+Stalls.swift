import NumberText
/// Stalls and failures of the media buffer (`PlaybackEngine+Buffering.swift`): when the playhead
/// reaches the end of what has arrived it stalls, with the reason; a rendition that cannot be fetched
/// is skipped (an asset) or ends the session (primary).
extension PlaybackEngine {
    // MARK: - Stalls

    mutating func beginStall(for head: Playhead, track: TrackBuffer) -> PlaybackEvent {
        let model = buffering.model
        let reason: StallReason
        var resumeAhead = model.rebufferResume.seconds
        switch buffering.lastFailure[head.key] {
        case .timeout?: reason = .timeout
        case .some: reason = .segmentError
        case nil:
            if case .asset = head.key, track.isEmpty, head.offset <= Self.bufferEpsilon {
                reason = .assetPriming
                resumeAhead = model.startupBuffer.seconds
            } else {
                reason = .segmentLate
            }
        }
        buffering.stall = Stall(reason: reason, track: head.key, since: now, resumeAhead: resumeAhead)
        let explanation = "\(reason.explanation): \(head.key) has nothing buffered past \(track.bufferedEnd.plainText) s"
        return event(.stallStarted(reason, in: playingAsset), reason: explanation)
    }

    /// The interstitial asset playing, if one is: a stall's events name it, as the track whose
    /// buffer ran dry (none: primary's).
    private var playingAsset: BreakPlace? {
        guard case .interstitial(let cursor) = activity else { return nil }
        return BreakPlace(cursor.event.eventID, asset: cursor.asset)
    }

    /// Ends the stall in force, if there is one: its `stallEnded` event.
    mutating func endStall(reason: String) -> [PlaybackEvent] {
        guard let stall = buffering.stall else { return [] }
        buffering.stall = nil
        let explanation = "the stall of \((now - stall.since).plainText) s ended: \(reason)"
        return [event(.stallEnded(stall.reason, in: playingAsset), reason: explanation)]
    }

    // MARK: - Failures

    /// A rendition that cannot be fetched: an asset is skipped (the next plays, then primary); primary
    /// ends the session with a media error.
    mutating func renditionFailed(_ key: TrackKey, reason: String) -> [PlaybackEvent] {
        if let index = buffering.tracks.firstIndex(where: { $0.key == key }) { buffering.tracks.remove(at: index) }
        var events: [PlaybackEvent] = []
        if buffering.stall?.track == key { events += endStall(reason: "what stalled failed") }
        guard case .asset = key else {
            activity = .ended
            return events + [event(.ended, state: .failed, reason: "media error: \(reason)")]
        }
        buffering.failedAssets[key] = reason
        switch activity {
        case .interstitial(let cursor) where assetKey(cursor) == key:
            events.append(event(.assetFailed(AssetPlace(cursor.event.eventID, index: cursor.asset, uri: cursor.currentAsset.uri)),
                reason: "asset \(cursor.asset + 1) of '\(cursor.event.eventID)' failed mid-play: \(reason)"))
            return events + moveOn(from: cursor)
        case .transition(let change):
            guard case .asset(var cursor) = change.then, assetKey(cursor) == key else { return events }
            // The switch into it is abandoned; the break goes on with what follows it.
            events += skipFailedAssets(&cursor)
            activity = .transition(Switch(until: now, then: .asset(cursor), queuedSeek: change.queuedSeek))
            return events + moveOnAfterSkipping()
        default:
            return events
        }
    }

    /// After the asset a switch led to was skipped: switch to what the cursor now points at.
    mutating func moveOnAfterSkipping() -> [PlaybackEvent] {
        guard case .transition(let change) = activity, case .asset(let cursor) = change.then else { return [] }
        if cursor.asset < cursor.event.assets.count {
            let transition = cursor.currentAsset.transitionFromPrevious
            activity = .transition(Switch(until: now + transition.seconds, then: .asset(cursor), queuedSeek: change.queuedSeek))
            return switchStarted(transition, BreakPlace(cursor.event.eventID, asset: cursor.asset),
                reason: "switching to asset \(cursor.asset + 1) of '\(cursor.event.eventID)'")
        }
        return [event(.interstitialEnded(BreakPlace(cursor.event.eventID, asset: cursor.asset)), reason: "the interstitial's last assets failed")]
            + advanceToPlayableEvent(cursor, from: cursor.member + 1, transitionFromPrimary: false)
    }

    /// The failure of an asset the break has not reached yet, when preloading it failed.
    func preloadFailure(of cursor: BreakCursor) -> String? {
        buffering.failedAssets[assetKey(cursor)]
    }
}

/// Why the playhead stopped.
public enum StallReason: String, Sendable, Hashable, Codable {
    case segmentLate = "segment-late"
    case segmentError = "segment-error"
    case timeout
    case originSlow = "origin-slow"
    case assetPriming = "asset-priming"

    var explanation: String {
        switch self {
        case .segmentLate: "a segment arrived after the playhead needed it"
        case .segmentError: "a segment failed and is being retried"
        case .timeout: "a segment timed out and is being retried"
        case .originSlow: "the origin is slower than the receiver's network"
        case .assetPriming: "the interstitial asset was not buffered when it started"
        }
    }
}
