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

/// A command from the sender, as the engine understands it.
public enum PlaybackCommand: Sendable, Hashable, CustomStringConvertible {
    /// Start playback at a primary position (nil: the start of the content).
    case play(from: Double?)
    /// Seek to a primary position.
    case seek(to: Double)
    /// 0 pauses; 1 plays; other rates as given.
    case setRate(Double)
    case stop
    /// The sender asks for a presentation mode (`setProperty?presentationMode`, script `pip on|off`).
    case setPresentationMode(PresentationMode)
    /// Whether picture in picture can start now: false while another app holds it (a fault, or the
    /// script's `pip impossible`).
    case setPictureInPicturePossible(Bool)

    public var description: String {
        switch self {
        case .play(let start): start.map { "play from \(Self.format($0))" } ?? "play"
        case .seek(let target): "seek \(Self.format(target))"
        case .setRate(let rate): "rate \(Self.format(rate))"
        case .stop: "stop"
        case .setPresentationMode(let mode): "presentation \(mode.rawValue)"
        case .setPictureInPicturePossible(let possible): possible ? "pip possible" : "pip impossible"
        }
    }

    /// Seconds as commands and reasons write them: "40", "12.5".
    public static func format(_ value: Double) -> String {
        value.plainText
    }
}

/// Something that happened in a session, with the reason: every state change and every refusal is one.
public struct PlaybackEvent: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable {
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
    }

    /// Seconds on the session's clock.
    public let time: Double
    public let kind: Kind
    public let state: PlaybackState
    /// The primary position at that moment (during a break: where primary was left).
    public let position: Double
    public let rate: Double
    public let eventID: String?
    public let assetIndex: Int?
    public let assetURI: String?
    public let reason: String?
    public let command: String?
    /// The restriction that refused a command (written with its spec spelling: SKIP or JUMP).
    public let restriction: InterstitialEvent.Restriction?
    public let transition: Transition?
    /// The presentation mode: the new one for `presentation-mode-changed`; for the start of an
    /// interstitial, the mode it started in when that is not standard.
    public let mode: PresentationMode?
    /// Why the playhead stopped, for stall events.
    public let stall: StallReason?

    public init(
        time: Double, kind: Kind, state: PlaybackState, position: Double, rate: Double, eventID: String? = nil, assetIndex: Int? = nil,
        assetURI: String? = nil, reason: String? = nil, command: String? = nil, restriction: InterstitialEvent.Restriction? = nil, transition: Transition? = nil,
        mode: PresentationMode? = nil, stall: StallReason? = nil
    ) {
        self.mode = mode
        self.stall = stall
        self.time = time
        self.kind = kind
        self.state = state
        self.position = position
        self.rate = rate
        self.eventID = eventID
        self.assetIndex = assetIndex
        self.assetURI = assetURI
        self.reason = reason
        self.command = command
        self.restriction = restriction
        self.transition = transition
    }
}
