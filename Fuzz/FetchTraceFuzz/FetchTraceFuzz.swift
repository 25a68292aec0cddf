import Foundation
import FuzzReplay
import HLS
import Playback
import Profiles
import Sessions

/// Any bytes as a fetch trace (`airlab simulate --fetch-trace`): read with every range check, and a
/// trace that reads played back through a buffered session of 30 s with one ad, which must end
/// (bounded by its horizon) whatever the trace's timings, statuses and tries say.
func fetchTraceFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    guard let trace = try? FetchTrace(parsing: input.body) else { return 0 }
    var plan = PlaybackPlan(primaryDuration: 30, segmentBoundaries: [0, 6, 12, 18, 24, 30], breaks: [
        PlannedBreak(eventID: "ad", position: 12, resumeOffset: 4, assets: [PlannedAsset(
            uri: "https://ads.example/ad.m3u8", duration: 4,
            segments: SegmentList((0..<2).map { PlannedSegment(uri: "https://ads.example/ad/\($0).ts", duration: 2, bytes: 100_000) }))]),
    ])
    let primary = SegmentList((0..<5).map { PlannedSegment(uri: "https://cdn.example/\($0).ts", duration: 6, bytes: 500_000) })
    let buffer = [BufferModel.assumedAVPlayer, ReceiverProfileFamilies.quick][Int(input.selector) % 2]
    plan.fetching = FetchPlan(primary: primary, buffer: buffer)
    let network = SegmentNetworkModel(roundTripSeconds: 0.02, bitsPerSecond: Double(1 + Int(input.selector)) * 1e5)
    let report = Simulation.report(
        plan: plan, until: 3_600, recorder: SessionRecorder(profile: "fuzz", playlist: "fuzz.m3u8", seed: 1, startPosition: 0),
        delivery: .replayed(trace, otherwise: network))
    precondition(report.endReason != nil, "a replayed session did not end")
    return 0
}

/// A buffer with no retries and tiny thresholds, the other extreme from AVPlayer's assumed one.
enum ReceiverProfileFamilies {
    static let quick = BufferModel(
        family: "fuzz", forwardTarget: .init(1, source: "fuzz"), startupBuffer: .init(0, source: "fuzz"), rebufferResume: .init(0, source: "fuzz"),
        preloadLead: .init(0, source: "fuzz"),
        retry: RetryPolicy(retries: 0, firstDelaySeconds: 0, growth: 1, maximumDelaySeconds: 0, timeoutSeconds: 1, retriesClientErrors: false, source: "fuzz"))
}

#if FUZZING
// Only the fuzzing build exports the C entry point: test bundles link every executable target of the
// package together, and two targets' replay builds would define it twice.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt { fetchTraceFuzz(data, size) }
#else
@main enum Replay {
    static func main() { FuzzReplay.main(CommandLine.arguments.dropFirst(), fetchTraceFuzz) }
}
#endif
