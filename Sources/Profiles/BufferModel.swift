/// How a receiver's player buffers media when it fetches segments (`--media verify|realtime`): how far
/// ahead it loads, how much it needs before the first frame and after a stall, how early it preloads
/// an interstitial, and how it retries a segment that failed (docs/simulate.md, "Fetching the media").
///
/// Every number carries where it comes from: hls.js and Media3 publish theirs; AVPlayer does not, so
/// the Apple TV numbers are `assumed` until someone measures `loadedTimeRanges` on a device.
public struct BufferModel: Sendable, Hashable, Codable {
    /// A number of seconds and its source.
    public struct Seconds: Sendable, Hashable, Codable {
        public var seconds: Double
        public var source: String

        public init(_ seconds: Double, source: String) {
            self.seconds = seconds
            self.source = source
        }
    }

    /// The player family whose behaviour the numbers follow: `hls.js`, `media3`, `avplayer`.
    public var family: String
    /// Another segment is fetched whenever less than this is buffered ahead of the playhead.
    public var forwardTarget: Seconds
    /// Buffered ahead before the first frame (of the content, and of each interstitial asset).
    public var startupBuffer: Seconds
    /// Buffered ahead before playback resumes after a stall.
    public var rebufferResume: Seconds
    /// How long before a break its first asset starts loading (beyond what the buffer reaching the
    /// break's start already causes).
    public var preloadLead: Seconds
    public var retry: RetryPolicy

    public init(family: String, forwardTarget: Seconds, startupBuffer: Seconds, rebufferResume: Seconds, preloadLead: Seconds, retry: RetryPolicy) {
        self.family = family
        self.forwardTarget = forwardTarget
        self.startupBuffer = startupBuffer
        self.rebufferResume = rebufferResume
        self.preloadLead = preloadLead
        self.retry = retry
    }
}

/// What a player does with a segment that failed: how often it tries again, how long it waits in
/// between, how long one fetch may take.
public struct RetryPolicy: Sendable, Hashable, Codable {
    /// Tries after the first one.
    public var retries: Int
    /// The wait before the first retry; each later one waits `growth` times longer, up to `maximumDelay`.
    public var firstDelaySeconds: Double
    public var growth: Double
    public var maximumDelaySeconds: Double
    /// One fetch that has not completed after this long has failed (a timeout).
    public var timeoutSeconds: Double
    /// hls.js never retries a 4xx; Media3 retries every status.
    public var retriesClientErrors: Bool
    public var source: String

    public init(
        retries: Int, firstDelaySeconds: Double, growth: Double, maximumDelaySeconds: Double, timeoutSeconds: Double, retriesClientErrors: Bool,
        source: String
    ) {
        self.retries = retries
        self.firstDelaySeconds = firstDelaySeconds
        self.growth = growth
        self.maximumDelaySeconds = maximumDelaySeconds
        self.timeoutSeconds = timeoutSeconds
        self.retriesClientErrors = retriesClientErrors
        self.source = source
    }

    /// Whether a fetch that failed this way is tried again after `attempt` tries.
    public func retries(after failure: FetchFailure, attempt: Int) -> Bool {
        guard attempt <= retries else { return false }
        if case .status(let status) = failure, (400..<500).contains(status) { return retriesClientErrors }
        return true
    }

    /// The wait before retry number `retry` (1 for the first).
    public func delay(beforeRetry retry: Int) -> Double {
        var delay = firstDelaySeconds
        for _ in 1..<max(1, min(retry, 64)) { delay = min(maximumDelaySeconds, delay * growth) }
        return min(maximumDelaySeconds, delay)
    }
}

extension BufferModel {
    /// The buffer of a profile that declares none: AVPlayer-class numbers, all assumed.
    public static let assumedAVPlayer = BufferModel(
        family: "avplayer",
        forwardTarget: Seconds(30, source: "assumed: AVPlayer publishes no forward buffer (preferredForwardBufferDuration 0 lets it choose)"),
        startupBuffer: Seconds(2, source: "assumed: about one segment before the first frame"),
        rebufferResume: Seconds(2, source: "assumed: about one segment after a stall"),
        preloadLead: Seconds(10, source: "assumed"),
        retry: RetryPolicy(
            retries: 3, firstDelaySeconds: 1, growth: 2, maximumDelaySeconds: 8, timeoutSeconds: 10, retriesClientErrors: true,
            source: "assumed: AVPlayer's segment timeouts and retries are not published"))
}
