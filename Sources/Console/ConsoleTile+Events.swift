import HLS
import Playback

extension ConsoleTile {
    /// The tile after `event` of `session`: the reducer the console runs on every event a receiver
    /// publishes. Pure; a new session's first event starts the tile afresh.
    public mutating func apply(_ event: PlaybackEvent, of session: ConsoleSession?) {
        if session?.id != self.session {
            self = ConsoleTile(index: index, receiver: receiver, profile: profile, timeScale: timeScale)
            self.session = session?.id
            duration = session?.duration
        } else if duration == nil {
            // A console that learns primary's duration after the session's first event (from a receiver
            // on another host) shows it from then on.
            duration = session?.duration
        }
        time = event.time
        state = event.state
        position = event.position
        rate = event.rate
        version += 1
        if trail.last != event.state {
            trail.append(event.state)
            if trail.count > Self.trailLimit { trail.removeFirst(trail.count - Self.trailLimit) }
        }
        switch event.detail {
        case .stateChanged(let place, _):
            if let place {
                enter(place.eventID, asset: place.assetIndex, at: event.time, rules: session?.breaks)
            } else if event.state != .paused, event.state != .stalled {
                interstitial = nil
            }
        case .transitionStarted(_, let place):
            // Switching into an asset names it; switching back to primary names only the break.
            if let asset = place.assetIndex { enter(place.eventID, asset: asset, at: event.time, rules: session?.breaks) }
        case .interstitialStarted(let place, let mode):
            enter(place.eventID, asset: place.assetIndex, at: event.time, rules: session?.breaks)
            if let mode { pictureInPicture = mode == .pictureInPicture }
        case .interstitialEnded, .breakSkipped:
            interstitial = nil
        case .assetStarted(let asset):
            enter(asset.eventID, asset: asset.index, at: event.time, rules: session?.breaks)
            interstitial?.assetURI = PathFreeText.webAddress(asset.uri)
            interstitial?.assetStartedAt = event.time
        case .stallStarted(let reason, _):
            stall = Stall(reason: reason.rawValue, explanation: PathFreeText.scrubbed(event.reason))
        case .stallEnded:
            stall = nil
        case .presentationModeChanged(let mode, _):
            pictureInPicture = mode == .pictureInPicture
        case .commandRefused(let command, let restriction, _):
            lastRefusal = Refusal(
                command: command.description, restriction: restriction?.rawValue, reason: PathFreeText.scrubbed(event.reason), time: event.time)
        case .ended:
            interstitial = nil
            stall = nil
        case .assetEnded, .assetSkipped, .assetFailed, .seeked, .rateChanged, .segmentFailed, .pipStartFailed, .sdkAdStartRefused,
            .sdkAdDeferred, .sdkAdSkipped, .variantSwitched, .quirkFired:
            break
        }
        if event.state != .stalled { stall = nil }
    }

    /// Puts break `eventID` on the tile, keeping what it knew of it when it is the one already shown.
    private mutating func enter(_ eventID: String, asset: Int?, at time: Double, rules: BreakRules?) {
        if interstitial?.eventID != eventID {
            let rule = rules?[eventID]
            interstitial = Break(
                eventID: eventID, assetIndex: nil, assetCount: rule?.assetCount, assetDuration: nil, assetURI: nil,
                restrictions: rule?.restrictions.spellings ?? [],
                assetStartedAt: nil, skipOffset: rule?.skipControl?.offset, skipDuration: rule?.skipControl?.duration)
        }
        if let asset, interstitial?.assetIndex != asset {
            interstitial?.assetIndex = asset
            let durations = rules?[eventID]?.assetDurations ?? []
            interstitial?.assetDuration = durations.indices.contains(asset) ? durations[asset] : nil
            interstitial?.assetURI = nil
            interstitial?.assetStartedAt = time
        }
    }
}
