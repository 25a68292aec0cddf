import Foundation
import FuzzReplay
import Pairing

/// Any bytes as the encrypted frames of a HAP channel, fed to the opener in pieces of the selector's
/// size (the network splits a stream anywhere). A failed opener must stay failed. And the body itself,
/// sealed and read back in the same pieces, must come out whole: the frames of any plaintext open.
func hapFrameFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let key = [UInt8](repeating: 0x42, count: 32)
    let body = [UInt8](input.body)
    let piece = max(1, Int(input.selector))

    var opener = HAPFrameOpener(key: key)
    var failed = false
    for start in stride(from: 0, to: body.count, by: piece) {
        do {
            _ = try opener.open(Array(body[start..<min(body.count, start + piece)]))
            if failed { fatalError("a failed HAP opener opened more frames") }
        } catch {
            failed = true
        }
    }

    var sealer = HAPFrameSealer(key: key)
    var reader = HAPFrameOpener(key: key)
    guard let sealed = try? sealer.seal(body) else { fatalError("sealing failed") }
    var opened: [UInt8] = []
    for start in stride(from: 0, to: sealed.count, by: piece) {
        guard let frames = try? reader.open(Array(sealed[start..<min(sealed.count, start + piece)])) else {
            fatalError("frames this side sealed do not open")
        }
        opened += frames.flatMap { $0 }
    }
    if opened != body || reader.pendingByteCount != 0 { fatalError("sealed frames do not read back as the plaintext") }
    return 0
}

#if FUZZING
// Only the fuzzing build exports the C entry point: test bundles link every executable target of the
// package together, and two targets' replay builds would define it twice.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt { hapFrameFuzz(data, size) }
#else
@main enum Replay {
    static func main() { FuzzReplay.main(CommandLine.arguments.dropFirst(), hapFrameFuzz) }
}
#endif
