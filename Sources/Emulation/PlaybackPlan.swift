import HLS

/// Everything the engine needs to know about one cast, decided before playback starts.
///
/// Building a plan does the I/O (playlists, asset lists, probes) and draws the latencies; the engine
/// only plays it, which keeps the engine a pure state machine.
public struct PlaybackPlan: Sendable {
    /// End of the primary content (for live, of the current window).
    public var primaryDuration: Double
    public var isLive: Bool
    /// Segment boundaries of the primary, for X-SNAP IN.
    public var segmentBoundaries: [Double]
    /// From the cast to the first primary frame.
    public var startup: Transition
    /// Ordered PRE, mid-rolls by position, POST; breaks at one position play back to back.
    public var breaks: [PlannedBreak]

    public init(
        primaryDuration: Double, isLive: Bool = false, segmentBoundaries: [Double] = [], startup: Transition = .instant,
        breaks: [PlannedBreak] = []
    ) {
        self.primaryDuration = primaryDuration
        self.isLive = isLive
        self.segmentBoundaries = segmentBoundaries
        self.startup = startup
        self.breaks = breaks
    }
}

/// One interstitial event as the engine plays it.
public struct PlannedBreak: Sendable, Hashable {
    public var eventID: String
    /// On the primary timeline, after X-SNAP OUT. Ignored for PRE (plays first) and POST (plays last).
    public var position: Double
    /// How far primary moves on when this event has played: X-RESUME-OFFSET, or what the event plays
    /// when it has none; 0 for a failed event. The offsets of a group add up.
    public var resumeOffset: Double
    public var cue: InterstitialEvent.Cue
    public var snap: InterstitialEvent.Snap
    public var restrictions: InterstitialEvent.Restrictions
    public var playoutLimit: Double?
    public var assets: [PlannedAsset]
    /// Set when the whole break cannot play (its asset list did not load): it is skipped and primary
    /// resumes where it stopped.
    public var failure: String?
    /// From whatever plays before (primary, or the previous event of the group) to the first asset.
    public var transitionIn: Transition
    /// From the last asset back to primary.
    public var transitionOut: Transition

    public init(
        eventID: String, position: Double, resumeOffset: Double, cue: InterstitialEvent.Cue = [],
        snap: InterstitialEvent.Snap = [], restrictions: InterstitialEvent.Restrictions = [], playoutLimit: Double? = nil, assets: [PlannedAsset],
        failure: String? = nil, transitionIn: Transition = .instant, transitionOut: Transition = .instant
    ) {
        self.eventID = eventID
        self.position = position
        self.resumeOffset = resumeOffset
        self.cue = cue
        self.snap = snap
        self.restrictions = restrictions
        self.playoutLimit = playoutLimit
        self.assets = assets
        self.failure = failure
        self.transitionIn = transitionIn
        self.transitionOut = transitionOut
    }

    /// The assets that will play; failed ones are skipped.
    var playableAssets: [Int] {
        assets.indices.filter { assets[$0].failure == nil }
    }

    /// How long the event plays: its playable assets, cut by its playout limit.
    var playedDuration: Double {
        let total = playableAssets.reduce(0) { $0 + assets[$1].duration }
        return playoutLimit.map { min($0, total) } ?? total
    }
}

/// One asset of a break.
public struct PlannedAsset: Sendable, Hashable {
    public var uri: String
    public var duration: Double
    /// Set when the asset cannot play (did not load, cannot be decoded by this receiver): it is skipped.
    public var failure: String?
    /// From the previous asset of the same event; unused for the first.
    public var transitionFromPrevious: Transition

    public init(uri: String, duration: Double, failure: String? = nil, transitionFromPrevious: Transition = .instant) {
        self.uri = uri
        self.duration = duration
        self.failure = failure
        self.transitionFromPrevious = transitionFromPrevious
    }
}
