import HLS
import MediaValues

/// Checks across a role's renditions, and between interstitial assets and primary: SEG-AV-START,
/// SEG-AV-LEN, SEG-FPS-CHANGE at splices, and SEG-BITRATE of assets against the primary variant.
enum RoleChecks {
    /// Audio against video where each run of a role starts (a splice), and over the role's length.
    ///
    /// Only run starts: inside a run, TS packs audio into PES packets of several frames, so a clean
    /// segment's first audio sample can sit 60 ms before its first picture (measured on ffmpeg's own
    /// HLS output); the audio track's own continuity (SEG-TS-GAP) covers the rest.
    static func audioVideoFindings(_ renditions: [SurveyedRendition]) -> [SegmentDiagnostic] {
        var findings: [SegmentDiagnostic] = []
        for main in renditions where main.kind == .main {
            let separateAudio = renditions.first { $0.role == main.role && $0.kind == .audio }
            let checks = RenditionChecks(main)
            for (runIndex, run) in checks.runs.enumerated() {
                guard let index = run.first, let video = main.segments[index].facts?.video else { continue }
                let audioFacts = separateAudio.flatMap { audioSegment(in: $0, startingRun: runIndex) }
                    ?? main.segments[index].facts
                guard let audio = audioFacts?.audio else { continue }
                let skew = audio.firstPTS - video.firstPTS
                guard abs(skew) > SegmentTolerance.avStartWarning + SegmentTolerance.epsilon else { continue }
                let isError = abs(skew) > SegmentTolerance.avStartSplice
                findings.append(checks.finding(
                    isError ? .error : .warning, .segmentAVStart,
                    "Audio starts \(Shown.milliseconds(abs(skew))) \(skew > 0 ? "after" : "before") video where this \(index == 0 ? "stream" : "discontinuity run") starts (a splice).",
                    at: main.segments[index], measured: Shown.milliseconds(skew),
                    allowed: "within ± \(Shown.milliseconds(SegmentTolerance.avStartWarning)) (± \(Shown.milliseconds(SegmentTolerance.avStartSplice)) before it is an error)",
                    rule: SegmentRule.ctaWave + "; Unified Streaming splice rule"))
            }
            // Per asset only: primary's runs are cut at video boundaries, so any run but a whole
            // stream leaves part of an AAC packet's worth of audio on either side.
            if case .asset = main.role { findings += lengthFindings(main, separateAudio: separateAudio, checks: checks) }
        }
        return findings
    }

    private static func audioSegment(in rendition: SurveyedRendition, startingRun run: Int) -> SegmentFacts? {
        RenditionChecks(rendition).runs.dropFirst(run).first?.first.flatMap { rendition.segments[$0].facts }
    }

    private static func lengthFindings(_ main: SurveyedRendition, separateAudio: SurveyedRendition?, checks: RenditionChecks) -> [SegmentDiagnostic] {
        let videoLengths = main.segments.map { $0.facts?.video?.duration }
        let audioLengths = (separateAudio ?? main).segments.map { $0.facts?.audio?.duration }
        guard videoLengths.allSatisfy({ $0 != nil }), audioLengths.allSatisfy({ $0 != nil }), !videoLengths.isEmpty, !audioLengths.isEmpty
        else { return [] }
        let video = videoLengths.reduce(0) { $0 + $1! }
        let audio = audioLengths.reduce(0) { $0 + $1! }
        let limit = SegmentTolerance.avLengthFrames * checks.frameDuration
        guard abs(audio - video) > limit + SegmentTolerance.epsilon else { return [] }
        return [checks.finding(
            .warning, .segmentAVLength, "Audio and video differ in length by more than one frame; the shorter one leaves silence or a frozen picture at the end.",
            at: nil, measured: "audio \(Shown.seconds(audio)), video \(Shown.seconds(video))", allowed: "± \(Shown.seconds(limit)) (1 frame)",
            rule: SegmentRule.authoring("8.3"))]
    }

    /// Each asset's frame rate against primary's: AirPlay TVs switch display mode unless x, 2x or x/2.
    static func frameRateAcrossRoles(_ renditions: [SurveyedRendition]) -> [SegmentDiagnostic] {
        guard let primary = renditions.first(where: { $0.role == .primary && $0.kind == .main }),
            let primaryRate = firstFrameRate(primary)
        else { return [] }
        return renditions.compactMap { asset -> SegmentDiagnostic? in
            guard case .asset = asset.role, asset.kind == .main, let rate = firstFrameRate(asset), !FrameRates.similar(primaryRate, rate) else {
                return nil
            }
            return RenditionChecks(asset).frameRateAtSplice(
                from: primaryRate, to: rate, at: asset.segments.first, rule: SegmentRule.authoring("AirPlay 8.25, 3.5"))
        }
    }

    private static func firstFrameRate(_ rendition: SurveyedRendition) -> Double? {
        rendition.segments.lazy.compactMap { $0.facts?.video?.frameRate }.first
    }

    /// Interstitial assets against the primary variant's BANDWIDTH and AVERAGE-BANDWIDTH (HLS
    /// Authoring Spec 3.4: an ad must not need more than the content it interrupts).
    static func assetBitrateFindings(_ renditions: [SurveyedRendition]) -> [SegmentDiagnostic] {
        guard let primary = renditions.first(where: { $0.role == .primary && $0.kind == .main }),
            primary.declaredBandwidth != nil || primary.declaredAverageBandwidth != nil
        else { return [] }
        return renditions.flatMap { asset -> [SegmentDiagnostic] in
            guard case .asset = asset.role, asset.kind == .main else { return [] }
            let checks = RenditionChecks(asset)
            guard let measured = checks.measuredBitrates else { return [] }
            // Against primary's numbers only the overshoot matters: an ad may well be leaner.
            return checks.declaredBitrateFindings(
                measured, bandwidth: primary.declaredBandwidth, average: nil, against: "the primary variant's"
            ).map { var finding = $0; finding.rule = SegmentRule.authoring("3.4, 1.26"); return finding }
        }
    }
}
