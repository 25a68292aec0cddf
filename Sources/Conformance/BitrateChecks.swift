import HLS
import MediaValues

/// SEG-BITRATE, SEG-NET-FIT and SEG-ASSET-LEN: a rendition's measured bits and length against what its
/// playlists declared and what a receiver's network carries.
extension RenditionChecks {
    /// 8 · bytes / EXTINF of every segment that arrived, with the segment.
    var segmentBitrates: [(segment: SegmentRecord, bitsPerSecond: Double)] {
        segments.compactMap { segment in
            guard segment.fetch.failure == nil, segment.extinf > 0 else { return nil }
            return (segment, 8 * Double(segment.fetch.byteCount) / segment.extinf)
        }
    }

    /// The peak segment bitrate and the average over the rendition, in bit/s.
    var measuredBitrates: (peak: (segment: SegmentRecord, bitsPerSecond: Double), average: Double)? {
        let rates = segmentBitrates
        guard let peak = rates.max(by: { $0.bitsPerSecond < $1.bitsPerSecond }) else { return nil }
        let seconds = rates.reduce(0) { $0 + $1.segment.extinf }
        let bytes = rates.reduce(0) { $0 + Double($1.segment.fetch.byteCount) }
        return (peak, seconds > 0 ? 8 * bytes / seconds : 0)
    }

    func bitrateFindings(networkBandwidth: Double?) -> [SegmentDiagnostic] {
        guard rendition.kind == .main, let measured = measuredBitrates else { return [] }
        var findings = declaredBitrateFindings(
            measured, bandwidth: rendition.declaredBandwidth, average: rendition.declaredAverageBandwidth, against: "this variant's")
        if let networkBandwidth, networkBandwidth > 0 {
            let limit = networkBandwidth * SegmentTolerance.networkShare
            let over = segmentBitrates.filter { $0.bitsPerSecond > limit }
            if let worst = over.max(by: { $0.bitsPerSecond < $1.bitsPerSecond }) {
                findings.append(finding(
                    .warning, .segmentNetworkFit,
                    "\(over.count) segment(s) need more than the receiver's network carries; it stalls or drops to a lower variant here.",
                    at: worst.segment, measured: Shown.bitrate(worst.bitsPerSecond),
                    allowed: "≤ \(Shown.bitrate(limit)) (95 % of \(Shown.bitrate(networkBandwidth)))", rule: SegmentRule.hlsjsConfig))
            }
        }
        return findings
    }

    /// Peak vs BANDWIDTH and average vs AVERAGE-BANDWIDTH, with the VOD or live slack.
    func declaredBitrateFindings(
        _ measured: (peak: (segment: SegmentRecord, bitsPerSecond: Double), average: Double), bandwidth: Int?, average: Int?,
        against whose: String
    ) -> [SegmentDiagnostic] {
        var findings: [SegmentDiagnostic] = []
        let live = rendition.isLive
        if let bandwidth, bandwidth > 0 {
            let limit = Double(bandwidth) * (1 + (live ? SegmentTolerance.livePeakSlack : SegmentTolerance.vodBitrateSlack))
            if measured.peak.bitsPerSecond > limit {
                findings.append(finding(
                    .error, .segmentBitrate, "The measured peak segment bitrate exceeds \(whose) declared BANDWIDTH.", at: measured.peak.segment,
                    measured: Shown.bitrate(measured.peak.bitsPerSecond),
                    allowed: "≤ \(Shown.bitrate(limit)) (BANDWIDTH \(Shown.bitrate(Double(bandwidth))) + \(live ? 25 : 10) %)",
                    rule: SegmentRule.authoring(live ? "1.27" : "1.26, 9.13")))
            }
        }
        if let average, average > 0 {
            let declared = Double(average)
            let slack = live ? SegmentTolerance.liveAverageSlack : SegmentTolerance.vodBitrateSlack
            let high = measured.average > declared * (1 + slack)
            let low = !live && measured.average < declared * (1 - slack)
            if high || low {
                findings.append(finding(
                    .error, .segmentBitrate, "The measured average bitrate is \(high ? "above" : "below") \(whose) declared AVERAGE-BANDWIDTH.",
                    at: nil, measured: Shown.bitrate(measured.average),
                    allowed: live ? "≤ \(Shown.bitrate(declared * (1 + slack)))" : "\(Shown.bitrate(declared)) ± 10 %",
                    rule: SegmentRule.authoring(live ? "1.28" : "1.29, 9.13")))
            }
        }
        return findings
    }

    func assetLengthFindings() -> [SegmentDiagnostic] {
        guard case .asset = rendition.role, rendition.kind == .main, let declared = rendition.declaredDuration else { return [] }
        let durations = segments.compactMap(measuredDuration)
        guard durations.count == segments.count, !durations.isEmpty else { return [] }
        let measured = durations.reduce(0, +)
        let limit = SegmentTolerance.assetLengthFrames * frameDuration
        guard abs(measured - declared) > limit + SegmentTolerance.epsilon else { return [] }
        return [finding(
            .warning, .segmentAssetLength,
            "The asset plays \(Shown.seconds(measured)), not the \(Shown.seconds(declared)) its interstitial declares: the break ends early or late and primary resumes off its mark.",
            at: nil, measured: Shown.seconds(measured), allowed: "\(Shown.seconds(declared)) ± \(Shown.seconds(limit)) (1 frame)",
            rule: SegmentRule.authoring("15.3"))]
    }
}
