import Profiles

/// What a receiver that fetches its media (`--media verify|realtime`) fetches of primary, and how it
/// buffers what it fetches. A plan without one plays on the latency model alone (`--media probe`).
///
/// The interstitials' segments are in their assets (`PlannedAsset.segments`); this holds primary's.
public struct FetchPlan: Sendable {
    /// How the receiver buffers: forward target, startup and resume thresholds, retries.
    public var buffer: BufferModel
    /// The segments of the variant primary plays.
    public var primary: SegmentList
    /// The segments of primary's separate audio rendition, on primary's timeline; empty when its audio
    /// is muxed. The variants share it: a switch changes the video.
    public var primaryAudio: SegmentList
    /// The variant primary plays (its playlist and BANDWIDTH), for a multivariant cast: what a switch
    /// back up from a lower variant goes to.
    public var variantURI: String?
    public var bitsPerSecond: Double?
    /// Lower variants of a VOD primary this receiver can decode, highest first: what it switches to
    /// when its own does not arrive in time or cannot be fetched (`PlaybackEngine+Variants`).
    public var fallbacks: [PlannedVariant]

    public init(
        primary: SegmentList, buffer: BufferModel, primaryAudio: SegmentList = .empty, variantURI: String? = nil,
        bitsPerSecond: Double? = nil, fallbacks: [PlannedVariant] = []
    ) {
        self.buffer = buffer
        self.primary = primary
        self.primaryAudio = primaryAudio
        self.variantURI = variantURI
        self.bitsPerSecond = bitsPerSecond
        self.fallbacks = fallbacks
    }
}
