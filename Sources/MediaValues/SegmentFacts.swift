/// What demuxing one media segment learned, without decoding a frame: the timestamps, the first
/// access unit, the parameter sets and the transport stream's continuity.
///
/// A value, so that the checks (`Conformance`), the engine's `verify` mode and the reports can read it
/// without FFmpeg. Times are seconds on the segment's own timestamp clock (a TS segment usually
/// starts near 1.4 s, an fMP4 segment at its `tfdt`), never positions on a playlist's timeline.
public struct SegmentFacts: Sendable, Hashable, Codable {
    /// The first video stream, when there is one.
    public var video: TrackFacts?
    /// The first audio stream, when there is one.
    public var audio: TrackFacts?
    /// The kind of the first video access unit, read from its NAL unit types.
    public var firstVideoUnit: AccessUnitKind?
    /// Presentation times of the access units that hold an IDR (H.264) or IDR/BLA (HEVC) picture.
    public var idrTimes: [Double] = []
    /// CRC-32 of the video parameter sets (SPS, PPS, VPS) in force at the segment's start: those in
    /// the stream (Annex B, avc3/hev1), else the codec configuration record (`stsd`, avc1/hvc1).
    public var parameterSetHash: UInt32?
    /// The fixed part of the first ADTS header (AAC in TS), or nil for audio carried without one.
    public var adtsHeader: ADTSHeader?
    /// CRC-32 of the audio decoder configuration (an fMP4 `esds` AudioSpecificConfig), when present.
    public var audioConfigurationHash: UInt32?
    /// Bytes demuxed (the init section included for fMP4).
    public var byteCount: Int
    /// The 188-byte packet scan of a transport stream; nil for other containers.
    public var transportStream: TransportStreamScan?

    public init(byteCount: Int) {
        self.byteCount = byteCount
    }

    /// The track that decides a segment's duration and position: video, else audio.
    public var leadingTrack: TrackFacts? { video ?? audio }
}

/// One stream's timestamps in a segment, in seconds.
public struct TrackFacts: Sendable, Hashable, Codable {
    public var codecName: String?
    public var firstPTS: Double
    public var lastPTS: Double
    public var firstDTS: Double
    public var lastDTS: Double
    /// max(PTS + duration) − min(PTS): with B-frames the last packet is not the last frame shown.
    public var duration: Double
    /// The most common DTS step: one frame of video, one AAC frame (1024 samples) of audio.
    public var frameDuration: Double?
    public var packetCount: Int

    public init(
        codecName: String?, firstPTS: Double, lastPTS: Double, firstDTS: Double, lastDTS: Double, duration: Double,
        frameDuration: Double?, packetCount: Int
    ) {
        self.codecName = codecName
        self.firstPTS = firstPTS
        self.lastPTS = lastPTS
        self.firstDTS = firstDTS
        self.lastDTS = lastDTS
        self.duration = duration
        self.frameDuration = frameDuration
        self.packetCount = packetCount
    }

    /// min(PTS) + duration: where the next segment's first frame belongs.
    public var endPTS: Double { firstPTS + duration }
    /// The last DTS plus one frame: where the next segment's first DTS belongs.
    public var endDTS: Double { lastDTS + (frameDuration ?? 0) }
    /// Frames per second from the DTS step; nil when the step is unknown.
    public var frameRate: Double? { frameDuration.map { 1 / $0 } }
}

/// What the first access unit of a video segment is, by NAL unit type (never FFmpeg's key flag,
/// which the H.264 parser also sets on recovery points).
public enum AccessUnitKind: String, Sendable, Hashable, Codable {
    /// H.264 type 5; HEVC IDR_W_RADL 19, IDR_N_LP 20.
    case idr
    /// HEVC CRA 21: decodable from here, but leading pictures may be dropped.
    case cleanRandomAccess = "cra"
    /// HEVC BLA 16–18.
    case brokenLinkAccess = "bla"
    /// Any other picture: the segment cannot be decoded on its own.
    case nonIDR = "non-idr"
}

/// The fields of an ADTS header that stay the same from frame to frame.
public struct ADTSHeader: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The audio object type minus one (1 = AAC LC).
    public var profile: Int
    public var samplingFrequencyIndex: Int
    public var channelConfiguration: Int

    public init(profile: Int, samplingFrequencyIndex: Int, channelConfiguration: Int) {
        self.profile = profile
        self.samplingFrequencyIndex = samplingFrequencyIndex
        self.channelConfiguration = channelConfiguration
    }

    /// Reads the fixed header from the first bytes of an ADTS frame; nil without the sync word.
    public init?(_ bytes: some Collection<UInt8>) {
        let header = Array(bytes.prefix(4))
        guard header.count == 4, header[0] == 0xFF, header[1] & 0xF0 == 0xF0 else { return nil }
        profile = Int(header[2] >> 6)
        samplingFrequencyIndex = Int(header[2] >> 2 & 0x0F)
        channelConfiguration = Int((header[2] & 0x01) << 2 | header[3] >> 6)
    }

    /// The sampling frequency the index stands for (ISO/IEC 14496-3 Table 1.18); nil for the escape
    /// value and the reserved ones.
    public var sampleRate: Int? {
        let rates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]
        return rates.indices.contains(samplingFrequencyIndex) ? rates[samplingFrequencyIndex] : nil
    }

    public var description: String {
        "profile \(profile), sampling frequency index \(samplingFrequencyIndex), channel configuration \(channelConfiguration)"
    }
}

/// MPEG-TS continuity counters, checked per PID over a segment's 188-byte packets.
public struct TransportStreamScan: Sendable, Hashable, Codable {
    public var packetCount: Int
    /// Where a counter skipped, in packet order; at most `breakLimit` are kept, `breakCount` counts all.
    public var breaks: [ContinuityBreak] = []
    public var breakCount = 0
    /// Bytes at the end that make no whole packet, or 0.
    public var trailingBytes = 0

    public static let breakLimit = 16

    public init(packetCount: Int) {
        self.packetCount = packetCount
    }
}

/// A continuity counter that did not follow its predecessor on the same PID.
public struct ContinuityBreak: Sendable, Hashable, Codable {
    public var pid: Int
    /// 0-based index of the 188-byte packet in the segment.
    public var packetIndex: Int
    public var expected: Int
    public var found: Int

    public init(pid: Int, packetIndex: Int, expected: Int, found: Int) {
        self.pid = pid
        self.packetIndex = packetIndex
        self.expected = expected
        self.found = found
    }
}
