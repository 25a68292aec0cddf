import FuzzReplay
import Lab

/// Any bytes as a `lab run --receivers-file` file or a `--receivers` list (the first byte picks): entries, ranges and
/// their bounds, read as the lab does before it casts.
func receiverListFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let text = String(decoding: input.body, as: UTF8.self)
    if input.pick([true, false]) {
        _ = try? ReceiverEntry.parse(file: text, source: "fuzz.txt")
    } else {
        _ = try? ReceiverEntry.parse(list: text)
    }
    return 0
}

#if FUZZING
// Only the fuzzing build exports the C entry point: test bundles link every executable target of the
// package together, and two targets' replay builds would define it twice.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt { receiverListFuzz(data, size) }
#else
@main enum Replay {
    static func main() { FuzzReplay.main(CommandLine.arguments.dropFirst(), receiverListFuzz) }
}
#endif
