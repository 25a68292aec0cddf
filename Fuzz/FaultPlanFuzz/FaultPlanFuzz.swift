import Foundation
import FuzzReplay
import Origin

/// Any bytes as an `airlab origin --faults` plan: read with every range check, and a plan that reads
/// asked which rule matches a few requests, as the origin does for each one.
func faultPlanFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    guard let plan = try? FaultPlan(json: input.body) else { return 0 }
    for (path, client, ordinal, elapsed) in [("/ad1/seg0.ts", "rx-1", 1, 0.0), ("/primary/index.m3u8", nil, 2, 150.5), ("/", "", Int.max, 1e9)] {
        _ = plan.rule(forPath: path, client: client, ordinal: ordinal, elapsed: elapsed)
    }
    return 0
}

#if FUZZING
// Only the fuzzing build exports the C entry point: test bundles link every executable target of the
// package together, and two targets' replay builds would define it twice.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt { faultPlanFuzz(data, size) }
#else
@main enum Replay {
    static func main() { FuzzReplay.main(CommandLine.arguments.dropFirst(), faultPlanFuzz) }
}
#endif
