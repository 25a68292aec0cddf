/// How a video stream's brightness is encoded, as a receiver's display mode has to follow it.
///
/// A change between any two of these makes a TV with "match dynamic range" switch display modes.
public enum DynamicRange: Sendable, Hashable, CustomStringConvertible {
    case sdr
    /// SMPTE ST 2084 (HDR10 and its relatives).
    case pq
    /// ARIB STD-B67 hybrid log-gamma.
    case hlg
    /// Dolby Vision; `profile` and `level` from the stream's DOVI configuration record.
    case dolbyVision(profile: Int, level: Int)

    public var description: String {
        switch self {
        case .sdr: "SDR"
        case .pq: "PQ"
        case .hlg: "HLG"
        case .dolbyVision(let profile, let level): "Dolby Vision profile \(profile) level \(level)"
        }
    }

    /// The range a transfer characteristic (ffprobe's `color_transfer` name) implies.
    static func from(colorTransfer: String?) -> DynamicRange {
        switch colorTransfer {
        case "smpte2084": .pq
        case "arib-std-b67": .hlg
        default: .sdr
        }
    }
}
