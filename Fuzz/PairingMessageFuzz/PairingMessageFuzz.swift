import Cryptography
import Foundation
import FuzzReplay
import Pairing

/// Any bytes as a controller's pairing requests to the receiver: the body is a list of messages, each
/// a 2-byte little-endian length and that many bytes, fed in order to the pair-setup server (even
/// selector) or the pair-verify server (odd). Every answer must be TLV8 with a state, and once the
/// exchange ends every later answer must be a HAP error.
func pairingMessageFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    guard let key = try? Ed25519PrivateKey(rawBytes: [UInt8](repeating: 7, count: 32)) else { fatalError("libcrypto is missing") }
    let identity = PairingIdentity(identifier: "AA:BB:CC:DD:EE:FF", key: key)
    var setup = PairSetupServer(identity: identity, pin: "1111")
    let controllerKey = try? Ed25519PrivateKey(rawBytes: [UInt8](repeating: 9, count: 32))
    var verify = PairVerifyServer(identity: identity) { $0 == "controller" ? controllerKey?.publicKey : nil }
    let body = [UInt8](input.body)
    var offset = 0
    var ended = false
    while offset + 2 <= body.count {
        let length = Int(body[offset]) | Int(body[offset + 1]) << 8
        let message = Array(body[(offset + 2)..<min(body.count, offset + 2 + length)])
        offset += 2 + length
        let (response, outcome) = input.selector % 2 == 0 ? setup.handle(message) : verify.handle(message)
        guard let answer = try? TLV8.decode(response), answer[.state]?.count == 1 else {
            fatalError("a pairing answer is not TLV8 with a state: \(response)")
        }
        if ended, answer[.error] == nil { fatalError("an ended exchange answered without an error") }
        switch outcome {
        case .failed, .finished: ended = true
        case .continuing: break
        }
    }
    return 0
}

#if FUZZING
// Only the fuzzing build exports the C entry point: test bundles link every executable target of the
// package together, and two targets' replay builds would define it twice.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt { pairingMessageFuzz(data, size) }
#else
@main enum Replay {
    static func main() { FuzzReplay.main(CommandLine.arguments.dropFirst(), pairingMessageFuzz) }
}
#endif
