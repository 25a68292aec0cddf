/// How a video stream's brightness is encoded, as a receiver's display mode has to follow it.
///
/// A change between any two of these makes a TV with "match dynamic range" switch display modes.
public enum DynamicRange: Sendable, Hashable, CustomStringConvertible {
    case sdr
    /// SMPTE ST 2084 (HDR10 and its relatives).
    case pq
    /// ARIB STD-B67 hybrid log-gamma.
    case hlg
    /// Dolby Vision, from the stream's DOVI configuration record. `compatibility` is the base layer's
    /// signal compatibility id (profile 8: 1 HDR10, 2 SDR, 4 HLG), which a non-Dolby receiver plays.
    case dolbyVision(profile: Int, level: Int, compatibility: Int)

    public var description: String {
        switch self {
        case .sdr: "SDR"
        case .pq: "PQ"
        case .hlg: "HLG"
        // Profile 8 is always named with its compatibility id (8.1, 8.2, 8.4), as Dolby's documents do.
        case .dolbyVision(let profile, let level, let compatibility) where profile == 8:
            "Dolby Vision profile 8.\(compatibility) level \(level)"
        case .dolbyVision(let profile, let level, _): "Dolby Vision profile \(profile) level \(level)"
        }
    }

    /// The range a transfer characteristic (ffprobe's `color_transfer` name) implies.
    package static func from(colorTransfer: String?) -> DynamicRange {
        switch colorTransfer {
        case "smpte2084": .pq
        case "arib-std-b67": .hlg
        default: .sdr
        }
    }
}
