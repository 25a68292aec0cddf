import Conformance
import Foundation
import FuzzReplay
import Media
import MediaValues

/// Any bytes as one media segment: demuxed packet by packet as `airlab validate` does (NAL units,
/// ADTS headers, the TS continuity scan), then run through every per-segment check.
func segmentAnalysisFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let name = input.pick(names)
    let extinf = [2.0, 6.0, 0.001, 1e9][Int(input.selector / 5) % 4]
    let body = input.body
    let facts = try? SegmentAnalysis.facts(of: body, input: name, timeout: 5)
    let record = SegmentRecord(
        url: name, mediaSequence: 0, discontinuitySequence: 0, followsDiscontinuity: false, extinf: extinf,
        fetch: SegmentFetchResult(status: 200, declaredLength: body.count, contentType: "video/mp2t", byteCount: body.count, loadSeconds: 0.01),
        facts: facts)
    let renditions = [
        SurveyedRendition(
            role: .primary, kind: .main, playlist: name, targetDuration: 6, isLive: false, declaredBandwidth: 1_000_000,
            declaredAverageBandwidth: 800_000, segments: [record, record]),
        SurveyedRendition(
            role: .asset(interstitial: "ad", index: 0), kind: .main, playlist: name, targetDuration: 6, isLive: false,
            declaredDuration: 4, segments: [record]),
    ]
    _ = SegmentConformance.check(renditions, context: .init(networkBandwidth: 2_000_000))
    return 0
}

private let names = ["segment.ts", "init-and-segment.mp4", "audio.aac", "segment.m4s", "unnamed"]

#if FUZZING
// Only the fuzzing build exports the C entry point: test bundles link every executable target of the
// package together, and two targets' replay builds would define it twice.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt { segmentAnalysisFuzz(data, size) }
#else
@main enum Replay {
    static func main() { FuzzReplay.main(CommandLine.arguments.dropFirst(), segmentAnalysisFuzz) }
}
#endif
