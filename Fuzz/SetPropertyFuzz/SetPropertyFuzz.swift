import FuzzReplay
import HLS
import SenderProtocol

/// Any bytes as a `setProperty` body: the sender's interstitial events (then applied over a playlist's
/// events, as a receiver does), the automatic-handling flag, or the presentation mode and what AirPlay 2
/// senders set after `/play` (`actionAtItemEnd`, the end times as CMTime, `selectedMediaArray`), as
/// JSON or as a property list.
func setPropertyFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    let contentType = input.pick(contentTypes)
    if input.selector & 0x80 == 0 {
        if let events = try? PropertyRequest.interstitialEvents(body: input.body, contentType: contentType) {
            _ = try? events.applied(to: playlistEvents)
        }
    } else if input.selector & 0x40 == 0 {
        _ = try? PropertyRequest.flag(body: input.body, contentType: contentType, property: .automaticallyHandlesInterstitialEvents)
    } else {
        _ = try? PropertyRequest.presentationMode(body: input.body, contentType: contentType)
        _ = try? PropertyRequest.actionAtItemEnd(body: input.body, contentType: contentType)
        _ = try? PropertyRequest.endTime(body: input.body, contentType: contentType, property: .forwardEndTime)
        _ = try? PropertyRequest.mediaSelections(body: input.body, contentType: contentType)
    }
    return 0
}

private let contentTypes: [String?] = [nil, "application/json", "application/x-apple-binary-plist", "text/x-apple-plist+xml"]

/// Events a sender's overrides can name: the fuzzer finds "ad-1" and "pre" in the dictionary.
private let playlistEvents: [InterstitialEvent] = {
    let playlist = """
        #EXTM3U
        #EXT-X-TARGETDURATION:6
        #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z
        #EXT-X-DATERANGE:ID="pre",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:00.000Z",CUE="PRE",X-ASSET-URI="https://ads.example.com/p.m3u8",DURATION=5
        #EXT-X-DATERANGE:ID="ad-1",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:06.000Z",X-ASSET-LIST="https://ads.example.com/1.json",X-RESTRICT="SKIP,JUMP"
        #EXTINF:6,
        s0.ts
        #EXTINF:6,
        s1.ts
        #EXT-X-ENDLIST

        """
    guard case .media(let media) = PlaylistParser.parse(playlist).playlist else { return [] }
    return media.interstitialEvents().events
}()

#if FUZZING
// Only the fuzzing build exports the C entry point: test bundles link every executable target of the
// package together, and two targets' replay builds would define it twice.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt { setPropertyFuzz(data, size) }
#else
@main enum Replay {
    static func main() { FuzzReplay.main(CommandLine.arguments.dropFirst(), setPropertyFuzz) }
}
#endif
