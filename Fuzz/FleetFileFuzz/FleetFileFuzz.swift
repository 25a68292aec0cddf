import Foundation
import FuzzReplay
import Profiles
import Receiver

/// Any bytes as an `airlabd --fleet` file: validated against the fleet schema, and a file that reads
/// built into its receivers (names, ports, ids), as airlabd does before it listens. Profile paths are
/// resolved against a folder that does not exist, so a path in the input reads nothing of the machine
/// but what it names absolutely, which the catalog refuses unless it is a small regular file.
func fleetFileFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let folder = URL(fileURLWithPath: "/nonexistent/airlab-fuzz", isDirectory: true)
    guard let fleet = try? FleetDescription.decode(input.body, file: "fuzz.json", folder: folder, catalog: catalog) else { return 0 }
    _ = try? fleet.configurations(FleetDescription.Shared())
    return 0
}

private let catalog = ProfileCatalog()

#if FUZZING
// Only the fuzzing build exports the C entry point: test bundles link every executable target of the
// package together, and two targets' replay builds would define it twice.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt { fleetFileFuzz(data, size) }
#else
@main enum Replay {
    static func main() { FuzzReplay.main(CommandLine.arguments.dropFirst(), fleetFileFuzz) }
}
#endif
