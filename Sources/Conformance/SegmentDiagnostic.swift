import HLS
import MediaValues

/// A problem one check found in a stream's segments: where (role, URL, sequence numbers), what was
/// measured against what is allowed, and the rule that allows it.
///
/// The severity and the code are the playlist diagnostics' own (`Diagnostic.Severity`,
/// `DiagnosticCode`), so one filter, one JSON shape and one JUnit view serve both. Every diagnostic
/// prints its tolerance and its rule: mediastreamvalidator's users ask for exactly that.
public struct SegmentDiagnostic: Sendable, Hashable, Codable, CustomStringConvertible {
    public var severity: Diagnostic.Severity
    public var code: DiagnosticCode
    /// A sentence a person can act on.
    public var message: String
    public var role: SegmentRole
    public var rendition: RenditionKind
    /// The segment's URL; the playlist's for a finding about the whole rendition.
    public var url: String
    /// Nil for a finding about the whole rendition (an IDR interval, a bitrate).
    public var mediaSequence: Int?
    public var discontinuitySequence: Int?
    /// What was measured, with its unit: "2.3 s", "5.1 Mbit/s".
    public var measured: String
    /// What the rule allows, with its unit: "≤ 0.033 s".
    public var allowed: String
    /// Where the rule comes from: "HLS Authoring Spec 8.1".
    public var rule: String

    public init(
        _ severity: Diagnostic.Severity, _ code: DiagnosticCode, _ message: String, role: SegmentRole, rendition: RenditionKind,
        url: String, mediaSequence: Int? = nil, discontinuitySequence: Int? = nil, measured: String, allowed: String, rule: String
    ) {
        self.severity = severity
        self.code = code
        self.message = message
        self.role = role
        self.rendition = rendition
        self.url = url
        self.mediaSequence = mediaSequence
        self.discontinuitySequence = discontinuitySequence
        self.measured = measured
        self.allowed = allowed
        self.rule = rule
    }

    /// The check family the code belongs to, for JUnit cases: SEG-TS-GAP and SEG-TS-OVERLAP are one.
    public var family: String { code.checkFamily }

    public var description: String {
        let place = mediaSequence.map { " segment \($0) (discontinuity \(discontinuitySequence ?? 0))" } ?? ""
        return "\(severity.rawValue): \(role)\(rendition == .audio ? " audio" : "")\(place): \(message) "
            + "(measured \(measured), allowed \(allowed); \(rule)) [\(code.rawValue)] \(url)"
    }
}

extension Array where Element == SegmentDiagnostic {
    public var hasErrors: Bool { contains { $0.severity == .error } }
}
