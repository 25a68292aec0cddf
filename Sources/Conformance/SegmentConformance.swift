import HLS
import MediaValues
import NumberText

/// The per-segment checks of `airlab validate` (docs/validate.md): pure functions from
/// surveyed renditions to diagnostics. No I/O, no clock: the survey measured everything first.
public enum SegmentConformance {
    /// What the checks know besides the segments.
    public struct Context: Sendable, Hashable {
        /// The receiver profile's bandwidth in bit/s, for SEG-NET-FIT; nil skips that check.
        public var networkBandwidth: Double?

        public init(networkBandwidth: Double? = nil) {
            self.networkBandwidth = networkBandwidth
        }
    }

    /// Every check over every rendition, in rendition order, then by check.
    public static func check(_ renditions: [SurveyedRendition], context: Context = Context()) -> [SegmentDiagnostic] {
        var diagnostics: [SegmentDiagnostic] = []
        for rendition in renditions {
            let checks = RenditionChecks(rendition)
            diagnostics += checks.fetchFindings()
            diagnostics += checks.timingFindings()
            diagnostics += checks.pictureFindings()
            diagnostics += checks.bitrateFindings(networkBandwidth: context.networkBandwidth)
            diagnostics += checks.assetLengthFindings()
            diagnostics += checks.spliceFindings()
        }
        diagnostics += RoleChecks.audioVideoFindings(renditions)
        diagnostics += RoleChecks.frameRateAcrossRoles(renditions)
        diagnostics += RoleChecks.assetBitrateFindings(renditions)
        return diagnostics
    }
}

/// One rendition's segments and what every check over them shares: the runs between
/// discontinuities, the frame duration, and how a finding names its place.
struct RenditionChecks {
    let rendition: SurveyedRendition
    /// Indices into `rendition.segments`, split where EXT-X-DISCONTINUITY starts a new run.
    let runs: [[Int]]
    /// One frame of the rendition's leading track (video, else audio), for the "one frame" rules.
    let frameDuration: Double

    init(_ rendition: SurveyedRendition) {
        self.rendition = rendition
        var runs: [[Int]] = []
        for index in rendition.segments.indices {
            if runs.isEmpty || rendition.segments[index].followsDiscontinuity { runs.append([]) }
            runs[runs.count - 1].append(index)
        }
        self.runs = runs
        let step = rendition.segments.lazy.compactMap { $0.facts?.leadingTrack?.frameDuration }.first { $0 > 0 && $0 < 1 }
        frameDuration = step ?? SegmentTolerance.defaultFrameDuration
    }

    var segments: [SegmentRecord] { rendition.segments }

    func finding(
        _ severity: Diagnostic.Severity, _ code: DiagnosticCode, _ message: String, at segment: SegmentRecord?,
        measured: String, allowed: String, rule: String
    ) -> SegmentDiagnostic {
        SegmentDiagnostic(
            severity, code, message, role: rendition.role, rendition: rendition.kind, url: segment?.url ?? rendition.playlist,
            mediaSequence: segment?.mediaSequence, discontinuitySequence: segment?.discontinuitySequence, measured: measured,
            allowed: allowed, rule: rule)
    }
}

/// Numbers as the diagnostics print them.
enum Shown {
    static func seconds(_ value: Double) -> String { "\(value.plainTextToMilliseconds) s" }
    static func milliseconds(_ value: Double) -> String { "\((value * 1000).rounded().plainText) ms" }
    static func bitrate(_ bitsPerSecond: Double) -> String {
        "\(((bitsPerSecond / 1000).rounded()).plainText) kbit/s"
    }
    static func rate(_ framesPerSecond: Double) -> String { "\(((framesPerSecond * 1000).rounded() / 1000).plainText) fps" }
}
