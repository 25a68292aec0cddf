import Dispatch
import Foundation
import FuzzReplay
import Media

/// Any bytes as the segment a console tile takes its picture from: demuxed, decoded and encoded as
/// JPEG by FFmpeg as `StillPicture` does for a receiver's playhead.
func stillPictureFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let name = input.pick(names)
    let done = DispatchSemaphore(value: 0)
    let body = input.body
    Task {
        _ = try? await StillPicture.jpeg(of: body, input: name, width: 64, timeout: 5)
        done.signal()
    }
    done.wait()
    return 0
}

private let names = ["segment.ts", "segment.m4s", "unnamed"]

#if FUZZING
// Only the fuzzing build exports the C entry point: test bundles link every executable target of the
// package together, and two targets' replay builds would define it twice.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt { stillPictureFuzz(data, size) }
#else
@main enum Replay {
    static func main() { FuzzReplay.main(CommandLine.arguments.dropFirst(), stillPictureFuzz) }
}
#endif
