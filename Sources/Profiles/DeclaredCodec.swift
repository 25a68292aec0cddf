/// What one entry of a CODECS attribute (RFC 6381) declares, in FFmpeg's names so it can be matched
/// against a profile's capabilities and a probe's results.
public struct DeclaredCodec: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case video, audio, subtitles
    }

    public var kind: Kind
    /// FFmpeg's codec_name: h264, hevc, aac, eac3…
    public var codecName: String
    /// Level as written in profiles (4.1, 5.1), when the string carries one.
    public var level: Double?
    /// Dolby Vision sample entries (dvh1, dvhe, dva1, dvav) carry HDR of their own.
    public var isDolbyVision: Bool
    public var text: String

    /// Reads one CODECS entry; nil for entries airlab does not know (they are then ignored).
    public init?(_ text: String) {
        self.text = text
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let entry = parts[0].lowercased()
        isDolbyVision = false
        level = nil
        switch entry {
        case "avc1", "avc3":
            kind = .video
            codecName = "h264"
            // avc1.PPCCLL: the last byte is level × 10.
            if parts.count > 1, parts[1].count == 6, let levelByte = UInt8(parts[1].suffix(2), radix: 16) {
                level = Double(levelByte) / 10
            }
        case "hvc1", "hev1":
            kind = .video
            codecName = "hevc"
            // hvc1.P.C.TLLL.B0: L123 means level 123 / 30 = 4.1.
            if parts.count > 3, let value = Double(parts[3].dropFirst()) {
                level = (value / 30 * 10).rounded() / 10
            }
        case "dvh1", "dvhe":
            kind = .video
            codecName = "hevc"
            isDolbyVision = true
        case "dva1", "dvav":
            kind = .video
            codecName = "h264"
            isDolbyVision = true
        case "av01":
            kind = .video
            codecName = "av1"
        case "vp09":
            kind = .video
            codecName = "vp9"
        case "mp4a":
            kind = .audio
            // mp4a.40.34 is MP3 carried in MP4; every other mp4a.40.x is an AAC flavour.
            codecName = parts.count > 2 && parts[2] == "34" ? "mp3" : "aac"
        case "ac-3": (kind, codecName) = (.audio, "ac3")
        case "ec-3": (kind, codecName) = (.audio, "eac3")
        case "opus": (kind, codecName) = (.audio, "opus")
        case "flac": (kind, codecName) = (.audio, "flac")
        case "alac": (kind, codecName) = (.audio, "alac")
        case "wvtt", "stpp": (kind, codecName) = (.subtitles, entry)
        default: return nil
        }
    }
}
