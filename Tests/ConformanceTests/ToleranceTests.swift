import Conformance
import HLS
import MediaValues
import Testing

/// Synthetic segments: 30 fps video from `start`, `duration` long, optionally 48 kHz AAC beside it.
struct Synthetic {
    static let frame = 1.0 / 30
    static let audioFrame = 1024.0 / 48_000

    static func segment(
        _ sequence: Int, start: Double, duration: Double = 2, extinf: Double = 2, fps: Double = 30, audioStart: Double? = nil,
        audioDuration: Double? = nil, discontinuity: Bool = false, bytes: Int = 250_000, fetch: SegmentFetchResult? = nil,
        parameterSets: UInt32 = 1, idrTimes: [Double]? = nil
    ) -> SegmentRecord {
        let frame = 1 / fps
        var facts = SegmentFacts(byteCount: bytes)
        facts.video = TrackFacts(
            codecName: "h264", firstPTS: start, lastPTS: start + duration - frame, firstDTS: start, lastDTS: start + duration - frame,
            duration: duration, frameDuration: frame, packetCount: Int(duration * fps))
        if let audioStart {
            let length = audioDuration ?? duration
            facts.audio = TrackFacts(
                codecName: "aac", firstPTS: audioStart, lastPTS: audioStart + length - audioFrame, firstDTS: audioStart,
                lastDTS: audioStart + length - audioFrame, duration: length, frameDuration: audioFrame, packetCount: 94)
        }
        facts.firstVideoUnit = .idr
        facts.idrTimes = idrTimes ?? [start]
        facts.parameterSetHash = parameterSets
        facts.transportStream = TransportStreamScan(packetCount: bytes / 188)
        return SegmentRecord(
            url: "http://origin/seg\(sequence).ts", mediaSequence: sequence, discontinuitySequence: discontinuity ? 1 : 0,
            followsDiscontinuity: discontinuity, extinf: extinf,
            fetch: fetch ?? SegmentFetchResult(status: 200, declaredLength: bytes, contentType: "video/mp2t", byteCount: bytes, loadSeconds: 0.1),
            facts: facts)
    }

    /// Contiguous 2 s segments from 10 s.
    static func contiguous(_ count: Int) -> [SegmentRecord] {
        (0..<count).map { segment($0, start: 10 + 2 * Double($0)) }
    }

    static func rendition(
        _ segments: [SegmentRecord], role: SegmentRole = .primary, live: Bool = false, bandwidth: Int? = nil, average: Int? = nil,
        declaredDuration: Double? = nil
    ) -> SurveyedRendition {
        SurveyedRendition(
            role: role, kind: .main, playlist: "http://origin/index.m3u8", targetDuration: 2, isLive: live, declaredBandwidth: bandwidth,
            declaredAverageBandwidth: average, declaredDuration: declaredDuration, segments: segments)
    }

    static func check(_ renditions: [SurveyedRendition], bandwidth: Double? = nil) -> [SegmentDiagnostic] {
        SegmentConformance.check(renditions, context: .init(networkBandwidth: bandwidth))
    }

    static func check(_ segments: [SegmentRecord]) -> [SegmentDiagnostic] {
        check([rendition(segments)])
    }
}

func codeList(_ diagnostics: [SegmentDiagnostic]) -> [String] {
    diagnostics.filter { $0.severity != .info }.map(\.code.rawValue)
}

@Suite("Per-segment checks: each fires just past its stated tolerance")
struct ToleranceTests {
    @Test("Contiguous segments whose EXTINF matches give no finding")
    func clean() {
        #expect(Synthetic.check(Synthetic.contiguous(5)).isEmpty)
    }

    @Test("EXTINF one frame off is allowed; a little more is a warning on the segment and an error for its run")
    func extinfOneFrame() {
        let exact = [Synthetic.segment(0, start: 10, extinf: 2 + Synthetic.frame)]
        #expect(Synthetic.check(exact).isEmpty)
        let over = [Synthetic.segment(0, start: 10, extinf: 2 + 1.2 * Synthetic.frame)]
        #expect(Synthetic.check(over).map(\.severity) == [.warning, .error])
        #expect(codeList(Synthetic.check(over)) == ["SEG-EXTINF", "SEG-EXTINF"])
    }

    @Test("Half a frame of EXTINF error per segment adds up to an error where the run's sum passes one frame")
    func extinfCumulative() {
        let segments = (0..<4).map { Synthetic.segment($0, start: 10 + 2 * Double($0), extinf: 2 + 0.5 * Synthetic.frame) }
        let found = Synthetic.check(segments)
        #expect(found.map(\.severity) == [.error])
        #expect(found.first?.mediaSequence == 2)
    }

    @Test("A video hole of one frame is allowed, more is SEG-TS-GAP; an overlap of one 90 kHz tick is allowed, two is SEG-TS-OVERLAP")
    func gapsAndOverlaps() {
        func shifted(by step: Double) -> [SegmentDiagnostic] {
            Synthetic.check([Synthetic.segment(0, start: 10), Synthetic.segment(1, start: 12 + step)])
        }
        #expect(shifted(by: Synthetic.frame).isEmpty)
        #expect(codeList(shifted(by: Synthetic.frame + 0.001)) == ["SEG-TS-GAP"])
        #expect(shifted(by: -1.0 / 90_000).isEmpty)
        #expect(codeList(shifted(by: -2.0 / 90_000)) == ["SEG-TS-OVERLAP"])
    }

    @Test("An audio hole just under one AAC frame is allowed; one frame is SEG-TS-GAP")
    func audioGap() {
        func hole(_ step: Double) -> [String] {
            codeList(Synthetic.check([
                Synthetic.segment(0, start: 10, audioStart: 10), Synthetic.segment(1, start: 12, audioStart: 12 + step),
            ]))
        }
        #expect(hole(0.9 * Synthetic.audioFrame).isEmpty)
        #expect(hole(Synthetic.audioFrame) == ["SEG-TS-GAP"])
        #expect(hole(-Synthetic.audioFrame) == ["SEG-TS-OVERLAP"])
    }

    @Test("A jump of more than 1 s is an unmarked discontinuity, reported once and not also as a gap; marked, it is fine")
    func unmarkedJump() {
        let unmarked = Synthetic.check([Synthetic.segment(0, start: 10), Synthetic.segment(1, start: 13.5)])
        #expect(codeList(unmarked) == ["SEG-DISC-MISSING"])
        let marked = Synthetic.check([Synthetic.segment(0, start: 10), Synthetic.segment(1, start: 13.5, discontinuity: true)])
        #expect(marked.isEmpty)
    }

    @Test("Holes under a frame each add up: past 0.1 s from the playlist position it is timeline drift, a warning")
    func timelineDrift() {
        let segments = (0..<6).map { Synthetic.segment($0, start: 10 + 2.03 * Double($0)) }
        let found = Synthetic.check(segments)
        #expect(codeList(found) == ["SEG-TL-DRIFT"])
        #expect(found.first?.severity == .warning)
        #expect(found.first?.mediaSequence == 4, "0.12 s after four holes of 0.03 s")
    }

    @Test("A frame-rate change inside a run is an error; at a discontinuity 30 to 60 fps is fine and 30 to 25 a warning")
    func frameRates() {
        let inside = [Synthetic.segment(0, start: 10), Synthetic.segment(1, start: 12, fps: 25)]
        #expect(Synthetic.check(inside).filter { $0.code == .segmentFrameRateChange }.map(\.severity) == [.error])
        let double = [Synthetic.segment(0, start: 10), Synthetic.segment(1, start: 50, fps: 60, discontinuity: true)]
        #expect(Synthetic.check(double).isEmpty)
        let pal = [Synthetic.segment(0, start: 10), Synthetic.segment(1, start: 50, fps: 25, discontinuity: true)]
        #expect(Synthetic.check(pal).map(\.severity) == [.warning])
    }

    @Test("Parameter sets changing inside a run are an error; at a discontinuity only news")
    func parameterSets() {
        let inside = Synthetic.check([Synthetic.segment(0, start: 10), Synthetic.segment(1, start: 12, parameterSets: 2)])
        #expect(inside.map(\.severity) == [.error] && codeList(inside) == ["SEG-PARAM-CHANGE"])
        let marked = Synthetic.check([Synthetic.segment(0, start: 10), Synthetic.segment(1, start: 40, discontinuity: true, parameterSets: 2)])
        #expect(marked.map(\.severity) == [.info])
    }

    @Test("Audio 50 ms off at a splice is fine, 80 ms a warning, 120 ms an error; inside a run it is not judged")
    func audioVideoStart() {
        func skew(_ offset: Double, at sequence: Int = 0) -> [SegmentDiagnostic] {
            // Audio in the one segment judged only, so that nothing else about audio is in play.
            var segments: [SegmentRecord] = []
            for index in 0..<2 {
                let start = 10 + 2 * Double(index)
                let audioStart: Double? = index == sequence ? start + offset : nil
                segments.append(Synthetic.segment(index, start: start, audioStart: audioStart))
            }
            return Synthetic.check(segments)
        }
        #expect(skew(0.05).isEmpty)
        #expect(skew(0.08).map(\.severity) == [.warning])
        #expect(skew(0.12).map(\.severity) == [.error])
        #expect(skew(0.08, at: 1).isEmpty)
    }

    @Test("An asset whose audio outlasts its video by more than a frame is SEG-AV-LEN; its declared length is SEG-ASSET-LEN")
    func assetLengths() {
        let role = SegmentRole.asset(interstitial: "ad", index: 0)
        let asset = [Synthetic.segment(0, start: 10, audioStart: 10, audioDuration: 2 + 2 * Synthetic.frame)]
        #expect(codeList(Synthetic.check([Synthetic.rendition(asset, role: role, declaredDuration: 2)])) == ["SEG-AV-LEN"])
        let short = [Synthetic.segment(0, start: 10)]
        #expect(codeList(Synthetic.check([Synthetic.rendition(short, role: role, declaredDuration: 2 + Synthetic.frame)])).isEmpty)
        #expect(codeList(Synthetic.check([Synthetic.rendition(short, role: role, declaredDuration: 2.05)])) == ["SEG-ASSET-LEN"])
    }

    @Test("HTTP failures, a short body and a wrong content type are each reported; a slow load over HTTP is a warning (a local file's is not judged), a timeout an error")
    func fetches() {
        func fetched(_ fetch: SegmentFetchResult) -> [SegmentDiagnostic] {
            var record = Synthetic.segment(0, start: 10, fetch: fetch)
            if fetch.failure != nil { record.facts = nil }
            return Synthetic.check([record])
        }
        let missing = fetched(SegmentFetchResult(status: 404, byteCount: 0, loadSeconds: 0.01, failure: "the server answered HTTP 404"))
        #expect(codeList(missing) == ["SEG-HTTP"] && missing.first?.measured == "HTTP 404")
        #expect(codeList(fetched(SegmentFetchResult(status: 200, declaredLength: 300_000, byteCount: 250_000, loadSeconds: 0.1))) == ["SEG-HTTP"])
        #expect(codeList(fetched(SegmentFetchResult(status: 200, contentType: "text/plain", byteCount: 250_000, loadSeconds: 0.1))) == ["SEG-MIME"])
        #expect(fetched(SegmentFetchResult(status: 200, contentType: "video/MP2T; charset=x", byteCount: 250_000, loadSeconds: 0.1)).isEmpty)
        let slow = fetched(SegmentFetchResult(status: 200, byteCount: 250_000, loadSeconds: 3))
        #expect(codeList(slow) == ["SEG-SLOW"] && slow.first?.severity == .warning)
        // A local file read as slowly is no origin's doing: nothing fires.
        #expect(fetched(SegmentFetchResult(byteCount: 250_000, loadSeconds: 3)).isEmpty)
        let timedOut = fetched(SegmentFetchResult(byteCount: 0, loadSeconds: 10, failure: "timed out after 10 s", timedOut: true))
        #expect(codeList(timedOut) == ["SEG-SLOW"] && timedOut.first?.severity == .error)
    }

    @Test("VOD peak 9 % over BANDWIDTH passes and 11 % fails; live allows 25 %; an average 15 % under AVERAGE-BANDWIDTH fails VOD")
    func bitrates() {
        let segments = Synthetic.contiguous(3)  // 250,000 bytes per 2 s: 1 Mbit/s
        func found(_ bandwidth: Int?, average: Int? = nil, live: Bool = false) -> [String] {
            codeList(Synthetic.check([Synthetic.rendition(segments, live: live, bandwidth: bandwidth, average: average)]))
        }
        #expect(found(917_500).isEmpty)
        #expect(found(900_000) == ["SEG-BITRATE"])
        #expect(found(820_000, live: true).isEmpty)
        #expect(found(780_000, live: true) == ["SEG-BITRATE"])
        #expect(found(nil, average: 1_000_000).isEmpty)
        #expect(found(nil, average: 1_180_000) == ["SEG-BITRATE"])
        #expect(found(nil, average: 1_180_000, live: true).isEmpty, "live averages may come in under")
    }

    @Test("An asset needing more than primary's BANDWIDTH fails on the asset")
    func assetAgainstPrimary() {
        let primary = Synthetic.rendition(Synthetic.contiguous(2), bandwidth: 1_000_000)
        let heavy = Synthetic.rendition([Synthetic.segment(0, start: 0, bytes: 500_000)], role: .asset(interstitial: "ad", index: 0))
        let found = Synthetic.check([primary, heavy])
        #expect(codeList(found) == ["SEG-BITRATE"] && found.first?.role == .asset(interstitial: "ad", index: 0))
    }

    @Test("Segments up to 95 % of the network's bandwidth fit; above, SEG-NET-FIT")
    func networkFit() {
        let segments = [Synthetic.rendition(Synthetic.contiguous(2))]
        // 1 Mbit/s segments: 95 % of 1.053 Mbit/s carries them, 95 % of 1.052 Mbit/s does not.
        #expect(Synthetic.check(segments, bandwidth: 1_053_000).isEmpty)
        #expect(codeList(Synthetic.check(segments, bandwidth: 1_052_000)) == ["SEG-NET-FIT"])
    }

    @Test("At a splice, media within half a frame of its playlist position loses nothing; 0.9 frames off is SEG-SPLICE")
    func splice() {
        // Holes of 0.015 s (under a frame, so no gap) add up: segment 1 is 0.45 frames late, segment 2 0.9.
        let segments = (0..<4).map { Synthetic.segment($0, start: 10 + 2.015 * Double($0)) }
        func found(_ position: Double) -> [SegmentDiagnostic] {
            var rendition = Synthetic.rendition(segments)
            rendition.splicePoints = [SplicePoint(interstitial: "ad", position: position, isReturn: false)]
            return Synthetic.check([rendition])
        }
        #expect(found(3).isEmpty, "0.45 frames rounds to none")
        #expect(codeList(found(5)) == ["SEG-SPLICE"])
        #expect(found(5).first?.mediaSequence == 2)
        #expect(found(1).isEmpty, "segment 0 is the run's base")
        #expect(found(8).isEmpty, "the end of primary is no splice into its media")
    }

    @Test("An average IDR interval of 2 s plus a frame passes; 2.05 s is a warning")
    func idrInterval() {
        func interval(_ seconds: Double) -> [String] {
            codeList(Synthetic.check((0..<4).map {
                Synthetic.segment($0, start: 10 + 2 * Double($0), idrTimes: [10 + seconds * Double($0)])
            }))
        }
        #expect(interval(2 + Synthetic.frame).isEmpty)
        #expect(interval(2.05) == ["SEG-IDR-INTERVAL"])
    }
}
