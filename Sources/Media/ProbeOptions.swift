/// The limits one probe works within.
public struct ProbeOptions: Sendable, Hashable {
    /// Seconds the whole probe may take: every fetch (playlists, init section, segment) and the
    /// demuxing together.
    public var timeout: Double
    /// Bytes libavformat may read to identify streams (its `probesize`). ffprobe's default, so that
    /// airlab and ffprobe see the same frames and agree on rates and profiles.
    public var probeSize: Int
    /// Seconds of media libavformat may analyse (its `analyzeduration`); ffprobe's default too.
    public var analyzeDuration: Double
    /// The most airlab reads of a segment and of its init section; more than `probeSize`, so probing
    /// never runs short. A longer resource is cut to its first bytes, which is all a probe needs.
    public var segmentByteLimit: Int

    public init(timeout: Double = 10, probeSize: Int = 5_000_000, analyzeDuration: Double = 5, segmentByteLimit: Int = 16 << 20) {
        self.timeout = timeout.isFinite && timeout > 0 ? timeout : 10
        self.probeSize = max(32, probeSize)
        self.analyzeDuration = analyzeDuration.isFinite ? max(0, analyzeDuration) : 5
        self.segmentByteLimit = max(1, segmentByteLimit)
    }
}
