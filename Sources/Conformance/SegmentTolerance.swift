/// The tolerances of the per-segment checks, each with where it comes from. One place, so the
/// docs/validate.md's table, the checks and the tests agree.
public enum SegmentTolerance {
    /// Floating-point slack on comparisons of times read from 90 kHz and other integer clocks: far
    /// below any tolerance a rule states.
    static let epsilon = 1e-6

    /// Used for "one frame" when a rendition has no video and no audio frame step could be read: one
    /// frame at 30 fps.
    public static let defaultFrameDuration = 1.0 / 30

    /// Measured segment duration vs EXTINF, per segment and cumulatively within a discontinuity run:
    /// one frame (HLS Authoring Spec 8.1: EXTINF within one frame of the real duration, summed).
    public static let extinfFrames = 1.0

    /// A segment's measured duration may exceed EXT-X-TARGETDURATION by this much (HLS Authoring
    /// Spec 7.7; RFC 8216bis 4.4.3.1 rounds EXTINF to the nearest integer for the same test).
    public static let targetOvershoot = 0.5

    /// The average IDR interval should be at most this (HLS Authoring Spec 1.13: key frames at
    /// least every 2 s).
    public static let idrInterval = 2.0
    /// Slack on the IDR average, in frames: a one-frame timestamp hole (reported as SEG-TS-GAP) must
    /// not also move a 2 s GOP past the rule.
    public static let idrIntervalFrames = 1.0

    /// A video hole between segments of a run larger than this many frames is a gap (HLS Authoring
    /// Spec 7.1–7.3; the threshold hls.js patches holes at).
    public static let videoGapFrames = 1.0
    /// A video overlap beyond one 90 kHz tick (HLS Authoring Spec 7.1–7.3).
    public static let videoOverlap = 1.0 / 90_000
    /// An audio hole or overlap of one AAC frame or more (1024 samples; hls.js fills or drops audio
    /// at one frame).
    public static let audioGapFrames = 1.0

    /// Drift of a segment's first PTS from its playlist position: above this a warning (hls.js
    /// `maxBufferHole`, 0.1 s)…
    public static let timelineDriftWarning = 0.1
    /// …and above this an error (hls.js realigns on PTS past it).
    public static let timelineDriftError = 1.0

    /// A timestamp jump larger than this inside a run is a discontinuity that was not marked (HLS
    /// Authoring Spec 8.13).
    public static let unmarkedJump = 1.0

    /// Two frame rates differing by less than this fraction are the same rate.
    public static let frameRateSlack = 0.01

    /// First audio PTS − first video PTS where a run starts: above this a warning (CTA-WAVE
    /// `earliest_sample_alignment_tolerance`, 60 ms; AAC priming, 21.3 ms measured, stays inside)…
    public static let avStartWarning = 0.060
    /// …and above this an error at a splice (Unified Streaming: audio within 100 ms of a splice).
    public static let avStartSplice = 0.100

    /// Audio vs video length of an asset: one frame (HLS Authoring Spec 8.3).
    public static let avLengthFrames = 1.0

    /// VOD: measured peak and average bitrate within 10 % of BANDWIDTH and AVERAGE-BANDWIDTH (HLS
    /// Authoring Spec 1.26–1.29, 9.13).
    public static let vodBitrateSlack = 0.10
    /// Live: peak below 125 % of BANDWIDTH (HLS Authoring Spec 1.27)…
    public static let livePeakSlack = 0.25
    /// …and average below 110 % of AVERAGE-BANDWIDTH.
    public static let liveAverageSlack = 0.10

    /// A segment fits a network when its bitrate is at most this share of the bandwidth (hls.js
    /// `abrBandWidthFactor`, 0.95).
    public static let networkShare = 0.95

    /// Sum of an asset's measured durations vs its declared DURATION: one frame (HLS Authoring Spec
    /// 15.3; docs/simulate.md).
    public static let assetLengthFrames = 1.0
}
