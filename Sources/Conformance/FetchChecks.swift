import Foundation
import HLS
import MediaValues

/// SEG-HTTP, SEG-MIME, SEG-SLOW and SEG-MEDIA: whether each segment arrived whole, as what, how fast,
/// and as media.
extension RenditionChecks {
    /// Content types a segment of each container should be served with (HLS Authoring Spec 10.4).
    static let transportStreamTypes: Set<String> = ["video/mp2t"]
    static let fragmentedMP4Types: Set<String> = ["video/iso.segment", "video/mp4", "audio/mp4", "application/mp4"]
    static let packedAudioTypes: Set<String> = ["audio/aac", "audio/ac3", "audio/eac3", "audio/mpeg"]

    func fetchFindings() -> [SegmentDiagnostic] {
        var findings: [SegmentDiagnostic] = []
        for segment in segments {
            let fetch = segment.fetch
            if let failure = fetch.failure {
                if fetch.timedOut {
                    findings.append(finding(
                        .error, .segmentSlow, "The segment did not load within the timeout: \(failure).", at: segment,
                        measured: Shown.seconds(fetch.loadSeconds), allowed: "a complete load", rule: SegmentRule.hlsjsConfig))
                } else {
                    findings.append(finding(
                        .error, .segmentHTTP, "The segment could not be fetched: \(failure).", at: segment,
                        measured: fetch.status.map { "HTTP \($0)" } ?? "no answer", allowed: "HTTP 200 (206 for a byte range)",
                        rule: SegmentRule.authoring("8.18")))
                }
                continue
            }
            findings += httpFindings(segment)
            if let failure = segment.analysisFailure {
                findings.append(finding(
                    .error, .segmentMedia, "The segment's bytes could not be demuxed: \(failure).", at: segment,
                    measured: "\(fetch.byteCount) bytes", allowed: "an MPEG-TS, fMP4 or packed audio segment",
                    rule: SegmentRule.rfc("3")))
            }
            // Only a fetch over HTTP measures an origin; how long a local file took to read says how
            // busy this machine was, and nothing about the stream.
            if fetch.status != nil, fetch.loadSeconds > segment.extinf, segment.extinf > 0 {
                findings.append(finding(
                    .warning, .segmentSlow, "The segment took longer to load than it plays, so a player on this origin falls behind.",
                    at: segment, measured: Shown.seconds(fetch.loadSeconds), allowed: "≤ \(Shown.seconds(segment.extinf)) (its EXTINF)",
                    rule: SegmentRule.hlsjsConfig))
            }
        }
        return findings
    }

    private func httpFindings(_ segment: SegmentRecord) -> [SegmentDiagnostic] {
        var findings: [SegmentDiagnostic] = []
        let fetch = segment.fetch
        if let status = fetch.status, status != 200, status != 206 {
            findings.append(finding(
                .error, .segmentHTTP, "The segment was answered with HTTP \(status).", at: segment, measured: "HTTP \(status)",
                allowed: "HTTP 200 (206 for a byte range)", rule: SegmentRule.authoring("8.18")))
        }
        if let declared = fetch.declaredLength, !segment.isByteRange, declared != fetch.byteCount {
            findings.append(finding(
                .error, .segmentHTTP, "The body's length differs from its Content-Length: the transfer was cut or the header is wrong.",
                at: segment, measured: "\(fetch.byteCount) bytes", allowed: "\(declared) bytes (Content-Length)",
                rule: SegmentRule.authoring("8.18")))
        }
        if let type = fetch.contentType, let facts = segment.facts {
            let bare = type.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
            let accepted = facts.transportStream != nil
                ? Self.transportStreamTypes : facts.video == nil && facts.adtsHeader != nil ? Self.packedAudioTypes : Self.fragmentedMP4Types
            if !accepted.contains(bare) {
                findings.append(finding(
                    .warning, .segmentMIME, "The segment is served as '\(type)', which players may refuse for this container.",
                    at: segment, measured: type, allowed: accepted.sorted().joined(separator: ", "), rule: SegmentRule.authoring("10.4")))
            }
        }
        return findings
    }
}
