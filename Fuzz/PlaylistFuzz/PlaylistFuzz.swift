import FuzzReplay
import HLS
import Inspection
import Origin

/// Any bytes as a playlist: parsed, its interstitials read and scheduled, and the whole report
/// rendered as text and as JSON, as `airlab playlist inspect` does with what a server sends, and
/// served as a live window, as `airlab origin --live` does with a folder's VOD.
func playlistFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let parsed = PlaylistParser.parse(UnsafeBufferPointer(start: data, count: size))
    let report = InspectionReport(playlist: "fuzz.m3u8", parsed: parsed)
    _ = report.renderedText()
    _ = report.renderedJSON()
    if case .media(let media) = parsed.playlist {
        // A start inside the content exercises the walk that begins in the middle of a schedule.
        let (events, _) = media.interstitialEvents()
        _ = InterstitialSchedule.build(
            events: events, timeline: PrimaryTimeline(media), isLive: media.isLive, startPosition: media.duration / 2)
        // `airlab origin --live` serves whatever VOD a folder holds as a window of itself.
        let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
        _ = LivePackager.text(of: text, at: media.duration / 3, segments: 3)
    }
    return 0
}

#if FUZZING
// Only the fuzzing build exports the C entry point: test bundles link every executable target of the
// package together, and two targets' replay builds would define it twice.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt { playlistFuzz(data, size) }
#else
@main enum Replay {
    static func main() { FuzzReplay.main(CommandLine.arguments.dropFirst(), playlistFuzz) }
}
#endif
