import FuzzReplay
import SenderProtocol

/// Any bytes as a `/play` body, under every Content-Type senders use (and none, so the bytes decide):
/// text/parameters, binary and XML property lists, and JSON with its client events and script.
func playRequestFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let contentType = input.pick(contentTypes)
    _ = try? PlayRequest.decode(body: input.body, contentType: contentType, sessionHeader: input.selector & 0x80 == 0 ? nil : "fuzz")
    return 0
}

private let contentTypes: [String?] = [
    nil, "text/parameters", "application/x-apple-binary-plist", "text/x-apple-plist+xml", "application/json",
    "application/json; charset=utf-8", "application/octet-stream",
]

#if FUZZING
// Only the fuzzing build exports the C entry point: test bundles link every executable target of the
// package together, and two targets' replay builds would define it twice.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt { playRequestFuzz(data, size) }
#else
@main enum Replay {
    static func main() { FuzzReplay.main(CommandLine.arguments.dropFirst(), playRequestFuzz) }
}
#endif
