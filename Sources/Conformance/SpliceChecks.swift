import HLS
import MediaValues

/// SEG-SPLICE: at each place the schedule leaves or rejoins primary, whether the media there is where
/// the playlist's durations put it. A player cuts at the playlist position; media that is off by a
/// frame or more there loses or repeats that many frames at the splice.
extension RenditionChecks {
    func spliceFindings() -> [SegmentDiagnostic] {
        guard rendition.role == .primary, rendition.kind == .main, !rendition.splicePoints.isEmpty else { return [] }
        // Each segment's start on the playlist's timeline, and how far its media is from it (against the
        // first segment of its run).
        var starts: [Double] = []
        var drifts: [Double?] = []
        starts.reserveCapacity(segments.count)
        drifts.reserveCapacity(segments.count)
        var position = 0.0
        for run in runs {
            var base: (pts: Double, position: Double)?
            for index in run {
                let segment = segments[index]
                starts.append(position)
                if let leading = segment.facts?.leadingTrack {
                    if base == nil { base = (leading.firstPTS, position) }
                    drifts.append(leading.firstPTS - base!.pts - (position - base!.position))
                } else {
                    drifts.append(nil)
                }
                position += segment.extinf
            }
        }
        var findings: [SegmentDiagnostic] = []
        var seen = Set<Double>()
        for point in rendition.splicePoints where seen.insert(point.position).inserted {
            // The segment the splice falls in: the last one starting at or before it.
            guard point.position < position, let index = lastIndex(in: starts, atOrBefore: point.position), let drift = drifts[index] else {
                continue
            }
            let frames = (abs(drift) / frameDuration).rounded()
            guard frames >= 1 else { continue }
            findings.append(finding(
                .error, .segmentSplice,
                "Where '\(point.interstitial)' \(point.isReturn ? "returns to" : "leaves") primary (\(Shown.seconds(point.position)) on the playlist), the media is \(Shown.seconds(drift)) off its playlist position: about \(Int(frames)) frame(s) lost or repeated at the splice.",
                at: segments[index], measured: "\(Int(frames)) frame(s) (\(Shown.seconds(drift)))", allowed: "0 frames",
                rule: "CTA-WAVE DPCTF splice_start_frame_num_tolerance / splice_end_frame_num_tolerance (0)"))
        }
        return findings
    }

    /// The index of the last value ≤ `value` in ascending `values`, by bisection.
    private func lastIndex(in values: [Double], atOrBefore value: Double) -> Int? {
        var low = 0
        var high = values.count
        while low < high {
            let middle = (low + high) / 2
            if values[middle] <= value { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? low - 1 : nil
    }
}
