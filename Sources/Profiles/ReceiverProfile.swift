/// One kind of receiver: what it decodes, how its display and player switch, its network, and what
/// each kind of transition costs it (docs/simulate.md). Read from a JSON file that profile.schema.json describes.
public struct ReceiverProfile: Sendable, Hashable, Codable {
    public var name: String
    /// The profile's revision: raised whenever one of its numbers changes, so a report names the numbers it ran on.
    public var version: String
    public var model: String
    public var displayName: String
    public var deviceIDSeed: String?
    public var notes: String?
    /// nil for audio-only receivers (a soundbar plays the audio of a cast and ignores its video).
    public var video: VideoCapabilities?
    public var audio: AudioCapabilities
    public var display: DisplayBehaviour
    public var switching: SwitchingBehaviour
    public var network: Network
    public var transitions: TransitionCosts
    /// Whether the receiver has picture in picture (AVKit: tvOS 14 and later). Absent means no: no
    /// third-party TV, stick or soundbar is known to offer it to an AirPlay session (assumed).
    public var pictureInPicture: Bool?
    /// How the player buffers fetched segments; absent means AVPlayer-class numbers, all assumed.
    public var buffer: Buffering?
    /// The device's known misbehaviours, each with its source; absent means none is known.
    public var quirks: [DeclaredQuirk]?
    /// How the device presents itself to senders; absent means an AirPlay 1 receiver (`device`).
    public var airplay: AirPlayDevice?
    /// Every number of the file with its source and basis; read from the document by the catalog,
    /// not from the decoded values (ProfileProvenance says why).
    public var provenance = ProfileProvenance()

    enum CodingKeys: String, CodingKey {
        case name, version, model, displayName, deviceIDSeed, notes, video, audio, display, switching, network, transitions
        case pictureInPicture, buffer, quirks, airplay
    }

    /// The record the receiver publishes: the profile's, or the legacy AirPlay 1 one.
    public var device: AirPlayDevice { airplay ?? .legacy }

    /// What a report names: this profile, its version, and how its numbers are sourced.
    public var summary: ProfileSummary {
        ProfileSummary(name: name, version: version, numbers: provenance.counts)
    }

    public var supportsPictureInPicture: Bool { pictureInPicture ?? false }

    /// The buffer model the engine plays segments by: the profile's numbers, its preload lead.
    public var bufferModel: BufferModel {
        var model = buffer.map {
            BufferModel(
                family: $0.family, forwardTarget: $0.forwardTarget, startupBuffer: $0.startupBuffer, rebufferResume: $0.rebufferResume,
                preloadLead: BufferModel.assumedAVPlayer.preloadLead, retry: $0.retry)
        } ?? .assumedAVPlayer
        if let lead = switching.preloadLeadSeconds {
            model.preloadLead = .init(lead, source: "the profile's switching.preloadLeadSeconds")
        }
        return model
    }

    /// A profile's buffer numbers (`buffer` in its JSON), each with its source.
    public struct Buffering: Sendable, Hashable, Codable {
        public var family: String
        public var forwardTarget: BufferModel.Seconds
        public var startupBuffer: BufferModel.Seconds
        public var rebufferResume: BufferModel.Seconds
        public var retry: RetryPolicy
    }

    public struct VideoCapabilities: Sendable, Hashable, Codable {
        public var codecs: [VideoCodecSupport]
        public var dynamicRanges: [String]
    }

    public struct VideoCodecSupport: Sendable, Hashable, Codable {
        /// FFmpeg's codec_name: h264, hevc.
        public var codec: String
        public var maxWidth: Int
        public var maxHeight: Int
        public var maxFrameRate: Double
        public var maxLevel: Double?
        public var maxBitDepth: Int?
        /// FFmpeg profile names accepted; nil accepts all.
        public var profiles: [String]?
    }

    public struct AudioCapabilities: Sendable, Hashable, Codable {
        public var codecs: [AudioCodecSupport]
    }

    public struct AudioCodecSupport: Sendable, Hashable, Codable {
        public var codec: String
        public var maxChannels: Int
        public var sampleRates: [Int]
    }

    public struct DisplayBehaviour: Sendable, Hashable, Codable {
        public var matchFrameRate: Bool
        public var matchDynamicRange: Bool
    }

    public enum CodecChange: String, Sendable, Hashable, Codable {
        /// The decoder switches codecs in place.
        case seamless
        /// A codec change tears the decoder down and builds a new one.
        case reinitialise
        /// The player cannot leave the codec it started with: content in another codec fails.
        case stayOnStartCodec = "stay-on-start-codec"
    }

    public struct SwitchingBehaviour: Sendable, Hashable, Codable {
        public var codecChange: CodecChange
        /// How long before a break the receiver starts loading it.
        public var preloadLeadSeconds: Double?
    }

    public struct Network: Sendable, Hashable, Codable {
        public var rttMilliseconds: Double
        public var bandwidthMbps: Double
    }

    /// `splice` is paid at every transition; each other cost when its dimension differs.
    public struct TransitionCosts: Sendable, Hashable, Codable {
        public var splice: TransitionCost
        /// Keyed by media dimension (`video_codec`, `frame_rate`, … as Media names them).
        public var dimensions: [String: TransitionCost]

        public init(splice: TransitionCost, dimensions: [String: TransitionCost]) {
            self.splice = splice
            self.dimensions = dimensions
        }

        public init(from decoder: Decoder) throws {
            var all = try [String: TransitionCost](from: decoder)
            guard let splice = all.removeValue(forKey: "splice") else {
                throw DecodingError.keyNotFound(
                    DynamicKey("splice"), .init(codingPath: decoder.codingPath, debugDescription: "splice is required"))
            }
            self.splice = splice
            dimensions = all
        }

        public func encode(to encoder: Encoder) throws {
            var all = dimensions
            all["splice"] = splice
            try all.encode(to: encoder)
        }
    }
}

/// The cost of one kind of transition as a distribution: the median and the 95th percentile, and
/// where the numbers come from (a publication, or "assumed").
public struct TransitionCost: Sendable, Hashable, Codable {
    public enum Path: String, Sendable, Hashable, Codable {
        case video, audio, both
    }

    public var p50Milliseconds: Double
    public var p95Milliseconds: Double
    public var path: Path?
    public var source: String

    public init(p50Milliseconds: Double, p95Milliseconds: Double, path: Path? = nil, source: String) {
        self.p50Milliseconds = p50Milliseconds
        self.p95Milliseconds = p95Milliseconds
        self.path = path
        self.source = source
    }
}

struct DynamicKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
