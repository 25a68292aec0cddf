import Dispatch
import Foundation
import FuzzReplay
import Media
import MediaValues

/// Any bytes as a media segment in memory, demuxed by FFmpeg as a probe does (the name hints a
/// container, as a segment's URL does), with its parameters derived (codec strings, dynamic range).
func segmentProbeFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let name = input.pick(names)
    let done = DispatchSemaphore(value: 0)
    let body = input.body
    Task {
        let options = ProbeOptions(timeout: 5, probeSize: 1 << 20, analyzeDuration: 1)
        if let streams = try? await FFmpegDemuxer.streams(of: body, input: name, options: options, deadline: .now + .seconds(5)) {
            _ = MediaParameters(input: name, probedURLs: [name], streams: streams)
        }
        done.signal()
    }
    done.wait()
    return 0
}

private let names = ["segment.ts", "init-and-segment.mp4", "audio.aac", "segment.m4s", "unnamed"]

#if FUZZING
// Only the fuzzing build exports the C entry point: test bundles link every executable target of the
// package together, and two targets' replay builds would define it twice.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt { segmentProbeFuzz(data, size) }
#else
@main enum Replay {
    static func main() { FuzzReplay.main(CommandLine.arguments.dropFirst(), segmentProbeFuzz) }
}
#endif
