/// One switch of what the receiver decodes (primary to interstitial, asset to asset, back to primary,
/// or the start of playback), with how long it blacks out video and silences audio, and why.
///
/// The video and audio paths re-initialise in parallel; the transition is over when both are.
public struct Transition: Sendable, Hashable, Codable {
    /// One cost on one path.
    public struct Cost: Sendable, Hashable, Codable {
        /// `priming`, `splice`, or a media dimension (`frame_rate`, `audio_codec`…).
        public var cause: String
        public var milliseconds: Double
        public var source: String
        /// What differs, when the cause is a dimension: "30/1 -> 25/1".
        public var detail: String?

        public init(cause: String, milliseconds: Double, source: String, detail: String? = nil) {
            self.cause = cause
            self.milliseconds = milliseconds
            self.source = source
            self.detail = detail
        }
    }

    /// Fetching what is needed before the first frame, beyond what preloading hid.
    public var priming: Cost?
    public var video: [Cost]
    public var audio: [Cost]

    public init(priming: Cost? = nil, video: [Cost] = [], audio: [Cost] = []) {
        self.priming = priming
        self.video = video
        self.audio = audio
    }

    public static let instant = Transition()

    public var videoMilliseconds: Double { video.reduce(0) { $0 + $1.milliseconds } }
    public var audioMilliseconds: Double { audio.reduce(0) { $0 + $1.milliseconds } }

    /// Priming, then the slower of the two paths.
    public var totalMilliseconds: Double {
        (priming?.milliseconds ?? 0) + max(videoMilliseconds, audioMilliseconds)
    }

    public var seconds: Double { totalMilliseconds / 1000 }
}
