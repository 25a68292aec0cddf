import HLS

/// The stable codes of the per-segment checks (docs/validate.md), spelled as its
/// table spells them. Tools match on them, so a code is never renamed.
extension DiagnosticCode {
    public static let segmentHTTP = DiagnosticCode("SEG-HTTP")
    public static let segmentMIME = DiagnosticCode("SEG-MIME")
    public static let segmentSlow = DiagnosticCode("SEG-SLOW")
    /// The bytes arrived but are not media a demuxer can read.
    public static let segmentMedia = DiagnosticCode("SEG-MEDIA")
    public static let segmentEXTINF = DiagnosticCode("SEG-EXTINF")
    public static let segmentTarget = DiagnosticCode("SEG-TARGET")
    public static let segmentIDR = DiagnosticCode("SEG-IDR")
    public static let segmentIDRInterval = DiagnosticCode("SEG-IDR-INTERVAL")
    public static let segmentTimestampGap = DiagnosticCode("SEG-TS-GAP")
    public static let segmentTimestampOverlap = DiagnosticCode("SEG-TS-OVERLAP")
    public static let segmentTimelineDrift = DiagnosticCode("SEG-TL-DRIFT")
    public static let segmentDiscontinuityMissing = DiagnosticCode("SEG-DISC-MISSING")
    public static let segmentFrameRateChange = DiagnosticCode("SEG-FPS-CHANGE")
    public static let segmentParameterChange = DiagnosticCode("SEG-PARAM-CHANGE")
    public static let segmentAVStart = DiagnosticCode("SEG-AV-START")
    public static let segmentAVLength = DiagnosticCode("SEG-AV-LEN")
    public static let segmentBitrate = DiagnosticCode("SEG-BITRATE")
    public static let segmentNetworkFit = DiagnosticCode("SEG-NET-FIT")
    public static let segmentAssetLength = DiagnosticCode("SEG-ASSET-LEN")
    public static let segmentSplice = DiagnosticCode("SEG-SPLICE")
    public static let segmentContinuity = DiagnosticCode("SEG-TS-CC")

    /// Every per-segment code, in docs/validate.md's order.
    public static let segmentCodes: [DiagnosticCode] = [
        .segmentHTTP, .segmentMIME, .segmentSlow, .segmentMedia, .segmentEXTINF, .segmentTarget, .segmentIDR, .segmentIDRInterval,
        .segmentTimestampGap, .segmentTimestampOverlap, .segmentTimelineDrift, .segmentDiscontinuityMissing, .segmentFrameRateChange,
        .segmentParameterChange, .segmentAVStart, .segmentAVLength, .segmentBitrate, .segmentNetworkFit, .segmentSplice,
        .segmentAssetLength, .segmentContinuity,
    ]

    /// The check a code belongs to, for JUnit cases: SEG-TS-GAP and SEG-TS-OVERLAP are one check.
    public var checkFamily: String {
        switch self {
        case .segmentTimestampGap, .segmentTimestampOverlap: "SEG-TS-GAP/OVERLAP"
        default: rawValue
        }
    }

    /// Every check family, in docs/validate.md's order.
    public static var segmentFamilies: [String] {
        var seen = Set<String>()
        return segmentCodes.map(\.checkFamily).filter { seen.insert($0).inserted }
    }
}

/// The documents the rules come from, as a diagnostic names them.
enum SegmentRule {
    static func authoring(_ item: String) -> String { "HLS Authoring Spec \(item)" }
    static func rfc(_ section: String) -> String { "RFC 8216bis \(section)" }
    static let hlsjsConfig = "hls.js default config (fragLoadPolicy, maxBufferHole, abrBandWidthFactor)"
    static let ctaWave = "CTA-WAVE DPCTF earliest_sample_alignment_tolerance"
    static let isoTS = "ISO/IEC 13818-1 2.4.3.3 (continuity_counter)"
}
