import HLS

/// What a receiver shows a sender: the coarse state of a session.
public enum PlaybackState: String, Sendable, Hashable, Codable {
    case idle, loading, playingPrimary = "playing-primary", transitioning, playingInterstitial = "playing-interstitial"
    case paused, ended, failed
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

    public var description: String {
        switch self {
        case .play(let start): start.map { "play from \(Self.format($0))" } ?? "play"
        case .seek(let target): "seek \(Self.format(target))"
        case .setRate(let rate): "rate \(Self.format(rate))"
        case .stop: "stop"
        }
    }

    /// Seconds as commands and reasons write them: "40", "12.5".
    public static func format(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e12 ? String(Int(value)) : String(value)
    }

    public static func == (lhs: PlaybackCommand, rhs: PlaybackCommand) -> Bool {
        lhs.description == rhs.description
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(description)
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
    }

    /// Seconds on the session's clock.
    public var time: Double
    public var kind: Kind
    public var state: PlaybackState
    /// The primary position at that moment (during a break: where primary was left).
    public var position: Double
    public var rate: Double
    public var eventID: String?
    public var assetIndex: Int?
    public var assetURI: String?
    public var reason: String?
    public var command: String?
    /// The restriction that refused a command (written with its spec spelling: SKIP or JUMP).
    public var restriction: InterstitialEvent.Restriction?
    public var transition: Transition?

    public init(
        time: Double, kind: Kind, state: PlaybackState, position: Double, rate: Double, eventID: String? = nil, assetIndex: Int? = nil,
        assetURI: String? = nil, reason: String? = nil, command: String? = nil, restriction: InterstitialEvent.Restriction? = nil, transition: Transition? = nil
    ) {
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
