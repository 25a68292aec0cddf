import Console
import Foundation
import FuzzReplay
import Lab
import SenderProtocol

/// Any bytes as what `airlab console` reads from a receiver on another host, by the first byte: its
/// effective schedule (`getProperty?interstitialEvents`, JSON) made into a session's break rules, or its
/// `/playback-info` made into a tile's sampled figures. Neither may trap, and what is kept must be a
/// time a tile can show: finite, and not below 0.
func consoleFeedFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    if input.pick([true, false]) {
        guard let schedule = try? WireJSON.decoder.decode([ScheduledInterstitial].self, from: input.body) else { return 0 }
        for event in schedule {
            if let skip = event.skipControl, !(skip.offset.map { $0.isFinite && $0 >= 0 } ?? true) || !(skip.duration.map { $0.isFinite && $0 >= 0 } ?? true) {
                fatalError("a skip control kept a time a tile cannot show")
            }
        }
        _ = BreakRules(schedule: schedule)
    } else {
        guard let info = try? PropertyListInput.decode(PlaybackInfo.self, from: input.body) else { return 0 }
        _ = RemoteConsole.sample(of: info)
    }
    return 0
}

#if FUZZING
// Only the fuzzing build exports the C entry point: test bundles link every executable target of the
// package together, and two targets' replay builds would define it twice.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt { consoleFeedFuzz(data, size) }
#else
@main enum Replay {
    static func main() { FuzzReplay.main(CommandLine.arguments.dropFirst(), consoleFeedFuzz) }
}
#endif
