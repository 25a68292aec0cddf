import HLS
import NumberText
import Profiles

/// What a receiver shows a sender: the coarse state of a session.
public enum PlaybackState: String, Sendable, Hashable, Codable {
    case idle, loading, playingPrimary = "playing-primary", transitioning, playingInterstitial = "playing-interstitial"
    case paused, ended, failed
    /// Playing, but the playhead waits for media that has not arrived (AVPlayer's
    /// `waitingToPlayAtSpecifiedRate`, `toMinimizeStalls`).
    case stalled
}

/// Something that happened in a session, with the reason: every state change and every refusal is one.
public struct PlaybackEvent: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case stateChanged = "state-changed"
        case transitionStarted = "transition-started"
        case interstitialStarted = "interstitial-started"
        case interstitialEnded = "interstitial-ended"
        case assetStarted = "asset-started"
        case assetEnded = "asset-ended"
        case assetSkipped = "asset-skipped"
        case breakSkipped = "break-skipped"
        case seeked
        case rateChanged = "rate-changed"
        case commandRefused = "command-refused"
        case ended
        case presentationModeChanged = "presentation-mode-changed"
        /// Picture in picture was asked for and cannot start; the reason begins with its code
        /// (`pip-not-supported`, `pip-not-possible`).
        case pipStartFailed = "pip-start-failed"
        /// The sender's SDK tried to start an ad break in picture in picture and was refused.
        case sdkAdStartRefused = "sdk-ad-start-refused"
        /// An SDK ad break fell due in picture in picture and waits for it to end.
        case sdkAdDeferred = "sdk-ad-deferred"
        /// An SDK ad break fell due in picture in picture and was not started.
        case sdkAdSkipped = "sdk-ad-skipped"
        /// The playhead reached the end of what was buffered (`stall` says why).
        case stallStarted = "stall-started"
        case stallEnded = "stall-ended"
        /// A segment fetch failed; the reason says whether it is retried.
        case segmentFailed = "segment-failed"
        /// An asset that was playing could not be fetched on; the break goes on without it.
        case assetFailed = "asset-failed"
        /// Primary moved to a lower variant (its `assetURI`): its own did not arrive in time, or failed.
        case variantSwitched = "variant-switched"
        /// A quirk of the device's (its profile declares it) fired; the reason says what it did and cites
        /// the source.
        case quirkFired = "quirk-fired"
    }

    /// Seconds on the session's clock.
    public let time: Double
    /// The state after the event.
    public let state: PlaybackState
    /// The primary position at that moment (during a break: where primary was left).
    public let position: Double
    public let rate: Double
    /// What happened, with what it happened to.
    public let detail: Detail
    /// Why, in a sentence a person reads.
    public let reason: String

    public init(time: Double, state: PlaybackState, position: Double, rate: Double, detail: Detail, reason: String) {
        self.time = time
        self.state = state
        self.position = position
        self.rate = rate
        self.detail = detail
        self.reason = reason
    }

    public var kind: Kind { detail.kind }
}

/// Where in a break something happened: the interstitial, and which of its assets when one is meant.
public struct BreakPlace: Sendable, Hashable {
    public let eventID: String
    public let assetIndex: Int?

    public init(_ eventID: String, asset assetIndex: Int? = nil) {
        self.eventID = eventID
        self.assetIndex = assetIndex
    }
}

/// One asset of an interstitial: which break, which of its assets, and the asset's URI.
public struct AssetPlace: Sendable, Hashable {
    public let eventID: String
    public let index: Int
    public let uri: String

    public init(_ eventID: String, index: Int, uri: String) {
        self.eventID = eventID
        self.index = index
        self.uri = uri
    }
}

extension PlaybackEvent {
    /// What happened, one case a kind, each with what it needs and nothing else.
    public enum Detail: Sendable, Hashable {
        /// The state changed; inside a break, where; when a cast is accepted, the start-up it costs.
        case stateChanged(in: BreakPlace?, startup: Transition?)
        /// A switch began: into an asset of a break (the place names the asset), or back to primary
        /// from a break (the place names only the break).
        case transitionStarted(Transition, BreakPlace)
        /// A break began, in the presentation mode it started in when that is not standard.
        case interstitialStarted(BreakPlace, mode: PresentationMode?)
        case interstitialEnded(BreakPlace)
        case assetStarted(AssetPlace)
        case assetEnded(AssetPlace)
        case assetSkipped(AssetPlace)
        /// An asset that was playing could not be fetched on; the break goes on without it.
        case assetFailed(AssetPlace)
        case breakSkipped(eventID: String)
        case seeked
        case rateChanged
        case ended
        /// A segment fetch failed; the reason says whether it is retried.
        case segmentFailed
        /// A command the session did not carry out, and the restriction of which break refused it
        /// (none: the session's state refused it).
        case commandRefused(PlaybackCommand, restriction: InterstitialEvent.Restriction?, eventID: String?)
        /// The new presentation mode, and the sender's command that asked for it (none: something else
        /// changed it, such as another app taking picture in picture).
        case presentationModeChanged(PresentationMode, command: PlaybackCommand?)
        /// Picture in picture was asked for and cannot start; the mode stays as it is.
        case pipStartFailed(PlaybackCommand, mode: PresentationMode)
        case sdkAdStartRefused(eventID: String)
        case sdkAdDeferred(eventID: String)
        case sdkAdSkipped(eventID: String)
        /// The playhead reached the end of what was buffered, and why; in a break, where.
        case stallStarted(StallReason, in: BreakPlace?)
        case stallEnded(StallReason, in: BreakPlace?)
        /// Primary moved to another variant (its URI).
        case variantSwitched(uri: String)
        /// A quirk of the device fired; in a break, or concerning one, which.
        case quirkFired(Quirk, in: BreakPlace?)

        public var kind: Kind {
            switch self {
            case .stateChanged: .stateChanged
            case .transitionStarted: .transitionStarted
            case .interstitialStarted: .interstitialStarted
            case .interstitialEnded: .interstitialEnded
            case .assetStarted: .assetStarted
            case .assetEnded: .assetEnded
            case .assetSkipped: .assetSkipped
            case .assetFailed: .assetFailed
            case .breakSkipped: .breakSkipped
            case .seeked: .seeked
            case .rateChanged: .rateChanged
            case .ended: .ended
            case .segmentFailed: .segmentFailed
            case .commandRefused: .commandRefused
            case .presentationModeChanged: .presentationModeChanged
            case .pipStartFailed: .pipStartFailed
            case .sdkAdStartRefused: .sdkAdStartRefused
            case .sdkAdDeferred: .sdkAdDeferred
            case .sdkAdSkipped: .sdkAdSkipped
            case .stallStarted: .stallStarted
            case .stallEnded: .stallEnded
            case .variantSwitched: .variantSwitched
            case .quirkFired: .quirkFired
            }
        }
    }

    // What readers ask of an event whatever its kind: views of the detail.

    /// The interstitial the event concerns, if any.
    public var eventID: String? {
        switch detail {
        case .stateChanged(let place, _), .stallStarted(_, let place), .stallEnded(_, let place), .quirkFired(_, let place): place?.eventID
        case .transitionStarted(_, let place), .interstitialStarted(let place, _), .interstitialEnded(let place): place.eventID
        case .assetStarted(let asset), .assetEnded(let asset), .assetSkipped(let asset), .assetFailed(let asset): asset.eventID
        case .breakSkipped(let id), .sdkAdStartRefused(let id), .sdkAdDeferred(let id), .sdkAdSkipped(let id): id
        case .commandRefused(_, _, let id): id
        case .seeked, .rateChanged, .ended, .segmentFailed, .presentationModeChanged, .pipStartFailed, .variantSwitched: nil
        }
    }

    /// Which asset of the interstitial, if the event names one.
    public var assetIndex: Int? {
        switch detail {
        case .stateChanged(let place, _), .stallStarted(_, let place), .stallEnded(_, let place): place?.assetIndex
        case .transitionStarted(_, let place), .interstitialStarted(let place, _), .interstitialEnded(let place): place.assetIndex
        case .assetStarted(let asset), .assetEnded(let asset), .assetSkipped(let asset), .assetFailed(let asset): asset.index
        default: nil
        }
    }

    /// An asset's URI, or the variant switched to.
    public var assetURI: String? {
        switch detail {
        case .assetStarted(let asset), .assetEnded(let asset), .assetSkipped(let asset), .assetFailed(let asset): asset.uri
        case .variantSwitched(let uri): uri
        default: nil
        }
    }

    /// The sender's command the event answers.
    public var command: PlaybackCommand? {
        switch detail {
        case .commandRefused(let command, _, _), .pipStartFailed(let command, _): command
        case .presentationModeChanged(_, let command): command
        default: nil
        }
    }

    /// The restriction that refused a command.
    public var restriction: InterstitialEvent.Restriction? {
        if case .commandRefused(_, let restriction, _) = detail { restriction } else { nil }
    }

    /// The latency of a switch, or of the start-up when a cast is accepted.
    public var transition: Transition? {
        switch detail {
        case .transitionStarted(let transition, _): transition
        case .stateChanged(_, let startup): startup
        default: nil
        }
    }

    /// The presentation mode: the new one for `presentation-mode-changed`; the one that stays for
    /// `pip-start-failed`; for the start of an interstitial, the mode it started in when not standard.
    public var mode: PresentationMode? {
        switch detail {
        case .presentationModeChanged(let mode, _), .pipStartFailed(_, let mode): mode
        case .interstitialStarted(_, let mode): mode
        default: nil
        }
    }

    /// The quirk that fired, for `quirk-fired`.
    public var quirk: Quirk? {
        if case .quirkFired(let quirk, _) = detail { quirk } else { nil }
    }

    /// Why the playhead stopped, for stall events.
    public var stall: StallReason? {
        switch detail {
        case .stallStarted(let reason, _), .stallEnded(let reason, _): reason
        default: nil
        }
    }
}
