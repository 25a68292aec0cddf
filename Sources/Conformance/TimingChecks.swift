import HLS
import MediaValues
import NumberText

/// SEG-EXTINF, SEG-TARGET, SEG-TS-GAP/OVERLAP, SEG-DISC-MISSING and SEG-TL-DRIFT: the segments'
/// timestamps against each other and against the playlist's durations.
///
/// One cause gives one diagnostic. A boundary reported as a gap, an overlap or an unmarked jump
/// resets the timeline-drift base there; a run whose EXTINF sum already drifts past a frame
/// (SEG-EXTINF) does not also report the same drift as SEG-TL-DRIFT.
extension RenditionChecks {
    func timingFindings() -> [SegmentDiagnostic] {
        var findings: [SegmentDiagnostic] = []
        for segment in segments { findings += targetFindings(segment) }
        for run in runs {
            let extinf = extinfFindings(run)
            findings += extinf
            findings += boundaryFindings(run, reportDrift: !extinf.contains { $0.severity == .error })
        }
        return findings
    }

    /// The measured duration of a segment: its leading track's, max(PTS + duration) − min(PTS).
    func measuredDuration(_ segment: SegmentRecord) -> Double? {
        segment.facts?.leadingTrack?.duration
    }

    private func targetFindings(_ segment: SegmentRecord) -> [SegmentDiagnostic] {
        guard let target = rendition.targetDuration else { return [] }
        let rounded = Int(roundingSaturated: segment.extinf)
        if Double(rounded) > target {
            return [finding(
                .error, .segmentTarget, "The segment's EXTINF, rounded, exceeds EXT-X-TARGETDURATION.", at: segment,
                measured: "EXTINF \(segment.extinf.plainTextToMilliseconds) s (\(rounded) rounded)", allowed: "≤ \(target.plainText) s",
                rule: SegmentRule.rfc("4.4.3.1"))]
        }
        if let measured = measuredDuration(segment), measured > target + SegmentTolerance.targetOvershoot + SegmentTolerance.epsilon {
            return [finding(
                .error, .segmentTarget, "The segment plays longer than EXT-X-TARGETDURATION allows.", at: segment,
                measured: Shown.seconds(measured), allowed: "≤ \(Shown.seconds(target + SegmentTolerance.targetOvershoot))",
                rule: SegmentRule.authoring("7.7"))]
        }
        return []
    }

    /// Per segment a warning above one frame; the first prefix of the run whose sums differ by more
    /// than one frame an error.
    private func extinfFindings(_ run: [Int]) -> [SegmentDiagnostic] {
        var findings: [SegmentDiagnostic] = []
        let limit = SegmentTolerance.extinfFrames * frameDuration + SegmentTolerance.epsilon
        var measuredSum = 0.0
        var declaredSum = 0.0
        var reportedRun = false
        for index in run {
            let segment = segments[index]
            guard let measured = measuredDuration(segment) else { continue }
            let difference = measured - segment.extinf
            if abs(difference) > limit {
                findings.append(finding(
                    .warning, .segmentEXTINF, "The segment's measured duration differs from its EXTINF by more than one frame.",
                    at: segment, measured: "\(Shown.seconds(measured)) vs EXTINF \(Shown.seconds(segment.extinf))",
                    allowed: "± \(Shown.seconds(limit - SegmentTolerance.epsilon)) (1 frame)", rule: SegmentRule.authoring("8.1")))
            }
            measuredSum += measured
            declaredSum += segment.extinf
            if !reportedRun, abs(measuredSum - declaredSum) > limit {
                reportedRun = true
                findings.append(finding(
                    .error, .segmentEXTINF,
                    "The EXTINF durations of this discontinuity run, summed up to this segment, drift from the media by more than one frame.",
                    at: segment, measured: "\(Shown.seconds(measuredSum)) vs EXTINF sum \(Shown.seconds(declaredSum))",
                    allowed: "± \(Shown.seconds(limit - SegmentTolerance.epsilon)) (1 frame, cumulative)", rule: SegmentRule.authoring("8.1")))
            }
        }
        return findings
    }

    /// Gaps, overlaps and unmarked jumps between neighbours in a run, and the drift of each segment's
    /// first PTS from its playlist position.
    private func boundaryFindings(_ run: [Int], reportDrift: Bool) -> [SegmentDiagnostic] {
        var findings: [SegmentDiagnostic] = []
        // The playlist position of the run's current base segment and that segment's first PTS.
        var base: (pts: Double, position: Double)?
        var position = 0.0
        var driftReported = false
        var previous: SegmentRecord?
        for index in run {
            let segment = segments[index]
            defer {
                position += segment.extinf
                // Nothing is compared across a segment that could not be read: its failure is reported once.
                previous = segment.facts != nil ? segment : nil
            }
            guard let facts = segment.facts, let leading = facts.leadingTrack else { continue }
            var rebase = base == nil
            if let previous, let before = previous.facts {
                let boundary = boundaryFindings(from: before, to: facts, at: segment)
                findings += boundary
                if !boundary.isEmpty { rebase = true }
            }
            if rebase {
                base = (leading.firstPTS, position)
                continue
            }
            guard reportDrift, !driftReported, let base else { continue }
            let drift = leading.firstPTS - base.pts - (position - base.position)
            let magnitude = abs(drift)
            guard magnitude > SegmentTolerance.timelineDriftWarning + SegmentTolerance.epsilon else { continue }
            driftReported = true
            let isError = magnitude > SegmentTolerance.timelineDriftError
            findings.append(finding(
                isError ? .error : .warning, .segmentTimelineDrift,
                "The segment's first timestamp is \(Shown.seconds(magnitude)) \(drift > 0 ? "after" : "before") its place on the playlist's timeline.",
                at: segment, measured: Shown.seconds(drift),
                allowed: isError ? "≤ \(Shown.seconds(SegmentTolerance.timelineDriftError))" : "≤ \(Shown.seconds(SegmentTolerance.timelineDriftWarning))",
                rule: SegmentRule.hlsjsConfig))
        }
        return findings
    }

    /// What the boundary between two neighbouring segments of a run breaks, per track.
    func boundaryFindings(from before: SegmentFacts, to after: SegmentFacts, at segment: SegmentRecord) -> [SegmentDiagnostic] {
        // An unmarked jump is judged on the leading track and reported once, for the whole boundary.
        if let previous = before.leadingTrack, let next = after.leadingTrack {
            let step = next.firstDTS - previous.endDTS
            if step > SegmentTolerance.unmarkedJump || next.firstDTS < previous.firstDTS {
                return [finding(
                    .error, .segmentDiscontinuityMissing,
                    "Timestamps jump \(step > 0 ? "forward" : "backward") here without an EXT-X-DISCONTINUITY before the segment.",
                    at: segment, measured: Shown.seconds(step), allowed: "a jump of at most \(Shown.seconds(SegmentTolerance.unmarkedJump)) forward",
                    rule: SegmentRule.authoring("8.13"))]
            }
        }
        var findings: [SegmentDiagnostic] = []
        if let previous = before.video, let next = after.video {
            let frame = previous.frameDuration ?? frameDuration
            let step = next.firstDTS - previous.endDTS
            if step > SegmentTolerance.videoGapFrames * frame + SegmentTolerance.epsilon {
                findings.append(gap(.segmentTimestampGap, "video", step, allowed: "≤ \(Shown.seconds(frame)) (1 frame)", at: segment))
            } else if step < -SegmentTolerance.videoOverlap - SegmentTolerance.epsilon {
                findings.append(gap(.segmentTimestampOverlap, "video", step, allowed: "≥ -1 tick (1/90000 s)", at: segment))
            }
        }
        if let previous = before.audio, let next = after.audio, let frame = previous.frameDuration {
            let step = next.firstDTS - previous.endDTS
            let limit = SegmentTolerance.audioGapFrames * frame - SegmentTolerance.epsilon
            if step >= limit {
                findings.append(gap(.segmentTimestampGap, "audio", step, allowed: "< \(Shown.seconds(frame)) (1 audio frame)", at: segment))
            } else if step <= -limit {
                findings.append(gap(.segmentTimestampOverlap, "audio", step, allowed: "> -\(Shown.seconds(frame)) (1 audio frame)", at: segment))
            }
        }
        return findings
    }

    private func gap(_ code: DiagnosticCode, _ track: String, _ step: Double, allowed: String, at segment: SegmentRecord) -> SegmentDiagnostic {
        let what = code == .segmentTimestampGap ? "a hole of \(Shown.seconds(step))" : "an overlap of \(Shown.seconds(-step))"
        return finding(
            .error, code, "The \(track) timestamps leave \(what) between the previous segment and this one.", at: segment,
            measured: Shown.seconds(step), allowed: allowed, rule: SegmentRule.authoring("7.1–7.3"))
    }
}
