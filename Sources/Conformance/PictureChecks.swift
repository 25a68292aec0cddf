import HLS
import MediaValues

/// SEG-IDR, SEG-IDR-INTERVAL, SEG-FPS-CHANGE (within a rendition), SEG-PARAM-CHANGE and SEG-TS-CC:
/// what a decoder meets at each segment's start and along the rendition.
extension RenditionChecks {
    func pictureFindings() -> [SegmentDiagnostic] {
        var findings: [SegmentDiagnostic] = []
        for segment in segments {
            findings += idrFindings(segment)
            findings += continuityFindings(segment)
        }
        findings += idrIntervalFindings()
        findings += changeFindings()
        return findings
    }

    private func idrFindings(_ segment: SegmentRecord) -> [SegmentDiagnostic] {
        guard let kind = segment.facts?.firstVideoUnit, kind != .idr else { return [] }
        let isError = kind == .nonIDR
        return [finding(
            isError ? .error : .warning, .segmentIDR,
            isError
                ? "The segment's first video frame is not an IDR frame, so it cannot be decoded on its own (a player joining or switching here shows garbage or waits)."
                : "The segment starts with a \(kind == .cleanRandomAccess ? "CRA" : "BLA") picture, not an IDR: its leading pictures may be dropped.",
            at: segment, measured: kind.rawValue, allowed: "idr (H.264 NAL type 5; HEVC 19 or 20)", rule: SegmentRule.authoring("7.4"))]
    }

    private func continuityFindings(_ segment: SegmentRecord) -> [SegmentDiagnostic] {
        guard let scan = segment.facts?.transportStream, let first = scan.breaks.first else { return [] }
        let pids = Diagnostic.naming(Array(Set(scan.breaks.map { "0x" + String($0.pid, radix: 16) })).sorted())
        return [finding(
            .error, .segmentContinuity,
            "MPEG-TS continuity counters skip \(scan.breakCount) time(s) (PID \(pids)); the first at packet \(first.packetIndex): packets were lost or spliced without discontinuity_indicator.",
            at: segment, measured: "counter \(first.found) after \((first.expected + 15) % 16)", allowed: "counter \(first.expected)",
            rule: SegmentRule.isoTS + "; " + SegmentRule.authoring("7.2"))]
    }

    /// The average IDR interval over the rendition (within runs), as mediastreamvalidator prints it.
    private func idrIntervalFindings() -> [SegmentDiagnostic] {
        var intervals: [Double] = []
        for run in runs {
            // Intervals are measured across neighbours only: a segment that could not be read, or a
            // boundary already reported as a gap, an overlap or a jump, breaks the chain.
            var previous: Double?
            var before: SegmentFacts?
            for index in run {
                guard let facts = segments[index].facts else {
                    previous = nil
                    before = nil
                    continue
                }
                if let before, !boundaryFindings(from: before, to: facts, at: segments[index]).isEmpty { previous = nil }
                before = facts
                let times = facts.idrTimes
                for time in times {
                    if let previous, time > previous { intervals.append(time - previous) }
                    previous = time
                }
            }
        }
        guard !intervals.isEmpty else { return [] }
        let average = intervals.reduce(0, +) / Double(intervals.count)
        let limit = SegmentTolerance.idrInterval + SegmentTolerance.idrIntervalFrames * frameDuration
        guard average > limit + SegmentTolerance.epsilon else { return [] }
        let variance = intervals.reduce(0) { $0 + ($1 - average) * ($1 - average) } / Double(intervals.count)
        return [finding(
            .warning, .segmentIDRInterval, "IDR frames come further apart than the 2 s a player needs to start or switch promptly.",
            at: nil, measured: "average \(Shown.seconds(average)), standard deviation \(Shown.seconds(variance.squareRoot()))",
            allowed: "average ≤ \(Shown.seconds(limit)) (2 s + 1 frame)", rule: SegmentRule.authoring("1.13"))]
    }

    /// Frame rate and parameter sets along the rendition: a change inside a run is an error; at a
    /// discontinuity a frame rate outside x, 2x, x/2 is a warning (AirPlay TVs), a parameter change news.
    private func changeFindings() -> [SegmentDiagnostic] {
        var findings: [SegmentDiagnostic] = []
        var rate: Double?
        var parameters: (video: UInt32?, audio: UInt32?)?
        for (runIndex, run) in runs.enumerated() {
            var reportedRate = false
            var reportedParameters = false
            for (position, index) in run.enumerated() {
                let segment = segments[index]
                guard let facts = segment.facts else { continue }
                let startsRun = position == 0 && runIndex > 0
                if let current = facts.video?.frameRate {
                    if let rate, !FrameRates.same(rate, current) {
                        if !startsRun && !reportedRate {
                            reportedRate = true
                            findings.append(finding(
                                .error, .segmentFrameRateChange, "The frame rate changes without an EXT-X-DISCONTINUITY before the segment.",
                                at: segment, measured: "\(Shown.rate(rate)) to \(Shown.rate(current))", allowed: "no change inside a run",
                                rule: SegmentRule.authoring("8.14")))
                        } else if startsRun, !FrameRates.similar(rate, current) {
                            findings.append(frameRateAtSplice(from: rate, to: current, at: segment, rule: SegmentRule.authoring("8.14, AirPlay 8.25")))
                        }
                    }
                    rate = current
                }
                // Unknown is not a change: a TS segment without an IDR frame carries no parameter sets.
                let current = (
                    video: facts.parameterSetHash ?? parameters?.video, audio: facts.audioConfigurationHash ?? facts.adtsHeader.map(Self.adtsKey) ?? parameters?.audio
                )
                if let previous = parameters, previous.video != current.video || previous.audio != current.audio {
                    let which = [previous.video != current.video ? "video parameter sets (SPS/PPS/VPS)" : nil,
                                 previous.audio != current.audio ? "audio configuration" : nil].compactMap { $0 }.joined(separator: " and ")
                    if !startsRun && !reportedParameters {
                        reportedParameters = true
                        findings.append(finding(
                            .error, .segmentParameterChange,
                            "The \(which) change inside a discontinuity run: a decoder that is not re-initialised shows errors here.",
                            at: segment, measured: "changed", allowed: "the same as the run's first segment", rule: SegmentRule.authoring("8.16, 2.11")))
                    } else if startsRun {
                        findings.append(finding(
                            .info, .segmentParameterChange, "The \(which) change at this discontinuity; receivers re-initialise their decoder here.",
                            at: segment, measured: "changed", allowed: "a change at a discontinuity", rule: SegmentRule.authoring("8.16")))
                    }
                }
                parameters = current
            }
        }
        return findings
    }

    func frameRateAtSplice(from before: Double, to after: Double, at segment: SegmentRecord?, rule: String) -> SegmentDiagnostic {
        finding(
            .warning, .segmentFrameRateChange,
            "The frame rate changes from \(Shown.rate(before)) to \(Shown.rate(after)) at a splice; AirPlay TVs switch display mode (seconds of black) unless the rates are x, 2x or x/2.",
            at: segment, measured: "\(Shown.rate(before)) to \(Shown.rate(after))", allowed: "the same rate, twice or half of it", rule: rule)
    }

    private static func adtsKey(_ header: ADTSHeader) -> UInt32 {
        UInt32(header.profile) << 16 | UInt32(header.samplingFrequencyIndex) << 8 | UInt32(header.channelConfiguration)
    }
}

/// Frame rates compared as players compare them.
enum FrameRates {
    static func same(_ a: Double, _ b: Double) -> Bool {
        abs(a - b) <= SegmentTolerance.frameRateSlack * max(a, b)
    }

    /// The same rate, double or half: a display can show one at the other's refresh rate.
    static func similar(_ a: Double, _ b: Double) -> Bool {
        same(a, b) || same(a, 2 * b) || same(2 * a, b)
    }
}
