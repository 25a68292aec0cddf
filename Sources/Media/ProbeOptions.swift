/// The limits one probe works within.
public struct ProbeOptions: Sendable, Hashable {
    /// Seconds the whole probe may take, fetching included.
    public var timeout: Double
    /// Bytes libavformat may read to identify streams (its `probesize`). ffprobe's default, so that
    /// airlab and ffprobe see the same frames and agree on rates and profiles.
    public var probeSize: Int
    /// Seconds of media libavformat may analyse (its `analyzeduration`); ffprobe's default too.
    public var analyzeDuration: Double
    /// The most airlab reads of a playlist before calling it unreasonable.
    public var playlistByteLimit: Int
    /// The most airlab reads of a segment and its init section when it joins them itself; more than
    /// `probeSize`, so probing never runs short.
    public var segmentByteLimit: Int

    public init(
        timeout: Double = 10, probeSize: Int = 5_000_000, analyzeDuration: Double = 5,
        playlistByteLimit: Int = 4 << 20, segmentByteLimit: Int = 16 << 20
    ) {
        self.timeout = timeout
        self.probeSize = probeSize
        self.analyzeDuration = analyzeDuration
        self.playlistByteLimit = playlistByteLimit
        self.segmentByteLimit = segmentByteLimit
    }
}
