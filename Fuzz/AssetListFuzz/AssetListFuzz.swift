import Foundation
import FuzzReplay
import HLS
import Inspection
import Loading

/// Any bytes as the asset list of both interstitials of a fixed playlist: decoded, its durations put
/// into the schedule as `--resolve` would, and the report rendered.
func assetListFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let (list, diagnostics) = AssetList.parse(Data(bytes: data, count: size), source: "fuzz.json")
    var resolution = AssetResolution()
    resolution.diagnostics = diagnostics
    for id in ["declared", "open"] {
        resolution.durations[id] = list.map { KnownDuration(assetDurations: $0.assets.map(\.duration), source: .assetList) }
            ?? .failed("not an asset list", source: .assetList)
    }
    let report = InspectionReport(playlist: "fuzz.m3u8", parsed: PlaylistParser.parse(primary), resolution: resolution)
    _ = report.renderedText()
    _ = report.renderedJSON()
    return 0
}

/// One event that declares its duration (so the assets' sum is compared with it) and one that does not.
private let primary = """
    #EXTM3U
    #EXT-X-TARGETDURATION:6
    #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z
    #EXT-X-DATERANGE:ID="declared",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:06.000Z",DURATION=15,X-ASSET-LIST="a.json",X-RESUME-OFFSET=0
    #EXT-X-DATERANGE:ID="open",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:12.000Z",X-ASSET-LIST="b.json",X-SNAP="OUT,IN"
    #EXTINF:6,
    s0.ts
    #EXTINF:6,
    s1.ts
    #EXTINF:6,
    s2.ts
    #EXT-X-ENDLIST

    """

#if FUZZING
// Only the fuzzing build exports the C entry point: test bundles link every executable target of the
// package together, and two targets' replay builds would define it twice.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt { assetListFuzz(data, size) }
#else
@main enum Replay {
    static func main() { FuzzReplay.main(CommandLine.arguments.dropFirst(), assetListFuzz) }
}
#endif
