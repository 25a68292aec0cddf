/// One stream of a probed asset, described with ffprobe's key names and value forms.
///
/// Keys and values are spelled as `ffprobe -show_streams -of json` spells them (`r_frame_rate` as
/// "30000/1001", `sample_rate` as the string "48000", `level` as the number 40), so a person can check
/// airlab against ffprobe by eye. A value FFmpeg does not know is absent, never null or "unknown".
/// airlab's additions (`codec_string`, `dynamic_range`, `bit_depth`) follow the same spelling.
public struct StreamParameters: Sendable, Hashable {
    public var index: Int
    /// "video", "audio", "subtitle", "data" or "attachment".
    public var codecType: String
    public var codecName: String?
    public var profile: String?
    /// The codec's own level number as ffprobe prints it (H.264 40 for 4.0, HEVC 123 for 4.1).
    public var level: Int?
    public var width: Int?
    public var height: Int?
    public var sampleAspectRatio: String?
    public var displayAspectRatio: String?
    public var rFrameRate: String?
    public var avgFrameRate: String?
    public var pixFmt: String?
    public var colorRange: String?
    public var colorSpace: String?
    public var colorTransfer: String?
    public var colorPrimaries: String?
    public var sampleFmt: String?
    /// A string, as ffprobe prints it.
    public var sampleRate: String?
    public var channels: Int?
    public var channelLayout: String?
    /// A string, as ffprobe prints it.
    public var bitsPerRawSample: String?
    /// The stream's `language` tag (ISO 639-2, e.g. "eng").
    public var language: String?
    /// The RFC 6381 `CODECS` value, e.g. "avc1.640028", "hvc1.2.4.L123.B0", "mp4a.40.2", "ec-3".
    public var codecString: String?
    public var dynamicRange: DynamicRange?
    /// Bits per sample of the first video component, or of an audio sample when the codec says.
    public var bitDepth: Int?

    public init(index: Int, codecType: String) {
        self.index = index
        self.codecType = codecType
    }

    public var isVideo: Bool { codecType == "video" }
    public var isAudio: Bool { codecType == "audio" }
    public var isSubtitle: Bool { codecType == "subtitle" }

    /// A value in one of the two forms ffprobe's JSON uses.
    public enum FieldValue: Sendable, Hashable, CustomStringConvertible {
        case integer(Int)
        case string(String)

        public var description: String {
            switch self {
            case .integer(let value): String(value)
            case .string(let value): value
            }
        }
    }

    /// Every known value, keyed as ffprobe keys it, in ffprobe's order with airlab's additions last.
    ///
    /// Text output, JSON output and the tests against ffprobe all read this one list, so the three
    /// cannot disagree on a name. The language tag is keyed `tags.language` here and nested under
    /// `tags` in JSON, as ffprobe nests it.
    public var fields: [(key: String, value: FieldValue)] {
        let candidates: [(String, FieldValue?)] = [
            ("index", .integer(index)),
            ("codec_name", codecName.map(FieldValue.string)),
            ("profile", profile.map(FieldValue.string)),
            ("codec_type", .string(codecType)),
            ("width", width.map(FieldValue.integer)),
            ("height", height.map(FieldValue.integer)),
            ("sample_aspect_ratio", sampleAspectRatio.map(FieldValue.string)),
            ("display_aspect_ratio", displayAspectRatio.map(FieldValue.string)),
            ("pix_fmt", pixFmt.map(FieldValue.string)),
            ("level", level.map(FieldValue.integer)),
            ("color_range", colorRange.map(FieldValue.string)),
            ("color_space", colorSpace.map(FieldValue.string)),
            ("color_transfer", colorTransfer.map(FieldValue.string)),
            ("color_primaries", colorPrimaries.map(FieldValue.string)),
            ("sample_fmt", sampleFmt.map(FieldValue.string)),
            ("sample_rate", sampleRate.map(FieldValue.string)),
            ("channels", channels.map(FieldValue.integer)),
            ("channel_layout", channelLayout.map(FieldValue.string)),
            ("r_frame_rate", rFrameRate.map(FieldValue.string)),
            ("avg_frame_rate", avgFrameRate.map(FieldValue.string)),
            ("bits_per_raw_sample", bitsPerRawSample.map(FieldValue.string)),
            ("tags.language", language.map(FieldValue.string)),
            ("codec_string", codecString.map(FieldValue.string)),
            ("dynamic_range", dynamicRange.map { .string($0.description) }),
            ("bit_depth", bitDepth.map(FieldValue.integer)),
        ]
        return candidates.compactMap { key, value in value.map { (key, $0) } }
    }
}

extension StreamParameters: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: FieldKey.self)
        for (key, value) in fields {
            if key.hasPrefix("tags.") {
                var tags = container.nestedContainer(keyedBy: FieldKey.self, forKey: FieldKey("tags"))
                try tags.encode(value, forKey: FieldKey(String(key.dropFirst(5))))
            } else {
                try container.encode(value, forKey: FieldKey(key))
            }
        }
    }
}

extension StreamParameters.FieldValue: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .integer(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        }
    }
}

/// A JSON key taken from a string, for output whose keys are data (ffprobe's names).
struct FieldKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
