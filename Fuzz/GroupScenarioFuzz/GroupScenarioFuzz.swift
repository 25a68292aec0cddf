import Coordination
import FuzzReplay
import HLS

/// Any bytes as a GROUP.json (`GroupScenario`, with every participant's stitched selector, policy,
/// script and faults inside it), or, when the selector byte's low bit is set, as the stitched
/// selector's command-line text (`StitchedSelector(argument:)`, as `--stitched` and GROUP.json's
/// string form read it); a glob (`uri:`, `daterange:ID=`) that parses is matched against the text itself, since a glob
/// is where a backtracking matcher could take exponential time.
func groupScenarioFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    if input.selector & 1 == 0 {
        _ = try? GroupScenario(parsing: input.body)
    } else {
        let text = String(decoding: input.body, as: UTF8.self)
        switch try? StitchedSelector(argument: text) {
        case .uri(let glob), .dateRange(.id(let glob)): _ = glob.matches(text)
        default: break
        }
    }
    return 0
}

#if FUZZING
// Only the fuzzing build exports the C entry point: test bundles link every executable target of the
// package together, and two targets' replay builds would define it twice.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt { groupScenarioFuzz(data, size) }
#else
@main enum Replay {
    static func main() { FuzzReplay.main(CommandLine.arguments.dropFirst(), groupScenarioFuzz) }
}
#endif
