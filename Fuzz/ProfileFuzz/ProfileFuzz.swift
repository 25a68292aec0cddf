import Foundation
import FuzzReplay
import Profiles
import SenderProtocol

/// Any bytes as a profile file (`--profile FILE`, `airlab profile show FILE`, what `calibrate`
/// writes): through the schema, the provenance reader and the model, as the catalog loads one. A
/// profile that loads must be usable as a receiver is: its summary counted, its device record
/// published (TXT record and both property lists), and its comparison with itself empty.
func profileFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    guard let profile = try? catalog.decode(input.body, file: "fuzz.json") else { return 0 }
    _ = profile.summary
    let identity = ReceiverIdentity(
        name: profile.displayName, model: profile.model, deviceIDSeed: profile.deviceIDSeed ?? profile.name, profile: profile.name,
        device: profile.device)
    _ = identity.txtRecord
    _ = identity.serverInfo.propertyList()
    _ = identity.deviceInfo.propertyList()
    // A quirk's black is played on the clock: every draw must be a length the clock can play.
    for quirk in profile.quirks ?? [] {
        for seed in [0, 1, UInt64.max] {
            guard let black = quirk.blackCost("fuzz", seed: seed, detail: "") else { continue }
            if !(0...DeclaredQuirk.maximumBlackMilliseconds).contains(black.milliseconds) {
                fatalError("quirk \(quirk.kind.rawValue) drew a black of \(black.milliseconds) ms")
            }
        }
    }
    let comparison = ProfileComparison(profile, profile)
    if comparison.rows.contains(where: { $0.differs }) {
        fatalError("a profile compared with itself differs")
    }
    return 0
}

private let catalog = ProfileCatalog()

#if FUZZING
// Only the fuzzing build exports the C entry point: test bundles link every executable target of the
// package together, and two targets' replay builds would define it twice.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt { profileFuzz(data, size) }
#else
@main enum Replay {
    static func main() { FuzzReplay.main(CommandLine.arguments.dropFirst(), profileFuzz) }
}
#endif
