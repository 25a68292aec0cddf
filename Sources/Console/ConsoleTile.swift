import Playback

/// One receiver's tile on the console: what a person watching its screen would want to know, as a
/// value the page renders. Built only from the events the receiver publishes (`ConsoleTile+Events`).
///
/// Positions are those of the last event; the page moves them on at `rate × timeScale` between events,
/// so a playing tile needs no event a second to look alive.
public struct ConsoleTile: Sendable, Equatable, Encodable {
    /// The interstitial on screen (or being switched to).
    public struct Break: Sendable, Equatable, Encodable {
        public var eventID: String
        public var assetIndex: Int?
        public var assetCount: Int?
        /// The current asset's planned duration.
        public var assetDuration: Double?
        /// The asset's URI as the playlist names it.
        public var assetURI: String?
        /// Spec spellings, `SKIP` and `JUMP`.
        public var restrictions: [String]
        /// Session seconds at which the current asset started: the page counts the skip control from it.
        public var assetStartedAt: Double?
        public var skipOffset: Double?
        public var skipDuration: Double?
    }

    public struct Refusal: Sendable, Equatable, Encodable {
        public var command: String
        public var restriction: String?
        public var reason: String
        public var time: Double
    }

    public struct Stall: Sendable, Equatable, Encodable {
        public var reason: String
        public var explanation: String
    }

    /// The tile's place on the page: the receiver's index in the fleet.
    public let index: Int
    public let receiver: String
    public let profile: String
    /// Session seconds per real second.
    public let timeScale: Double
    public var session: String?
    public var state: PlaybackState = .idle
    /// Session seconds of the last event.
    public var time: Double = 0
    public var position: Double = 0
    public var rate: Double = 0
    public var duration: Double?
    public var interstitial: Break?
    public var stall: Stall?
    public var pictureInPicture = false
    public var lastRefusal: Refusal?
    /// Seconds of media buffered ahead of the playhead, when the session fetches segments; sampled.
    public var bufferAhead: Double?
    /// The watch-together group the session follows, and its sync error against the group in seconds; sampled.
    public var group: String?
    public var groupSyncError: Double?
    /// The states this session went through, each once in a row, oldest first (the last few only):
    /// how a glance, or a test, tells that primary gave way to an ad and came back.
    public var trail: [PlaybackState] = []
    /// Counts changes, so that the page can tell a newer tile from an older one.
    public var version = 0

    /// The longest trail kept: enough for a few breaks, bounded however long a session plays.
    public static let trailLimit = 24

    /// What the console reads of a playing session between its events, about once a second: figures
    /// that move without an event.
    public struct Sample: Sendable, Equatable {
        public var bufferAhead: Double?
        public var group: String?
        public var groupSyncError: Double?

        /// Rounded as the page shows them (a tenth of a second, a millisecond), so that a figure that
        /// barely moved is not a change.
        public init(bufferAhead: Double?, group: String?, groupSyncError: Double?) {
            self.bufferAhead = bufferAhead.map { ($0 * 10).rounded() / 10 }
            self.group = group
            self.groupSyncError = groupSyncError.map { ($0 * 1000).rounded() / 1000 }
        }
    }

    public var sample: Sample {
        get { Sample(bufferAhead: bufferAhead, group: group, groupSyncError: groupSyncError) }
        set {
            bufferAhead = newValue.bufferAhead
            group = newValue.group
            groupSyncError = newValue.groupSyncError
        }
    }

    public init(index: Int, receiver: String, profile: String, timeScale: Double) {
        self.index = index
        self.receiver = receiver
        self.profile = profile
        self.timeScale = timeScale
    }
}
